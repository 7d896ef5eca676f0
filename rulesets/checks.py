"""The checks a ruleset file goes through at load (rulesets/loader.py): rule elements,
actions, interactions, the sections only some rulesets have, and the declared contracts
(rulesets/contracts.py). Each failure names the file and the field."""
from __future__ import annotations

from pathlib import Path

from .contracts import FEATURES, features_of
from .elements import CONDITIONS, ELEMENTS, split_element
from .messages import LANGUAGES, REFUSAL_CODES


class RulesetError(ValueError):
    pass


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
                "max_range_included": "bool", "load_skill": "skill", "misses_if": "labelled"},
    "search": {"searched": "action"},
    # A hit declared with who shot (airsoft): it counts only from a shooter in
    # `shooter_in`; any other shot is void and `void` is recorded on the shooter where
    # their state has it (fired before "retour en jeu").
    "shot": {"hit": "action", "shooter_in": "states", "void": "action"},
    # A teammate heals a downed player in place (both hands, while the patient counts) or
    # drags them away first (extraction); only when `enabled_by` holds (medic mode).
    "heal": {"duration_s": "number", "enabled_by": "option", "patient_in": "states",
             "extraction_in": "states", "medic_in": "states", "starts": "action",
             "stops": "action", "completes": "action", "extraction_starts": "action",
             "extraction_stops": "action", "roster_skill": "skill"},
}
# What a ruleset may leave out: the shooter's conditions that make a shot miss, and
# whether a shot at exactly the range still counts (left out: only under it).
OPTIONAL_PARAMS = {"firearm": {"misses_if", "max_range_included"}}
WEAPONS = {"stunning", "wounding", "firearm"}
VALUE_ELEMENTS = {"lose_points", "remember_state", "return_to", "count", "postpone_timer",
                  "restore_timer", "stages"}
# What a character's Carga makes of it (effects/selectors/load.py words each one).
LOAD_LEVELS = ("normal", "overloaded", "immobile")
PARAM_TYPES = {"bool": bool, "int": int, "str": str, "state": str, "choice": str}
# Conditions that hold a mapping (`when_at_least: {trauma: 3}`); the others name one thing.
MAPPED_CONDITIONS = {"when_option_is", "when_at_least", "when_below", "when_option_has",
                     "unless_option_has", "when_value_is", "unless_value_is", "when_param_is"}
# Parameters that name something the file declares: looked up, so text only.
NAME_PARAMS = ("state", "timer", "remember", "point")


class Checker:
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
        for key in set(labels) - set(LANGUAGES):
            self.fail(where, f"unknown language '{key}' (labels hold {', '.join(LANGUAGES)})")

    def value_ref(self, where: str, value, options: dict):
        if isinstance(value, str) and value.startswith("$") and value[1:] not in options:
            self.fail(where, f"unknown option '{value[1:]}'")
        if isinstance(value, dict):
            if "when_option" in value and value["when_option"] not in options:
                self.fail(f"{where}.when_option", f"unknown option '{value['when_option']}'")
            for key, inner in value.items():
                if key in ("by_level", "then", "else", "value", "when"):
                    self.value_ref(f"{where}.{key}", inner, options)
                elif isinstance(inner, (dict, str, list)):
                    self.value_ref(f"{where}.{key}", inner, options)
        if isinstance(value, list):
            for i, inner in enumerate(value):
                self.value_ref(f"{where}[{i}]", inner, options)

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

    def element_shapes(self, where: str, name: str, params: dict):
        """A condition or a name given as the wrong shape fails before anything reads it."""
        for key, value in params.items():
            kind = dict if key in MAPPED_CONDITIONS else str
            named = key in CONDITIONS or key in NAME_PARAMS or (
                key == "value" and name in VALUE_ELEMENTS)
            if named and not isinstance(value, kind):
                self.fail(f"{where}.{name}.{key}", f"must be a {kind.__name__}")

    def element_params(self, where: str, name: str, params: dict, ctx: dict):
        spec = ELEMENTS[name]
        self.element_shapes(where, name, params)
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
        if params.get("worsening") and "never_improve" not in ctx["options"]:
            self.fail(f"{where}.enter.worsening", "reads the option 'never_improve': declare it")
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


def check_extras(c: Checker, data: dict, ctx: dict) -> dict:
    """The sections only some rulesets have: abilities, an effect catalogue, a body map,
    Carga, scheduled days and the standard duration of an effect."""
    abilities = check_explained(c, "abilities", data.get("abilities") or {},
                                 {"skill": ctx["skills"]})
    for name, ability in abilities.items():
        for option in (ability.get("overrides") or {}):
            if option not in ctx["options"]:
                c.fail(f"abilities.{name}.overrides", f"unknown option '{option}'")
    catalogue = check_explained(c, "catalogue", data.get("catalogue") or {},
                                 {"set_state": ctx["states"], "action": ctx["actions"]})
    body = data.get("body") or {}
    if body:
        locations = c.need("body", body, "locations", dict)
        for name, labels in locations.items():
            c.labels(f"body.locations.{name}", labels)
        for key in ("limbs_value", "damage_value"):
            if c.need("body", body, key) not in ctx["values"]:
                c.fail(f"body.{key}", f"unknown value '{body[key]}'")
        for name, zone in (body.get("zones") or {}).items():
            c.labels(f"body.zones.{name}.labels", c.need(f"body.zones.{name}", zone, "labels"))
            c.need(f"body.zones.{name}", zone, "zone", str)
            if c.need(f"body.zones.{name}", zone, "counts_as") not in locations:
                c.fail(f"body.zones.{name}.counts_as", f"unknown location '{zone['counts_as']}'")
    load = data.get("load") or {}
    if load:
        for key in ("capacity", "overload_margin", "default_item_load"):
            c.value_ref(f"load.{key}", c.need("load", load, key), ctx["options"])
        for level, caps in (load.get("cannot") or {}).items():
            if level not in LOAD_LEVELS:
                c.fail(f"load.cannot.{level}", f"a load level: {', '.join(LOAD_LEVELS)}")
            if not isinstance(caps, list) or set(caps) - set(ctx["capabilities"]):
                c.fail(f"load.cannot.{level}", "a list of capabilities of this ruleset")
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


