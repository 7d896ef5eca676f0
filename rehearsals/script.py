"""Reading a rehearsal file (docs/rehearse.md): the whole file is checked against the
ruleset before anything is played, so a typo fails in a second with the file name and
the step number, not after an hour of simulated game.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from rulesets import RulesetError, get_ruleset
from rulesets.messages import REFUSAL_CODES

NARRATOR = "narrator"
CLOCK = "clock"  # in `expect:`, the event's clock rather than a character
SAFETY = "safety"  # in a race's `expect:`, the organisers' safety board
# Fights between characters, played by a character (read in rehearsal_fights.py).
FIGHT_KINDS = ("duel", "answer_duel", "union", "join_union", "acharnement", "stop_acharnement",
               "search", "heal", "stop_heal")
# The zombie race (ruleset zombie_race): its header and its steps (rehearsal_race.py).
RACE_HEADER_KEYS = ("courses", "entries", "zombies", "marshals")
RACE_KINDS = ("race_start", "gear", "punch", "import", "grab", "out_of_zone", "forbidden_path",
              "void", "infraction", "finish", "finger_return", "dnf", "disqualify")
ACTION_KINDS = ("do", "treat", "complete", "abort", "pause", "resume", "effect", "day",
                *FIGHT_KINDS, *RACE_KINDS)
# Refusals that are no RuleRefused message of their own: a race readout with bad rows.
OTHER_REFUSALS = ("csv_rejected",)
NARRATOR_KINDS = {"pause", "resume", "effect", "day"}
MEDIC_KINDS = {"treat", "complete", "abort"}
STEP_KEYS = {"at", "by", "on", "params", "weapon_in_hand", "expect", "expect_refused",
             *ACTION_KINDS}
EFFECT_KEYS = {"text", "duration", "to", "team", "everyone", "set_state"}
CHARACTER_KEYS = {"name", "team", "sheet", "kits"}
CHECK_KEYS = {"state", "inert", "next", "next_in", "timers", "points", "effects", "kits",
              "values", "fights"}
CLOCK_KEYS = {"running", "game_time"}
TIME = re.compile(r"^(?:(\d+):)?(\d+):(\d\d)$")


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
    fight: dict | None = None        # a fight step, normalised (rehearsal_fights.read_fight)
    race: dict | None = None         # a race step, normalised (rehearsal_race.read_step)
    expect: dict = field(default_factory=dict)
    expect_refused: str | None = None


@dataclass(frozen=True)
class Script:
    path: Path
    event: dict                      # name, ruleset, options
    characters: dict                 # key -> {name, team, sheet, kits}
    steps: list
    race: dict | None = None         # a race's courses, entries, zombies, marshals


# -- YAML without its 1.1 surprises ----------------------------------------------------
class _Loader(yaml.SafeLoader):
    """YAML 1.1 reads `5:00` as the number 300 (base 60) and the key `on` as True; here
    `5:00` stays the time as written and only true/false are booleans."""


def _int_or_time(loader, node):
    text = loader.construct_scalar(node)
    return text if ":" in text else yaml.SafeLoader.construct_yaml_int(loader, node)


def _float_or_time(loader, node):
    text = loader.construct_scalar(node)
    return text if ":" in text else yaml.SafeLoader.construct_yaml_float(loader, node)


def _strict_bool(loader, node):
    text = loader.construct_scalar(node)
    return text.lower() == "true" if text.lower() in ("true", "false") else text


_Loader.add_constructor("tag:yaml.org,2002:int", _int_or_time)
_Loader.add_constructor("tag:yaml.org,2002:float", _float_or_time)
_Loader.add_constructor("tag:yaml.org,2002:bool", _strict_bool)


# -- times -----------------------------------------------------------------------------
def parse_time(value, what: str = "time") -> int:
    """'m:ss' or 'h:mm:ss' -> seconds. A bare number is refused: is 5 minutes or seconds?"""
    match = TIME.match(value.strip()) if isinstance(value, str) else None
    if not match:
        raise ValueError(f"{what} {value!r} is not a time like \"5:00\" (m:ss) or \"1:05:00\" (h:mm:ss)")
    hours, minutes, seconds = int(match[1] or 0), int(match[2]), int(match[3])
    if seconds >= 60 or (match[1] is not None and minutes >= 60):
        raise ValueError(f"{what} {value!r}: minutes and seconds go up to 59")
    return hours * 3600 + minutes * 60 + seconds


def format_time(seconds: float) -> str:
    s = int(round(seconds))
    if s >= 3600:
        return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"
    return f"{s // 60}:{s % 60:02d}"


# -- the file --------------------------------------------------------------------------
def load_scripts(paths) -> list[Script]:
    """Check every file first, so that no file is played while another one is broken."""
    scripts, problems = [], []
    for path in paths:
        try:
            scripts.append(load_script(path))
        except ScriptError as exc:
            problems.extend(exc.problems)
    if problems:
        raise ScriptError(problems)
    return scripts


def load_script(path) -> Script:
    path = Path(path)
    name = path.name

    def fail(problem: str):
        raise ScriptError([f"{name}: {problem}"])

    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=_Loader)
    except (OSError, yaml.YAMLError) as exc:
        fail(f"cannot read: {exc}")
    if not isinstance(data, dict):
        fail("the file must be a mapping with event, characters and steps")
    unknown = set(data) - {"event", "characters", "steps", *RACE_HEADER_KEYS}
    if unknown:
        fail(f"unknown top-level key(s) {', '.join(map(str, sorted(unknown, key=str)))}")
    try:
        event, ruleset = _event(data.get("event"))
        characters = _characters(data.get("characters"))
        from rehearsals.race import read_header  # a race's courses and entries
        race = read_header(data, ruleset, characters)
        if not characters and race is None:
            raise ValueError("characters: at least one character is required")
    except ValueError as exc:
        fail(str(exc))
    if not isinstance(data.get("steps"), list) or not data["steps"]:
        fail("steps: a non-empty list is required")
    steps = _steps(name, data["steps"], _Steps(ruleset, characters, race))
    return Script(path=path, event=event, characters=characters, steps=steps, race=race)


def _steps(name: str, raws: list, reader: "_Steps") -> list[Step]:
    """Every step is checked, so that one run lists all the typos of the file."""
    steps, problems, last_at = [], [], 0
    for number, raw in enumerate(raws, start=1):
        try:
            step = reader.parse(number, raw)
            if step.at_s < last_at:
                raise ValueError(f"at {format_time(step.at_s)} comes before the previous step "
                                 f"({format_time(last_at)}); steps must be in time order")
            last_at = step.at_s
            steps.append(step)
        except ValueError as exc:
            problems.append(f"{name}: step {number}: {exc}")
    if problems:
        raise ScriptError(problems)
    return steps


def _mapping(value, where: str, allowed: set | None = None) -> dict:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ValueError(f"{where} must be a mapping")
    extra = set(value) - allowed if allowed is not None else set()
    if extra:
        raise ValueError(f"{where}: unknown key(s) {', '.join(sorted(map(str, extra)))} "
                         f"(allowed: {', '.join(sorted(allowed))})")
    return value


def _event(raw) -> tuple[dict, object]:
    event = _mapping(raw, "event", {"name", "ruleset", "options"})
    if not isinstance(event.get("ruleset"), str):
        raise ValueError("event.ruleset is required (e.g. gn_fr)")
    try:
        ruleset = get_ruleset(event["ruleset"])
        ruleset.merged_options(_mapping(event.get("options"), "event.options"))
    except RulesetError as exc:
        raise ValueError(f"event: {exc}") from None
    return {"name": str(event.get("name") or "Rehearsal"), "ruleset": event["ruleset"],
            "options": event.get("options") or {}}, ruleset


def _characters(raw) -> dict:
    characters = _mapping(raw, "characters")
    out = {}
    for key, spec in characters.items():
        if not isinstance(key, str) or key in (NARRATOR, CLOCK):
            raise ValueError(f"characters: '{key}' cannot be a character key "
                             f"('{NARRATOR}' and '{CLOCK}' are reserved)")
        spec = _mapping(spec, f"characters.{key}", CHARACTER_KEYS)
        kits = _mapping(spec.get("kits"), f"characters.{key}.kits")
        if any(not isinstance(n, int) or isinstance(n, bool) for n in kits.values()):
            raise ValueError(f"characters.{key}.kits: counts must be whole numbers")
        out[key] = {"name": str(spec.get("name") or key), "team": spec.get("team"),
                    "sheet": _mapping(spec.get("sheet"), f"characters.{key}.sheet"),
                    "kits": kits}
    return out


class _Steps:
    """Checks one step against the ruleset and the characters of the file."""

    def __init__(self, ruleset, characters: dict, race: dict | None = None):
        self.ruleset = ruleset
        self.characters = characters
        self.race = race

    def parse(self, number: int, raw) -> Step:
        raw = _mapping(raw, "a step", STEP_KEYS)
        if "at" not in raw:
            raise ValueError("'at' is required")
        at_s = parse_time(raw["at"], "at")
        kinds = [k for k in ACTION_KINDS if k in raw]
        if len(kinds) > 1:
            raise ValueError(f"one action per step, got {', '.join(kinds)}")
        expect = self.expectations(raw.get("expect"))
        if not kinds:
            if not expect or set(raw) - {"at", "expect"}:
                raise ValueError(f"a step needs one of {', '.join(ACTION_KINDS)}, or only 'expect'")
            return Step(number, at_s, "expect", expect=expect)
        kind = kinds[0]
        refused = raw.get("expect_refused")
        if refused is not None and refused not in REFUSAL_CODES and refused not in OTHER_REFUSALS:
            raise ValueError(f"expect_refused: unknown refusal code '{refused}' "
                             f"(known: {', '.join(sorted([*REFUSAL_CODES, *OTHER_REFUSALS]))})")
        params = _mapping(raw.get("params"), "params")
        if params and kind not in ("do", "treat"):
            raise ValueError(f"'params' goes with do or treat, not {kind}")
        if "weapon_in_hand" in raw and kind != "answer_duel":
            raise ValueError("'weapon_in_hand' goes with answer_duel "
                             "(in a duel step, write it inside duel: {...})")
        if kind in FIGHT_KINDS:
            from rehearsals.fights import read_fight  # fights build on the steps read here
            by, fight = read_fight(self, kind, raw)
            return Step(number, at_s, kind, by=by, fight=fight, expect=expect,
                        expect_refused=refused)
        if kind in RACE_KINDS:
            from rehearsals.race import read_step  # the race builds on the steps read here
            by, race = read_step(self, kind, raw)
            return Step(number, at_s, kind, by=by, race=race, expect=expect,
                        expect_refused=refused)
        by, on = self.people(kind, raw)
        return Step(number, at_s, kind, by=by, on=on, action=self.action(kind, raw[kind]),
                    params=params, effect=self.effect(raw[kind]) if kind == "effect" else None,
                    expect=expect, expect_refused=refused)

    def character(self, key, where: str) -> str:
        if key not in self.characters:
            race = f"; entries: {', '.join(self.race['entries'])}" if self.race else ""
            raise ValueError(f"{where}: unknown character '{key}' "
                             f"(characters: {', '.join(self.characters) or 'none'}{race})")
        return key

    def people(self, kind: str, raw: dict) -> tuple[str, str | None]:
        if kind in NARRATOR_KINDS:
            # Only organisers pause the game or push effects (as in the API).
            if raw.get("by", NARRATOR) != NARRATOR or "on" in raw:
                raise ValueError(f"{kind} is done 'by: narrator' and takes no 'on'")
            return NARRATOR, None
        by = raw.get("by")
        if by is None:
            raise ValueError(f"'by' is required: a character key or '{NARRATOR}'")
        if by != NARRATOR:
            self.character(by, "by")
        elif kind in MEDIC_KINDS:
            raise ValueError(f"{kind}: 'by' must be the medic's character key")
        if raw.get("on", by) == NARRATOR:
            raise ValueError("the narrator acts on a character: add 'on: <character>'")
        on = self.character(raw.get("on", by), "on")
        if kind == "do" and by != NARRATOR and on != by:
            # The API lets a player declare only what happened to their own character.
            raise ValueError(f"a player declares actions on their own character only; "
                             f"write 'by: {on}' or 'by: narrator'")
        return by, on

    def action(self, kind: str, value) -> str | None:
        if kind in ("pause", "resume"):
            if value is not True:
                raise ValueError(f"write '{kind}: true'")
            return None
        if kind == "effect":
            return None
        if kind == "day":   # dawn / day_end, as the organisers schedule them (E25)
            if value not in self.ruleset.days:
                known = ", ".join(self.ruleset.days) or "none"
                raise ValueError(f"day: '{value}' is not a day of {self.ruleset.key} "
                                 f"(days: {known})")
            return value
        if value not in self.ruleset.actions:
            raise ValueError(f"{kind}: unknown action '{value}' of {self.ruleset.key} "
                             f"(known: {', '.join(self.ruleset.actions)})")
        return value

    def effect(self, raw) -> dict:
        spec = _mapping(raw, "effect", EFFECT_KEYS)
        if not isinstance(spec.get("text"), str) or not spec["text"].strip():
            raise ValueError("effect.text is required")
        targets = [k for k in ("to", "team", "everyone") if spec.get(k) not in (None, False)]
        if len(targets) != 1:
            raise ValueError("effect: give exactly one of to, team, everyone")
        to = spec.get("to")
        to = [to] if isinstance(to, str) else to
        if targets == ["to"]:
            if not isinstance(to, list) or not to:
                raise ValueError("effect.to: a list of character keys")
            to = [self.character(k, "effect.to") for k in to]
        teams = {c["team"] for c in self.characters.values() if c["team"]}
        if targets == ["team"] and spec["team"] not in teams:
            raise ValueError(f"effect.team: no character in team '{spec['team']}'")
        if targets == ["everyone"] and spec["everyone"] is not True:
            raise ValueError("write 'everyone: true'")
        duration = parse_time(spec["duration"], "effect.duration") if "duration" in spec else None
        if duration == 0:
            raise ValueError("effect.duration must be more than 0:00 (leave it out: no end)")
        state = spec.get("set_state")
        if state is not None and state not in self.ruleset.states:
            raise ValueError(f"effect.set_state: unknown state '{state}' "
                             f"(states: {', '.join(self.ruleset.states)})")
        return {"text": spec["text"], "duration_s": duration, "to": to if targets == ["to"] else None,
                "team": spec.get("team"), "everyone": targets == ["everyone"], "set_state": state}

    def expectations(self, raw) -> dict:
        expect = _mapping(raw, "expect")
        for key, checks in expect.items():
            if key == CLOCK:
                self.clock_checks(checks)
            elif self.race is not None and (key == SAFETY or key in self.race["entries"]):
                from rehearsals.race import check_expectation
                check_expectation(self, key, checks)
            else:
                self.character(key, "expect")
                self.checks(key, _mapping(checks, f"expect.{key}", CHECK_KEYS))
        return expect

    def clock_checks(self, raw) -> None:
        checks = _mapping(raw, "expect.clock", CLOCK_KEYS)
        if "running" in checks and not isinstance(checks["running"], bool):
            raise ValueError("expect.clock.running: true or false")
        if "game_time" in checks:
            parse_time(checks["game_time"], "expect.clock.game_time")

    def checks(self, who: str, checks: dict) -> None:
        where = f"expect.{who}"
        rs = self.ruleset
        for key in ("state", "next"):
            if key in checks and not (checks[key] is None and key == "next") \
                    and checks[key] not in rs.states:
                raise ValueError(f"{where}.{key}: unknown state '{checks[key]}'")
        if "inert" in checks and not isinstance(checks["inert"], bool):
            raise ValueError(f"{where}.inert: true or false")
        if checks.get("next_in") is not None:
            parse_time(checks["next_in"], f"{where}.next_in")
        for name, value in _mapping(checks.get("timers"), f"{where}.timers", set(rs.timers)).items():
            if value is not None:
                parse_time(value, f"{where}.timers.{name}")
        _mapping(checks.get("points"), f"{where}.points", set(rs.points))
        _mapping(checks.get("kits"), f"{where}.kits", set(rs.kits))
        _mapping(checks.get("values"), f"{where}.values", set(rs.values))
        effects = checks.get("effects", [])
        if not isinstance(effects, list) or not all(isinstance(t, str) for t in effects):
            raise ValueError(f"{where}.effects: a list of effect texts")
        if "fights" in checks:
            from rehearsals.fights import check_fights
            check_fights(self, f"{where}.fights", checks["fights"])
