"""What a rehearsal file becomes once read (docs/rehearse.md): a Script and its Steps,
the words a file may use, the errors, and the `m:ss` times. Reading a file is
file_reading.py; this module imports no other one of the app, so that every reader
and player can build on it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

NARRATOR = "narrator"
CLOCK = "clock"  # in `expect:`, the event's clock rather than a character
SAFETY = "safety"  # in a race's `expect:`, the organisers' safety board
ITEMS = "items"    # in `expect:`, the objects of the file's `items:` (firearms, Carga)
MEMBERS = "members"  # in `expect:`, the club register's members of the file's `members:`
REPLICAS = "replicas"  # in `expect:`, the chrony's replicas of the file's `replicas:`
# Fights between characters, played by a character (read in fight_reading.py).
FIGHT_KINDS = ("duel", "answer_duel", "union", "join_union", "acharnement", "stop_acharnement",
               "search", "heal", "stop_heal", "hit_by")
# The zombie race (ruleset zombie_race): its header (race_header.py) and its steps
# (race_reading.py).
RACE_HEADER_KEYS = ("courses", "entries", "iof", "zombies", "marshals")
RACE_KINDS = ("race_start", "gear", "carrier", "punch", "import", "grab", "out_of_zone", "forbidden_path",
              "void", "infraction", "finish", "finger_return", "dnf", "disqualify", "result_list")
# Objects (item_reading.py) and the club's register (club_reading.py).
ITEM_KINDS = ("take_firearm", "load_firearm", "fire", "carry", "give", "drop",
              "read_tag", "ingest", "lock", "unlock")
CLUB_KINDS = ("check_in", "sanction", "revoke", "chrony")
# A player's game stop, and the games of an airsoft day (game_reading.py).
GAME_KINDS = ("stop_game", "announce_game", "start_game", "end_game")
ACTION_KINDS = ("do", "treat", "complete", "abort", "pause", "resume", "effect", "day",
                *FIGHT_KINDS, *RACE_KINDS, *ITEM_KINDS, *CLUB_KINDS, *GAME_KINDS)
# Refusals that are no RuleRefused message of their own: a race readout with bad rows.
OTHER_REFUSALS = ("csv_rejected",)
NARRATOR_KINDS = {"pause", "resume", "effect", "day"}
MEDIC_KINDS = {"treat", "complete", "abort"}
STEP_KEYS = {"at", "by", "on", "params", "weapon_in_hand", "expect", "expect_refused",
             *ACTION_KINDS}
EFFECT_KEYS = {"text", "duration", "to", "team", "everyone", "set_state"}
CHARACTER_KEYS = {"name", "team", "sheet", "kits"}
CHECK_KEYS = {"state", "inert", "next", "next_in", "timers", "points", "effects", "kits",
              "values", "fights", "can", "cannot", "reminders", "revealed", "load"}
CLOCK_KEYS = {"running", "game_time", "game", "next_game"}
TIME = re.compile(r"^(-)?(?:(\d+):)?(\d+):(\d\d)$")


class ScriptError(Exception):
    """Every problem found in one or more files, one line each."""

    def __init__(self, problems: list[str]):
        super().__init__("\n".join(problems))
        self.problems = problems


class StepFailed(Exception):
    """A step that did not go as the file says, while it is played: one line per field."""

    def __init__(self, lines: list[str]):
        super().__init__("; ".join(lines))
        self.lines = lines


@dataclass(frozen=True)
class Step:
    number: int                      # 1-based, as an organiser counts the list
    at_s: int                        # wall seconds since the start
    kind: str                        # one of ACTION_KINDS, or "expect" alone
    by: str | None = None            # a character key or NARRATOR
    on: str | None = None
    action: str | None = None        # do/treat/complete/abort
    params: dict = field(default_factory=dict)
    effect: dict | None = None       # normalised: text, duration_s, to/team/everyone, set_state
    fight: dict | None = None        # a fight step, normalised (fight_reading.read_fight)
    race: dict | None = None         # a race step, normalised (race_reading.read_step)
    item: dict | None = None         # an object, register or game step (item_reading,
    #                                  club_reading, game_reading)
    expect: dict = field(default_factory=dict)
    expect_refused: str | None = None


@dataclass(frozen=True)
class Script:
    path: Path
    event: dict                      # name, ruleset, options
    characters: dict                 # key -> {name, team, sheet, kits}
    steps: list
    race: dict | None = None         # a race's courses, entries, zombies, marshals
    items: dict = field(default_factory=dict)    # key -> an object of `items:`
    members: dict = field(default_factory=dict)  # key -> a club member of `members:`
    referees: dict = field(default_factory=dict)  # key -> a referee of `referees:`
    replicas: dict = field(default_factory=dict)  # key -> a replica of `replicas:`


# -- times -----------------------------------------------------------------------------
def parse_time(value, what: str = "time", *, negative_ok: bool = False) -> int:
    """'m:ss' or 'h:mm:ss' -> seconds. A bare number is refused: is 5 minutes or seconds?
    `negative_ok`: '-10:00', ten minutes before the game clock's 0:00 (an `at`)."""
    match = TIME.match(value.strip()) if isinstance(value, str) else None
    if not match:
        raise ValueError(f"{what} {value!r} is not a time like \"5:00\" (m:ss) or \"1:05:00\" (h:mm:ss)")
    hours, minutes, seconds = int(match[2] or 0), int(match[3]), int(match[4])
    if seconds >= 60 or (match[2] is not None and minutes >= 60):
        raise ValueError(f"{what} {value!r}: minutes and seconds go up to 59")
    total = hours * 3600 + minutes * 60 + seconds
    if match[1] and not negative_ok:
        raise ValueError(f"{what} {value!r}: a time here is never negative")
    return -total if match[1] else total


def format_time(seconds: float) -> str:
    s = int(round(seconds))
    if s < 0:
        return "-" + format_time(-s)
    if s >= 3600:
        return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"
    return f"{s // 60}:{s % 60:02d}"


def checked_mapping(value, where: str, allowed: set | None = None) -> dict:
    """`value`, which must be a mapping (None reads as an empty one) of `allowed` keys
    only, so that a misspelt key fails with where it is rather than being ignored."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ValueError(f"{where} must be a mapping")
    extra = set(value) - allowed if allowed is not None else set()
    if extra:
        raise ValueError(f"{where}: unknown key(s) {', '.join(sorted(map(str, extra)))} "
                         f"(allowed: {', '.join(sorted(allowed))})")
    return value


def race_key(value):
    """A key as a step names an entry: a finger number written bare (101) is the key "101"
    of an entry imported from an EntryList."""
    return str(value) if is_whole(value) else value


def is_whole(value, low: int = 0, high: int | None = None) -> bool:
    return (isinstance(value, int) and not isinstance(value, bool) and value >= low
            and (high is None or value <= high))


def is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def reserved_key_check(key, where: str, taken: set) -> str:
    if not isinstance(key, str) or key in (NARRATOR, CLOCK, SAFETY):
        raise ValueError(f"{where}: '{key}' cannot be a key ('{NARRATOR}', '{CLOCK}' and "
                         f"'{SAFETY}' are reserved)")
    if key in taken:
        raise ValueError(f"{where}: '{key}' is already the key of someone else in the file")
    taken.add(key)
    return key
