from celery import shared_task

from .services.schedule import fight_end, fights_sweep


@shared_task(acks_late=True)
def end_fight(kind: str, pk: int) -> bool:
    """Queued for the instant a timed fight ends (a union's window, an acharnement's five
    minutes, an airsoft medic's count)."""
    return fight_end(kind, pk)


@shared_task
def sweep_due_fights() -> int:
    """Run by beat: ends the fights whose task was lost."""
    return fights_sweep()
