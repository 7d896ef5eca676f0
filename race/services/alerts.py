"""The overdue alert: an entry still out `overdue_alert_after_s` after its deadline rings
on the organisers' screens, with the phone number given at registration.

As for every timer here, the instant is in the database (`Entry.alert_at`, stored at
the start); a Celery task is queued for it once it is near (within
DEADLINE_TASK_HORIZON_S), and beat's sweeper claims whatever is due with
select_for_update(skip_locked=True), so a lost task or a dead worker loses no alert and
two workers never ring twice (`alerted_at` closes it). Unlike the game's timers, a race
runs on the wall clock: a game pause does not stop the survivors' countdowns.
"""
from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from common.deadlines import due_claim, due_sweep, reach, tasks_queue_on_commit, upcoming_queue

from ..labels import say
from ..models import Entry
from ..publish import alert_on_commit
from .common import race_journal

SWEEP_BATCH = 200


def _task():
    from ..tasks import alert_overdue
    return alert_overdue


def _still_out():
    # An abandon declared by phone keeps the survivor out until the finger is back.
    return Entry.objects.filter(Q(status=Entry.RACING) |
                                Q(status=Entry.DNF, finger_returned_at__isnull=True),
                                alerted_at__isnull=True)


# The entry's row only: its course and character are read, not locked.
DUE = {"field": "alert_at", "order": ("alert_at", "pk"), "of": ("self",)}


def _rows():
    return _still_out().select_related("event", "course", "character")


def alert_task_on_commit(*, entry: Entry) -> None:
    """After a start: a task at the alert instant if it is near (a very short course);
    the sweeper queues the others as they come near."""
    if entry.alert_at is not None:
        tasks_queue_on_commit(task=_task(), jobs=[((entry.pk,), entry.alert_at)],
                              what="the overdue alerts")


def entry_alert(*, entry_id: int) -> bool:
    """The task's work: ring once for this entry if it is due and still out."""
    with transaction.atomic():
        claimed = due_claim(_rows().filter(pk=entry_id), due_by=timezone.now(), batch=1, **DUE)
        for entry in claimed:
            _ring(entry)
        return bool(claimed)                # else back in time, already rung, or being rung


def alerts_sweep(*, batch: int = SWEEP_BATCH) -> int:
    """Beat: ring every due alert a lost task missed, then queue the near ones."""
    now = timezone.now()
    rung = due_sweep(_rows(), due_by=now, batch=batch, apply=_ring, **DUE)
    upcoming_queue(task=_task(), queryset=_still_out().filter(alert_at__gt=now),
                   field="alert_at", until=reach(now), what="the overdue alerts")
    return rung


def _ring(entry: Entry) -> bool:
    now = timezone.now()
    entry.alerted_at = now
    entry.save(update_fields=["alerted_at"])
    overdue_s = (now - entry.deadline_at).total_seconds()
    race_journal(entry=entry, what="entry:overdue_alert", by=None, at=now,
                 detail={"deadline_at": entry.deadline_at.isoformat(),
                         "overdue_s": round(overdue_s, 3)})
    alert_on_commit(event_id=entry.event_id, alert={
        "entry": {"id": entry.pk, "name": entry.name, "kind": entry.kind,
                  "carrier": entry.carrier, "finger": entry.finger},
        "course": {"id": entry.course_id, "name": entry.course.name},
        "phone": entry.phone, "deadline_at": entry.deadline_at.isoformat(),
        "overdue_s": round(overdue_s, 3), "alerted_at": now.isoformat(),
        "text": say("overdue", name=entry.name, course=entry.course.name,
                    minutes=str(int(overdue_s // 60)), phone=entry.phone)})
    return True
