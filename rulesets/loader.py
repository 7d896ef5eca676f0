"""Load a ruleset file (YAML) and check it completely before any game uses it.

An error names the file and the field: `gn_fr.yaml: actions.first_aid.outcomes.wounded[0]:
unknown rule element 'set_timr'`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import yaml

from .checks import Checker, RulesetError, check_action, check_contracts, check_extras, \
    check_interaction
from .elements import split_element
from .keys import keys_check

DATA_DIR = Path(__file__).parent / "data"


@dataclass
class Ruleset:
    key: str
    path: str
    name: dict
    initial_state: str
    states: dict
    timers: dict
    actions: dict
    values: dict
    options: dict
    option_choices: dict = field(default_factory=dict)
    skills: dict = field(default_factory=dict)
    kits: dict = field(default_factory=dict)
    capabilities: dict = field(default_factory=dict)
    points: dict = field(default_factory=dict)
    inert_timer: str | None = None
    inert_cannot: list = field(default_factory=list)
    # What a value takes away while it holds, whatever the state allows (weak: run).
    value_cannot: dict = field(default_factory=dict)
    interactions: dict = field(default_factory=dict)
    flags: dict = field(default_factory=dict)
    traits: dict = field(default_factory=dict)
    # Character abilities (Rasgos) a sheet may list: each may grant a skill and override
    # options for its bearer only; `explains` is what "Claridad" shows.
    abilities: dict = field(default_factory=dict)
    # Named effects narrators push (Muerte, Derribo...), each with its explanation.
    catalogue: dict = field(default_factory=dict)
    body: dict = field(default_factory=dict)      # hit locations shown as a body map
    load: dict = field(default_factory=dict)      # Carga: capacity, margin, what it forbids
    days: dict = field(default_factory=dict)      # the actions run at dawn and day end
    effect_default: str | None = None             # "conflict": an effect lasts one Conflict
    # The features of rulesets/contracts.py this ruleset has (checked at load).
    features: frozenset = frozenset()

    def has(self, feature: str) -> bool:
        return feature in self.features

    def default(self, key: str):
        """An option's default, as the file declares it; an undeclared one is refused."""
        if key not in self.options:
            raise RulesetError(f"unknown option '{key}' for ruleset {self.key}")
        return self.options[key]

    def skill_label(self, skill: str) -> dict:
        return self.skills.get(skill, {}).get("labels", {"en": skill})

    def leads_to(self, timer: str, status: str) -> str | None:
        """The state a timer moves this status to, read from its on_expire elements."""
        spec = self.timers[timer]["on_expire"]
        for raw in spec.get(status, spec.get("*", [])):
            name, params = split_element(raw)
            if name == "enter":
                return params["state"]
        return None

    def merged_options(self, overrides: dict | None) -> dict:
        """The event's options: the ruleset defaults with the organiser's choices on top."""
        merged = dict(self.options)
        for key, value in (overrides or {}).items():
            check_option(self, key, value)
            merged[key] = value
        return merged


def check_option(ruleset: Ruleset, key: str, value) -> None:
    default = ruleset.default(key)
    numeric = (int, float)
    if isinstance(default, bool) or isinstance(value, bool):
        ok = isinstance(value, bool) and isinstance(default, bool)
    elif isinstance(default, numeric):
        ok = isinstance(value, numeric) and value >= 0
    elif default is None:
        ok = True
    else:
        ok = isinstance(value, type(default))
    if not ok:
        raise RulesetError(f"option '{key}' must be like {default!r}, got {value!r}")
    choices = ruleset.option_choices.get(key)
    if choices and value not in choices:
        raise RulesetError(f"option '{key}' must be one of {', '.join(map(str, choices))}, got {value!r}")


def _flatten_options(checker: Checker, raw: dict) -> dict:
    flat = {}
    for group, entries in (raw or {}).items():
        if not isinstance(entries, dict):
            checker.fail(f"options.{group}", "must be a mapping of option: default")
        for key, value in entries.items():
            if key in flat:
                checker.fail(f"options.{group}.{key}", "defined twice")
            flat[key] = value
    return flat


def load_ruleset(path: Path | str) -> Ruleset:
    path = Path(path)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise RulesetError(f"{path.name}: cannot read: {exc}") from exc
    return ruleset_from_data(path, data)


