"""The zombie race in a rehearsal (docs/rehearse.md, docs/race.md): the courses, entries,
zombies and marshals a race file declares in its header; the race steps, played through
the race services (race/services/) as the organisers', zombies', marshals' and
survivors' phones call them; the `race` and `safety` expectations, read from the views
the phones and the organisers' screens get (race/selectors/boards.py); and the overdue
alerts, rung at their own instants as the server's task would ring them.

rehearsal_file.py reads the generic parts of a file and hands the race ones to the
readers here; rehearsal.py plays the steps with the RaceSteps methods.
"""
from __future__ import annotations

import re
import secrets
from datetime import datetime, timezone as dt_timezone
from functools import cached_property
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils import timezone

from players.models import Membership
from race.selectors.boards import (entries_with_courses, leaderboard, safety_board,
                                   survivor_entry_view)
from race.labels import say
from race.models import Checkpoint, Course, Entry, Infraction, LifeLoss, Punch
from race.options import RULESET, STANDARD_COURSES, race_options
from race.readout import ReadoutRejected
from race.scoring import AFTER_FINISH, AFTER_LIMIT, BEFORE_START, DUPLICATE
from race.services.alerts import entry_alert
from race.services.courses import checkpoint_create, course_create, course_points_confirm
from race.services.entries import GEAR, entry_gear_check, entry_register, zombie_create
from race.services.lives import infraction_record, life_loss_void, grab_record, zone_loss_record
from race.services.punches import punch_record, punches_import
from race.services.running import (course_start, entry_abandon, entry_disqualify,
                                   entry_finger_return, entry_finish, entry_start)
from rulesets import RuleRefused
from rulesets.messages import pick

from rehearsals.script import (CLOCK, NARRATOR, RACE_HEADER_KEYS, SAFETY, Step, StepFailed,
                             _mapping, format_time, parse_time)

# A race night: `at: "0:00"` is 22:00 on 1 January 2000 in the race's time zone (option
# time_zone), so that a finger readout's HH:MM:SS reads like the night's; still long
# before any real event (see rehearsal.START).
NIGHT = (2000, 1, 1, 22, 0)
COURSE_KEYS = {"duration", "points_per_checkpoint", "checkpoints"}
CHECKPOINT_KEYS = {"name", "points", "lat", "lon"}
ENTRY_KEYS = {"name", "course", "finger", "kind", "members", "carrier", "phone", "deposit", "gear"}
PERSON_KEYS = {"name"}
CODE = re.compile(r"^[A-Za-z0-9_-]{1,20}$")        # a balise's number, as the API takes it
MAX_FINGER = 2**31 - 1
DEFAULT_PHONE = "06 00 00 00 00"
CONFIRMATIONS = ("not_fast_running", "not_near_checkpoint", "no_contact", "not_on_open_road",
                 "target_not_panicking")          # race.services.lives.grab_confirmations
STATUSES = ("registered", "racing", "overtime", "finished", "dnf", "disqualified")
IGNORED = (BEFORE_START, AFTER_LIMIT, AFTER_FINISH, DUPLICATE)
RACE_FIELDS = {"status", "lives", "punches", "found", "late_minutes", "score", "rank",
               "elapsed", "time_left"}
PUNCH_FIELDS = {"code", "counted", "reason"}
SAFETY_FIELDS = {"still_out", "overdue", "alerted"}
DEFAULT_REASON = {"void": "voided by an organiser", "disqualify": "disqualified by an organiser"}

# Who plays each step: an organiser (`by: narrator`, the default), the entry's own phone
# (`by: <entry key>`), a zombie or a marshal of the header; as the race API lets them.
ORGANISER, OWN_PHONE, ZOMBIE, MARSHAL = "organiser", "entry", "zombie", "marshal"
WHO = {"race_start": {ORGANISER}, "gear": {ORGANISER}, "import": {ORGANISER},
       "punch": {ORGANISER, OWN_PHONE}, "grab": {ZOMBIE, ORGANISER},
       "out_of_zone": {MARSHAL, ORGANISER}, "forbidden_path": {MARSHAL, ORGANISER},
       "void": {ORGANISER}, "infraction": {ORGANISER, MARSHAL, ZOMBIE},
       "finish": {ORGANISER}, "finger_return": {ORGANISER}, "dnf": {ORGANISER, OWN_PHONE},
       "disqualify": {ORGANISER}}
WHO_WORDS = {ORGANISER: "an organiser (by: narrator)",
             OWN_PHONE: "the entry's own phone (by: <entry key>)",
             ZOMBIE: "a zombie (by: <zombie key>)", MARSHAL: "a marshal (by: <marshal key>)"}
ROLE_WORDS = {ORGANISER: "an organiser", OWN_PHONE: "an entry", ZOMBIE: "a zombie",
              MARSHAL: "a marshal", None: "a character"}


