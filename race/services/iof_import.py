"""The race's entries and courses from the orienteering tools' own files (IOF XML 3.0): an
EntryList from an online entry system, a CourseData from course-setting software (OCAD,
Purple Pen, Condes). All or nothing, like the CSV imports: every bad element is listed
with its line and reason (CsvRejected), and nothing is imported if any is bad.

EntryList: each PersonEntry is a solo entry, each TeamEntry a team (its members in leg
order; the team's one finger is the first member's card). The entry's Class names its
course: the course a CourseData assigned the class to, else the course of that name. A
missing ControlCard (a rented card) registers the entry without a finger; the phone comes
from the person's Contact when given.

CourseData: the first RaceCourseData. Each Course is a course of the race (a new one, or
one the race has without balises yet); its controls (not the start and finish) are its
balises, with their Position as coordinates and their Score, when given, as their points;
a control visited twice is one balise. ClassCourseAssignment gives a course its classes.
"""
from __future__ import annotations

from django.db import transaction

from common.csv_rows import CsvRejected
from common.i18n import message_labels
from common.locks import REGISTRATION, xact_lock
from common.numbers import whole_number
from players.models import Event
from rulesets import RuleRefused

from ..iof_xml import children, iof_document, tag, text
from ..labels import say
from ..models import Checkpoint, Course, Entry
from ..options import race_options
from ..publish import race_changed_on_commit
from ..readout import FINGER_MAX
from .courses import checkpoint_create, course_create
from .entries import members_check, phone_check
from .entries_import import entry_rows_register

NAME_MAX = Entry._meta.get_field("name").max_length
CLUB_MAX = Entry._meta.get_field("club").max_length
CODE_MAX = Checkpoint._meta.get_field("code").max_length
COURSE_MAX = Course._meta.get_field("name").max_length
PHONES = ("MobilePhoneNumber", "PhoneNumber")


@transaction.atomic
def iof_import(*, event: Event, raw: bytes, by, duration_s: int | None = None) -> dict:
    """An IOF XML 3.0 EntryList or CourseData into the race, or CsvRejected with every
    reason. `duration_s`: the time allowed on a new course of the CourseData whose name is
    not one of the standard ones."""
    root = iof_document(raw, roots=("EntryList", "CourseData"))
    if root.tag == tag("CourseData"):
        return {"message": "CourseData", **_courses_import(event, root, by, duration_s)}
    xact_lock(REGISTRATION, event.pk)
    return {"message": "EntryList", **_entries_import(event, root, by)}


# -- EntryList --------------------------------------------------------------------------------

def _person_name(person) -> str:
    return " ".join(filter(None, (text(person, "Name/Given"), text(person, "Name/Family"))))


def _phone(person) -> str:
    for kind in PHONES:
        for contact in children(person, "Contact"):
            if contact.get("type") == kind and (contact.text or "").strip():
                return phone_check(contact.text)
    return ""


def entry_card(element) -> int | None:
    """A PersonEntry's or TeamEntry's one finger: the person's card, or the first card of
    the team in leg order; None for a rented card (RuleRefused when not a card number)."""
    if element.tag == tag("PersonEntry"):
        return _card(element)
    cards = [c for c in (_card(p) for p in _team_people(element)) if c is not None]
    return cards[0] if cards else None


def entry_class(element) -> str:
    return text(element, "Class/Name") or text(element, "Class/ShortName")


def _team_people(element) -> list:
    return sorted(children(element, "TeamEntryPerson"), key=lambda p: (
        whole_number(text(p, "Leg")) or 0, whole_number(text(p, "LegOrder")) or 0))


def _card(element) -> int | None:
    raw = text(element, "ControlCard")
    if not raw:
        return None
    card = whole_number(raw, minimum=1, maximum=FINGER_MAX)
    if card is None:
        raise RuleRefused("bad_input", detail=say("iof_card", value=raw[:40]))
    return card


def _entry_row(element, classes: dict) -> dict:
    """A PersonEntry or TeamEntry as an entry's row, or RuleRefused naming the problem."""
    card = entry_card(element)
    if element.tag == tag("PersonEntry"):
        person = element.find(tag("Person"))
        name, kind, members = _person_name(person), Entry.SOLO, []
        phone = _phone(person)
    else:
        people = _team_people(element)
        name, kind = text(element, "Name"), Entry.TEAM
        members = members_check(kind, [_person_name(p.find(tag("Person"))) for p in people
                                        if p.find(tag("Person")) is not None])
        phone = next((ph for ph in (_phone(p.find(tag("Person"))) for p in people
                                    if p.find(tag("Person")) is not None) if ph), "")
    if not name or len(name) > NAME_MAX:
        raise RuleRefused("bad_input", detail=say("iof_name", max=str(NAME_MAX)))
    class_name = entry_class(element)
    course = classes.get(class_name.casefold())
    if course is None:
        known = ", ".join(sorted({c.name for c in classes.values()})) or "-"
        raise RuleRefused("bad_input", detail=say("iof_no_course", name=class_name[:60], known=known))
    club = " / ".join(text(org, "Name") for org in children(element, "Organisation"))[:CLUB_MAX]
    return {"name": name, "course": course, "finger": card, "kind": kind, "phone": phone,
            "members": members, "carrier": members[0] if members else "", "deposit": False,
            "club": club}


def _classes(event: Event) -> dict:
    """{class name, case folded: course}: the CourseData's assignments, then the courses'
    own names."""
    courses = list(Course.objects.filter(event=event))
    found = {c.name.casefold(): c for c in courses}
    for course in courses:
        for name in course.classes:
            found.setdefault(name.casefold(), course)
    return found


