"""Timed fights (a union's three seconds, an acharnement's five minutes, an airsoft
medic's count from 11 to 20) end at an instant of the game clock stored in the database.
A task is queued for that instant once the transaction commits; the sweeper applies
whatever a lost task missed; a paused game queues them again when it resumes."""
from __future__ import annotations

import logging

from celery import current_app
from django.db import transaction
from django.utils import timezone

from players.models import Event

log = logging.getLogger(__name__)

TASKS = {"union": "combat.tasks.resolve_union", "acharnement": "combat.tasks.complete_acharnement",
         "heal": "combat.tasks.complete_heal"}


def fight_due_on_commit(kind: str, pk: int, event: Event, due_game_s: float) -> None:
    if not event.running:
        return
    eta = event.wall_time(due_game_s)

    def send():
        try:
            current_app.send_task(TASKS[kind], args=(pk,), eta=eta)
        except Exception:  # the broker is down: the sweeper ends the fight anyway
            log.exception("could not queue the end of %s %s", kind, pk)

    transaction.on_commit(send)


def fights_schedule_on_commit(*, event: Event) -> None:
    """After a resume: the pending ends get their tasks again."""
    from ..models import Acharnement, Heal, Union
    for union in Union.objects.filter(event=event, status=Union.PENDING):
        fight_due_on_commit("union", union.pk, event, union.resolve_game_s)
    for beating in Acharnement.objects.filter(event=event, status=Acharnement.RUNNING):
        fight_due_on_commit("acharnement", beating.pk, event, beating.ends_game_s)
    for heal in Heal.objects.filter(event=event, status=Heal.RUNNING, kind=Heal.HEAL):
        fight_due_on_commit("heal", heal.pk, event, heal.ends_game_s)


def fights_sweep() -> int:
    """End every fight whose instant has passed, in every running game."""
    from ..models import Acharnement, Heal, Union
    from .beatings import acharnement_complete
    from .heals import heal_complete
    from .unions import union_resolve
    ended = 0
    for event in Event.objects.filter(clock_running_since__isnull=False):
        game_s = event.game_time(timezone.now())
        for pk in Union.objects.filter(event=event, status=Union.PENDING,
                                       resolve_game_s__lte=game_s).values_list("pk", flat=True):
            ended += union_resolve(union_id=pk)
        for pk in Acharnement.objects.filter(event=event, status=Acharnement.RUNNING,
                                             ends_game_s__lte=game_s).values_list("pk", flat=True):
            ended += acharnement_complete(acharnement_id=pk)
        for pk in Heal.objects.filter(event=event, status=Heal.RUNNING, kind=Heal.HEAL,
                                      ends_game_s__lte=game_s).values_list("pk", flat=True):
            ended += heal_complete(heal_id=pk)
    return ended
