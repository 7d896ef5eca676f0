"""Timed fights (a union's three seconds, an acharnement's five minutes, an airsoft
medic's count from 11 to 20) end at an instant of the game clock stored in the database.
A task is queued for that instant once the transaction commits (through the deadline
scheduler, common/deadlines.py: these waits are short, so every one is queued, not only
those within the horizon); the sweeper applies whatever a lost task missed; a paused game
queues them again when it resumes."""
from __future__ import annotations

from django.utils import timezone

from common.deadlines import due_each, tasks_queue_on_commit
from players.models import Event

TASKS = {"union": "resolve_union", "acharnement": "complete_acharnement", "heal": "complete_heal"}


def fight_due_on_commit(kind: str, pk: int, event: Event, due_game_s: float) -> None:
    _ends_on_commit(kind, event, [(pk, due_game_s)], what=f"{kind} {pk}")


def _ends_on_commit(kind: str, event: Event, ends, *, what: str) -> None:
    """Tasks at the fights' ends, each (pk, game second); none while paused."""
    from .. import tasks
    if event.running:
        tasks_queue_on_commit(task=getattr(tasks, TASKS[kind]), near_only=False, what=what,
                              jobs=[((pk,), event.wall_time(due)) for pk, due in ends])


def _pending(event: Event) -> dict:
    """Each kind of fight: its rows still to end, and the field holding their instant."""
    from ..models import Acharnement, Heal, Union
    return {"union": (Union.objects.filter(event=event, status=Union.PENDING), "resolve_game_s"),
            "acharnement": (Acharnement.objects.filter(event=event, status=Acharnement.RUNNING),
                            "ends_game_s"),
            "heal": (Heal.objects.filter(event=event, status=Heal.RUNNING, kind=Heal.HEAL),
                     "ends_game_s")}


def fights_schedule_on_commit(*, event: Event) -> None:
    """After a resume: the pending ends get their tasks again."""
    if not event.running:
        return
    for kind, (rows, field) in _pending(event).items():
        _ends_on_commit(kind, event, rows.values_list("pk", field),
                        what=f"the {kind}s of event {event.pk}")


def fights_sweep() -> int:
    """End every fight whose instant has passed, in every running game."""
    from .beatings import acharnement_complete
    from .heals import heal_complete
    from .unions import union_resolve
    ends = {"union": lambda pk: union_resolve(union_id=pk),
            "acharnement": lambda pk: acharnement_complete(acharnement_id=pk),
            "heal": lambda pk: heal_complete(heal_id=pk)}
    ended = 0
    for event in Event.objects.filter(clock_running_since__isnull=False):
        game_s = event.game_time(timezone.now())
        for kind, (rows, field) in _pending(event).items():
            ended += due_each(rows, field=field, due_by=game_s, apply=ends[kind])
    return ended