def _entries_import(event: Event, root, by) -> dict:
    classes = _classes(event)
    fingers = {f: n for f, n in Entry.objects.filter(event=event, finger__isnull=False)
               .values_list("finger", "name")}
    registered = set(Entry.objects.filter(event=event).values_list("name", "course_id"))
    rows, bad = [], []
    for element in [e for e in root if e.tag in (tag("PersonEntry"), tag("TeamEntry"))]:
        try:
            row = _entry_row(element, classes)
            if row["finger"] in fingers:
                raise RuleRefused("race_finger_taken", finger=str(row["finger"]),
                                  name=fingers[row["finger"]])
            if (row["name"], row["course"].pk) in registered:
                raise RuleRefused("bad_input", detail=say("iof_already", name=row["name"],
                                                          course=row["course"].name))
        except RuleRefused as refused:
            bad.append({"line": element.sourceline, "reason": _reason(refused)})
            continue
        if row["finger"] is not None:
            fingers[row["finger"]] = row["name"]
        registered.add((row["name"], row["course"].pk))
        rows.append(row)
    if not rows and not bad:
        bad.append({"line": root.sourceline, "reason": say("entries_empty")})
    if bad:
        raise CsvRejected(bad)
    return entry_rows_register(event=event, rows=rows, by=by)


def _reason(refused: RuleRefused) -> dict:
    if refused.code == "bad_input":
        return refused.params["detail"]
    return message_labels(refused.code, **refused.params)


# -- CourseData -------------------------------------------------------------------------------

def control_positions(race) -> dict:
    """{control code: (lat, lon) or (None, None)} of the file's Control elements."""
    found = {}
    for control in children(race, "Control"):
        position = control.find(tag("Position"))
        found[text(control, "Id")] = ((float(position.get("lat")), float(position.get("lng")))
                                      if position is not None else (None, None))
    return found


def course_balises(course, controls: dict) -> tuple[list[tuple], list[dict]]:
    """([(code, lat, lon, points or None)] in course order, once each; bad elements)."""
    name, balises, bad, seen = text(course, "Name"), [], [], set()
    for leg in children(course, "CourseControl"):
        if leg.get("type", "Control") != "Control":
            continue                            # the start, the finish, a map exchange
        code = text(leg, "Control")
        if not code or len(code) > CODE_MAX:
            bad.append({"line": leg.sourceline, "reason": say("iof_code", code=code, max=str(CODE_MAX))})
        elif code not in controls:
            bad.append({"line": leg.sourceline, "reason": say("iof_control", code=code, course=name)})
        elif code not in seen:
            score = text(leg, "Score")
            points = whole_number(score.removesuffix(".0"), maximum=10_000) if score else None
            if score and points is None:
                bad.append({"line": leg.sourceline, "reason": say("iof_score", value=score, code=code)})
            seen.add(code)
            balises.append((code, *controls[code], points))
    return balises, bad


def _course_target(event: Event, course, durations: dict, duration_s) -> tuple[object, dict | None]:
    """(the race's course of that name, or None to create; a bad element or None)."""
    name = text(course, "Name")
    if not name or len(name) > COURSE_MAX:
        return None, {"line": course.sourceline, "reason": say("iof_name", max=str(COURSE_MAX))}
    existing = Course.objects.filter(event=event, name__iexact=name).first()
    if existing is not None and existing.checkpoints.exists():
        return None, {"line": course.sourceline, "reason": say("iof_course_exists", course=name)}
    if existing is None and name.lower() not in durations and duration_s is None:
        return None, {"line": course.sourceline, "reason": say("iof_duration", course=name)}
    return existing, None


def _assignments(race, names: set[str], event: Event) -> tuple[dict, list[dict]]:
    """{course name, case folded: [class names]}: the first course given to each class."""
    given, found, bad = set(), {}, []
    race_names = {n.casefold() for n in Course.objects.filter(event=event).values_list("name", flat=True)}
    for assignment in children(race, "ClassCourseAssignment"):
        cls, course = text(assignment, "ClassName"), text(assignment, "CourseName").casefold()
        if course not in names and course not in race_names:
            bad.append({"line": assignment.sourceline, "reason": say(
                "iof_class_course", name=cls, course=text(assignment, "CourseName"))})
        elif cls.casefold() not in given:
            given.add(cls.casefold())
            found.setdefault(course, []).append(cls)
    return found, bad


def _courses_import(event: Event, root, by, duration_s) -> dict:
    race = root.find(tag("RaceCourseData"))
    controls = control_positions(race)
    durations = race_options(event).durations
    plans, bad = [], []
    for course in children(race, "Course"):
        target, problem = _course_target(event, course, durations, duration_s)
        balises, problems = course_balises(course, controls)
        bad += ([problem] if problem else []) + problems
        plans.append((text(course, "Name"), target, balises))
    assigned, problems = _assignments(race, {name.casefold() for name, _, _ in plans}, event)
    bad += problems
    if bad:
        raise CsvRejected(bad)
    made = []
    for name, course, balises in plans:
        if course is None:
            course = course_create(event=event, name=name, by=by,
                                   duration_s=None if name.lower() in durations else duration_s)
        for code, lat, lon, points in balises:
            checkpoint_create(course=course, code=code, name="", lat=lat, lon=lon, points=points, by=by)
        made.append({"id": course.pk, "name": course.name, "balises": len(balises)})
    for course in Course.objects.filter(event=event):
        classes = assigned.get(course.name.casefold())
        if classes:
            course.classes = sorted(set(course.classes) | set(classes))
            course.save(update_fields=["classes"])
    race_changed_on_commit(event_id=event.pk, course_ids=[c["id"] for c in made])
    return {"imported": len(made), "courses": made,
            "classes": {c.name: c.classes for c in Course.objects.filter(event=event) if c.classes}}
