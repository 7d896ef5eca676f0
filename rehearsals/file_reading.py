"""Reading a rehearsal file (docs/rehearse.md): the whole file is checked against the
ruleset before anything is played, so a typo fails in a second with the file name and
the step number, not after an hour of simulated game. Each step is checked by
step_reading.StepReader; a race's header by race_header.py.
"""
from __future__ import annotations

import re
from pathlib import Path

import yaml

from rulesets import RulesetError, get_ruleset

from rehearsals.club_reading import read_members, read_replicas
from rehearsals.item_reading import read_items
from rehearsals.race_header import read_header
from rehearsals.script import (CHARACTER_KEYS, CLOCK, ITEMS, MEMBERS, NARRATOR,
                               RACE_HEADER_KEYS, REPLICAS, Script, ScriptError, Step,
                               checked_mapping, format_time)
from rehearsals.step_reading import StepReader


WALL = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$")   # event.starts_at, "21:00"


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
    unknown = set(data) - {"event", "characters", "steps", "items", "members", "referees",
                           "replicas", *RACE_HEADER_KEYS}
    if unknown:
        fail(f"unknown top-level key(s) {', '.join(map(str, sorted(unknown, key=str)))}")
    try:
        event, ruleset = _event(data.get("event"))
        characters = _characters(data.get("characters"))
        race = read_header(data, ruleset, characters, path.parent)
        members, referees = read_members(data, ruleset, characters)
        replicas = read_replicas(data, ruleset, members)
        items = read_items(data.get("items"), ruleset, characters)
        if not characters and race is None:
            raise ValueError("characters: at least one character is required")
    except ValueError as exc:
        fail(str(exc))
    if not isinstance(data.get("steps"), list) or not data["steps"]:
        fail("steps: a non-empty list is required")
    steps = _steps(name, data["steps"], StepReader(ruleset, characters, race, items=items,
                                                   members=members, referees=referees,
                                                   replicas=replicas))
    return Script(path=path, event=event, characters=characters, steps=steps, race=race,
                  items=items, members=members, referees=referees, replicas=replicas)


def _steps(name: str, raws: list, reader: StepReader) -> list[Step]:
    """Every step is checked, so that one run lists all the typos of the file."""
    steps, problems, last_at = [], [], None
    for number, raw in enumerate(raws, start=1):
        try:
            step = reader.parse(number, raw)
            if last_at is not None and step.at_s < last_at:
                raise ValueError(f"at {format_time(step.at_s)} comes before the previous step "
                                 f"({format_time(last_at)}); steps must be in time order")
            last_at = step.at_s
            steps.append(step)
        except ValueError as exc:
            problems.append(f"{name}: step {number}: {exc}")
    if problems:
        raise ScriptError(problems)
    return steps


def _event(raw) -> tuple[dict, object]:
    event = checked_mapping(raw, "event", {"name", "ruleset", "options", "starts_at"})
    if not isinstance(event.get("ruleset"), str):
        raise ValueError("event.ruleset is required (e.g. gn_fr)")
    try:
        ruleset = get_ruleset(event["ruleset"])
        ruleset.merged_options(checked_mapping(event.get("options"), "event.options"))
    except RulesetError as exc:
        raise ValueError(f"event: {exc}") from None
    starts_at = event.get("starts_at")
    if starts_at is not None and (not isinstance(starts_at, str) or not WALL.match(starts_at)):
        raise ValueError(f"event.starts_at: {starts_at!r} is not a wall time like \"21:00\" "
                         "(the hour at which `at: \"0:00\"` falls)")
    return {"name": str(event.get("name") or "Rehearsal"), "ruleset": event["ruleset"],
            "options": event.get("options") or {}, "starts_at": starts_at}, ruleset


def _characters(raw) -> dict:
    characters = checked_mapping(raw, "characters")
    out = {}
    for key, spec in characters.items():
        if not isinstance(key, str) or key in (NARRATOR, CLOCK, ITEMS, MEMBERS, REPLICAS):
            raise ValueError(f"characters: '{key}' cannot be a character key ('{NARRATOR}', "
                             f"'{CLOCK}', '{ITEMS}', '{MEMBERS}' and '{REPLICAS}' are reserved)")
        spec = checked_mapping(spec, f"characters.{key}", CHARACTER_KEYS)
        kits = checked_mapping(spec.get("kits"), f"characters.{key}.kits")
        if any(not isinstance(n, int) or isinstance(n, bool) for n in kits.values()):
            raise ValueError(f"characters.{key}.kits: counts must be whole numbers")
        out[key] = {"name": str(spec.get("name") or key), "team": spec.get("team"),
                    "sheet": checked_mapping(spec.get("sheet"), f"characters.{key}.sheet"),
                    "kits": kits}
    return out
