from celery import shared_task

from .services.alerts import alerts_sweep, entry_alert


@shared_task(acks_late=True)
def alert_overdue(entry_id: int) -> bool:
    """Queued for the instant an entry still out becomes overdue past the threshold."""
    return entry_alert(entry_id=entry_id)


@shared_task
def sweep_overdue_alerts() -> int:
    """Run by beat: rings the alerts a lost task missed and queues the near ones."""
    return alerts_sweep()
