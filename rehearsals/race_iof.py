"""The orienteering tools' files in a race rehearsal (docs/rehearse.md, docs/race.md):
the header's `iof:` (the courses from a CourseData, the entries from an EntryList) and
the `result_list` step (the ResultList the organisers export, read back as MeOS or
QuickEvent reads it, against the race's own ranking). Together, the round trip.

The files are read with the rehearsal file, so that a step naming an entry or a balise
is checked before anything is played, and imported, when played, through the
organisers' own import (race/services/iof_import.py). An imported entry's key is its
finger number ("101"), which is how the finish desk knows a runner.
"""
from __future__ import annotations

from pathlib import Path

from django.utils import timezone
from lxml import etree

from common.csv_rows import CsvRejected
from race.iof_xml import NS, children, iof_document, schema, tag, text
from race.models import Course, Entry
from race.options import STANDARD_COURSES
from race.selectors.boards import leaderboard
from race.selectors.iof_export import RACE_NS, result_list
from race.services.entries import GEAR, entry_gear_check
from race.services.iof_import import (control_positions, course_balises, entry_card,
                                      entry_class, iof_import)
from rulesets import RuleRefused
from rulesets.messages import pick

from rehearsals.script import (Step, StepFailed, checked_mapping, is_number, is_whole, parse_time,
                               race_key, reserved_key_check)

IOF_KEYS = {"courses", "entries", "duration"}
RESULT_FIELDS = {"position", "status", "score"}
# The standard's ResultStatus (IOF.xsd), not the exporter's own choice of them.
IOF_STATUSES = ("OK", "Finished", "MissingPunch", "Disqualified", "DidNotFinish", "Active",
                "Inactive", "OverTime", "SportingWithdrawal", "NotCompeting", "Moved", "MovedUp",
                "DidNotStart", "DidNotEnter", "Cancelled")
ENTRY_ELEMENTS = (tag("PersonEntry"), tag("TeamEntry"))


# -- reading the header ----------------------------------------------------------------
def read_iof(raw, folder: Path, taken: set) -> dict:
    """`iof: {courses: CourseData.xml, entries: EntryList.xml, duration: "1:40:00"}`
    (paths from the rehearsal file's folder) as the header's courses and entries."""
    spec = checked_mapping(raw, "iof", IOF_KEYS)
    if not {"courses", "entries"} <= set(spec):
        raise ValueError("iof: the courses (an IOF XML 3.0 CourseData file) and the entries "
                         "(an EntryList), e.g. iof: {courses: iof/CourseData.xml, "
                         "entries: iof/EntryList.xml}")
    duration = parse_time(spec["duration"], "iof.duration") if "duration" in spec else None
    files = {role: _file(spec[role], folder, f"iof.{role}") for role in ("courses", "entries")}
    courses, classes = _courses(_document(files["courses"], "CourseData"), duration)
    entries = _entries(_document(files["entries"], "EntryList"), courses, classes, taken)
    return {"files": files, "duration_s": duration, "courses": courses, "entries": entries}


def _file(value, folder: Path, where: str) -> bytes:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{where}: the file's path, from the rehearsal file's folder")
    try:
        return (folder / value).read_bytes()
    except OSError as exc:
        raise ValueError(f"{where}: cannot read {value}: {exc.strerror}") from None


def _document(raw: bytes, message: str):
    role = "courses" if message == "CourseData" else "entries"
    try:
        return iof_document(raw, roots=(message,))
    except CsvRejected as rejected:
        raise ValueError(f"iof.{role}: " + "; ".join(
            f"line {row['line']}: {pick(row['reason'], 'en')}" for row in rejected.rows)) from None


def _courses(root, duration: int | None) -> tuple[dict, dict]:
    """The courses as the header's `courses:` reads them, and {class: course name}."""
    race = root.find(tag("RaceCourseData"))
    controls, courses = control_positions(race), {}
    for course in children(race, "Course"):
        name = text(course, "Name")
        balises, bad = course_balises(course, controls)
        if bad:
            raise ValueError(f"iof.courses: line {bad[0]['line']}: {pick(bad[0]['reason'], 'en')}")
        standard = name.lower() in STANDARD_COURSES
        if not standard and duration is None:
            raise ValueError(f"iof.duration: course {name} takes its time allowed from here "
                             f"(only {', '.join(STANDARD_COURSES)} take theirs from the options)")
        courses[name] = {"duration_s": None if standard else duration, "points_per_checkpoint": None,
                         "checkpoints": {code: {"name": "", "points": points, "lat": lat, "lon": lon}
                                         for code, lat, lon, points in balises}}
    classes = {}
    for assignment in children(race, "ClassCourseAssignment"):
        classes.setdefault(text(assignment, "ClassName").casefold(), text(assignment, "CourseName"))
    return courses, classes


