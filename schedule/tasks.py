from celery import shared_task

from schedule.services import days


@shared_task(acks_late=True)
def run_due_days(event_id: int) -> int:
    """Queued for the instant of a scheduled dawn or day end (and at a resume); returns
    how many characters changed."""
    return days.days_run_due(event_id=event_id)


@shared_task
def sweep_due_days() -> int:
    """Run by beat every minute: runs the days a lost task missed and queues the near ones."""
    return days.days_sweep()
