"""Timer tasks: a Celery task at each deadline, queued only once the deadline is near.

The deadline itself is in the database; the task is how a worker notices it on time. A
worker holds every queued ETA task in memory and the Redis broker redelivers long ones,
so 30,000 deadlines spread over the next hours would mean 30,000 tasks held by the
worker, which then starts the ones due now late. So a task is queued at commit only for
a deadline within HORIZON_S; `deadlines_queue_upcoming` (run by beat every half horizon)
queues those that come within it; the sweeper catches anything a lost task missed.
A deadline may be queued twice: the task is idempotent.
"""
from __future__ import annotations

import logging

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from players.models import Event

from .models import HealthState

log = logging.getLogger(__name__)


def _horizon_s() -> float:
    return float(settings.DEADLINE_TASK_HORIZON_S)


def _send(jobs: list[tuple[int, object]], what: str) -> None:
    """Queue (character id, eta) tasks through one broker connection."""
    from .tasks import advance_character
    if not jobs:
        return
    try:
        with advance_character.app.producer_or_acquire() as producer:
            for character_id, eta in jobs:
                advance_character.apply_async((character_id,), eta=eta, producer=producer)
    except Exception:  # the broker is down: the sweeper applies the deadlines anyway
        log.exception("could not queue the timer tasks of %s", what)


def deadline_task_on_commit(health: HealthState, event: Event) -> None:
    """After a change: a task at the character's next deadline, if it is near."""
    if health.next_deadline_s is None or not event.running:
        return
    if health.next_deadline_s > event.game_time(timezone.now()) + _horizon_s():
        return                                  # deadlines_queue_upcoming will
    job = [(health.pk, event.wall_time(health.next_deadline_s))]
    transaction.on_commit(lambda: _send(job, f"character {health.pk}"))


def _upcoming(event: Event) -> list[tuple[int, object]]:
    game_now = event.game_time(timezone.now())
    rows = (HealthState.objects.filter(event=event, next_deadline_s__lte=game_now + _horizon_s())
            .values_list("pk", "next_deadline_s"))
    return [(pk, event.wall_time(due)) for pk, due in rows]


def deadlines_tasks_on_commit(*, event: Event) -> None:
    """When the clock resumes: the near deadlines get their tasks again (those queued
    before the pause wake at the old instant and find nothing due)."""
    if not event.running:
        return
    jobs = _upcoming(event)
    transaction.on_commit(lambda: _send(jobs, f"event {event.pk}"))


def deadlines_queue_upcoming() -> int:
    """Beat, every half horizon: queue the tasks of deadlines that came within reach."""
    queued = 0
    for event in Event.objects.filter(clock_running_since__isnull=False):
        jobs = _upcoming(event)
        _send(jobs, f"event {event.pk}")
        queued += len(jobs)
    return queued
