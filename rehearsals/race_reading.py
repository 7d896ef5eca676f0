"""Reading the zombie race's steps in a rehearsal file (docs/rehearse.md): who may play
each one (an organiser, the entry's own phone, a zombie, a marshal; as the race API lets
them) and its normalised spec. The entry a step is about is named inside it (a key, or
`entry:`). race_playing.RaceSteps plays them.
"""
from __future__ import annotations

from race.models import Infraction
from race.options import RULESET
from race.services.entries import GEAR

from rehearsals.race_header import balise_code
from rehearsals.race_iof import read_result_list
from rehearsals.script import NARRATOR, checked_mapping, is_number, is_whole, race_key

CONFIRMATIONS = ("not_fast_running", "not_near_checkpoint", "no_contact", "not_on_open_road",
                 "target_not_panicking")          # race.services.lives.grab_confirmations
DEFAULT_REASON = {"void": "voided by an organiser", "disqualify": "disqualified by an organiser"}

# Who plays each step: an organiser (`by: narrator`, the default), the entry's own phone
# (`by: <entry key>`), a zombie or a marshal of the header; as the race API lets them.
ORGANISER, OWN_PHONE, ZOMBIE, MARSHAL = "organiser", "entry", "zombie", "marshal"
WHO = {"race_start": {ORGANISER}, "gear": {ORGANISER}, "carrier": {ORGANISER}, "import": {ORGANISER},
       "punch": {ORGANISER, OWN_PHONE}, "grab": {ZOMBIE, ORGANISER},
       "out_of_zone": {MARSHAL, ORGANISER}, "forbidden_path": {MARSHAL, ORGANISER},
       "void": {ORGANISER}, "infraction": {ORGANISER, MARSHAL, ZOMBIE},
       "finish": {ORGANISER}, "finger_return": {ORGANISER}, "dnf": {ORGANISER, OWN_PHONE},
       "disqualify": {ORGANISER}, "result_list": {ORGANISER}}
WHO_WORDS = {ORGANISER: "an organiser (by: narrator)",
             OWN_PHONE: "the entry's own phone (by: <entry key>)",
             ZOMBIE: "a zombie (by: <zombie key>)", MARSHAL: "a marshal (by: <marshal key>)"}
ROLE_WORDS = {ORGANISER: "an organiser", OWN_PHONE: "an entry", ZOMBIE: "a zombie",
              MARSHAL: "a marshal", None: "a character"}


def read_step(reader, kind: str, raw: dict) -> tuple[str, dict]:
    """`reader` is step_reading.StepReader. Returns who plays the step and its normalised
    spec. The entry a step is about is named inside it (a key, or `entry:`)."""
    race = reader.race
    if race is None:
        raise ValueError(f"{kind}: a race step, for a race (ruleset {RULESET}) only")
    if "on" in raw:
        raise ValueError(f"{kind} takes no 'on': name the entry inside it ({kind}: KEY or "
                         f"{kind}: {{entry: KEY, ...}})")
    by = race_key(raw.get("by", NARRATOR))
    role = _role(race, by, reader.characters)
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
        return dict(checked_mapping(value, where, keys))
    return {short: value}


def _entry(race: dict, spec: dict, where: str, own: str | None) -> str:
    """The entry the step is about: `own` (the entry whose phone acts) by default."""
    key = race_key(spec.get("entry", own))
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
    value = race_key(value)
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
        spec = dict(checked_mapping(value, "race_start", {"course", "entry"}))
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
    spec = dict(checked_mapping(value, "gear", {"entry", *GEAR}))
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
    code = balise_code(spec["checkpoint"], "punch.checkpoint")
    course = race["entries"][entry]["course"]
    if code in race["courses"][course]["checkpoints"]:
        return {"entry": entry, "checkpoint": code, "course": course}
    # A phone may scan another course's balise: the service answers what becomes of it.
    elsewhere = [name for name, c in race["courses"].items() if code in c["checkpoints"]]
    if own is None or not elsewhere:
        raise ValueError(f"punch.checkpoint: balise {code} is not on course {course} of {entry} "
                         f"(balises: {', '.join(race['courses'][course]['checkpoints'])})"
                         + ("" if elsewhere else "; nor on any other course"))
    return {"entry": entry, "checkpoint": code, "course": elsewhere[0]}


def _read_carrier(race, value, own, kind) -> dict:
    spec = dict(checked_mapping(value, "carrier", {"entry", "carrier"}))
    entry = _entry(race, spec, "carrier", None)
    if not isinstance(spec.get("carrier"), str) or not spec["carrier"].strip():
        raise ValueError("carrier.carrier: the member who now wears the finger and the belt")
    return {"entry": entry, "carrier": spec["carrier"]}


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
    if ("lat" in spec) != ("lon" in spec) or not all(is_number(spec[k]) for k in ("lat", "lon")
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
    spec = dict(checked_mapping(value, "infraction", {"entry", "kind", "note", "penalty_points"}))
    kinds = Infraction.TYPED
    if spec.get("kind") not in kinds:
        raise ValueError(f"infraction.kind: one of {', '.join(kinds)}")
    points = spec.get("penalty_points", 0)
    if not is_whole(points, 0, 1000):
        raise ValueError("infraction.penalty_points: a whole number from 0 to 1000")
    return {"entry": _entry(race, spec, "infraction", None), "kind": spec["kind"],
            "note": _text(spec, "note", "infraction"), "penalty_points": points}


def _read_finish(race, value, own, kind) -> dict:
    spec = _spec(value, "finish", {"entry", "flags_on_belt"}, "entry")
    flags = spec.get("flags_on_belt")
    if flags is not None and not is_whole(flags, 0, 10):
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


_READERS = {"race_start": _read_race_start, "gear": _read_gear, "carrier": _read_carrier, "punch": _read_punch,
            "import": _read_import, "grab": _read_grab, "out_of_zone": _read_zone_loss,
            "forbidden_path": _read_zone_loss, "void": _read_with_reason,
            "infraction": _read_infraction, "finish": _read_finish,
            "finger_return": _read_entry_only, "dnf": _read_dnf,
            "disqualify": _read_with_reason, "result_list": read_result_list}
