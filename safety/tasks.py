from celery import shared_task

from . import alerts


@shared_task
def help_push(call_id: int) -> int:
    """Queued when a call for help commits: every organiser's browsers are told."""
    return alerts.help_push(call_id=call_id)