# -- the header ------------------------------------------------------------------------
def read_header(data: dict, ruleset, characters: dict) -> dict | None:
    """The race part of a file's header (courses, entries, zombies, marshals), normalised;
    None for a file of another ruleset, which may not have one."""
    present = [key for key in RACE_HEADER_KEYS if key in data]
    if ruleset.key != RULESET:
        if present:
            raise ValueError(f"{present[0]}: only a race (ruleset {RULESET}) declares "
                             f"{', '.join(RACE_HEADER_KEYS)}")
        return None
    taken = set(characters)
    courses = _courses(data.get("courses"))
    zombies = _people(data.get("zombies"), "zombies", taken)
    marshals = _people(data.get("marshals"), "marshals", taken)
    entries = _entries(data.get("entries"), courses, taken)
    return {"courses": courses, "entries": entries, "zombies": zombies, "marshals": marshals}


def _whole(value, low: int = 0, high: int | None = None) -> bool:
    return (isinstance(value, int) and not isinstance(value, bool) and value >= low
            and (high is None or value <= high))


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _key(key, where: str, taken: set) -> str:
    if not isinstance(key, str) or key in (NARRATOR, CLOCK, SAFETY):
        raise ValueError(f"{where}: '{key}' cannot be a key ('{NARRATOR}', '{CLOCK}' and "
                         f"'{SAFETY}' are reserved)")
    if key in taken:
        raise ValueError(f"{where}: '{key}' is already the key of someone else in the file")
    taken.add(key)
    return key


def _code(value, where: str) -> str:
    code = str(value) if _whole(value) else value
    if not isinstance(code, str) or not CODE.match(code):
        raise ValueError(f"{where}: {value!r} is not a balise number (1 to 20 letters, digits, "
                         "- or _)")
    return code


def _courses(raw) -> dict:
    courses = _mapping(raw, "courses")
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
        spec = _mapping(spec, where, COURSE_KEYS)
        duration = None
        if "duration" in spec:
            duration = parse_time(spec["duration"], f"{where}.duration")
            if duration < 60:
                raise ValueError(f"{where}.duration: at least 1:00")
        elif name.lower() not in STANDARD_COURSES:
            raise ValueError(f"{where}.duration is required: only {', '.join(STANDARD_COURSES)} "
                             "take theirs from the options")
        points = spec.get("points_per_checkpoint")
        if points is not None and not _whole(points):
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
        code = _code(value, where)
        if code.casefold() in {c.casefold() for c in out}:
            raise ValueError(f"{where}: balise {code} is there twice")
        spec = _mapping(spec, f"{where}.{code}", CHECKPOINT_KEYS)
        if spec.get("points") is not None and not _whole(spec["points"]):
            raise ValueError(f"{where}.{code}.points: a whole number of points (0 or more)")
        if ("lat" in spec) != ("lon" in spec) or not all(_number(spec[k]) for k in ("lat", "lon")
                                                        if k in spec):
            raise ValueError(f"{where}.{code}: lat and lon go together, as numbers")
        out[code] = {"name": str(spec.get("name") or ""), "points": spec.get("points"),
                     "lat": spec.get("lat"), "lon": spec.get("lon")}
    return out


def _people(raw, what: str, taken: set) -> dict:
    """Zombies or marshals: key -> {name}."""
    out = {}
    for key, spec in _mapping(raw, what).items():
        _key(key, what, taken)
        spec = _mapping(spec, f"{what}.{key}", PERSON_KEYS)
        out[key] = {"name": str(spec.get("name") or key)}
    return out


def _entries(raw, courses: dict, taken: set) -> dict:
    entries = _mapping(raw, "entries")
    if not entries:
        raise ValueError("entries: a race needs at least one entry, e.g. "
                         "lucie: {course: famille, finger: 101}")
    out, fingers = {}, {}
    for key, spec in entries.items():
        where = f"entries.{key}"
        _key(key, "entries", taken)
        spec = _mapping(spec, where, ENTRY_KEYS)
        course = spec.get("course")
        if not isinstance(course, str) or course not in courses:
            raise ValueError(f"{where}.course: unknown course {course!r} "
                             f"(courses: {', '.join(courses)})")
        finger = spec.get("finger")
        if not _whole(finger, 1, MAX_FINGER):
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
    spec = _mapping(value, where, set(GEAR))
    if not spec or not all(isinstance(v, bool) for v in spec.values()):
        raise ValueError(f"{where}: true, false or {{vest: true, light: true, phone: false}}")
    return spec


def night_start(script) -> datetime | None:
    """The instant of `at: "0:00"` for a race file (22:00 in the race's time zone); None
    for any other file."""
    if script.race is None:
        return None
    from rulesets import get_ruleset
    name = get_ruleset(RULESET).merged_options(script.event["options"])["time_zone"]
    try:
        zone = ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        zone = ZoneInfo("Europe/Paris")     # as race.options.RaceOptions.zone
    return datetime(*NIGHT, tzinfo=zone).astimezone(dt_timezone.utc)


