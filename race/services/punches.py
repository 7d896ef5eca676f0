"""Punches (R02): a survivor's phone scanning a balise's QR, an organiser typing one, or
the finger readout imported as a file. Every punch is kept; the first one of a balise
inside the race window counts (race/scoring.py), so a duplicate changes nothing and a
punch before the start or after the finish follows the options."""
from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from rulesets import RuleRefused

from ..labels import say
from ..models import Checkpoint, Entry, Punch
from ..options import race_options
from ..publish import race_changed_on_commit
from ..readout import ReadoutRejected, parse_time, read_rows
from ..selectors.entries import checkpoint_find
from .common import entry_lock, instant, race_journal


@transaction.atomic
def punch_record(*, entry: Entry, checkpoint: str, by, source: str,
                 at: datetime | None = None) -> tuple[Punch, bool]:
    """A survivor sends what the balise's QR holds; an organiser may send its number.
    Returns the punch and whether it is new (the same punch twice is one)."""
    entry = entry_lock(entry)
    if entry.status == Entry.DISQUALIFIED:
        raise RuleRefused("race_disqualified", name=entry.name)
    found = checkpoint_find(entry.course, checkpoint, code_allowed=source != Punch.PHONE)
    if found is None:
        raise RuleRefused("bad_input", detail=say("unknown_checkpoint", course=entry.course.name,
                                                  code=checkpoint[:60]))
    at = instant(at, field="at", now=timezone.now())
    punch, created = Punch.objects.get_or_create(
        entry=entry, checkpoint=found, at=at, defaults={"source": source, "recorded_by": by})
    if created:
        race_journal(entry=entry, what="punch", by=by, at=timezone.now(), detail={
            "checkpoint": found.code, "at": at.isoformat(), "source": source})
        race_changed_on_commit(event_id=entry.event_id, entry_ids=[entry.pk])
    return punch, created


@transaction.atomic
def punches_import(*, event, text: str, by) -> dict:
    """The finger readout, all or nothing: a file with any bad row imports nothing and the
    refusal lists every bad row with its line and reason (ReadoutRejected). Punches
    already recorded (the same file twice) are skipped."""
    rows, bad = read_rows(text)
    entries = {e.finger: e for e in Entry.objects.filter(event=event, finger__in={r.finger for r in rows})
               .select_related("course")}
    checkpoints = {}
    for cp in Checkpoint.objects.filter(course__event=event):
        checkpoints[(cp.course_id, cp.code.casefold())] = cp
    zone, now = race_options(event).zone(), timezone.now()
    punches = []
    for row in rows:
        entry = entries.get(row.finger)
        if entry is None:
            bad.append({"line": row.line, "reason": say("csv_unknown_finger", finger=str(row.finger))})
            continue
        cp = checkpoints.get((entry.course_id, row.checkpoint.casefold()))
        if cp is None:
            bad.append({"line": row.line, "reason": say(
                "csv_unknown_checkpoint", code=row.checkpoint[:40], course=entry.course.name,
                finger=str(row.finger))})
            continue
        at = parse_time(row.time, zone=zone,
                        anchor=entry.started_at or entry.course.mass_started_at or now)
        if at is None:
            bad.append({"line": row.line, "reason": say("csv_time", value=row.time[:40])})
            continue
        punches.append((entry, cp, at))
    if bad:
        raise ReadoutRejected(sorted(bad, key=lambda b: b["line"]))
    return _store(event, punches, by)


def _store(event, punches: list, by) -> dict:
    touched = {e.pk: e for e, _, _ in punches}
    # Locked in id order, as every other writer of entries does, before anything changes.
    locked = {e.pk: e for e in Entry.objects.select_for_update(of=("self",))
              .filter(pk__in=touched).order_by("pk")}
    existing = set(Punch.objects.filter(entry_id__in=touched)
                   .values_list("entry_id", "checkpoint_id", "at"))
    new = {(e.pk, cp.pk, at): Punch(entry_id=e.pk, checkpoint=cp, at=at, source=Punch.IMPORT,
                                     recorded_by=by)
           for e, cp, at in punches if (e.pk, cp.pk, at) not in existing}
    Punch.objects.bulk_create(new.values())
    for entry_id, entry in touched.items():
        count = sum(1 for key in new if key[0] == entry_id)
        entry.event = event
        race_journal(entry=entry, what="punches:imported", by=by,
                     detail={"punches": count, "finger": entry.finger})
    race_changed_on_commit(event_id=event.pk, entry_ids=list(locked))
    return {"rows": len(punches), "imported": len(new), "already_there": len(punches) - len(new),
            "entries": len(touched)}
