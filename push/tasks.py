from celery import shared_task

from . import services


@shared_task
def notify_state(character_id: int, version: int, status: str) -> int:
    """Queued when a change that entered a new state commits."""
    return services.state_notify(character_id=character_id, version=version, status=status)


@shared_task
def warn_deadline(character_id: int, timer: str, due_game_s: float) -> int:
    """Queued for one minute before a deadline that changes the state; a stale or
    redelivered task sends nothing (see services.deadline_warn)."""
    return services.deadline_warn(character_id=character_id, timer=timer, due_game_s=due_game_s)