# -- the steps -------------------------------------------------------------------------
def read_step(steps, kind: str, raw: dict) -> tuple[str, dict]:
    """`steps` is rehearsal_file._Steps. Returns who plays the step and its normalised
    spec. The entry a step is about is named inside it (a key, or `entry:`)."""
    race = steps.race
    if race is None:
        raise ValueError(f"{kind}: a race step, for a race (ruleset {RULESET}) only")
    if "on" in raw:
        raise ValueError(f"{kind} takes no 'on': name the entry inside it ({kind}: KEY or "
                         f"{kind}: {{entry: KEY, ...}})")
    by = raw.get("by", NARRATOR)
    role = _role(race, by, steps.characters)
    if role not in WHO[kind]:
        who = " or ".join(WHO_WORDS[r] for r in (ORGANISER, OWN_PHONE, ZOMBIE, MARSHAL)
                          if r in WHO[kind])
        raise ValueError(f"{kind} is done by {who}, not by '{by}' ({ROLE_WORDS[role]})")
    own = by if role == OWN_PHONE else None
    return by, _READERS[kind](race, raw[kind], own, kind)


def _role(race: dict, by, characters: dict) -> str | None:
    """Who `by` is: an organiser, an entry (its phone), a zombie, a marshal; None for a
    character of the file."""
    if by == NARRATOR:
        return ORGANISER
    for role, group in ((OWN_PHONE, "entries"), (ZOMBIE, "zombies"), (MARSHAL, "marshals")):
        if isinstance(by, str) and by in race[group]:
            return role
    if isinstance(by, str) and by in characters:
        return None
    known = [*race["entries"], *race["zombies"], *race["marshals"]]
    raise ValueError(f"by: unknown key {by!r} (entries, zombies, marshals: {', '.join(known)}; "
                     f"or '{NARRATOR}')")


def _spec(value, where: str, keys: set, short: str) -> dict:
    """A step's mapping, or its short form: one value standing for `short`."""
    if isinstance(value, dict):
        return dict(_mapping(value, where, keys))
    return {short: value}


def _entry(race: dict, spec: dict, where: str, own: str | None) -> str:
    """The entry the step is about: `own` (the entry whose phone acts) by default."""
    key = spec.get("entry", own)
    if key is None:
        raise ValueError(f"{where}: which entry? write {where}: KEY or "
                         f"{where}: {{entry: KEY, ...}} (entries: {', '.join(race['entries'])})")
    if not isinstance(key, str) or key not in race["entries"]:
        raise ValueError(f"{where}: unknown entry {key!r} (entries: {', '.join(race['entries'])})")
    if own is not None and key != own:
        raise ValueError(f"{where}: a survivor's phone acts for its own entry only; write "
                         f"'by: {key}' or 'by: {NARRATOR}'")
    return key


def _text(spec: dict, key: str, where: str, default: str = "") -> str:
    value = spec.get(key, default)
    if not isinstance(value, str) or len(value) > 300:
        raise ValueError(f"{where}.{key}: a text of up to 300 characters")
    return value


def _read_race_start(race, value, own, kind) -> dict:
    if isinstance(value, str):
        course, entry = value in race["courses"], value in race["entries"]
        if course and entry:
            raise ValueError(f"race_start: '{value}' is a course and an entry: write "
                             f"{{course: {value}}} or {{entry: {value}}}")
        if not course and not entry:
            raise ValueError(f"race_start: '{value}' is neither a course "
                             f"({', '.join(race['courses'])}) nor an entry "
                             f"({', '.join(race['entries'])})")
        spec = {"course": value} if course else {"entry": value}
    else:
        spec = dict(_mapping(value, "race_start", {"course", "entry"}))
        if len(spec) != 1:
            raise ValueError("race_start: give a course (a mass start) or an entry (an "
                             "individual start)")
    if "course" in spec:
        if spec["course"] not in race["courses"]:
            raise ValueError(f"race_start.course: unknown course {spec['course']!r} "
                             f"(courses: {', '.join(race['courses'])})")
        return spec
    return {"entry": _entry(race, spec, "race_start", None)}


def _read_gear(race, value, own, kind) -> dict:
    spec = dict(_mapping(value, "gear", {"entry", *GEAR}))
    entry = _entry(race, spec, "gear", None)
    items = {k: v for k, v in spec.items() if k != "entry"}
    if not items or not all(isinstance(v, bool) for v in items.values()):
        raise ValueError("gear: what was checked, e.g. {entry: paul, phone: true}")
    return {"entry": entry, "gear": items}


