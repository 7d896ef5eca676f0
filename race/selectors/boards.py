"""Reads of the race: an entry as its survivor sees it (and as organisers see it), the
leaderboard per course, the public results, the safety board. Scores come from
race/scoring.py, read against `now`: a racing entry shows an estimate.

Labels stay {fr, es, en}; `localize` picks the reader's language at the edge. Phone
numbers appear only in the organisers' views (`organiser_entry_view`, the safety board).
"""
# Rule codes: docs/rules/zombie_race-coverage.md; their families: docs/glossary.md.
from __future__ import annotations

from datetime import datetime

from players.models import Event

from ..balise_codes import typed_code
from ..labels import say
from ..models import Course, Entry
from ..options import RaceOptions, race_options
from ..scoring import entry_score, rank
from ..services.common import status_key
from .entries import course_points, entries_loaded, entry_facts, lives_remaining


def iso(at: datetime | None) -> str | None:
    return at.isoformat() if at else None


def course_view(course: Course) -> dict:
    return {"id": course.pk, "name": course.name, "duration_s": course.duration_s,
            "points_per_checkpoint": course.points_per_checkpoint,
            "points_confirmed": course.points_confirmed,
            "mass_started_at": iso(course.mass_started_at)}


def course_warnings(course: Course) -> list[dict]:
    warnings = []
    if not course.points_confirmed:
        warnings.append({"code": "points_unconfirmed",
                         "text": say("points_unconfirmed", course=course.name,
                                     points=str(course.points_per_checkpoint))})
    if not course.checkpoints.all():
        warnings.append({"code": "no_checkpoints", "text": say("no_checkpoints", course=course.name)})
    return warnings


def courses_view(event: Event) -> dict:
    """The organisers' list: every course, its balises (with their QR content) and its
    warnings."""
    courses = Course.objects.filter(event=event).prefetch_related("checkpoints")
    options = race_options(event)
    return {"event": event.pk, "start_mode": options.start_mode, "deposit_eur": options.deposit_eur,
            "courses": [{**course_view(c), "warnings": course_warnings(c),
                         "checkpoints": [checkpoint_view(cp) for cp in c.checkpoints.all()]}
                        for c in courses]}


def checkpoint_view(cp) -> dict:
    """A balise for its organisers: `typed_code` is printed under its QR."""
    return {"id": cp.pk, "code": cp.code, "name": cp.name, "lat": cp.lat, "lon": cp.lon,
            "qr": cp.qr, "typed_code": typed_code(cp.qr), "points": cp.points}


def _scored(entry: Entry, options: RaceOptions, now: datetime):
    facts = entry_facts(entry)
    points = course_points(entry.course)
    return facts, entry_score(facts, duration_s=entry.course.duration_s,
                              checkpoint_points=points, options=options, now=now)


def _status(entry: Entry, now: datetime) -> dict:
    key = status_key(entry, now)
    return {"key": key, "label": say(key)}


def survivor_entry_view(entry: Entry, now: datetime, options: RaceOptions | None = None) -> dict:
    """What the survivor's phone shows: lives, the deadline instant (the phone counts down
    from it), punches, the score estimate, the status. Never the phone number."""
    options = options or race_options(entry.event)
    facts, score = _scored(entry, options, now)
    codes = {cp.pk: cp for cp in entry.course.checkpoints.all()}
    return {**_header(entry, now, options, facts.lives_lost),
            **_race_part(entry, score, codes, options, facts)}


def _time_left(entry: Entry, now: datetime) -> float | None:
    """While racing; never below 0: once late, the phone shows how late from the deadline."""
    if entry.status != Entry.RACING or entry.deadline_at is None:
        return None
    return round(max(0.0, (entry.deadline_at - now).total_seconds()), 3)


def _header(entry: Entry, now: datetime, options: RaceOptions, lost: int) -> dict:
    return {
        "entry": {"id": entry.pk, "name": entry.name, "kind": entry.kind,
                  "members": entry.members, "carrier": entry.carrier, "finger": entry.finger,
                  "code": entry.character.code},
        "course": course_view(entry.course),
        "status": _status(entry, now),
        "lives": {"remaining": max(0, options.lives_initial - lost), "initial": options.lives_initial},
        "started_at": iso(entry.started_at), "deadline_at": iso(entry.deadline_at),
        "finished_at": iso(entry.finished_at), "time_left_s": _time_left(entry, now),
    }


