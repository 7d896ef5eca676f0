"""The zombie race's header in a rehearsal file (docs/rehearse.md, docs/race.md): the
courses with their balises, the entries (or the orienteering files they come from,
race_iof.py), the zombies and the marshals, checked and normalised before anything is
played. Also the check on a balise's number that the race steps and expectations share.
"""
from __future__ import annotations

import re
from pathlib import Path

from race.models import Entry
from race.options import RULESET, STANDARD_COURSES
from race.services.entries import GEAR

from rehearsals.race_iof import read_iof
from rehearsals.script import (RACE_HEADER_KEYS, checked_mapping, is_number, is_whole, parse_time,
                               reserved_key_check)

COURSE_KEYS = {"duration", "points_per_checkpoint", "checkpoints"}
CHECKPOINT_KEYS = {"name", "points", "lat", "lon"}
ENTRY_KEYS = {"name", "course", "finger", "kind", "members", "carrier", "phone", "deposit", "gear"}
PERSON_KEYS = {"name"}
CODE = re.compile(r"^[A-Za-z0-9_-]{1,20}$")        # a balise's number, as the API takes it
MAX_FINGER = 2**31 - 1
DEFAULT_PHONE = "06 00 00 00 00"


def read_header(data: dict, ruleset, characters: dict, folder: Path) -> dict | None:
    """The race part of a file's header (courses and entries, or the orienteering files
    they come from; zombies, marshals), normalised; None for a file of another ruleset,
    which may not have one. `folder`: where the file is, from which `iof:` paths go."""
    present = [key for key in RACE_HEADER_KEYS if key in data]
    if ruleset.key != RULESET:
        if present:
            raise ValueError(f"{present[0]}: only a race (ruleset {RULESET}) declares "
                             f"{', '.join(RACE_HEADER_KEYS)}")
        return None
    taken = set(characters)
    zombies = _people(data.get("zombies"), "zombies", taken)
    marshals = _people(data.get("marshals"), "marshals", taken)
    if "iof" in data:
        if "courses" in data or "entries" in data:
            raise ValueError("iof: the courses and entries come from the orienteering files; "
                             "write them there, not beside")
        iof = read_iof(data["iof"], folder, taken)
        return {"courses": iof["courses"], "entries": iof["entries"], "zombies": zombies,
                "marshals": marshals, "iof": iof}
    courses = _courses(data.get("courses"))
    entries = _entries(data.get("entries"), courses, taken)
    return {"courses": courses, "entries": entries, "zombies": zombies, "marshals": marshals}


def balise_code(value, where: str) -> str:
    code = str(value) if is_whole(value) else value
    if not isinstance(code, str) or not CODE.match(code):
        raise ValueError(f"{where}: {value!r} is not a balise number (1 to 20 letters, digits, "
                         "- or _)")
    return code


def _courses(raw) -> dict:
    courses = checked_mapping(raw, "courses")
    if not courses:
        raise ValueError("courses: a race needs at least one course, e.g. "
                         "famille: {points_per_checkpoint: 20, checkpoints: [31, 32, 33, 34]}")
    out, names = {}, set()
    for name, spec in courses.items():
        where = f"courses.{name}"
        if not isinstance(name, str) or not name.strip() or len(name) > 60:
            raise ValueError(f"courses: {name!r} is not a course name (1 to 60 characters)")
        if name.casefold() in names:
            raise ValueError(f"{where}: a course of that name is already declared")
        names.add(name.casefold())
        spec = checked_mapping(spec, where, COURSE_KEYS)
        duration = None
        if "duration" in spec:
            duration = parse_time(spec["duration"], f"{where}.duration")
            if duration < 60:
                raise ValueError(f"{where}.duration: at least 1:00")
        elif name.lower() not in STANDARD_COURSES:
            raise ValueError(f"{where}.duration is required: only {', '.join(STANDARD_COURSES)} "
                             "take theirs from the options")
        points = spec.get("points_per_checkpoint")
        if points is not None and not is_whole(points):
            raise ValueError(f"{where}.points_per_checkpoint: a whole number of points (0 or more)")
        out[name] = {"duration_s": duration, "points_per_checkpoint": points,
                     "checkpoints": _checkpoints(spec.get("checkpoints"), f"{where}.checkpoints")}
    return out