def _read_punch(race, value, own, kind) -> dict:
    spec = _spec(value, "punch", {"entry", "checkpoint"}, "checkpoint")
    entry = _entry(race, spec, "punch", own)
    if "checkpoint" not in spec:
        raise ValueError("punch.checkpoint: the balise's number is required")
    code = _code(spec["checkpoint"], "punch.checkpoint")
    course = race["entries"][entry]["course"]
    if code not in race["courses"][course]["checkpoints"]:
        raise ValueError(f"punch.checkpoint: balise {code} is not on course {course} of {entry} "
                         f"(balises: {', '.join(race['courses'][course]['checkpoints'])})")
    return {"entry": entry, "checkpoint": code}


def _read_import(race, value, own, kind) -> dict:
    if not isinstance(value, str) or not value.strip():
        raise ValueError("import: the readout's CSV text (a header line, then one punch a "
                         "line), e.g. import: |")
    return {"csv": value}


def _read_grab(race, value, own, kind) -> dict:
    spec = _spec(value, "grab", {"entry", "confirmations", "lat", "lon"}, "entry")
    entry = _entry(race, spec, "grab", None)
    confirmations = spec.get("confirmations", list(CONFIRMATIONS))
    if not isinstance(confirmations, list) or any(c not in CONFIRMATIONS for c in confirmations):
        raise ValueError(f"grab.confirmations: what the zombie ticked, among "
                         f"{', '.join(CONFIRMATIONS)} (all of them when left out)")
    if ("lat" in spec) != ("lon" in spec) or not all(_number(spec[k]) for k in ("lat", "lon")
                                                    if k in spec):
        raise ValueError("grab: lat and lon go together, as numbers (the zombie's position)")
    return {"entry": entry, "confirmations": confirmations, "lat": spec.get("lat"),
            "lon": spec.get("lon")}


def _read_zone_loss(race, value, own, kind) -> dict:
    spec = _spec(value, kind, {"entry", "note"}, "entry")
    return {"entry": _entry(race, spec, kind, None), "note": _text(spec, "note", kind)}


def _read_with_reason(race, value, own, kind) -> dict:
    spec = _spec(value, kind, {"entry", "reason"}, "entry")
    return {"entry": _entry(race, spec, kind, None),
            "reason": _text(spec, "reason", kind, DEFAULT_REASON[kind]) or DEFAULT_REASON[kind]}


def _read_infraction(race, value, own, kind) -> dict:
    spec = dict(_mapping(value, "infraction", {"entry", "kind", "note", "penalty_points"}))
    kinds = [k for k, _ in Infraction.KINDS]
    if spec.get("kind") not in kinds:
        raise ValueError(f"infraction.kind: one of {', '.join(kinds)}")
    points = spec.get("penalty_points", 0)
    if not _whole(points, 0, 1000):
        raise ValueError("infraction.penalty_points: a whole number from 0 to 1000")
    return {"entry": _entry(race, spec, "infraction", None), "kind": spec["kind"],
            "note": _text(spec, "note", "infraction"), "penalty_points": points}


def _read_finish(race, value, own, kind) -> dict:
    spec = _spec(value, "finish", {"entry", "flags_on_belt"}, "entry")
    flags = spec.get("flags_on_belt")
    if flags is not None and not _whole(flags, 0, 10):
        raise ValueError("finish.flags_on_belt: the flags the marshal counts (0 to 10)")
    return {"entry": _entry(race, spec, "finish", None), "flags_on_belt": flags}


def _read_entry_only(race, value, own, kind) -> dict:
    spec = _spec(value, kind, {"entry"}, "entry")
    return {"entry": _entry(race, spec, kind, None)}


def _read_dnf(race, value, own, kind) -> dict:
    spec = _spec(value, "dnf", {"entry", "reason", "finger_back"}, "entry")
    finger_back = spec.get("finger_back", own is None)
    if not isinstance(finger_back, bool):
        raise ValueError("dnf.finger_back: true or false")
    if finger_back and own is not None:
        raise ValueError("dnf.finger_back: a survivor abandoning from the phone still has the "
                         "finger; an organiser records it back (finger_return)")
    return {"entry": _entry(race, spec, "dnf", own), "reason": _text(spec, "reason", "dnf"),
            "finger_back": finger_back}


_READERS = {"race_start": _read_race_start, "gear": _read_gear, "punch": _read_punch,
            "import": _read_import, "grab": _read_grab, "out_of_zone": _read_zone_loss,
            "forbidden_path": _read_zone_loss, "void": _read_with_reason,
            "infraction": _read_infraction, "finish": _read_finish,
            "finger_return": _read_entry_only, "dnf": _read_dnf,
            "disqualify": _read_with_reason}


