"""Load a ruleset file (YAML) and check it completely before any game uses it.

An error names the file and the field: `gn_fr.yaml: actions.first_aid.outcomes.wounded[0]:
unknown rule element 'set_timr'`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import yaml

from .elements import CONDITIONS, ELEMENTS, split_element
from .messages import LANGUAGES, REFUSAL_CODES

DATA_DIR = Path(__file__).parent / "data"
# `rules`: applied by the server itself as the outcome of an interaction (a duel's loser),
# never declared from a phone.
# `other`: any other character acting on this one after scanning its code (a killing
# blow), timed like a treatment but needing no skill.
ROLES = {"self", "medic", "other", "narrator", "rules"}

# Interactions between characters: each key is one handler of the combat app, and each
# parameter what it must name in the file. An unknown key or parameter fails at load.
INTERACTIONS = {
    "duel": {"score": "point", "in_states": "states", "confirm_within_s": "number",
             "winner": "action", "loser": "action", "blocked_by_weapon": "weapons",
             "cancelled_by": "hits"},
    "union": {"ratio": "number", "window_s": "number", "in_states": "states",
              "minority": "action", "took_part": "action"},
    "acharnement": {"duration_s": "number", "kinds": "kinds", "victim_starts": "action",
                    "victim_stops": "action", "attacker": "action"},
    "firearm": {"hit": "action", "shooter": "action", "max_range_m": "number",
                "load_skill": "skill"},
    "search": {"searched": "action"},
    # A teammate heals a downed player in place (both hands, while the patient counts) or
    # drags them away first (extraction); only when `enabled_by` holds (medic mode).
    "heal": {"duration_s": "number", "enabled_by": "option", "patient_in": "states",
             "extraction_in": "states", "medic_in": "states", "starts": "action",
             "stops": "action", "completes": "action", "extraction_starts": "action",
             "extraction_stops": "action", "roster_skill": "skill"},
}
WEAPONS = {"stunning", "wounding", "firearm"}
VALUE_ELEMENTS = {"lose_points", "remember_state", "return_to", "count", "postpone_timer",
                  "restore_timer", "stages"}
PARAM_TYPES = {"bool": bool, "int": int, "str": str, "state": str, "choice": str}


class RulesetError(ValueError):
    pass


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
    interactions: dict = field(default_factory=dict)
    flags: dict = field(default_factory=dict)
    traits: dict = field(default_factory=dict)
    # Character abilities (Rasgos) a sheet may list: each may grant a skill and override
    # options for its bearer only; `explains` is what "Claridad" shows.
    abilities: dict = field(default_factory=dict)
    # Named effects narrators push (Muerte, Derribo...), each with its explanation.
    catalogue: dict = field(default_factory=dict)
    body: dict = field(default_factory=dict)      # hit locations shown as a body map
    load: dict = field(default_factory=dict)      # Carga: capacity and overload margin
    days: dict = field(default_factory=dict)      # the actions run at dawn and day end
    effect_default: str | None = None             # "conflict": an effect lasts one Conflict

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
    if key not in ruleset.options:
        raise RulesetError(f"unknown option '{key}' for ruleset {ruleset.key}")
    default = ruleset.options[key]
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


class _Checker:
    def __init__(self, path: Path, data: dict):
        self.file = path.name
        self.data = data

    def fail(self, where: str, problem: str):
        raise RulesetError(f"{self.file}: {where}: {problem}")

    def need(self, where: str, mapping, key: str, kind=None):
        if not isinstance(mapping, dict) or key not in mapping:
            self.fail(where, f"missing field '{key}'")
        if kind and not isinstance(mapping[key], kind):
            self.fail(f"{where}.{key}", f"must be a {kind.__name__}")
        return mapping[key]

    def labels(self, where: str, labels):
        if not isinstance(labels, dict) or set(LANGUAGES) - set(labels):
            self.fail(where, f"labels need the languages {', '.join(LANGUAGES)}")

    def value_ref(self, where: str, value, options: dict):
        if isinstance(value, str) and value.startswith("$") and value[1:] not in options:
            self.fail(where, f"unknown option '{value[1:]}'")
        if isinstance(value, dict):
            for key, inner in value.items():
                if key in ("by_level", "then", "else", "value", "when"):
                    self.value_ref(f"{where}.{key}", inner, options)
                elif isinstance(inner, (dict, str)):
                    self.value_ref(f"{where}.{key}", inner, options)

    def elements(self, where: str, elements, ctx: dict):
        if not isinstance(elements, list):
            self.fail(where, "must be a list of rule elements")
        for i, raw in enumerate(elements):
            here = f"{where}[{i}]"
            if not isinstance(raw, (str, dict)) or (isinstance(raw, dict) and len(raw) != 1):
                self.fail(here, "a rule element is a name or a one-key mapping")
            name = raw if isinstance(raw, str) else next(iter(raw))
            if name not in ELEMENTS:
                self.fail(here, f"unknown rule element '{name}' (known: {', '.join(sorted(ELEMENTS))})")
            _, params = split_element(raw)
            self.element_params(here, name, params, ctx)

    def element_params(self, where: str, name: str, params: dict, ctx: dict):
        spec = ELEMENTS[name]
        given = set(params) - CONDITIONS
        if spec.free_params:
            for key in given:
                if key not in ctx["values"]:
                    self.fail(f"{where}.{name}", f"unknown value '{key}' (declare it under values)")
        else:
            for key in spec.required - given:
                self.fail(f"{where}.{name}", f"missing parameter '{key}'")
            for key in given - spec.required - spec.optional:
                self.fail(f"{where}.{name}", f"unknown parameter '{key}'")
        for cond in ("when_option", "unless_option"):
            if cond in params and params[cond] not in ctx["options"]:
                self.fail(f"{where}.{name}.{cond}", f"unknown option '{params[cond]}'")
        for option in (params.get("when_option_is") or {}):
            if option not in ctx["options"]:
                self.fail(f"{where}.{name}.when_option_is", f"unknown option '{option}'")
        for key in given:
            self.value_ref(f"{where}.{name}.{key}", params[key], ctx["options"])
        if name == "enter" and not str(params["state"]).startswith(("@", "$")) \
                and params["state"] not in ctx["states"]:
            self.fail(f"{where}.enter", f"unknown state '{params['state']}'")
        if name in ("postpone_timer", "restore_timer") and params["remember"] not in ctx["values"]:
            self.fail(f"{where}.{name}", f"unknown value '{params['remember']}' (declare it under values)")
        if name in ("set_timer", "clear_timer", "postpone_timer", "restore_timer") \
                and params["timer"] not in ctx["timers"]:
            self.fail(f"{where}.{name}", f"unknown timer '{params['timer']}'")
        for key in ("value", "remember"):  # lose_points, count... name a declared value
            if name in VALUE_ELEMENTS and key in params and params[key] not in ctx["values"]:
                self.fail(f"{where}.{name}", f"unknown value '{params[key]}' (declare it under values)")
        if "point" in params and params["point"] not in ctx["points"]:
            self.fail(f"{where}.{name}", f"unknown point '{params['point']}'")
        for cond in ("when_at_least", "when_below", "when_value_is", "unless_value_is"):
            for value in (params.get(cond) or {}):
                if value not in ctx["values"]:
                    self.fail(f"{where}.{name}.{cond}", f"unknown value '{value}'")
        for cond in ("when_option_has", "unless_option_has"):
            for option in (params.get(cond) or {}):
                if option not in ctx["options"]:
                    self.fail(f"{where}.{name}.{cond}", f"unknown option '{option}'")
        for key in sorted(spec.nested & given):
            self.elements(f"{where}.{name}.{key}", params[key], ctx)


def _flatten_options(checker: _Checker, raw: dict) -> dict:
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
    c = _Checker(path, data)
    if not isinstance(data, dict):
        c.fail("(top)", "must be a mapping")
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

    skills = data.get("skills") or {}
    kits = data.get("kits") or {}
    for name, action in actions.items():
        _check_action(c, f"actions.{name}", action, ctx, skills, kits)
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
        _check_interaction(c, f"interactions.{name}", name, spec,
                           {**ctx, "actions": actions, "points": points, "skills": skills})
    extras = _check_extras(c, data, {**ctx, "actions": actions, "skills": skills})
    return Ruleset(key=key, path=str(path), name=data["name"], initial_state=initial,
                   states=states, timers=timers, actions=actions, values=values,
                   options=options, option_choices=option_choices, skills=skills, kits=kits, capabilities=capabilities,
                   points=points, inert_timer=inert_timer,
                   inert_cannot=data.get("inert_cannot", []), interactions=interactions,
                   flags=flags, traits=traits, **extras)


def _check_extras(c: _Checker, data: dict, ctx: dict) -> dict:
    """The sections only some rulesets have: abilities, an effect catalogue, a body map,
    Carga, scheduled days and the standard duration of an effect."""
    abilities = _check_explained(c, "abilities", data.get("abilities") or {},
                                 {"skill": ctx["skills"]})
    for name, ability in abilities.items():
        for option in (ability.get("overrides") or {}):
            if option not in ctx["options"]:
                c.fail(f"abilities.{name}.overrides", f"unknown option '{option}'")
    catalogue = _check_explained(c, "catalogue", data.get("catalogue") or {},
                                 {"set_state": ctx["states"], "action": ctx["actions"]})
    body = data.get("body") or {}
    if body:
        locations = c.need("body", body, "locations", dict)
        for name, labels in locations.items():
            c.labels(f"body.locations.{name}", labels)
        for key in ("limbs_value", "damage_value"):
            if c.need("body", body, key) not in ctx["values"]:
                c.fail(f"body.{key}", f"unknown value '{body[key]}'")
    load = data.get("load") or {}
    if load:
        for key in ("capacity", "overload_margin", "default_item_load"):
            c.value_ref(f"load.{key}", c.need("load", load, key), ctx["options"])
    days = data.get("days") or {}
    for key, action in days.items():
        if key not in ("dawn", "day_end"):
            c.fail(f"days.{key}", "days name the actions for dawn and day_end")
        if action not in ctx["actions"] or "rules" not in ctx["actions"][action]["declared_by"]:
            c.fail(f"days.{key}", f"'{action}' must be an action declared_by rules")
    effect_default = data.get("effect_default")
    if effect_default not in (None, "conflict"):
        c.fail("effect_default", "either absent (until removed) or 'conflict'")
    return {"abilities": abilities, "catalogue": catalogue, "body": body, "load": load,
            "days": days, "effect_default": effect_default}


def _check_explained(c: _Checker, section: str, entries: dict, refs: dict) -> dict:
    """Entries shown with their explanation (abilities, catalogue effects): labels and
    `explains` required; each key of `refs` names, when given, one of what it maps to."""
    kinds = {"skill": "skill", "set_state": "state", "action": "action"}
    for name, entry in entries.items():
        where = f"{section}.{name}"
        c.labels(f"{where}.labels", c.need(where, entry, "labels"))
        c.labels(f"{where}.explains", c.need(where, entry, "explains"))
        for key, known in refs.items():
            if entry.get(key) and entry[key] not in known:
                c.fail(f"{where}.{key}", f"unknown {kinds[key]} '{entry[key]}'")
    return entries


def _check_interaction(c: _Checker, where: str, name: str, spec, ctx: dict):
    if name not in INTERACTIONS:
        c.fail(where, f"unknown interaction (known: {', '.join(sorted(INTERACTIONS))})")
    if not isinstance(spec, dict):
        c.fail(where, "must be a mapping of parameters")
    schema = INTERACTIONS[name]
    for key in set(schema) - set(spec):
        c.fail(where, f"missing parameter '{key}'")
    for key, value in spec.items():
        if key == "labels":
            c.labels(f"{where}.labels", value)
        elif key not in schema:
            c.fail(where, f"unknown parameter '{key}'")
        else:
            _check_reference(c, f"{where}.{key}", schema[key], value, ctx)


def _check_reference(c: _Checker, where: str, kind: str, value, ctx: dict):
    named = {"action": "actions", "point": "points", "skill": "skills"}
    if kind == "skill" and value is None:
        return  # no skill needed
    if kind in named and value not in ctx[named[kind]]:
        c.fail(where, f"unknown {kind} '{value}'")
    if kind == "action" and "rules" not in ctx["actions"][value]["declared_by"]:
        c.fail(where, f"action '{value}' must be declared_by rules")
    if kind == "hits" and (not isinstance(value, list) or set(value) - set(ctx["actions"])):
        c.fail(where, "a list of actions of this ruleset")
    if kind == "states" and (not isinstance(value, list) or set(value) - set(ctx["states"])):
        c.fail(where, "a list of states of this ruleset")
    if kind == "weapons" and (not isinstance(value, (list, str)) or
                              (isinstance(value, list) and set(value) - WEAPONS)):
        c.fail(where, f"a list among {', '.join(sorted(WEAPONS))}, or an $option")
    if kind == "option" and value not in ctx["options"]:
        c.fail(where, f"unknown option '{value}'")
    if kind == "number":
        c.value_ref(where, value, ctx["options"])
        if not (isinstance(value, (int, float)) or str(value).startswith("$")):
            c.fail(where, "a number or an $option")
    if kind == "kinds":
        if not isinstance(value, dict) or not value:
            c.fail(where, "a mapping of kinds")
        for kind_name, kind_spec in value.items():
            here = f"{where}.{kind_name}"
            c.labels(f"{here}.labels", c.need(here, kind_spec, "labels"))
            _check_reference(c, f"{here}.victim_in", "states", c.need(here, kind_spec, "victim_in"), ctx)
            _check_reference(c, f"{here}.completes", "action", c.need(here, kind_spec, "completes"), ctx)


def _check_action(c: _Checker, where: str, action: dict, ctx: dict, skills: dict, kits: dict):
    c.labels(f"{where}.labels", c.need(where, action, "labels"))
    roles = c.need(where, action, "declared_by", list)
    if set(roles) - ROLES:
        c.fail(f"{where}.declared_by", f"roles are {', '.join(sorted(ROLES))}")
    if set(roles) & {"medic", "other"} and "self" in roles:
        c.fail(f"{where}.declared_by", "an action on another character is not also declared by self")
    if "medic" in roles and action.get("skill") not in skills:
        c.fail(f"{where}.skill", "a medic action names a skill declared under skills")
    if action.get("kit") and action["kit"] not in kits:
        c.fail(f"{where}.kit", f"unknown kit '{action['kit']}'")
    for pname, param in (action.get("params") or {}).items():
        if param.get("type") not in PARAM_TYPES:
            c.fail(f"{where}.params.{pname}.type", f"one of {', '.join(PARAM_TYPES)}")
        c.labels(f"{where}.params.{pname}.labels", param.get("labels"))
        if param["type"] == "choice":
            choices = c.need(f"{where}.params.{pname}", param, "choices", dict)
            for choice, labels in choices.items():
                c.labels(f"{where}.params.{pname}.choices.{choice}", labels)
    c.value_ref(f"{where}.duration_s", action.get("duration_s", 0), ctx["options"])
    for i, req in enumerate(action.get("requires", [])):
        for key in ("when", "value", "refusal"):
            c.need(f"{where}.requires[{i}]", req, key)
        if req["refusal"] not in REFUSAL_CODES:
            c.fail(f"{where}.requires[{i}].refusal", f"unknown message '{req['refusal']}'")
        c.value_ref(f"{where}.requires[{i}]", req, ctx["options"])
    if action.get("actor_needs") and action["actor_needs"] not in ctx.get("capabilities", {}):
        c.fail(f"{where}.actor_needs", f"unknown capability '{action['actor_needs']}'")
    if action.get("states_option"):
        option = action["states_option"]
        if option not in ctx["options"] or not isinstance(ctx["options"][option], list) \
                or set(ctx["options"][option]) - set(ctx["states"]):
            c.fail(f"{where}.states_option", f"'{option}' must be an option listing states")
    for point, amount in (action.get("costs") or {}).items():
        if point not in ctx["points"] or not isinstance(amount, int):
            c.fail(f"{where}.costs", f"a point of this ruleset and a whole number ('{point}')")
    for key in ("when_value", "unless_value"):
        if action.get(key) and action[key] not in ctx["values"]:
            c.fail(f"{where}.{key}", f"unknown value '{action[key]}'")
    outcomes = c.need(where, action, "outcomes", dict)
    for status, elements in outcomes.items():
        if status not in ctx["states"]:
            c.fail(f"{where}.outcomes", f"unknown state '{status}'")
        c.elements(f"{where}.outcomes.{status}", elements, ctx)


def available_rulesets() -> list[str]:
    return sorted(p.stem for p in DATA_DIR.glob("*.yaml"))


@lru_cache(maxsize=None)
def get_ruleset(key: str) -> Ruleset:
    path = DATA_DIR / f"{key}.yaml"
    if not path.exists():
        raise RulesetError(f"unknown ruleset '{key}' (available: {', '.join(available_rulesets())})")
    return load_ruleset(path)
