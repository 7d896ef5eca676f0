"""The race as the orienteering tools read it (IOF XML 3.0): a StartList and a ResultList,
one class per course, for MeOS, QuickEvent or a club's website.

The ResultList is the project's own results (selectors/boards.py leaderboard): the same
ranks, statuses and scores. Statuses per IOF: OK (finished and ranked), OverTime (over
the maximum lateness), DidNotFinish, Disqualified, Active (still racing), Inactive (not
started). Times are whole seconds from the entry's start; a split per balise of the
course, in its order (Missing when not found). What IOF has no element for, the score,
its points and penalties and the lives, is written in the project's own namespace inside
the standard's Extensions, as the standard allows. Instants are ISO 8601 with the race's
zone offset. A team is written as one competitor named after the team (it has one finger
and one result), its members in the extension.

`public`: what the public results page may show (names, statuses, times, scores): no
finger, club or phone ever; the organisers' export adds the finger and the club.
"""
from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from lxml import etree

from players.models import Event

from ..iof_xml import NS
from ..options import race_options
from ..scoring import entry_score
from .boards import courses_loaded, entries_with_courses, leaderboard
from .entries import course_points, entry_facts

RACE_NS = "urn:live-game-companion:iof:zombie-race:1"
CREATOR = "Live game companion (zombie race)"
STATUS = {"finished": "OK", "over_max_late": "OverTime", "dnf": "DidNotFinish",
          "disqualified": "Disqualified", "racing": "Active", "overtime": "Active",
          "registered": "Inactive"}
NSMAP = {None: NS, "race": RACE_NS}


def _iso(at: datetime | None, zone: ZoneInfo) -> str | None:
    return at.astimezone(zone).isoformat(timespec="seconds") if at else None


def _add(parent, name: str, value=None, ns: str = NS, **attributes):
    element = etree.SubElement(parent, f"{{{ns}}}{name}", {k: str(v) for k, v in attributes.items()})
    if value is not None:
        element.text = str(value)
    return element


def _root(message: str, event: Event, now: datetime, zone: ZoneInfo, **attributes):
    root = etree.Element(f"{{{NS}}}{message}", nsmap=NSMAP, iofVersion="3.0",
                         createTime=_iso(now, zone), creator=CREATOR, **attributes)
    _add(_add(root, "Event"), "Name", event.name)
    return root


def _person(parent, entry, *, public: bool) -> None:
    person = _add(parent, "Person")
    given, _, family = entry.name.partition(" ") if entry.kind == "solo" else ("", "", entry.name)
    name = _add(person, "Name")
    _add(name, "Family", family or given)
    _add(name, "Given", given if family else "")
    if entry.club and not public:
        _add(_add(parent, "Organisation"), "Name", entry.club)


def _class(parent, course, element: str):
    block = _add(parent, element)
    _add(_add(block, "Class"), "Name", course.name)
    return block


def _document(root) -> bytes:
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True)


def start_list(event: Event, now: datetime, *, public: bool) -> bytes:
    """Who starts on which course, when (the start, or the course's mass start), with
    which finger (organisers only)."""
    zone = race_options(event).zone()
    root = _root("StartList", event, now, zone)
    courses = courses_loaded(event)
    entries = entries_with_courses(event, courses)
    for course in courses:
        block = _class(root, course, "ClassStart")
        _add(block, "Course").append(_name(course.name))
        for entry in (e for e in entries if e.course_id == course.pk):
            start = _add(block, "PersonStart")
            _person(start, entry, public=public)
            race = _add(start, "Start")
            at = entry.started_at or course.mass_started_at
            if at:
                _add(race, "StartTime", _iso(at, zone))
            if entry.finger and not public:
                _add(race, "ControlCard", entry.finger)
    return _document(root)


def _name(text: str):
    element = etree.Element(f"{{{NS}}}Name")
    element.text = text
    return element


def result_list(event: Event, now: datetime, *, public: bool) -> bytes:
    """The results as the boards rank them, with splits and the race's own numbers."""
    options = race_options(event)
    zone = options.zone()
    boards = leaderboard(event, now)
    rows = [row for board in boards for row in board["ranking"] + board["unranked"]]
    complete = all(r["status"]["key"] not in ("racing", "overtime", "registered") for r in rows)
    root = _root("ResultList", event, now, zone, status="Complete" if complete else "Snapshot")
    courses = {c.pk: c for c in courses_loaded(event)}
    entries = {e.pk: e for e in entries_with_courses(event, list(courses.values()))}
    for board in boards:
        course = courses[board["course"]["id"]]
        block = _class(root, course, "ClassResult")
        _add(block, "Course").append(_name(course.name))
        for row in board["ranking"] + board["unranked"]:
            _person_result(block, entries[row["entry"]["id"]], row, options, now, public=public)
    return _document(root)


def _status(row: dict) -> str:
    key = row["unclassified"]["key"] if row["unclassified"] else row["status"]["key"]
    return STATUS[key]


def _person_result(parent, entry, row: dict, options, now: datetime, *, public: bool) -> None:
    zone = options.zone()
    element = _add(parent, "PersonResult")
    _person(element, entry, public=public)
    result = _add(element, "Result")
    if entry.started_at:
        _add(result, "StartTime", _iso(entry.started_at, zone))
    if entry.finished_at:
        _add(result, "FinishTime", _iso(entry.finished_at, zone))
        _add(result, "Time", round(row["elapsed_s"]))
    if row["rank"] is not None:
        _add(result, "Position", row["rank"])
    _add(result, "Status", _status(row))
    _splits(result, entry, options, now)
    if entry.finger and not public:
        _add(result, "ControlCard", entry.finger)
    _race_extension(_add(result, "Extensions"), entry, row, options)


def _splits(result, entry, options, now: datetime) -> None:
    """Every balise of the course in its order: the counted punch's seconds from the
    start, or Missing."""
    points = course_points(entry.course)
    score = entry_score(entry_facts(entry), duration_s=entry.course.duration_s,
                        checkpoint_points=points, options=options, now=now)
    for cp in entry.course.checkpoints.all():
        at = score.found.get(cp.pk)
        if at is None or entry.started_at is None:
            split = _add(result, "SplitTime", status="Missing")
            _add(split, "ControlCode", cp.code)
            continue
        split = _add(result, "SplitTime")
        _add(split, "ControlCode", cp.code)
        _add(split, "Time", round((at - entry.started_at).total_seconds()))


def _race_extension(extensions, entry, row: dict, options) -> None:
    race = _add(extensions, "Race", ns=RACE_NS)
    if row["score"] is not None:
        _add(race, "Score", _number(row["score"]), ns=RACE_NS)
    breakdown = row["breakdown"]
    _add(race, "Points", _number(breakdown["points"]), ns=RACE_NS)
    _add(race, "Penalties", ns=RACE_NS, **{k: _number(-v) for k, v in breakdown.items() if k != "points"})
    _add(race, "Found", row["found"], ns=RACE_NS, of=row["checkpoints"])
    _add(race, "LateMinutes", row["late_minutes"], ns=RACE_NS)
    _add(race, "Lives", ns=RACE_NS, initial=options.lives_initial, lost=row["lives_lost"],
         remaining=max(0, options.lives_initial - row["lives_lost"]))
    for member in entry.members:
        _add(race, "Member", member, ns=RACE_NS)
    if row["unclassified"] and row["unclassified"].get("reason"):
        _add(race, "Reason", row["unclassified"]["reason"], ns=RACE_NS)


def _number(value) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)
