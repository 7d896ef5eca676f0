"""What each declaration the player may make would do now: the outcome table a phone keeps
so that a declaration tapped with no network shows its state and countdown at once,
marked as not yet confirmed, until the server's answer confirms or corrects it.

The table is the character's own, not the ruleset's: what a hit does depends on the sheet
(a combat score that reaches zero), the values (a second wound keeps the first deadline),
the event's options and, for a hit by body location, its parameters. So the server runs
the rules core itself, on the state as it stands, for every declarable action and every
combination of its choices (where a hit landed, with what), up to MAX_COMBINATIONS.

Each timer of an outcome says `after_s`: its deadline counted from the declaration, which
the phone counts from the tap; or `kept`: the declaration left it as it was, so the phone
keeps the deadline it already shows.
"""
from __future__ import annotations

from datetime import datetime
from itertools import product

from players.models import Character
from rulesets import RuleRefused

from .capabilities import character_load_level
from .selectors import declarable_actions

MAX_COMBINATIONS = 128


def _combinations(spec: dict) -> list[dict]:
    """Every combination of an action's choice and yes/no parameters; other parameters
    (a number, a text) keep their default. Too many combinations: the defaults only."""
    choices = {}
    for name, param in (spec.get("params") or {}).items():
        if param["type"] == "choice":
            choices[name] = list(param["choices"])
        elif param["type"] == "bool":
            choices[name] = [True, False]
    count = 1
    for values in choices.values():
        count *= len(values)
    if count > MAX_COMBINATIONS:
        defaults = {name: spec["params"][name].get("default") for name in choices}
        return [{k: v for k, v in defaults.items() if v is not None}]
    return [dict(zip(choices, values)) for values in product(*choices.values())]


def _outcome(rules, before, after, game_s: float, load: str | None) -> dict:
    """`load`: the character's load level, which a declaration does not change."""
    ruleset = rules.ruleset
    inert = rules.is_inert(after, game_s)
    can, cannot = rules.capabilities(after, game_s, load=load)
    timers = []
    for key, due in sorted(after.timers.items(), key=lambda item: item[1]):
        kept = before.timers.get(key) == due
        timers.append({"key": key, "kept": kept,
                       "after_s": None if kept else round(max(0.0, due - game_s), 3),
                       "leads_to": ruleset.leads_to(key, after.status)})
    return {"state": after.status, "inert": inert, "can": can, "cannot": cannot,
            "timers": timers}


def outcome_table(character: Character, now: datetime) -> dict:
    event = character.event
    rules = event.rules()
    ruleset = rules.ruleset
    game_s = event.game_time(now)
    state = rules.advance(character.health.as_core(), character.sheet, game_s).state
    load = character_load_level(character)
    outcomes = {}
    for action in declarable_actions(ruleset, rules, state):
        entries = []
        for params in _combinations(ruleset.actions[action["key"]]):
            try:
                after = rules.apply(state, character.sheet, action["key"], game_s,
                                    params=params).state
            except RuleRefused:
                continue  # the phone shows the declaration as pending, without a guess
            entries.append({"params": params, **_outcome(rules, state, after, game_s, load)})
        outcomes[action["key"]] = entries
    shown = {entry["state"] for entries in outcomes.values() for entry in entries}
    shown |= {t["leads_to"] for entries in outcomes.values() for entry in entries
              for t in entry["timers"] if t["leads_to"]}
    return {
        "state": state.status,
        "game_s": round(game_s, 3),
        "outcomes": outcomes,
        "states": {key: {"label": ruleset.states[key]["labels"],
                         "severity": ruleset.states[key]["severity"],
                         "hint": ruleset.states[key].get("hint"),
                         "countdown_label": ruleset.states[key].get(
                             "countdown_label", ruleset.states[key]["labels"])}
                   for key in sorted(shown)},
        "timers": {key: ruleset.timers[key]["labels"] for key in ruleset.timers},
        "capabilities": {key: spec["labels"] for key, spec in ruleset.capabilities.items()},
    }
