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