def ruleset_from_data(path: Path, data) -> Ruleset:
    """Check a ruleset file's parsed data completely; `path` names it in every failure."""
    c = Checker(path, data)
    if not isinstance(data, dict):
        c.fail("(top)", "must be a mapping")
    keys_check(c, data)
    key = c.need("(top)", data, "key", str)
    c.labels("name", c.need("(top)", data, "name"))
    options = _flatten_options(c, data.get("options"))
    option_choices = data.get("option_choices") or {}
    for option, choices in option_choices.items():
        if option not in options:
            c.fail(f"option_choices.{option}", "unknown option")
        if not isinstance(choices, list) or options[option] not in choices:
            c.fail(f"option_choices.{option}", f"a list that holds the default {options[option]!r}")
    states = c.need("(top)", data, "states", dict)
    timers = data.get("timers") or {}
    actions = c.need("(top)", data, "actions", dict)
    values = data.get("values") or {}
    capabilities = data.get("capabilities") or {}
    ctx = {"options": options, "states": states, "timers": timers, "values": values,
           "points": data.get("points") or {}, "capabilities": capabilities}
    initial = c.need("(top)", data, "initial_state", str)
    if initial not in states:
        c.fail("initial_state", f"unknown state '{initial}'")

    for name, cap in capabilities.items():
        c.labels(f"capabilities.{name}.labels", c.need(f"capabilities.{name}", cap, "labels"))
    for name, state in states.items():
        where = f"states.{name}"
        c.labels(f"{where}.labels", c.need(where, state, "labels"))
        if "hint" in state:  # the one thing to do next, shown large on the phone
            c.labels(f"{where}.hint", state["hint"])
        if "countdown_label" in state:  # its name in "Coma dans 14:59" (default: its labels)
            c.labels(f"{where}.countdown_label", state["countdown_label"])
        c.need(where, state, "severity", int)
        for listed in ("can", "cannot"):
            for cap in state.get(listed, []):
                if cap not in capabilities:
                    c.fail(f"{where}.{listed}", f"unknown capability '{cap}'")
        for hook in ("on_enter", "on_reenter"):
            c.elements(f"{where}.{hook}", state.get(hook, []), ctx)
    for name, timer in timers.items():
        where = f"timers.{name}"
        c.labels(f"{where}.labels", c.need(where, timer, "labels"))
        on_expire = timer.setdefault("on_expire", {})
        for status, elements in on_expire.items():
            if status != "*" and status not in states:
                c.fail(f"{where}.on_expire", f"unknown state '{status}'")
            c.elements(f"{where}.on_expire.{status}", elements, ctx)
    inert_timer = data.get("inert_timer")
    if inert_timer and inert_timer not in timers:
        c.fail("inert_timer", f"unknown timer '{inert_timer}'")
    for cap in data.get("inert_cannot", []):
        if cap not in capabilities:
            c.fail("inert_cannot", f"unknown capability '{cap}'")
    value_cannot = data.get("value_cannot") or {}
    for value, caps in value_cannot.items():
        if value not in values:
            c.fail(f"value_cannot.{value}", f"unknown value '{value}' (declare it under values)")
        for cap in caps if isinstance(caps, list) else [None]:
            if cap not in capabilities:
                c.fail(f"value_cannot.{value}", f"a list of capabilities, not '{cap}'")

    skills = data.get("skills") or {}
    kits = data.get("kits") or {}
    for name, action in actions.items():
        check_action(c, f"actions.{name}", action, ctx, skills, kits)
    points = data.get("points") or {}
    for name, point in points.items():
        where = f"points.{name}"
        c.labels(f"{where}.labels", c.need(where, point, "labels"))
        if point.get("loss") and point["loss"] not in values:
            c.fail(f"{where}.loss", f"unknown value '{point['loss']}'")
        if point.get("recovers_with") and point["recovers_with"] not in timers:
            c.fail(f"{where}.recovers_with", f"unknown timer '{point['recovers_with']}'")
        for status in point.get("zero_in", []) + point.get("hidden_in", []):
            if status not in states:
                c.fail(where, f"unknown state '{status}'")
    flags = data.get("flags") or {}
    for name, flag_labels in flags.items():
        if name not in values:
            c.fail(f"flags.{name}", f"unknown value '{name}' (declare it under values)")
        c.labels(f"flags.{name}", flag_labels)
    traits = data.get("traits") or {}
    for name, trait_labels in traits.items():
        c.labels(f"traits.{name}", trait_labels)
    interactions = data.get("interactions") or {}
    for name, spec in interactions.items():
        check_interaction(c, f"interactions.{name}", name, spec,
                           {**ctx, "actions": actions, "points": points, "skills": skills})
    extras = check_extras(c, data, {**ctx, "actions": actions, "skills": skills})
    extras["features"] = check_contracts(c, data, {"options": options, "states": states,
                                                   "actions": actions, "values": values})
    return Ruleset(key=key, path=str(path), name=data["name"], initial_state=initial,
                   states=states, timers=timers, actions=actions, values=values,
                   options=options, option_choices=option_choices, skills=skills, kits=kits,
                   capabilities=capabilities,
                   points=points, inert_timer=inert_timer,
                   inert_cannot=data.get("inert_cannot", []), value_cannot=value_cannot,
                   interactions=interactions,
                   flags=flags, traits=traits, **extras)


def available_rulesets() -> list[str]:
    return sorted(p.stem for p in DATA_DIR.glob("*.yaml"))


@lru_cache(maxsize=None)
def get_ruleset(key: str) -> Ruleset:
    path = DATA_DIR / f"{key}.yaml"
    if not path.exists():
        raise RulesetError(f"unknown ruleset '{key}' (available: {', '.join(available_rulesets())})")
    return load_ruleset(path)
