"""The keys each mapping of a ruleset file may hold, and the shape of what each holds. A key
outside its list fails the load, naming the file and the path (`gn_fr.yaml: states.tired:
unknown key 'on_renter'`): a misspelt key would otherwise load and silently drop the rule it
carries (a top-level `interacions:` loads a ruleset without fights, an action's `kits:` makes
it free). A value of the wrong shape (`days:` written as a list) fails the same way, before
any other check reads it.

The mappings whose keys are names the file chooses (states, actions, values, options
and their groups...) are not listed here: their names are checked where they are used
(an unknown state, an option that nothing reads: rulesets/checks.py). Rule elements and
interactions have their own lists (rulesets/elements.py, checks.INTERACTIONS); labels
hold the languages (checks.Checker.labels), so their shape is left to that check (ANY)."""
from __future__ import annotations

ANY = None
NUMBER = (int, float, str)          # a number, or "$option" naming the option that holds it
NAMED = dict                        # a mapping of names the file chooses, each to an entry

TOP = {"key": str, "name": ANY, "features": list, "initial_state": str, "options": NAMED,
       "option_choices": NAMED, "states": NAMED, "timers": NAMED, "actions": NAMED,
       "values": NAMED, "capabilities": NAMED, "skills": NAMED, "kits": NAMED,
       "points": NAMED, "flags": NAMED, "traits": NAMED, "interactions": NAMED,
       "inert_timer": str, "inert_cannot": list, "value_cannot": NAMED, "abilities": NAMED,
       "catalogue": NAMED, "body": dict, "load": dict, "days": dict, "effect_default": str}
STATE = {"labels": ANY, "severity": int, "hint": ANY, "countdown_label": ANY, "inert": bool,
         "can": list, "cannot": list, "on_enter": list, "on_reenter": list}
TIMER = {"labels": ANY, "on_expire": NAMED}
ACTION = {"labels": ANY, "declared_by": list, "outcomes": NAMED, "params": NAMED,
          "requires": list, "skill": str, "kit": str, "duration_s": (int, float, str, dict),
          "actor_needs": str, "costs": NAMED, "states_option": str, "when_value": str,
          "unless_value": str}
ACTION_PARAM = {"type": str, "labels": ANY, "default": ANY, "choices": NAMED}
REQUIREMENT = {"when": dict, "value": str, "refusal": str}
POINT = {"labels": ANY, "base": NUMBER, "max": NUMBER, "loss": str, "recovers_with": str,
         "zero_in": list, "hidden_in": list}
LABELLED = {"labels": ANY}                         # capabilities, kits, a shot's misses
SKILL = {"labels": ANY, "levels": list}
ABILITY = {"labels": ANY, "explains": ANY, "skill": str, "overrides": NAMED}
CATALOGUE_ENTRY = {"labels": ANY, "explains": ANY, "set_state": str, "action": str}
BODY = {"locations": NAMED, "zones": NAMED, "limbs_value": str, "damage_value": str}
BODY_ZONE = {"labels": ANY, "zone": str, "counts_as": str}
LOAD = {"capacity": NUMBER, "overload_margin": NUMBER, "default_item_load": NUMBER,
        "cannot": NAMED}
DAYS = {"dawn": str, "day_end": str}
ACHARNEMENT_KIND = {"labels": ANY, "victim_in": list, "completes": str}


def _mappings(data: dict):
    """(path, mapping, allowed keys) for every fixed-key mapping of the file, outermost
    first, so that a mapping is yielded only once its parent's shape was checked."""
    yield "(top)", data, TOP
    sections = (("states", STATE), ("timers", TIMER), ("actions", ACTION), ("points", POINT),
                ("capabilities", LABELLED), ("skills", SKILL), ("kits", LABELLED),
                ("abilities", ABILITY), ("catalogue", CATALOGUE_ENTRY))
    for section, allowed in sections:
        for name, entry in _entries(data.get(section)):
            yield f"{section}.{name}", entry, allowed
    for name, action in _entries(data.get("actions")):
        for param, spec in _entries(action.get("params")):
            yield f"actions.{name}.params.{param}", spec, ACTION_PARAM
        for i, requirement in enumerate(action.get("requires") or []):
            yield f"actions.{name}.requires[{i}]", requirement, REQUIREMENT
    if data.get("body"):
        yield "body", data["body"], BODY
        for name, zone in _entries(data["body"].get("zones")):
            yield f"body.zones.{name}", zone, BODY_ZONE
    for section, allowed in (("load", LOAD), ("days", DAYS)):
        if data.get(section):
            yield section, data[section], allowed
    interactions = data.get("interactions") or {}
    for name, kind in _entries(_entry(_entry(interactions, "acharnement"), "kinds")):
        yield f"interactions.acharnement.kinds.{name}", kind, ACHARNEMENT_KIND
    for name, miss in _entries(_entry(_entry(interactions, "firearm"), "misses_if")):
        yield f"interactions.firearm.misses_if.{name}", miss, LABELLED


def _entry(mapping: dict, key: str):
    return mapping.get(key) if isinstance(mapping, dict) else None


def _entries(section):
    return section.items() if isinstance(section, dict) else ()


def _kind_name(kind) -> str:
    return " or ".join(k.__name__ for k in kind) if isinstance(kind, tuple) else kind.__name__


def keys_check(checker, data: dict) -> None:
    """Fail on the first key that no list allows, or the first value of the wrong shape.
    An empty value (`abilities:` with nothing under it) stands for none."""
    for where, mapping, allowed in _mappings(data):
        if not isinstance(mapping, dict):
            checker.fail(where, "must be a mapping")
        for key, value in mapping.items():
            if key not in allowed:
                checker.fail(where, f"unknown key '{key}' (known: {', '.join(sorted(allowed))})")
            kind = allowed[key]
            if kind is not ANY and value is not None and not isinstance(value, kind):
                checker.fail(f"{where}.{key}", f"must be a {_kind_name(kind)}")
        if allowed is TOP:
            _named_entries_check(checker, mapping)


def _named_entries_check(checker, data: dict) -> None:
    """Each entry of a section of named entries is itself a mapping (a state, an action...);
    values, flags, traits, interactions and option groups hold their own shapes, checked
    where they are read."""
    for section in ("states", "timers", "actions", "points", "capabilities", "skills", "kits",
                    "abilities", "catalogue"):
        for name, entry in _entries(data.get(section)):
            if not isinstance(entry, dict):
                checker.fail(f"{section}.{name}", "must be a mapping")