def _race_part(entry: Entry, score, codes: dict, options: RaceOptions, facts) -> dict:
    return {
        "punches": [{"id": p.pk, "checkpoint": _punched(p, codes),
                     "at": iso(p.at), "source": p.source,
                     "counted": p.pk not in score.ignored,
                     "reason": say(score.ignored[p.pk]) if p.pk in score.ignored else None}
                    for p in sorted(entry.punches.all(), key=lambda p: (p.at, p.pk))],
        "found": len(score.found), "checkpoints": len(codes),
        "late_minutes": score.late_minutes,
        "score": score.score, "breakdown": score.breakdown(options, facts),
        "life_losses": [{"id": loss.pk, "cause": {"key": loss.cause, "label": say(loss.cause)},
                         "at": iso(loss.at), "took_life": loss.took_life,
                         "voided": loss.voided_at is not None, "void_reason": loss.void_reason}
                        for loss in entry.life_losses.all()],
    }


def _punched(punch, codes: dict) -> dict:
    """The balise punched: one of the course's, or another course's (not counted)."""
    cp = codes.get(punch.checkpoint_id) or punch.checkpoint
    return {"code": cp.code, "name": cp.name}


def organiser_entry_view(entry: Entry, now: datetime, options: RaceOptions | None = None) -> dict:
    view = survivor_entry_view(entry, now, options)
    # The organisers' warnings (points per balise not confirmed...) are theirs alone: a
    # runner who has found nothing yet reads no "-50 points" meant for the course setter.
    view["warnings"] = course_warnings(entry.course)
    view["entry"].update({
        "phone": entry.phone, "character": entry.character_id,
        "gear": {k: bool(entry.gear.get(k)) for k in ("vest", "light", "phone")},
        "gear_checked_at": iso(entry.gear_checked_at),
        "deposit_taken_at": iso(entry.deposit_taken_at),
        "deposit_returned_at": iso(entry.deposit_returned_at),
        "finger_returned_at": iso(entry.finger_returned_at),
        "ended_at": iso(entry.ended_at), "end_reason": entry.end_reason,
        "alerted_at": iso(entry.alerted_at)})
    for shown, loss in zip(view["life_losses"], entry.life_losses.all()):
        shown.update({"review": loss.review, "confirmations": loss.confirmations,
                      "no_life_left": loss.no_life_left, "note": loss.note})
    view["infractions"] = [{"id": i.pk, "kind": i.kind, "at": iso(i.at), "note": i.note,
                            "penalty_points": i.penalty_points} for i in entry.infractions.all()]
    return view


def entries_view(event: Event, now: datetime) -> dict:
    options = race_options(event)
    return {"event": event.pk,
            "entries": [organiser_entry_view(e, now, options) for e in entries_with_courses(event)]}


def courses_loaded(event: Event, course_ids=None) -> list[Course]:
    """The event's courses (all, or these) with their balises, in two queries."""
    courses = Course.objects.filter(event=event).prefetch_related("checkpoints")
    return list(courses.filter(pk__in=course_ids) if course_ids else courses)


def entries_with_courses(event: Event, courses: list[Course] | None = None,
                         **filters) -> list[Entry]:
    """Entries with what a view needs, their event and courses (and balises) loaded once;
    `courses` when the caller has them already (courses_loaded)."""
    entries = entries_loaded(event, **filters)
    by_id = {c.pk: c for c in (courses_loaded(event) if courses is None else courses)}
    for entry in entries:
        entry.event = event
        entry.course = by_id[entry.course_id]
    return entries


def entry_answer(entry: Entry, *, as_organiser: bool, now: datetime) -> dict:
    """One entry, fresh from the database, as the caller may see it."""
    loaded, = entries_with_courses(entry.event, pk=entry.pk)
    view = organiser_entry_view if as_organiser else survivor_entry_view
    return view(loaded, now)


# -- leaderboard and results ------------------------------------------------------------------

def _row(entry: Entry, options: RaceOptions, now: datetime) -> dict:
    facts, score = _scored(entry, options, now)
    return {"entry": {"id": entry.pk, "name": entry.name, "kind": entry.kind,
                      "members": entry.members, "finger": entry.finger},
            "name": entry.name, "status": _status(entry, now),
            "found": len(score.found), "checkpoints": len(entry.course.checkpoints.all()),
            "late_minutes": score.late_minutes, "lives_lost": facts.lives_lost,
            "elapsed_s": score.elapsed_s, "score": score.score,
            "breakdown": score.breakdown(options, facts), "classified": score.classified,
            "not_counted": _not_counted(score),
            "unclassified": _unclassified(entry, score.unclassified_reason, now), "rank": None}


