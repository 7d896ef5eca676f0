"""Punches (R02): a survivor's phone scanning a balise's QR, an organiser typing one, or
the finger readout imported as a file. Every punch is kept; the first one of a balise
inside the race window counts (race/scoring.py), so a duplicate changes nothing and a
punch before the start or after the finish follows the options. The finger beeps on any
box: a balise of another course, or a readout row earlier than the finger's row before
it, is kept marked not counted (`Punch.not_counted`), shown with its reason."""
# Rule codes: docs/rules/zombie_race-coverage.md; their families: docs/glossary.md.
from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from common.csv_rows import CsvRejected
from rulesets import RuleRefused

from ..labels import say
from ..models import Checkpoint, Entry, Punch
from ..options import race_options
from ..publish import race_changed_on_commit
from ..readout import parse_time, read_rows
from ..selectors.entries import checkpoint_elsewhere, checkpoint_find, checkpoint_numbered
from .common import entry_lock, instant, race_journal


@transaction.atomic
def punch_record(*, entry: Entry, checkpoint: str, by, source: str,
                 at: datetime | None = None) -> tuple[Punch, bool]:
    """A survivor sends what the balise's QR holds or the code printed under it; an
    organiser may also send its number. Returns the punch and whether it is new (the same
    punch twice is one)."""
    entry = entry_lock(entry)
    if entry.status == Entry.DISQUALIFIED:
        raise RuleRefused("race_disqualified", name=entry.name)
    found, not_counted = _balise(entry, checkpoint, code_allowed=source != Punch.PHONE)
    at = instant(at, field="at", now=timezone.now())
    punch, created = Punch.objects.get_or_create(
        entry=entry, checkpoint=found, at=at,
        defaults={"source": source, "recorded_by": by, "not_counted": not_counted})
    if created:
        race_journal(entry=entry, what="punch", by=by, at=timezone.now(), detail={
            "checkpoint": found.code, "at": at.isoformat(), "source": source})
        race_changed_on_commit(event_id=entry.event_id, entry_ids=[entry.pk])
    return punch, created


def _balise(entry: Entry, scanned: str, *, code_allowed: bool) -> tuple[Checkpoint, str]:
    """The balise punched and why it cannot count ("" when scoring decides)."""
    found = checkpoint_find(entry.course, scanned, code_allowed=code_allowed)
    if found is not None:
        return found, ""
    found = checkpoint_elsewhere(entry, scanned, code_allowed=code_allowed)
    if found is None and not code_allowed and checkpoint_numbered(entry.event_id, scanned):
        raise RuleRefused("balise_number_typed", number=scanned.strip()[:20])
    if found is None:
        raise RuleRefused("unknown_balise", course=entry.course.name, code=scanned.strip()[:60])
    return found, Punch.NOT_ON_COURSE


@transaction.atomic
def punches_import(*, event, text: str, by) -> dict:
    """The finger readout, all or nothing: a file with any bad row (malformed, an unknown
    finger, a box number no course of the race has) imports nothing and the refusal lists
    every bad row with its line and reason (CsvRejected). A balise of another course,
    or a row earlier than the finger's row before it, is imported marked not counted and
    listed in the answer. Punches already recorded (the same file twice) are skipped."""
    rows, bad = read_rows(text)
    entries = {e.finger: e for e in Entry.objects.filter(event=event, finger__in={r.finger for r in rows})
               .select_related("course")}
    boxes = _boxes(event)
    zone, now = race_options(event).zone(), timezone.now()
    punches, previous = [], {}
    for row in rows:
        entry = entries.get(row.finger)
        if entry is None:
            bad.append({"line": row.line, "reason": say("csv_unknown_finger", finger=str(row.finger))})
            continue
        cp, not_counted = _box(boxes, entry, row.checkpoint)
        if cp is None:
            bad.append({"line": row.line, "reason": say(
                "csv_unknown_checkpoint", code=row.checkpoint[:40], course=entry.course.name,
                finger=str(row.finger))})
            continue
        at = parse_time(row.time, zone=zone, twelve_hour=row.twelve_hour,
                        anchor=entry.started_at or entry.course.mass_started_at or now)
        if at is None:
            bad.append({"line": row.line, "reason": say("csv_time", value=row.time[:40])})
            continue
        # The finger writes its punches as they happen: a row going back in time is not
        # one of its beeps in sequence (a box's clock, a row pasted from elsewhere).
        if not not_counted and row.finger in previous and at < previous[row.finger]:
            not_counted = Punch.OUT_OF_SEQUENCE
        previous[row.finger] = at
        punches.append((entry, cp, at, not_counted, row.line))
    if bad:
        raise CsvRejected(bad)
    return _store(event, punches, by)


def _boxes(event) -> dict:
    """{box number: the event's balises with it, the first created first}."""
    boxes = {}
    for cp in Checkpoint.objects.filter(course__event=event).order_by("pk"):
        boxes.setdefault(cp.code.casefold(), []).append(cp)
    return boxes


def _box(boxes: dict, entry: Entry, code: str) -> tuple[Checkpoint | None, str]:
    """The entry's balise with that number, else another course's (not counted)."""
    found = boxes.get(code.casefold(), [])
    mine = next((cp for cp in found if cp.course_id == entry.course_id), None)
    if mine is not None:
        return mine, ""
    return (found[0], Punch.NOT_ON_COURSE) if found else (None, "")


def _store(event, punches: list, by) -> dict:
    touched = {p[0].pk: p[0] for p in punches}
    # Locked in id order, as every other writer of entries does, before anything changes.
    locked = {e.pk: e for e in Entry.objects.select_for_update(of=("self",))
              .filter(pk__in=touched).order_by("pk")}
    existing = set(Punch.objects.filter(entry_id__in=touched)
                   .values_list("entry_id", "checkpoint_id", "at"))
    new = {(e.pk, cp.pk, at): Punch(entry_id=e.pk, checkpoint=cp, at=at, source=Punch.IMPORT,
                                     recorded_by=by, not_counted=not_counted)
           for e, cp, at, not_counted, _ in punches if (e.pk, cp.pk, at) not in existing}
    Punch.objects.bulk_create(new.values())
    for entry_id, entry in touched.items():
        count = sum(1 for key in new if key[0] == entry_id)
        entry.event = event
        race_journal(entry=entry, what="punches:imported", by=by,
                     detail={"punches": count, "finger": entry.finger})
    race_changed_on_commit(event_id=event.pk, entry_ids=list(locked))
    return {"rows": len(punches), "imported": len(new), "already_there": len(punches) - len(new),
            "entries": len(touched),
            "not_counted": [{"line": line, "reason": say(not_counted)}
                            for _, _, _, not_counted, line in punches if not_counted]}
