from celery import shared_task

from .services.beatings import acharnement_complete
from .services.heals import heal_complete
from .services.schedule import fights_sweep
from .services.unions import union_resolve


@shared_task(acks_late=True)
def resolve_union(union_id: int) -> bool:
    """Queued for the end of a union's window."""
    return union_resolve(union_id=union_id)


@shared_task(acks_late=True)
def complete_acharnement(acharnement_id: int) -> bool:
    """Queued for the end of an acharnement's five minutes."""
    return acharnement_complete(acharnement_id=acharnement_id)


@shared_task
def sweep_due_fights() -> int:
    """Run by beat: ends the fights whose task was lost."""
    return fights_sweep()


@shared_task(acks_late=True)
def complete_heal(heal_id: int) -> bool:
    """Queued for the end of an airsoft medic's heal (the patient's count to 20)."""
    return heal_complete(heal_id=heal_id)
