from celery import shared_task

from .privacy_services import events_personal_data_purge


@shared_task
def purge_personal_data() -> int:
    """Run daily by beat: the personal data of every event past its retention period is
    purged (players/privacy_services.py); an event purged already is never touched again."""
    return events_personal_data_purge()