def check_explained(c: Checker, section: str, entries: dict, refs: dict) -> dict:
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


def check_interaction(c: Checker, where: str, name: str, spec, ctx: dict):
    if name not in INTERACTIONS:
        c.fail(where, f"unknown interaction (known: {', '.join(sorted(INTERACTIONS))})")
    if not isinstance(spec, dict):
        c.fail(where, "must be a mapping of parameters")
    schema = INTERACTIONS[name]
    # A misspelt parameter is named as such, before the right one is missed.
    for key in set(spec) - set(schema) - {"labels"}:
        c.fail(where, f"unknown parameter '{key}'")
    for key in set(schema) - set(spec) - OPTIONAL_PARAMS.get(name, set()):
        c.fail(where, f"missing parameter '{key}'")
    for key, value in spec.items():
        if key == "labels":
            c.labels(f"{where}.labels", value)
        else:
            check_reference(c, f"{where}.{key}", schema[key], value, ctx)


def check_reference(c: Checker, where: str, kind: str, value, ctx: dict):
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
    if kind == "bool" and not isinstance(value, bool):
        c.fail(where, "true or false")
    if kind == "option" and value not in ctx["options"]:
        c.fail(where, f"unknown option '{value}'")
    if kind == "number":
        c.value_ref(where, value, ctx["options"])
        if not (isinstance(value, (int, float)) or str(value).startswith("$")):
            c.fail(where, "a number or an $option")
    if kind == "labelled":
        if not isinstance(value, dict):
            c.fail(where, "a mapping of keys, each with its labels")
        for key, entry in value.items():
            c.labels(f"{where}.{key}.labels", c.need(f"{where}.{key}", entry, "labels"))
    if kind == "kinds":
        if not isinstance(value, dict) or not value:
            c.fail(where, "a mapping of kinds")
        for kind_name, kind_spec in value.items():
            here = f"{where}.{kind_name}"
            c.labels(f"{here}.labels", c.need(here, kind_spec, "labels"))
            check_reference(c, f"{here}.victim_in", "states", c.need(here, kind_spec, "victim_in"), ctx)
            check_reference(c, f"{here}.completes", "action", c.need(here, kind_spec, "completes"), ctx)


def check_action(c: Checker, where: str, action: dict, ctx: dict, skills: dict, kits: dict):
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


# -- declared contracts (rulesets/contracts.py) --------------------------------------------

NAMED_OPTION = ("when_option", "unless_option", "states_option", "enabled_by")
OPTION_KEYED = ("when_option_is", "when_option_has", "unless_option_has")
# `enter: {worsening: true}` reads never_improve (rulesets/elements.py).
IMPLIED = {"worsening": "never_improve"}


def data_reads(node, found: set | None = None) -> set:
    """The options the rule data reads: `$option` values, the option conditions, the
    option an interaction is enabled by, the option an element parameter implies."""
    found = set() if found is None else found
    if isinstance(node, dict):
        for key, value in node.items():
            if key in NAMED_OPTION and isinstance(value, str):
                found.add(value)
            elif key in OPTION_KEYED and isinstance(value, dict):
                found.update(value)
            elif key in IMPLIED and value:
                found.add(IMPLIED[key])
            data_reads(value, found)
    elif isinstance(node, list):
        for value in node:
            data_reads(value, found)
    elif isinstance(node, str) and node.startswith("$") and node[1:].isidentifier():
        found.add(node[1:])
    return found


def check_contracts(c: Checker, data: dict, known: dict) -> frozenset:
    """Every option is read by the data or by a feature this ruleset has, and every key
    those features rely on is declared. `known`: options, states, actions, values."""
    for name in data.get("features") or []:
        if name not in FEATURES:
            c.fail("features", f"unknown feature '{name}' (known: {', '.join(sorted(FEATURES))})")
    features = features_of(data)
    rules = {k: v for k, v in data.items() if k not in ("options", "option_choices")}
    read = data_reads(rules)
    for name in sorted(features):
        feature = FEATURES[name]
        read.update(feature.options)
        for kind in ("options", "states", "actions", "values"):
            for key in getattr(feature, kind):
                if key not in known[kind]:
                    c.fail(f"{kind}.{key}", f"missing: the '{name}' feature "
                           f"({', '.join(feature.used_by)}) relies on it")
    for key in known["options"]:
        if key not in read:
            c.fail(f"options.{key}", "declared but nothing reads it: no rule in this file "
                   "and no feature of this ruleset (rulesets/contracts.py)")
    return frozenset(features)
