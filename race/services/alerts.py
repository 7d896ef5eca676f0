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

import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from ..labels import say
from ..models import Entry
from ..publish import alert_on_commit
from .common import race_journal

log = logging.getLogger(__name__)
SWEEP_BATCH = 200


def _horizon() -> timedelta:
    return timedelta(seconds=float(settings.DEADLINE_TASK_HORIZON_S))


def _still_out_q() -> Q:
    # An abandon declared by phone keeps the survivor out until the finger is back.
    return Q(status=Entry.RACING) | Q(status=Entry.DNF, finger_returned_at__isnull=True)


def _due(now):
    return Entry.objects.filter(_still_out_q(), alerted_at__isnull=True, alert_at__lte=now)


def _send(jobs) -> None:
    from ..tasks import alert_overdue
    if not jobs:
        return
    try:
        with alert_overdue.app.producer_or_acquire() as producer:
            for entry_id, eta in sorted(set(jobs)):
                alert_overdue.apply_async((entry_id,), eta=eta, producer=producer)
    except Exception:  # the broker is down: the sweeper rings anyway
        log.exception("could not queue the overdue alert tasks")


def alert_task_on_commit(*, entry: Entry) -> None:
    """After a start: a task at the alert instant, if it is near (a very short course)."""
    now = timezone.now()
    if entry.alert_at is None or entry.alert_at > now + _horizon():
        return                              # the sweeper queues it when it comes near
    jobs = [(entry.pk, max(entry.alert_at, now))]
    transaction.on_commit(lambda: _send(jobs))


def entry_alert(*, entry_id: int) -> bool:
    """The task's work: ring once for this entry if it is due and still out."""
    with transaction.atomic():
        entry = (_due(timezone.now()).select_for_update(skip_locked=True, of=("self",))
                 .select_related("event", "course", "character").filter(pk=entry_id).first())
        if entry is None:
            return False                    # back in time, already rung, or being rung
        _ring(entry)
        return True


def alerts_sweep(*, batch: int = SWEEP_BATCH) -> int:
    """Beat: ring every due alert a lost task missed, then queue the near ones."""
    now = timezone.now()
    rung = 0
    while True:
        with transaction.atomic():
            claimed = list(_due(now).select_for_update(skip_locked=True, of=("self",))
                           .select_related("event", "course", "character")
                           .order_by("alert_at", "pk")[:batch])
            for entry in claimed:
                _ring(entry)
        rung += len(claimed)
        if len(claimed) < batch:
            break
    upcoming = (Entry.objects.filter(_still_out_q(), alerted_at__isnull=True,
                                     alert_at__gt=now, alert_at__lte=now + _horizon())
                .values_list("pk", "alert_at"))
    _send(list(upcoming))
    return rung


def _ring(entry: Entry) -> None:
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