# -- the expectations ------------------------------------------------------------------
def check_expectation(steps, key: str, raw) -> None:
    """`safety: {...}`, or an entry's `{race: {...}}`."""
    race = steps.race
    if key == SAFETY:
        checks = _mapping(raw, "expect.safety", SAFETY_FIELDS)
        for field, value in checks.items():
            _count_or_keys(race, value, f"expect.safety.{field}")
        return
    where = f"expect.{key}"
    checks = _mapping(_mapping(raw, where, {"race"}).get("race"), f"{where}.race", RACE_FIELDS)
    if not checks:
        raise ValueError(f"{where}.race: the fields to check, e.g. {{lives: 1, score: 35}}")
    where += ".race"
    course = race["courses"][race["entries"][key]["course"]]
    if "status" in checks and checks["status"] not in STATUSES:
        raise ValueError(f"{where}.status: one of {', '.join(STATUSES)}")
    for field in ("lives", "late_minutes"):
        if field in checks and not _whole(checks[field]):
            raise ValueError(f"{where}.{field}: a whole number")
    if "score" in checks and checks["score"] is not None and not _number(checks["score"]):
        raise ValueError(f"{where}.score: a number, or null (disqualified: no score)")
    if "rank" in checks and checks["rank"] is not None and not _whole(checks["rank"], 1):
        raise ValueError(f"{where}.rank: a rank from 1, or null (not ranked)")
    for field in ("elapsed", "time_left"):
        if checks.get(field) is not None:
            parse_time(checks[field], f"{where}.{field}")
    if "found" in checks:
        found = checks["found"]
        if isinstance(found, list):
            checks["found"] = [_on_course(code, course, f"{where}.found") for code in found]
        elif not _whole(found):
            raise ValueError(f"{where}.found: a count, or the list of balises counted")
    if "punches" in checks:
        checks["punches"] = _punch_checks(checks["punches"], course, f"{where}.punches")


def _on_course(value, course: dict, where: str) -> str:
    code = _code(value, where)
    if code not in course["checkpoints"]:
        raise ValueError(f"{where}: balise {code} is not on the entry's course "
                         f"(balises: {', '.join(course['checkpoints'])})")
    return code


def _punch_checks(value, course: dict, where: str):
    """A count, or the punches in time order: each a balise number, or {code, counted,
    reason} checked on the fields it gives."""
    if _whole(value):
        return value
    if not isinstance(value, list):
        raise ValueError(f"{where}: a count, or the list of punches (balise numbers, or "
                         "{code: 31, counted: false, reason: duplicate})")
    out = []
    for number, item in enumerate(value, start=1):
        at = f"{where}[{number}]"
        if not isinstance(item, dict):
            out.append({"code": _on_course(item, course, at)})
            continue
        item = dict(_mapping(item, at, PUNCH_FIELDS))
        if "code" in item:
            item["code"] = _on_course(item["code"], course, f"{at}.code")
        if "counted" in item and not isinstance(item["counted"], bool):
            raise ValueError(f"{at}.counted: true or false")
        if "reason" in item and item["reason"] not in (*IGNORED, None):
            raise ValueError(f"{at}.reason: one of {', '.join(IGNORED)}, null")
        out.append(item)
    return out


def _count_or_keys(race: dict, value, where: str) -> None:
    if _whole(value):
        return
    if not isinstance(value, list):
        raise ValueError(f"{where}: a count, or the list of entry keys")
    for key in value:
        if not isinstance(key, str) or key not in race["entries"]:
            raise ValueError(f"{where}: unknown entry {key!r} "
                             f"(entries: {', '.join(race['entries'])})")


# -- playing ---------------------------------------------------------------------------
class CsvRejected(RuleRefused):
    """A readout with bad rows imports nothing: to the rehearsal, a refusal that lists
    every bad row with its line, as the organisers' screen does."""

    def __init__(self, rows: list[dict]):
        super().__init__("csv_rejected")
        self.rows = rows

    def message(self, lang: str = "en") -> str:
        head = pick(say("csv_rejected", count=str(len(self.rows))), lang)
        return f"{head}: " + "; ".join(f"line {r['line']}: {pick(r['reason'], lang)}"
                                       for r in self.rows)


