"""Timed fights (a union's three seconds, an acharnement's five minutes, an airsoft
medic's count from 11 to 20) end at an instant of the game clock stored in the database.
A task is queued for that instant once the transaction commits (through the deadline
scheduler, common/deadlines.py: these waits are short, so every one is queued, not only
those within the horizon); the sweeper applies whatever a lost task missed; a paused game
queues them again when it resumes.

A kind of fight with a timed end registers it here (`timed_end`), from its own service
module: which rows are still to end, the field holding their instant, and the service
that ends one. Nothing else in combat names the kinds."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.db.models import QuerySet
from django.utils import timezone

from common.deadlines import due_each, tasks_queue_on_commit
from players.models import Event


@dataclass(frozen=True)
class TimedEnd:
    pending: Callable[[Event], QuerySet]   # the event's rows still to end
    due_field: str                          # their instant, in game seconds
    end: Callable[[int], bool]              # ends one (idempotent: False if nothing to do)


TIMED_ENDS: dict[str, TimedEnd] = {}


def timed_end(kind: str, *, pending: Callable[[Event], QuerySet], due_field: str,
              end: Callable[[int], bool]) -> None:
    TIMED_ENDS[kind] = TimedEnd(pending=pending, due_field=due_field, end=end)


def fight_end(kind: str, pk: int) -> bool:
    """The task's work at a fight's instant (a second delivery finds it ended)."""
    return TIMED_ENDS[kind].end(pk)


def fight_due_on_commit(kind: str, pk: int, event: Event, due_game_s: float) -> None:
    _ends_on_commit(kind, event, [(pk, due_game_s)], what=f"{kind} {pk}")


def _ends_on_commit(kind: str, event: Event, ends, *, what: str) -> None:
    """Tasks at the fights' ends, each (pk, game second); none while paused."""
    from ..tasks import end_fight
    if event.running:
        tasks_queue_on_commit(task=end_fight, near_only=False, what=what,
                              jobs=[((kind, pk), event.wall_time(due)) for pk, due in ends])


def fights_schedule_on_commit(*, event: Event) -> None:
    """After a resume: the pending ends get their tasks again."""
    if not event.running:
        return
    for kind, timed in TIMED_ENDS.items():
        _ends_on_commit(kind, event, timed.pending(event).values_list("pk", timed.due_field),
                        what=f"the {kind}s of event {event.pk}")


def fights_sweep() -> int:
    """End every fight whose instant has passed, in every running game."""
    ended = 0
    for event in Event.objects.filter(clock_running_since__isnull=False):
        game_s = event.game_time(timezone.now())
        for timed in TIMED_ENDS.values():
            ended += due_each(timed.pending(event), field=timed.due_field, due_by=game_s,
                              apply=timed.end)
    return ended