def _entries(root, courses: dict, classes: dict, taken: set) -> dict:
    """{finger: {name, course, finger}}: a class runs the course of its name, else the
    course it is assigned to, in the order the import decides (`iof_import._classes`)."""
    names = {name.casefold(): name for name in courses}
    entries = {}
    for element in (e for e in root if e.tag in ENTRY_ELEMENTS):
        where = f"iof.entries: line {element.sourceline}"
        try:
            card = entry_card(element)
        except RuleRefused as refused:
            raise ValueError(f"{where}: {pick(refused.params['detail'], 'en')}") from None
        if card is None:
            raise ValueError(f"{where}: a rehearsal names each entry by its finger, and this "
                             "one has no ControlCard")
        key = reserved_key_check(str(card), "iof.entries", taken)
        class_name = entry_class(element)
        folded = class_name.casefold()
        course = names.get(folded) or names.get(classes.get(folded, "").casefold())
        if course is None:
            raise ValueError(f"{where}: class {class_name!r} runs no course of the CourseData "
                             f"({', '.join(courses)})")
        entries[key] = {"name": text(element, "Name") or key, "course": course, "finger": card}
    if not entries:
        raise ValueError("iof.entries: the EntryList has no entry")
    return entries


def read_result_list(race: dict, value, own, kind) -> dict:
    """`result_list: {"101": {position: 1, status: OK, score: 65}}`, or `{}` for the
    round trip alone (every entry's position and score as the race ranks it)."""
    expected = {}
    for key, fields in checked_mapping(value, "result_list").items():
        key = race_key(key)
        where = f"result_list.{key}"
        if key not in race["entries"]:
            raise ValueError(f"result_list: unknown entry {key!r} (entries: {', '.join(race['entries'])})")
        fields = checked_mapping(fields, where, RESULT_FIELDS)
        if not fields:
            raise ValueError(f"{where}: what the file says, e.g. {{position: 1, status: OK, score: 65}}")
        if fields.get("position") is not None and not is_whole(fields["position"], 1):
            raise ValueError(f"{where}.position: a position from 1, or null (not ranked)")
        if "status" in fields and fields["status"] not in IOF_STATUSES:
            raise ValueError(f"{where}.status: one of {', '.join(IOF_STATUSES)}")
        if fields.get("score") is not None and not is_number(fields["score"]):
            raise ValueError(f"{where}.score: a number, or null")
        expected[key] = fields
    return {"expect": expected}


# -- playing ---------------------------------------------------------------------------
def results_read(root) -> dict:
    """{finger: {position, status, score}} as an orienteering tool reads the ResultList."""
    def at(element, path: str):
        return element.find("/".join(f"{{{NS}}}{part}" for part in path.split("/")))

    read = {}
    for result in root.iter(f"{{{NS}}}PersonResult"):
        card, position = at(result, "Result/ControlCard"), at(result, "Result/Position")
        score = at(result, "Result/Extensions").find(f"{{{RACE_NS}}}Race/{{{RACE_NS}}}Score")
        read[int(card.text)] = {"position": int(position.text) if position is not None else None,
                                "status": at(result, "Result/Status").text,
                                "score": float(score.text) if score is not None else None}
    return read


class IofSteps:
    """The `iof:` header's setup and the `result_list` step of race_playing.RaceSteps."""

    def iof_setup(self, iof: dict) -> None:
        """The CourseData, then the EntryList, through the organisers' import; every
        entry's gear checked, as the header's entries have it by default."""
        event, by = self.event(), self.narrator
        for role in ("courses", "entries"):
            self.where = f"iof.{role}"
            try:
                iof_import(event=event, raw=iof["files"][role], by=by, duration_s=iof["duration_s"])
            except CsvRejected as rejected:
                raise StepFailed([f"iof.{role}: line {row['line']}: {pick(row['reason'], 'en')}"
                                  for row in rejected.rows]) from None
        self.courses = dict(Course.objects.filter(event=event).values_list("name", "pk"))
        for entry in Entry.objects.filter(event=event):
            entry_gear_check(entry=entry, gear=dict.fromkeys(GEAR, True), by=by)
            self.entries[str(entry.finger)] = entry.pk

    def _result_list(self, step: Step) -> str:
        event, now = self.event(), timezone.now()
        root = etree.fromstring(result_list(event, now, public=False))
        if not schema().validate(root):
            raise StepFailed([f"the ResultList is not valid IOF XML 3.0: line {e.line}: {e.message}"
                              for e in list(schema().error_log)[:5]])
        read = results_read(root)
        problems = []
        for board in leaderboard(event, now):
            for row in board["ranking"] + board["unranked"]:
                key = self.entry_key(row["entry"]["id"])
                ours = {"position": row["rank"], "score": row["score"]}
                theirs = read.get(self.entry(key).finger, {})
                problems += [f"{key}: the ResultList says {field} {theirs.get(field)!r}, the race's "
                             f"ranking {value!r}" for field, value in ours.items()
                             if theirs.get(field) != value]
        for key, fields in step.race["expect"].items():
            theirs = read.get(self.entry(key).finger, {})
            problems += [f"{key}: the ResultList says {field} {theirs.get(field)!r}, expected {value!r}"
                         for field, value in fields.items() if theirs.get(field) != value]
        if problems:
            raise StepFailed(problems)
        return f"{len(read)} results, valid IOF XML 3.0, ranked and scored as the race ranks them"