class RaceSteps:
    """The race steps of rehearsal._Player, each calling the service the race API calls
    for it. A step may return a note shown after `ok`."""

    def race_setup(self) -> None:
        """The courses with their balises (and confirmed points), the zombies and
        marshals, the entries with their gear checked, through the organisers' services."""
        race, event, by = self.script.race, self.event(), self.narrator
        self.entries: dict[str, int] = {}
        self.staff: dict[str, object] = {}
        self.courses: dict[str, int] = {}
        where = ""
        try:
            for name, spec in race["courses"].items():
                where = f"courses.{name}"
                course = course_create(event=event, name=name, by=by, duration_s=spec["duration_s"])
                for code, cp in spec["checkpoints"].items():
                    checkpoint_create(course=course, code=code, by=by, name=cp["name"],
                                      lat=cp["lat"], lon=cp["lon"], points=cp["points"])
                if spec["points_per_checkpoint"] is not None:
                    course_points_confirm(course=course, by=by,
                                          points_per_checkpoint=spec["points_per_checkpoint"])
                self.courses[name] = course.pk
            for key, person in race["zombies"].items():
                where = f"zombies.{key}"
                self.staff[key], _ = zombie_create(event=event, name=person["name"], by=by)
            for key, person in race["marshals"].items():
                where = f"marshals.{key}"
                user = get_user_model().objects.create_user(
                    username=f"rehearsal-m{event.pk}-{secrets.token_hex(4)}",
                    first_name=person["name"][:150])
                Membership.objects.create(event=event, user=user, role=Membership.REFEREE)
                self.staff[key] = user
            for key, spec in race["entries"].items():
                where = f"entries.{key}"
                entry = entry_register(
                    event=event, course=Course.objects.get(pk=self.courses[spec["course"]]),
                    name=spec["name"], kind=spec["kind"], finger=spec["finger"],
                    phone=spec["phone"], members=spec["members"], carrier=spec["carrier"],
                    deposit_taken=spec["deposit"], by=by)
                if spec["gear"] is not None:
                    entry_gear_check(entry=entry, gear=spec["gear"], by=by)
                self.entries[key] = entry.pk
        except RuleRefused as exc:
            raise StepFailed([f"{where}: {exc.message('en')}"]) from None

    # Fetched again at every use, like a fresh API request.
    def entry(self, key: str) -> Entry:
        return (Entry.objects.select_related("event", "course", "character")
                .get(pk=self.entries[key]))

    def race_user(self, key: str):
        if key in self.entries:
            return self.entry(key).character.user
        return self.staff[key]

    def entry_key(self, entry_id: int) -> str:
        return next(k for k, pk in self.entries.items() if pk == entry_id)

    def wall(self, at: datetime) -> str:
        """An instant in `at` terms (wall time since the start of the rehearsal)."""
        return format_time((at - self.start).total_seconds())

    def lives(self, entry: Entry) -> int:
        return self.view(entry)["lives"]["remaining"]

    # -- steps -----------------------------------------------------------------------
    def _race_start(self, step: Step) -> str:
        spec = step.race
        if "entry" in spec:
            entry = entry_start(entry=self.entry(spec["entry"]), by=self.user(step.by))
            return f"deadline {self.wall(entry.deadline_at)}"
        started, refused = course_start(course=Course.objects.get(pk=self.courses[spec["course"]]),
                                        by=self.user(step.by))
        words = [f"{', '.join(self.entry_key(e.pk) for e in started)} started, deadline "
                 f"{self.wall(started[0].deadline_at)}" if started else "nobody started"]
        words += [f"{self.entry_key(e.pk)} not started ({r.code})" for e, r in refused]
        return "; ".join(words)

    def _gear(self, step: Step) -> None:
        entry_gear_check(entry=self.entry(step.race["entry"]), gear=step.race["gear"],
                         by=self.user(step.by))

    def _punch(self, step: Step) -> str:
        """A phone sends what the balise's QR holds; an organiser types its number."""
        spec = step.race
        entry = self.entry(spec["entry"])
        if step.by == NARRATOR:
            scanned, source = spec["checkpoint"], Punch.ORGANISER
        else:
            scanned = Checkpoint.objects.get(course_id=entry.course_id, code=spec["checkpoint"]).qr
            source = Punch.PHONE
        punch, created = punch_record(entry=entry, checkpoint=scanned, by=self.user(step.by),
                                      source=source)
        if not created:
            return "already recorded"
        shown = next(p for p in self.view(entry)["punches"] if p["id"] == punch.pk)
        return "counts" if shown["counted"] else f"does not count: {_reason(shown['reason'])}"

    def _import(self, step: Step) -> str:
        try:
            done = punches_import(event=self.event(), text=step.race["csv"], by=self.user(step.by))
        except ReadoutRejected as rejected:
            raise CsvRejected(rejected.rows) from None
        return (f"{done['rows']} row(s): {done['imported']} new, "
                f"{done['already_there']} already there")

    def _grab(self, step: Step) -> str:
        spec = step.race
        loss = grab_record(entry=self.entry(spec["entry"]), by=self.user(step.by),
                           confirmations=spec["confirmations"], lat=spec["lat"], lon=spec["lon"])
        review = f"; to review: {pick(loss.review['text'], 'en')}" if loss.review else ""
        return f"{_lives(self.lives(loss.entry))} left{review}"

    def _zone_loss(self, step: Step, cause: str) -> str:
        loss = zone_loss_record(entry=self.entry(step.race["entry"]), cause=cause,
                                by=self.user(step.by), note=step.race["note"])
        if loss.took_life:
            return f"a life taken, {_lives(self.lives(loss.entry))} left"
        return "no life left: logged" if loss.no_life_left else "costs no life (options)"

    def _out_of_zone(self, step: Step) -> str:
        return self._zone_loss(step, LifeLoss.OUT_OF_ZONE)

    def _forbidden_path(self, step: Step) -> str:
        return self._zone_loss(step, LifeLoss.FORBIDDEN_PATH)

    def _void(self, step: Step) -> str:
        """The entry's latest loss not voided yet; failing that its latest one, so that
        voiding twice meets the service's own refusal."""
        key = step.race["entry"]
        losses = LifeLoss.objects.filter(entry_id=self.entries[key]).order_by("-at", "-pk")
        loss = losses.filter(voided_at__isnull=True).first() or losses.first()
        if loss is None:
            raise StepFailed([f"{key} has lost no life: nothing to void"])
        life_loss_void(loss=loss, reason=step.race["reason"], by=self.user(step.by))
        return f"{loss.cause} of {self.wall(loss.at)} voided, {_lives(self.lives(loss.entry))} left"

    def _infraction(self, step: Step) -> None:
        spec = step.race
        infraction_record(entry=self.entry(spec["entry"]), kind=spec["kind"], by=self.user(step.by),
                          as_organiser=step.by == NARRATOR, note=spec["note"],
                          penalty_points=spec["penalty_points"])

    def _finish(self, step: Step) -> str:
        spec = step.race
        entry = entry_finish(entry=self.entry(spec["entry"]), by=self.user(step.by),
                             flags_on_belt=spec["flags_on_belt"])
        view = self.view(entry)
        mismatch = ("; the flags on the belt differ from the lives: infraction logged"
                    if Infraction.objects.filter(entry=entry, kind=Infraction.BELT_MISMATCH,
                                                 at=entry.finished_at).exists() else "")
        return (f"time {format_time((entry.finished_at - entry.started_at).total_seconds())}, "
                f"{view['late_minutes']} late minute(s){mismatch}")

    def _finger_return(self, step: Step) -> str | None:
        entry = self.entry(step.race["entry"])
        owed = entry.deposit_taken_at is not None and entry.deposit_returned_at is None
        entry = entry_finger_return(entry=entry, by=self.user(step.by))
        return "deposit returned" if owed and entry.deposit_returned_at else None

    def _dnf(self, step: Step) -> str | None:
        spec = step.race
        entry = entry_abandon(entry=self.entry(spec["entry"]), by=self.user(step.by),
                              reason=spec["reason"], finger_back=spec["finger_back"])
        return None if entry.finger_returned_at else "still out until the finger is back"

    def _disqualify(self, step: Step) -> None:
        entry_disqualify(entry=self.entry(step.race["entry"]), by=self.user(step.by),
                         reason=step.race["reason"])

    def view(self, entry: Entry) -> dict:
        loaded, = entries_with_courses(entry.event, pk=entry.pk)
        return survivor_entry_view(loaded, timezone.now())

    # -- overdue alerts --------------------------------------------------------------
    def ring_alerts(self, until: datetime, *, inclusive: bool) -> None:
        """Ring every overdue alert due before `until` (at it, when inclusive), each at its
        own instant, as the server's task would: an entry still out 15 minutes (option)
        after its deadline. At a step's own instant the alert rings after the step (a
        timer), so a finish at that instant comes first."""
        if self.script.race is None:
            return
        due = {"alert_at__lte" if inclusive else "alert_at__lt": until}
        while True:
            entry = (Entry.objects.filter(_still_out(), event_id=self.event_id,
                                          alerted_at__isnull=True, **due)
                     .order_by("alert_at", "pk").first())
            if entry is None:
                return
            self.traveller.move_to(entry.alert_at)
            if not entry_alert(entry_id=entry.pk):
                return  # cannot happen; never loop forever

    def race_seen(self, event, now: datetime) -> "RaceSeen":
        return RaceSeen(self, event, now)