def _not_counted(score) -> dict:
    """{reason: punches}: what the finger recorded that does not count, duplicates aside."""
    counts = {}
    for reason in score.ignored.values():
        if reason != "duplicate":
            counts[reason] = counts.get(reason, 0) + 1
    return counts


def _unclassified(entry: Entry, reason: str | None, now: datetime) -> dict | None:
    """Why a row is not ranked: its status (racing reads "overtime" once late) or a
    reason of its own (over the maximum lateness); an abandon or a disqualification with
    the organiser's reason and its instant."""
    if reason is None:
        return None
    key = status_key(entry, now) if reason == entry.status else reason
    shown = {"key": key, "label": say(key)}
    if entry.status in (Entry.DNF, Entry.DISQUALIFIED):
        # R09, R14: why, and the instant from which no punch counts.
        shown.update({"reason": entry.end_reason, "at": iso(entry.ended_at)})
    return shown


def leaderboard(event: Event, now: datetime, course_ids=None) -> list[dict]:
    """Per course: the finished entries ranked (score, then the tie-breaks), then the
    others (racing with their estimate, not started, DNF, disqualified)."""
    options = race_options(event)
    courses = courses_loaded(event, course_ids)
    entries = entries_with_courses(event, courses,
                                   **({"course_id__in": course_ids} if course_ids else {}))
    boards = []
    for course in courses:
        rows = [_row(e, options, now) for e in entries if e.course_id == course.pk]
        ranked = rank([r for r in rows if r["classified"]], options.tie_break)
        others = sorted((r for r in rows if not r["classified"]),
                        key=lambda r: (_ORDER[r["status"]["key"]],
                                       -(r["score"] if r["score"] is not None else -1e9), r["name"]))
        boards.append({"course": course_view(course), "warnings": course_warnings(course),
                       "ranking": ranked, "unranked": others})
    return boards


_ORDER = {"racing": 0, "overtime": 0, "finished": 1, "registered": 2, "dnf": 3, "disqualified": 4}

PUBLIC_FIELDS = ("rank", "name", "status", "found", "checkpoints", "late_minutes", "lives_lost",
                 "elapsed_s", "score", "unclassified", "not_counted")


def public_results(event: Event, now: datetime) -> dict:
    """The results anyone may read: names and scores, no phone, no finger, no bib code."""
    boards = leaderboard(event, now)
    return {"event": {"id": event.pk, "name": event.name}, "courses": [
        {"course": b["course"],
         "ranking": [_public_row(r) for r in b["ranking"]],
         "unranked": [_public_row(r) for r in b["unranked"]]} for b in boards]}


def _public_row(row: dict) -> dict:
    return {k: row[k] for k in PUBLIC_FIELDS} | {"kind": row["entry"]["kind"],
                                                 "members": row["entry"]["members"]}


# -- safety -----------------------------------------------------------------------------------

def still_out(entry: Entry) -> bool:
    """Out in the night: racing, or abandoned by phone and not yet back with the finger."""
    return entry.status == Entry.RACING or (
        entry.status == Entry.DNF and entry.finger_returned_at is None
        and entry.started_at is not None)


def safety_board(event: Event, now: datetime) -> dict:
    """Who is still out on each course, who is overdue and by how much, with the phone
    number given at registration; the most overdue first."""
    options = race_options(event)
    loaded = courses_loaded(event)
    entries = entries_with_courses(event, loaded)
    courses = []
    for course in loaded:
        out = []
        for entry in (e for e in entries if e.course_id == course.pk and still_out(e)):
            overdue = (now - entry.deadline_at).total_seconds() if entry.deadline_at else 0
            out.append({"entry": {"id": entry.pk, "name": entry.name, "kind": entry.kind,
                                  "carrier": entry.carrier, "members": entry.members,
                                  "finger": entry.finger},
                        "phone": entry.phone, "status": _status(entry, now),
                        "started_at": iso(entry.started_at), "deadline_at": iso(entry.deadline_at),
                        "overdue_s": round(max(0.0, overdue), 3),
                        "alert": overdue >= options.alert_after_s, "alerted_at": iso(entry.alerted_at),
                        "lives": lives_remaining(entry, options.lives_initial)})
        out.sort(key=lambda r: (-r["overdue_s"], r["entry"]["name"]))
        courses.append({"course": course_view(course), "still_out": len(out),
                        "overdue": sum(1 for r in out if r["overdue_s"] > 0), "entries": out})
    return {"event": event.pk, "alert_after_s": options.alert_after_s,
            "still_out": sum(c["still_out"] for c in courses), "courses": courses}
