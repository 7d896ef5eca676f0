"""Start, finish, abandon, disqualification, and the finger and deposit coming back
(spec §4.3 R01, R08, R09, R11, R14). The deadline (start + D) and the instant of the
overdue alert are stored when the entry starts: nothing ticks."""
# Rule codes: docs/rules/zombie_race-coverage.md; their families: docs/glossary.md.
from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from rulesets import RuleRefused

from ..labels import say
from ..models import Course, Entry, Infraction
from ..options import race_options
from ..publish import race_changed_on_commit
from ..selectors.entries import lives_remaining
from .alerts import alert_task_on_commit
from .common import entry_lock, instant, race_journal
from .entries import gear_missing


def _start(entry: Entry, at: datetime, by) -> None:
    options = race_options(entry.event)
    entry.status = Entry.RACING
    entry.started_at = at
    entry.deadline_at = at + timedelta(seconds=entry.course.duration_s)
    entry.alert_at = entry.deadline_at + timedelta(seconds=options.alert_after_s)
    entry.save(update_fields=["status", "started_at", "deadline_at", "alert_at"])
    race_journal(entry=entry, what="entry:started", by=by, detail={
        "started_at": at.isoformat(), "deadline_at": entry.deadline_at.isoformat()})
    alert_task_on_commit(entry=entry)


def _refuse_start(entry: Entry) -> None:
    if entry.status in (Entry.DNF, Entry.DISQUALIFIED):
        raise RuleRefused("race_already_ended", name=entry.name, status=say(entry.status))
    if entry.status != Entry.REGISTERED:
        raise RuleRefused("race_already_started", name=entry.name)
    missing = gear_missing(entry)
    if missing:
        raise RuleRefused("race_gear_missing", name=entry.name, missing=[say(k) for k in missing])


@transaction.atomic
def entry_start(*, entry: Entry, by, at: datetime | None = None) -> Entry:
    """R01, an individual start (a start punch, or a late runner after the mass start)."""
    entry = entry_lock(entry)
    _refuse_start(entry)
    _start(entry, instant(at, field="at", now=timezone.now()), by)
    race_changed_on_commit(event_id=entry.event_id, entry_ids=[entry.pk])
    return entry


@transaction.atomic
def course_start(*, course: Course, by, at: datetime | None = None) -> tuple[list, list]:
    """Mass start: every registered entry of the course whose gear is checked starts at
    the same instant; the others stay registered and are listed with what they miss.
    Returns (started, not started with the refusal)."""
    at = instant(at, field="at", now=timezone.now())
    course = Course.objects.select_for_update().get(pk=course.pk)
    started, not_started = [], []
    entries = (Entry.objects.select_for_update(of=("self",))
               .select_related("event", "course", "character")
               .filter(course=course, status=Entry.REGISTERED).order_by("pk"))
    for entry in entries:
        try:
            _refuse_start(entry)
        except RuleRefused as refusal:
            not_started.append((entry, refusal))
            continue
        _start(entry, at, by)
        started.append(entry)
    course.mass_started_at = at
    course.save(update_fields=["mass_started_at"])
    race_changed_on_commit(event_id=course.event_id, course_ids=[course.pk],
                           entry_ids=[e.pk for e in started])
    return started, not_started


@transaction.atomic
def entry_finish(*, entry: Entry, by, at: datetime | None = None,
                 flags_on_belt: int | None = None) -> Entry:
    """R08: the finish time. If the marshal counts the flags on the belt and they differ
    from the lives recorded, that is an infraction (Z16: lives come from the events)."""
    entry = entry_lock(entry)
    if entry.status != Entry.RACING:
        raise RuleRefused("race_not_racing", name=entry.name, status=say(entry.status))
    at = instant(at, field="at", now=timezone.now(), not_before=entry.started_at)
    entry.status, entry.finished_at = Entry.FINISHED, at
    entry.save(update_fields=["status", "finished_at"])
    lives = lives_remaining(entry, race_options(entry.event).lives_initial)
    race_journal(entry=entry, what="entry:finished", by=by,
                 detail={"finished_at": at.isoformat(), "lives": lives,
                         "flags_on_belt": flags_on_belt})
    if flags_on_belt is not None and flags_on_belt != lives:
        Infraction.objects.create(entry=entry, kind=Infraction.BELT_MISMATCH, at=at, recorded_by=by,
                                  note=f"flags on the belt: {flags_on_belt}; lives recorded: {lives}")
    race_changed_on_commit(event_id=entry.event_id, entry_ids=[entry.pk])
    return entry


@transaction.atomic
def entry_finger_return(*, entry: Entry, by) -> Entry:
    """R11: the finger comes back and the deposit cheque is handed back. A disqualified
    entry's finger was taken back already; its deposit follows the option (Z11)."""
    entry = entry_lock(entry)
    if entry.status in (Entry.REGISTERED, Entry.RACING):
        raise RuleRefused("race_not_ended", name=entry.name)
    deposit_due = entry.deposit_taken_at is not None and entry.deposit_returned_at is None
    if entry.finger_returned_at is not None and not deposit_due:
        raise RuleRefused("race_already_returned", name=entry.name)
    if deposit_due and entry.status == Entry.DISQUALIFIED \
            and not race_options(entry.event).dq_deposit_returned:
        raise RuleRefused("race_deposit_kept", name=entry.name)
    now = timezone.now()
    entry.finger_returned_at = entry.finger_returned_at or now
    if deposit_due:
        entry.deposit_returned_at = now
    entry.save(update_fields=["finger_returned_at", "deposit_returned_at"])
    race_journal(entry=entry, what="entry:finger_returned", by=by, at=now,
                 detail={"deposit_returned": deposit_due})
    race_changed_on_commit(event_id=entry.event_id, entry_ids=[entry.pk])
    return entry


def _end(entry: Entry, status: str, reason: str, finger_back: bool, by) -> Entry:
    if entry.status in (Entry.DNF, Entry.DISQUALIFIED):
        raise RuleRefused("race_already_ended", name=entry.name, status=say(entry.status))
    now = timezone.now()
    before = entry.status
    entry.status, entry.ended_at, entry.end_reason = status, now, reason
    if finger_back and entry.finger_returned_at is None:
        entry.finger_returned_at = now
    entry.save(update_fields=["status", "ended_at", "end_reason", "finger_returned_at"])
    race_journal(entry=entry, what=f"entry:{status}", by=by, at=now,
                 detail={"before": before, "reason": reason, "finger_back": finger_back})
    race_changed_on_commit(event_id=entry.event_id, entry_ids=[entry.pk])
    return entry


@transaction.atomic
def entry_abandon(*, entry: Entry, by, reason: str = "", finger_back: bool = True) -> Entry:
    """R14, DNF: recorded by an organiser (the finger is back, unless they say not) or
    declared by the survivor's phone (still out in the night until the finger is back:
    the safety board keeps them)."""
    entry = entry_lock(entry)
    if entry.status == Entry.FINISHED:
        raise RuleRefused("race_not_racing", name=entry.name, status=say(entry.status))
    return _end(entry, Entry.DNF, reason, finger_back, by)


@transaction.atomic
def entry_disqualify(*, entry: Entry, by, reason: str) -> Entry:
    """R09: blows or any violence, even verbal; the finger is taken back; no score."""
    entry = entry_lock(entry)
    return _end(entry, Entry.DISQUALIFIED, reason, True, by)