def _checkpoints(raw, where: str) -> dict:
    """A list of balise numbers, or numbers with their own name, points, position."""
    if isinstance(raw, list):
        items = [(code, None) for code in raw]
    elif isinstance(raw, dict):
        items = list(raw.items())
    else:
        raise ValueError(f"{where}: a list of balise numbers, e.g. [31, 32, 33]")
    if not items:
        raise ValueError(f"{where}: at least one balise")
    out = {}
    for value, spec in items:
        code = balise_code(value, where)
        if code.casefold() in {c.casefold() for c in out}:
            raise ValueError(f"{where}: balise {code} is there twice")
        spec = checked_mapping(spec, f"{where}.{code}", CHECKPOINT_KEYS)
        if spec.get("points") is not None and not is_whole(spec["points"]):
            raise ValueError(f"{where}.{code}.points: a whole number of points (0 or more)")
        if ("lat" in spec) != ("lon" in spec) or not all(is_number(spec[k]) for k in ("lat", "lon")
                                                        if k in spec):
            raise ValueError(f"{where}.{code}: lat and lon go together, as numbers")
        out[code] = {"name": str(spec.get("name") or ""), "points": spec.get("points"),
                     "lat": spec.get("lat"), "lon": spec.get("lon")}
    return out


def _people(raw, what: str, taken: set) -> dict:
    """Zombies or marshals: key -> {name}."""
    out = {}
    for key, spec in checked_mapping(raw, what).items():
        reserved_key_check(key, what, taken)
        spec = checked_mapping(spec, f"{what}.{key}", PERSON_KEYS)
        out[key] = {"name": str(spec.get("name") or key)}
    return out


def _entries(raw, courses: dict, taken: set) -> dict:
    entries = checked_mapping(raw, "entries")
    if not entries:
        raise ValueError("entries: a race needs at least one entry, e.g. "
                         "lucie: {course: famille, finger: 101}")
    out, fingers = {}, {}
    for key, spec in entries.items():
        where = f"entries.{key}"
        reserved_key_check(key, "entries", taken)
        spec = checked_mapping(spec, where, ENTRY_KEYS)
        course = spec.get("course")
        if not isinstance(course, str) or course not in courses:
            raise ValueError(f"{where}.course: unknown course {course!r} "
                             f"(courses: {', '.join(courses)})")
        finger = spec.get("finger")
        if not is_whole(finger, 1, MAX_FINGER):
            raise ValueError(f"{where}.finger: the finger's number is required (a whole number "
                             "from 1)")
        if finger in fingers:
            raise ValueError(f"{where}.finger: {finger} is already the finger of {fingers[finger]}")
        fingers[finger] = key
        members = spec.get("members", [])
        if not isinstance(members, list) or \
                not all(isinstance(m, str) and m.strip() for m in members):
            raise ValueError(f"{where}.members: a list of names")
        kind = spec.get("kind", Entry.TEAM if members else Entry.SOLO)
        if kind not in (Entry.SOLO, Entry.TEAM):
            raise ValueError(f"{where}.kind: solo or team, not {kind!r}")
        if kind == Entry.TEAM and len(members) < 2:
            raise ValueError(f"{where}.members: a team has at least two members")
        if kind == Entry.SOLO and members:
            raise ValueError(f"{where}: a solo survivor has no members (write kind: team)")
        carrier = spec.get("carrier", "")
        if carrier and (not isinstance(carrier, str)
                        or carrier.casefold() not in {m.casefold() for m in members}):
            raise ValueError(f"{where}.carrier: one of the members "
                             f"({', '.join(members) or 'none'})")
        phone = spec.get("phone", DEFAULT_PHONE)
        if not isinstance(phone, str):
            raise ValueError(f"{where}.phone: write the number in quotes, e.g. \"06 12 34 56 78\"")
        deposit = spec.get("deposit", True)
        if not isinstance(deposit, bool):
            raise ValueError(f"{where}.deposit: true or false")
        out[key] = {"name": str(spec.get("name") or key), "course": course, "finger": finger,
                    "kind": kind, "members": members, "carrier": carrier, "phone": phone,
                    "deposit": deposit, "gear": _gear(spec.get("gear", True), f"{where}.gear")}
    return out


def _gear(value, where: str) -> dict | None:
    """true: everything checked; false: nothing (no check yet); {vest, light, phone}."""
    if value is True:
        return {item: True for item in GEAR}
    if value is False:
        return None
    spec = checked_mapping(value, where, set(GEAR))
    if not spec or not all(isinstance(v, bool) for v in spec.values()):
        raise ValueError(f"{where}: true, false or {{vest: true, light: true, phone: false}}")
    return spec
