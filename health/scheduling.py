"""Timer tasks: a Celery task at each character's next deadline, through the deadline
scheduler (common/deadlines.py): queued at commit only once the deadline is within the
horizon, and by beat (`deadlines_queue_upcoming`, every half horizon) as it comes within
reach; the sweeper (services.characters_sweep) catches anything a lost task missed.
"""
from __future__ import annotations

from django.utils import timezone

from common.deadlines import horizon_s, tasks_queue, tasks_queue_on_commit, upcoming_jobs
from players.models import Event

from .models import HealthState


def _task():
    from .tasks import advance_character
    return advance_character


def deadlines_queue_on_commit(*, healths: list[HealthState], event: Event) -> None:
    """After a change of these rows (one, or a batch): a task at each one's next deadline
    that is near, all queued at once (one broker connection)."""
    if not event.running:
        return
    jobs = [((health.pk,), event.wall_time(health.next_deadline_s)) for health in healths
            if health.next_deadline_s is not None]
    what = f"character {healths[0].pk}" if len(healths) == 1 else \
        f"{len(jobs)} character(s) of event {event.pk}"
    tasks_queue_on_commit(task=_task(), jobs=jobs, what=what)


def _upcoming(event: Event) -> list:
    return upcoming_jobs(HealthState.objects.filter(event=event), field="next_deadline_s",
                         until=event.game_time(timezone.now()) + horizon_s(),
                         job=lambda pk, due: ((pk,), event.wall_time(due)))


def event_deadlines_queue_on_commit(*, event: Event) -> None:
    """When the clock resumes (players.clock_resumed): every near deadline of the event
    gets its task again (those queued before the pause wake at the old instant and find
    nothing due)."""
    if not event.running:
        return
    tasks_queue_on_commit(task=_task(), jobs=_upcoming(event), what=f"event {event.pk}")


def deadlines_queue_upcoming() -> int:
    """Beat, every half horizon: queue the tasks of deadlines that came within reach."""
    return sum(tasks_queue(task=_task(), jobs=_upcoming(event), what=f"event {event.pk}")
               for event in Event.objects.filter(clock_running_since__isnull=False))
