"""The keys each mapping of a ruleset file may hold. A key outside its list fails the load,
naming the file and the path (`gn_fr.yaml: states.tired: unknown key 'on_renter'`): a
misspelt key would otherwise load and silently drop the rule it carries (a top-level
`interacions:` loads a ruleset without fights, an action's `kits:` makes it free).

The mappings whose keys are names the file chooses (states, actions, values, options
and their groups...) are not listed here: their names are checked where they are used
(an unknown state, an option that nothing reads: rulesets/checks.py). Rule elements and
interactions have their own lists (rulesets/elements.py, checks.INTERACTIONS); labels
hold the languages (checks.Checker.labels)."""
from __future__ import annotations

TOP = {"key", "name", "features", "initial_state", "options", "option_choices", "states",
       "timers", "actions", "values", "capabilities", "skills", "kits", "points", "flags",
       "traits", "interactions", "inert_timer", "inert_cannot", "value_cannot", "abilities",
       "catalogue",
       "body", "load", "days", "effect_default"}
STATE = {"labels", "severity", "hint", "countdown_label", "inert", "can", "cannot",
         "on_enter", "on_reenter"}
TIMER = {"labels", "on_expire"}
ACTION = {"labels", "declared_by", "outcomes", "params", "requires", "skill", "kit",
          "duration_s", "actor_needs", "costs", "states_option", "when_value",
          "unless_value"}
ACTION_PARAM = {"type", "labels", "default", "choices"}
REQUIREMENT = {"when", "value", "refusal"}
POINT = {"labels", "base", "max", "loss", "recovers_with", "zero_in", "hidden_in"}
LABELLED = {"labels"}                             # capabilities, kits, a shot's misses
SKILL = {"labels", "levels"}
ABILITY = {"labels", "explains", "skill", "overrides"}
CATALOGUE_ENTRY = {"labels", "explains", "set_state", "action"}
BODY = {"locations", "zones", "limbs_value", "damage_value"}
BODY_ZONE = {"labels", "zone", "counts_as"}
LOAD = {"capacity", "overload_margin", "default_item_load", "cannot"}
DAYS = {"dawn", "day_end"}
ACHARNEMENT_KIND = {"labels", "victim_in", "completes"}


def _mappings(data: dict):
    """(path, mapping, allowed keys) for every fixed-key mapping of the file."""
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
    body = data.get("body")
    if isinstance(body, dict):
        yield "body", body, BODY
        for name, zone in _entries(body.get("zones")):
            yield f"body.zones.{name}", zone, BODY_ZONE
    for section, allowed in (("load", LOAD), ("days", DAYS)):
        if isinstance(data.get(section), dict):
            yield section, data[section], allowed
    interactions = data.get("interactions") if isinstance(data.get("interactions"), dict) else {}
    for name, kind in _entries((interactions.get("acharnement") or {}).get("kinds")):
        yield f"interactions.acharnement.kinds.{name}", kind, ACHARNEMENT_KIND
    for name, miss in _entries((interactions.get("firearm") or {}).get("misses_if")):
        yield f"interactions.firearm.misses_if.{name}", miss, LABELLED


def _entries(section):
    return section.items() if isinstance(section, dict) else ()


def keys_check(checker, data: dict) -> None:
    """Fail on the first key that no list allows."""
    for where, mapping, allowed in _mappings(data):
        if not isinstance(mapping, dict):
            continue          # the section's own check says what it must be
        for key in mapping:
            if key not in allowed:
                checker.fail(where, f"unknown key '{key}' (known: {', '.join(sorted(allowed))})")
