"""One scheduler for every deadline: timers, dawns and day ends, fights, race alerts and
deadline warnings.

The deadline is in the database; a Celery task at its instant is how a worker notices it
on time, and a sweeper run by beat is the safety net. A worker holds every queued ETA task
in memory and the Redis broker redelivers long ones, so a task is queued at commit only
for a deadline within the horizon (DEADLINE_TASK_HORIZON_S), and beat queues the others
as they come within reach. A dead broker loses nothing: the failure is logged and the
sweeper applies the deadline anyway. A deadline may be queued twice: every task here is
idempotent.

Nothing here knows a model: the callers pass the task, the jobs (`(args, eta)`), the
querysets and the name of the field that holds the instant (game seconds or a datetime).
"""
from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

log = logging.getLogger(__name__)

Job = tuple[tuple, datetime | None]


def horizon_s() -> float:
    return float(settings.DEADLINE_TASK_HORIZON_S)


def reach(now: datetime) -> datetime:
    """The latest wall-clock instant a task is queued for now."""
    return now + timedelta(seconds=horizon_s())


# -- queueing ---------------------------------------------------------------------------------

def tasks_queue(*, task, jobs: Iterable[Job], what: str) -> int:
    """Queue each (args, eta) once, through one broker connection. Returns how many jobs
    there were; with the broker down they are logged, not raised (the sweeper runs them)."""
    jobs = list(dict.fromkeys(jobs))
    if not jobs:
        return 0
    try:
        with task.app.producer_or_acquire() as producer:
            for args, eta in jobs:
                task.apply_async(args, eta=eta, producer=producer)
    except Exception:  # the broker is down: the sweeper catches these deadlines
        log.exception("could not queue the %s tasks of %s", task.name, what)
    return len(jobs)


def tasks_queue_on_commit(*, task, jobs: Iterable[Job], what: str, near_only: bool = True,
                          now: datetime | None = None) -> None:
    """Once the transaction commits, queue the jobs; `near_only`, only those due within
    the horizon (beat queues the others: `upcoming_queue`). An instant already past is
    queued for now. Not `near_only`: waits of seconds (a fight's end) and pushes, which
    have no sweeper to catch them."""
    now = now or timezone.now()
    limit = reach(now)
    kept = [(args, eta if eta is None else max(eta, now)) for args, eta in jobs
            if not near_only or eta is None or eta <= limit]
    if kept:
        transaction.on_commit(lambda: tasks_queue(task=task, jobs=kept, what=what))


def upcoming_jobs(queryset, *, field: str, until, key: str = "pk",
                  job: Callable[[object, object], Job] | None = None) -> list[Job]:
    """The jobs of the rows whose instant (`field`) is at or before `until` (the end of
    the horizon, in the field's units). `job(key, instant)` makes one; by default the
    task takes the key and runs at the instant."""
    job = job or (lambda pk, due: ((pk,), due))
    rows = queryset.filter(**{f"{field}__lte": until}).values_list(key, field)
    return [job(pk, due) for pk, due in rows]


def upcoming_queue(*, task, queryset, field: str, until, what: str, key: str = "pk",
                   job: Callable[[object, object], Job] | None = None) -> int:
    """Beat, at least every half horizon: queue the tasks of the deadlines that came
    within reach. Returns how many."""
    jobs = upcoming_jobs(queryset, field=field, until=until, key=key, job=job)
    return tasks_queue(task=task, jobs=jobs, what=what)


# -- sweeping -------------------------------------------------------------------------------

def due_claim(queryset, *, field: str, due_by, batch: int, order: tuple[str, ...] = (),
              of: tuple[str, ...] = ()) -> list:
    """Inside a transaction: lock up to `batch` rows due by `due_by`, the earliest first.
    Rows another worker holds are skipped, not waited for: that worker applies them."""
    due = (queryset.select_for_update(skip_locked=True, of=of)
           .filter(**{f"{field}__lte": due_by}).order_by(*(order or (field,))))
    return list(due[:batch])


def due_sweep(queryset, *, field: str, due_by, apply: Callable[[object], bool], batch: int,
              order: tuple[str, ...] = (), of: tuple[str, ...] = ()) -> int:
    """A sweeper: claim the due rows a batch per transaction and `apply` each, until a
    batch comes back short. Returns how many `apply` said changed."""
    changed = 0
    while True:
        with transaction.atomic():
            claimed = due_claim(queryset, field=field, due_by=due_by, batch=batch,
                                order=order, of=of)
            changed += sum(1 for row in claimed if apply(row))
        if len(claimed) < batch:
            return changed


def due_each(queryset, *, field: str, due_by, apply: Callable[[int], bool]) -> int:
    """A sweeper whose work claims its own row, one transaction each as its task does:
    `apply(pk)` for every row due by `due_by`. Returns how many it said changed."""
    due = queryset.filter(**{f"{field}__lte": due_by}).values_list("pk", flat=True)
    return sum(1 for pk in due if apply(pk))
