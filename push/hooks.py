"""Called by health's services inside their transaction; tasks are queued only once it
commits, so a rolled-back change pushes nothing. The work itself happens in the tasks.

They are queued through the deadline scheduler (common/deadlines.py), every one of them
and not only those within the horizon: nothing sweeps for a lost push. With the broker
down a push is lost (logged): it is best effort, the game goes on."""
from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from common.deadlines import tasks_queue_on_commit

from .services import WARN_BEFORE_S


def _queue_on_commit(task_name: str, what: str, jobs: list[tuple[tuple, datetime | None]]) -> None:
    from . import tasks
    tasks_queue_on_commit(task=getattr(tasks, task_name), jobs=jobs, near_only=False, what=what)


def warnings_due(health, event, now: datetime, timers: dict | None = None) -> list[tuple]:
    """(timer, due, wall instant of the warning) for each deadline that changes the state
    and is still more than a minute away; none while the game is paused."""
    if not event.running:
        return []
    ruleset = event.rules().ruleset
    game_now = event.game_time(now)
    found = []
    for timer, due in (health.timers if timers is None else timers).items():
        target = ruleset.leads_to(timer, health.status)
        if target is None or target == health.status or due - WARN_BEFORE_S < game_now:
            continue
        found.append((timer, due, event.wall_time(due - WARN_BEFORE_S)))
    return found


def deadline_warnings_on_commit(*, health, event, timers: dict | None = None) -> None:
    """Queue a warning task for each deadline (all of them, or only `timers`). Also run
    when the clock resumes: tasks queued before a pause wake at the old instant and find
    it is not yet time."""
    if not _subscribed_users([health.character.user_id]):
        return
    jobs = _warning_jobs(health, event, timers)
    if jobs:
        _queue_on_commit("warn_deadline", f"character {health.pk}", jobs)


def _warning_jobs(health, event, timers: dict | None = None) -> list[tuple]:
    return [((health.pk, timer, due), eta)
            for timer, due, eta in warnings_due(health, event, timezone.now(), timers)]


def deadline_warnings_resumed(*, event) -> None:
    """The clock runs again: every subscribed phone's deadline warnings move to the new
    wall-clock instants."""
    from health.models import HealthState

    from .models import PushSubscription
    if not event.running:
        return
    subscribed = set(PushSubscription.objects.filter(user__characters__event=event)
                     .values_list("user_id", flat=True))
    rows = (HealthState.objects.filter(event=event, next_deadline_s__isnull=False,
                                       character__user_id__in=subscribed)
            .select_related("character"))
    for health in rows:
        deadline_warnings_on_commit(health=health, event=event)


def _subscribed_users(user_ids) -> set[int]:
    """Only phones that asked for notifications cost a task: a burst of 1,000 deadlines
    must not queue 2,000 pushes for nobody. One query for a whole batch."""
    from .models import PushSubscription
    wanted = {pk for pk in user_ids if pk is not None}
    if not wanted:
        return set()
    return set(PushSubscription.objects.filter(user_id__in=wanted)
               .values_list("user_id", flat=True).distinct())


def health_recorded(*, changes, event, **_change) -> None:
    """Health recorded new states (its `states_recorded`): a new status is announced, and
    every deadline that is new, moved, or now leads elsewhere gets its warning queued. One
    subscription query and one queueing per task for the whole batch."""
    subscribed = _subscribed_users(c.health.character.user_id for c in changes)
    if not subscribed:
        return
    notices, warnings = [], []
    for health, before, _action in changes:
        if health.character.user_id not in subscribed:
            continue
        status_changed = before.get("status") != health.status
        if status_changed:
            notices.append(((health.pk, health.version, health.status), None))
        old = before.get("timers") or {}
        changed = {t: due for t, due in health.timers.items()
                   if status_changed or old.get(t) != due}
        if changed:
            warnings += _warning_jobs(health, event, changed)
    what = f"{len(changes)} character(s) of event {event.pk}"
    if notices:
        _queue_on_commit("notify_state", what, notices)
    if warnings:
        _queue_on_commit("warn_deadline", what, warnings)
