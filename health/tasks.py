from celery import shared_task

from . import services


@shared_task(acks_late=True)
def advance_character(character_id: int) -> int:
    """Queued for the instant of a character's next deadline; returns how many characters
    changed (its own and any others due with it)."""
    return services.character_advance(character_id=character_id)


@shared_task
def sweep_due_characters() -> int:
    """Run by beat every few seconds: the safety net for lost or early tasks."""
    return services.characters_sweep()


@shared_task
def queue_upcoming_deadlines() -> int:
    """Run by beat: timer tasks for the deadlines that came within reach."""
    from .scheduling import deadlines_queue_upcoming
    return deadlines_queue_upcoming()