def _still_out() -> Q:
    # As race.services.alerts: racing, or abandoned by phone with the finger not back.
    return Q(status=Entry.RACING) | Q(status=Entry.DNF, finger_returned_at__isnull=True)


def _lives(n: int) -> str:
    return f"{n} life" if n == 1 else f"{n} lives"


def _reason(label) -> str | None:
    """The key of a punch's "why it does not count" label (race/labels.py)."""
    if label is None:
        return None
    return next((key for key in IGNORED if say(key) == label), pick(label, "en"))


class RaceSeen:
    """What the phones and the organisers' screens show at the step's instant, read once
    per step: each entry as its survivor sees it, the leaderboard, the safety board."""

    def __init__(self, player: RaceSteps, event, now: datetime):
        self.player, self.event, self.now = player, event, now

    @cached_property
    def views(self) -> dict:
        o = race_options(self.event)
        return {e.pk: survivor_entry_view(e, self.now, o) for e in entries_with_courses(self.event)}

    @cached_property
    def rows(self) -> dict:
        return {row["entry"]["id"]: row for board in leaderboard(self.event, self.now)
                for row in (*board["ranking"], *board["unranked"])}

    @cached_property
    def safety(self) -> dict:
        return safety_board(self.event, self.now)

    def diff(self, key: str, checks: dict, compare) -> list[str]:
        if key == SAFETY:
            return self.safety_diff(checks, compare)
        entry_id = self.player.entries[key]
        view, row = self.views[entry_id], self.rows[entry_id]
        punches = [{"code": p["checkpoint"]["code"], "counted": p["counted"],
                    "reason": _reason(p["reason"])} for p in view["punches"]]
        seen = {"status": view["status"]["key"], "lives": view["lives"]["remaining"],
                "late_minutes": view["late_minutes"], "score": _plain(view["score"]),
                "rank": row["rank"], "elapsed": row["elapsed_s"], "time_left": view["time_left_s"]}
        lines = []
        for field, want in checks["race"].items():
            where = f"{key}.race.{field}"
            if field == "punches":
                lines += _punches_diff(where, want, punches, compare)
            elif field == "found":
                found = sorted(p["code"] for p in punches if p["counted"])
                lines += compare(where, want if _whole(want) else sorted(want),
                                 len(found) if _whole(want) else found)
            else:
                lines += compare(where, want, seen[field], time=field in ("elapsed", "time_left"))
        return lines

    def safety_diff(self, checks: dict, compare) -> list[str]:
        keys = self.player.entry_key
        out = [e for course in self.safety["courses"] for e in course["entries"]]
        seen = {"still_out": sorted(keys(e["entry"]["id"]) for e in out),
                "overdue": sorted(keys(e["entry"]["id"]) for e in out if e["overdue_s"] > 0),
                "alerted": sorted(keys(pk) for pk in Entry.objects.filter(
                    event=self.event, alerted_at__isnull=False).values_list("pk", flat=True))}
        lines = []
        for field, want in checks.items():
            got = seen[field]
            if not _whole(want):
                lines += compare(f"safety.{field}", sorted(want), got)
            elif want != len(got):
                lines.append(f"safety.{field}: expected {want}, got {len(got)}: "
                             f"{', '.join(got) or 'none'}")
        return lines


def _plain(value):
    return int(value) if isinstance(value, float) and value.is_integer() else value


def _punches_diff(where: str, want, seen: list, compare) -> list[str]:
    shown = "; ".join(p["code"] + ("" if p["counted"] else f" ({p['reason']})")
                      for p in seen) or "none"
    if _whole(want):
        return [] if want == len(seen) else \
            [f"{where}: expected {want} punch(es), got {len(seen)}: {shown}"]
    if len(want) != len(seen):
        return [f"{where}: expected {len(want)} punch(es), got {len(seen)}: {shown}"]
    lines = []
    for number, (wanted, got) in enumerate(zip(want, seen), start=1):
        for field, value in wanted.items():
            lines += compare(f"{where}[{number}].{field}", value, got[field])
    return lines


def describe_race(step: Step) -> str:
    spec, kind = step.race, step.kind
    if kind == "race_start":
        return f"race_start {spec['course']} (mass start)" if "course" in spec \
            else f"race_start {spec['entry']}"
    if kind == "gear":
        return f"gear {spec['entry']}: " + ", ".join(
            item if ok else f"no {item}" for item, ok in spec["gear"].items())
    if kind == "punch":
        mine = step.by == spec["entry"]           # the entry's own phone
        return f"punch {spec['checkpoint']}" + ("" if mine else f" for {spec['entry']}")
    if kind == "import":
        rows = [line for line in spec["csv"].splitlines()[1:] if line.strip()]
        return f"import {len(rows)} row(s)"
    if kind == "grab":
        left_out = [c for c in CONFIRMATIONS if c not in spec["confirmations"]]
        return f"grab {spec['entry']}" + (f", not confirmed: {', '.join(left_out)}"
                                          if left_out else "")
    if kind == "void":
        return f"void the latest life loss of {spec['entry']}"
    if kind == "infraction":
        points = f" ({spec['penalty_points']} points)" if spec["penalty_points"] else ""
        return f"infraction {spec['kind']} on {spec['entry']}{points}"
    if kind == "finish" and spec["flags_on_belt"] is not None:
        return f"finish {spec['entry']}, {spec['flags_on_belt']} flag(s) on the belt"
    if kind == "dnf" and not spec["finger_back"]:
        return f"dnf {spec['entry']}, finger not back"
    return f"{kind} {spec['entry']}"
