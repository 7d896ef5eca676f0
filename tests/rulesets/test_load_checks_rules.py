"""The load checks every ruleset goes through (rulesets/loader.py, rulesets/checks.py):
the top of the file, options, states, timers, points, actions, rule elements and
interactions. A broken copy of a shipped ruleset is refused with the file, the exact path
and the problem; the options an organiser sets are checked against their defaults."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from ruleset_copies import LANGUAGES, append, drop, loaded, put, refusal, ruleset_data

from rulesets import RulesetError, get_ruleset, load_ruleset
from rulesets.elements import ELEMENTS
from rulesets.loader import DATA_DIR

UNDECLARED = "(declare it under values)"


def case(key, change, expected):
    return pytest.param(key, change, expected, id=f"{key}:{expected}")


# -- the top of the file, options and their choices --------------------------------------

TOP = [
    case("gn_fr", drop("key"), "(top): missing field 'key'"),
    case("gn_fr", put("key", 5), "(top).key: must be a str"),
    case("gn_fr", drop("name"), "(top): missing field 'name'"),
    case("gn_fr", drop("name", "en"), f"name: {LANGUAGES}"),
    case("gn_fr", put("options", "misc", ["psych_traits"]),
         "options.misc: must be a mapping of option: default"),
    case("gn_fr", put("options", "misc", "never_improve", False), "options.misc.never_improve: defined twice"),
    case("gn_fr", put("option_choices", "fist_aid_stack", ["max"]), "option_choices.fist_aid_stack: unknown option"),
    case("gn_fr", put("option_choices", "first_aid_stack", "max"),
         "option_choices.first_aid_stack: a list that holds the default 'max'"),
    case("gn_fr", put("option_choices", "first_aid_stack", ["replace", "sum"]),
         "option_choices.first_aid_stack: a list that holds the default 'max'"),
    case("gn_fr", drop("states"), "(top): missing field 'states'"),
    case("gn_fr", put("states", ["healthy"]), "(top).states: must be a dict"),
    case("gn_fr", drop("actions"), "(top): missing field 'actions'"),
    case("gn_fr", put("actions", ["hit_stunning"]), "(top).actions: must be a dict"),
    case("gn_fr", drop("initial_state"), "(top): missing field 'initial_state'"),
    case("gn_fr", put("initial_state", ["healthy"]), "(top).initial_state: must be a str"),
    case("gn_fr", put("initial_state", "zombie"), "initial_state: unknown state 'zombie'"),
    case("gn_fr", put("inert_timer", "sleep"), "inert_timer: unknown timer 'sleep'"),
    case("gn_fr", append("inert_cannot", "fly"), "inert_cannot: unknown capability 'fly'"),
]

# -- capabilities, states, timers, values, points, flags, traits ---------------------------

PARTS = [
    case("gn_fr", drop("capabilities", "fight", "labels"), "capabilities.fight: missing field 'labels'"),
    case("gn_fr", drop("capabilities", "fight", "labels", "fr"), f"capabilities.fight.labels: {LANGUAGES}"),
    case("gn_fr", drop("states", "dead", "labels"), "states.dead: missing field 'labels'"),
    case("gn_fr", put("states", "dead", "labels", "Mort"), f"states.dead.labels: {LANGUAGES}"),
    case("gn_fr", put("states", "dead", "labels", "eng", "Dead"),
         "states.dead.labels: unknown language 'eng' (labels hold fr, es, en)"),
    case("gn_fr", put("states", "dead", "hint", {"fr": "Attendez"}), f"states.dead.hint: {LANGUAGES}"),
    case("gn_fr", drop("states", "coma", "countdown_label", "es"), f"states.coma.countdown_label: {LANGUAGES}"),
    case("gn_fr", drop("states", "dead", "severity"), "states.dead: missing field 'severity'"),
    case("gn_fr", put("states", "dead", "severity", "4"), "states.dead.severity: must be a int"),
    case("gn_fr", append("states", "healthy", "can", "fly"), "states.healthy.can: unknown capability 'fly'"),
    case("gn_fr", append("states", "tired", "cannot", "fly"), "states.tired.cannot: unknown capability 'fly'"),
    case("gn_fr", put("states", "tired", "on_reenter", 0, {"clear_timer": "recovr"}),
         "states.tired.on_reenter[0].clear_timer: unknown timer 'recovr'"),
    case("gn_fr", put("states", "coma", "on_enter", 0, {"clear_timer": "recovr"}),
         "states.coma.on_enter[0].clear_timer: unknown timer 'recovr'"),
    case("gn_fr", drop("timers", "corpse", "labels"), "timers.corpse: missing field 'labels'"),
    case("gn_fr", drop("timers", "corpse", "labels", "en"), f"timers.corpse.labels: {LANGUAGES}"),
    case("gn_fr", put("timers", "deadline", "on_expire", "zombie", []), "timers.deadline.on_expire: unknown state 'zombie'"),
    case("gn_fr", put("timers", "combat_recovery", "on_expire", "*", [{"enter": "zombie"}]),
         "timers.combat_recovery.on_expire.*[0].enter: unknown state 'zombie'"),
    case("gn_fr", put("timers", "deadline", "on_expire", "coma", [{"enter": "zombie"}]),
         "timers.deadline.on_expire.coma[0].enter: unknown state 'zombie'"),
    case("septenario_es", put("value_cannot", "strong", ["run"]),
         f"value_cannot.strong: unknown value 'strong' {UNDECLARED}"),
    case("septenario_es", put("value_cannot", "weak", ["run", "fly"]),
         "value_cannot.weak: a list of capabilities, not 'fly'"),
    case("septenario_es", put("value_cannot", "weak", "run"), "value_cannot.weak: a list of capabilities, not 'None'"),
    case("gn_fr", drop("points", "combat_score", "labels"), "points.combat_score: missing field 'labels'"),
    case("gn_fr", drop("points", "combat_score", "labels", "es"), f"points.combat_score.labels: {LANGUAGES}"),
    case("gn_fr", put("points", "combat_score", "loss", "combat_los"), "points.combat_score.loss: unknown value 'combat_los'"),
    case("gn_fr", put("points", "combat_score", "recovers_with", "rest"),
         "points.combat_score.recovers_with: unknown timer 'rest'"),
    case("gn_fr", append("points", "combat_score", "zero_in", "sleepy"), "points.combat_score: unknown state 'sleepy'"),
    case("gn_fr", append("points", "combat_score", "hidden_in", "gone"), "points.combat_score: unknown state 'gone'"),
    case("gn_fr", put("flags", "dirty", {"fr": "Sale", "es": "Sucio", "en": "Dirty"}),
         f"flags.dirty: unknown value 'dirty' {UNDECLARED}"),
    case("gn_fr", drop("flags", "naked", "es"), f"flags.naked: {LANGUAGES}"),
    case("gn_fr", drop("traits", "humeur", "en"), f"traits.humeur: {LANGUAGES}"),
]

# -- actions -------------------------------------------------------------------------------

ACTIONS = [
    case("gn_fr", drop("actions", "hit_stunning", "labels"), "actions.hit_stunning: missing field 'labels'"),
    case("gn_fr", drop("actions", "hit_stunning", "labels", "es"), f"actions.hit_stunning.labels: {LANGUAGES}"),
    case("gn_fr", drop("actions", "hit_stunning", "declared_by"), "actions.hit_stunning: missing field 'declared_by'"),
    case("gn_fr", put("actions", "hit_stunning", "declared_by", "self"), "actions.hit_stunning.declared_by: must be a list"),
    case("gn_fr", put("actions", "duel_won", "declared_by", ["referee"]),
         "actions.duel_won.declared_by: roles are medic, narrator, other, rules, self"),
    case("gn_fr", append("actions", "first_aid", "declared_by", "self"),
         "actions.first_aid.declared_by: an action on another character is not also declared by self"),
    case("septenario_es", append("actions", "golpe_mortal", "declared_by", "self"),
         "actions.golpe_mortal.declared_by: an action on another character is not also declared by self"),
    case("gn_fr", put("actions", "first_aid", "skill", "bandaging"),
         "actions.first_aid.skill: a medic action names a skill declared under skills"),
    case("gn_fr", drop("actions", "first_aid", "skill"),
         "actions.first_aid.skill: a medic action names a skill declared under skills"),
    case("gn_fr", put("actions", "surgery", "kit", "scalpel"), "actions.surgery.kit: unknown kit 'scalpel'"),
    case("gn_fr", put("actions", "surgery", "params", "calm_place", "type", "boolean"),
         "actions.surgery.params.calm_place.type: one of bool, int, str, state, choice"),
    case("gn_fr", drop("actions", "surgery", "params", "calm_place", "type"),
         "actions.surgery.params.calm_place.type: one of bool, int, str, state, choice"),
    case("gn_fr", drop("actions", "surgery", "params", "calm_place", "labels"),
         f"actions.surgery.params.calm_place.labels: {LANGUAGES}"),
    case("septenario_es", drop("actions", "hit", "params", "weapon", "choices"),
         "actions.hit.params.weapon: missing field 'choices'"),
    case("septenario_es", put("actions", "hit", "params", "weapon", "choices", ["standard", "heavy"]),
         "actions.hit.params.weapon.choices: must be a dict"),
    case("septenario_es", drop("actions", "hit", "params", "weapon", "choices", "heavy", "en"),
         f"actions.hit.params.weapon.choices.heavy: {LANGUAGES}"),
    case("gn_fr", put("actions", "first_aid", "duration_s", "$first_aid_secs"),
         "actions.first_aid.duration_s: unknown option 'first_aid_secs'"),
    case("gn_fr", put("actions", "surgery", "duration_s", "then", "by_level", "expert", "$nope"),
         "actions.surgery.duration_s.then.by_level.expert: unknown option 'nope'"),
    case("gn_fr", put("actions", "surgery", "duration_s", {"when_option": "calm_surgery", "then": 300, "else": 600}),
         "actions.surgery.duration_s.when_option: unknown option 'calm_surgery'"),
    case("gn_fr", put("actions", "surgery", "duration_s", {"when_option": "never_improve", "then": 300, "else": "$nope"}),
         "actions.surgery.duration_s.else: unknown option 'nope'"),
    case("septenario_es", put("actions", "golpe_mortal", "duration_s", "else", "sum", 0, "$nope"),
         "actions.golpe_mortal.duration_s.else.sum[0]: unknown option 'nope'"),
    case("septenario_es", put("actions", "golpe_mortal", "duration_s", "else", "sum", 1, "when_option", "nope"),
         "actions.golpe_mortal.duration_s.else.sum[1].when_option: unknown option 'nope'"),
    case("gn_fr", drop("actions", "surgery", "requires", 0, "refusal"),
         "actions.surgery.requires[0]: missing field 'refusal'"),
    case("gn_fr", drop("actions", "surgery", "requires", 0, "when"), "actions.surgery.requires[0]: missing field 'when'"),
    case("gn_fr", drop("actions", "surgery", "requires", 0, "value"), "actions.surgery.requires[0]: missing field 'value'"),
    case("gn_fr", put("actions", "surgery", "requires", 0, "refusal", "too_noisy"),
         "actions.surgery.requires[0].refusal: unknown message 'too_noisy'"),
    case("gn_fr", put("actions", "surgery", "requires", 0, "when", "by_level", "novice", "$nope"),
         "actions.surgery.requires[0].when.by_level.novice: unknown option 'nope'"),
    case("gn_fr", put("actions", "surgery", "actor_needs", "fly"), "actions.surgery.actor_needs: unknown capability 'fly'"),
    case("septenario_es", put("actions", "golpe_mortal", "states_option", "golpe_targets"),
         "actions.golpe_mortal.states_option: 'golpe_targets' must be an option listing states"),
    case("septenario_es", put("actions", "golpe_mortal", "states_option", "first_aid_s"),
         "actions.golpe_mortal.states_option: 'first_aid_s' must be an option listing states"),
    case("septenario_es", put("actions", "golpe_mortal", "states_option", "valid_melee_excludes"),
         "actions.golpe_mortal.states_option: 'valid_melee_excludes' must be an option listing states"),
    case("septenario_es", put("actions", "spend_coraje", "costs", {"valor": 1}),
         "actions.spend_coraje.costs: a point of this ruleset and a whole number ('valor')"),
    case("septenario_es", put("actions", "spend_coraje", "costs", {"coraje": "one"}),
         "actions.spend_coraje.costs: a point of this ruleset and a whole number ('coraje')"),
    case("septenario_es", put("actions", "choose_death", "when_value", "torso_wounds"),
         "actions.choose_death.when_value: unknown value 'torso_wounds'"),
    case("gn_fr", put("actions", "out_of_game", "unless_value", "out_of_gam"),
         "actions.out_of_game.unless_value: unknown value 'out_of_gam'"),
    case("gn_fr", drop("actions", "dressed", "outcomes"), "actions.dressed: missing field 'outcomes'"),
    case("gn_fr", put("actions", "dressed", "outcomes", [{"set_values": {"naked": False}}]),
         "actions.dressed.outcomes: must be a dict"),
    case("gn_fr", put("actions", "first_aid", "outcomes", "zombie", []), "actions.first_aid.outcomes: unknown state 'zombie'"),
    case("gn_fr", put("actions", "dressed", "outcomes", "dead", "naked"),
         "actions.dressed.outcomes.dead: must be a list of rule elements"),
]

# -- rule elements -----------------------------------------------------------------------------

KNOWN = ", ".join(sorted(ELEMENTS))
DEAD = ("states", "dead", "on_enter")      # [clear_timers, set_values, set_timer corpse]
DRESSED = ("actions", "dressed", "outcomes", "dead")
TIRED = ("states", "tired", "on_enter")    # [..., set_timer inert (3), ...]

ELEMENT_CASES = [
    case("gn_fr", put(*DEAD, 0, 7), "states.dead.on_enter[0]: a rule element is a name or a one-key mapping"),
    case("gn_fr", put(*DEAD, 0, {"clear_timers": None, "reveal": {"fields": ["state"]}}),
         "states.dead.on_enter[0]: a rule element is a name or a one-key mapping"),
    case("gn_fr", put(*DEAD, 0, "clear_timer_all"),
         f"states.dead.on_enter[0]: unknown rule element 'clear_timer_all' (known: {KNOWN})"),
    case("gn_fr", put(*DEAD, 1, {"set_values": {"soul": 0}}),
         f"states.dead.on_enter[1].set_values: unknown value 'soul' {UNDECLARED}"),
    case("gn_fr", put(*DEAD, 2, {"set_timer": {"timer": "corpse"}}), "states.dead.on_enter[2].set_timer: missing parameter 'after'"),
    case("gn_fr", put(*DEAD, 2, {"set_timer": {"timer": "corpse", "after": 60, "softly": True}}),
         "states.dead.on_enter[2].set_timer: unknown parameter 'softly'"),
    case("gn_fr", put(*DEAD, 2, {"set_timer": {"timer": "corpse", "after": 60, "when_option": "nope"}}),
         "states.dead.on_enter[2].set_timer.when_option: unknown option 'nope'"),
    case("gn_fr", put(*DEAD, 2, {"set_timer": {"timer": "corpse", "after": 60, "unless_option": "nope"}}),
         "states.dead.on_enter[2].set_timer.unless_option: unknown option 'nope'"),
    case("gn_fr", put(*DEAD, 2, {"set_timer": {"timer": "corpse", "after": 60, "when_option_is": {"nope": 1}}}),
         "states.dead.on_enter[2].set_timer.when_option_is: unknown option 'nope'"),
    case("gn_fr", put(*DEAD, 2, {"set_timer": {"timer": "corpse", "after": "$nope"}}),
         "states.dead.on_enter[2].set_timer.after: unknown option 'nope'"),
    case("gn_fr", put(*DEAD, 2, {"set_timer": {"timer": "corps", "after": 60}}),
         "states.dead.on_enter[2].set_timer: unknown timer 'corps'"),
    case("gn_fr", put(*DEAD, 2, {"clear_timer": "corps"}), "states.dead.on_enter[2].clear_timer: unknown timer 'corps'"),
    case("gn_fr", put(*DEAD, 2, {"enter": "zombie"}), "states.dead.on_enter[2].enter: unknown state 'zombie'"),
    case("gn_fr", drop("options", "combat", "never_improve"),
         "actions.hit_stunning.outcomes.healthy[1].lose_points.at_zero[0].enter.worsening: "
         "reads the option 'never_improve': declare it"),
    case("gn_fr", put(*DEAD, 2, {"postpone_timer": {"timer": "corpse", "after": 60, "remember": "nowhere"}}),
         f"states.dead.on_enter[2].postpone_timer: unknown value 'nowhere' {UNDECLARED}"),
    case("gn_fr", put(*DEAD, 2, {"postpone_timer": {"timer": "corps", "after": 60, "remember": "recovery_held"}}),
         "states.dead.on_enter[2].postpone_timer: unknown timer 'corps'"),
    case("gn_fr", put(*DEAD, 2, {"restore_timer": {"timer": "corpse", "remember": "nowhere"}}),
         f"states.dead.on_enter[2].restore_timer: unknown value 'nowhere' {UNDECLARED}"),
    case("gn_fr", put(*DEAD, 2, {"restore_timer": {"timer": "corps", "remember": "recovery_held"}}),
         "states.dead.on_enter[2].restore_timer: unknown timer 'corps'"),
    case("gn_fr", put(*DEAD, 2, {"lose_points": {"value": "combat_los", "base": "combat_base", "amount": 1}}),
         f"states.dead.on_enter[2].lose_points: unknown value 'combat_los' {UNDECLARED}"),
    case("gn_fr", put(*DEAD, 2, {"lose_points": {"value": "combat_loss", "base": "combat_base", "amount": 1,
                                                 "at_zero": [{"enter": "zombie"}]}}),
         "states.dead.on_enter[2].lose_points.at_zero[0].enter: unknown state 'zombie'"),
    case("gn_fr", put(*DEAD, 2, {"lose_points": {"value": "combat_loss", "base": "combat_base", "amount": 1,
                                                 "above_zero": "tired"}}),
         "states.dead.on_enter[2].lose_points.above_zero: must be a list of rule elements"),
    case("gn_fr", put(*DEAD, 2, {"set_timer": {"timer": "corpse", "after": 60, "on_change": [{"enter": "zombie"}]}}),
         "states.dead.on_enter[2].set_timer.on_change[0].enter: unknown state 'zombie'"),
    case("gn_fr", put(*DEAD, 2, {"enter": {"state": "coma", "when_at_least": {"combat_los": 1}}}),
         "states.dead.on_enter[2].enter.when_at_least: unknown value 'combat_los'"),
    case("gn_fr", put(*DEAD, 2, {"enter": {"state": "coma", "when_below": {"combat_los": 1}}}),
         "states.dead.on_enter[2].enter.when_below: unknown value 'combat_los'"),
    case("gn_fr", put(*DEAD, 2, {"enter": {"state": "coma", "when_value_is": {"nakd": True}}}),
         "states.dead.on_enter[2].enter.when_value_is: unknown value 'nakd'"),
    case("gn_fr", put(*DEAD, 2, {"enter": {"state": "coma", "unless_value_is": {"nakd": True}}}),
         "states.dead.on_enter[2].enter.unless_value_is: unknown value 'nakd'"),
    case("gn_fr", put(*DEAD, 2, {"enter": {"state": "coma", "when_option_has": {"psych": "humeur"}}}),
         "states.dead.on_enter[2].enter.when_option_has: unknown option 'psych'"),
    case("gn_fr", put(*DEAD, 2, {"enter": {"state": "coma", "unless_option_has": {"psych": "humeur"}}}),
         "states.dead.on_enter[2].enter.unless_option_has: unknown option 'psych'"),
    case("septenario_es", put("actions", "spend_coraje", "outcomes", "incapacitated", 0, "spend_points", "point", "valor"),
         "actions.spend_coraje.outcomes.incapacitated[0].spend_points: unknown point 'valor'"),
    case("septenario_es", put("actions", "spend_coraje", "outcomes", "incapacitated", 0, "spend_points", "then",
                              [{"enter": "zombie"}]),
         "actions.spend_coraje.outcomes.incapacitated[0].spend_points.then[0].enter: unknown state 'zombie'"),
    case("septenario_es", put("actions", "hit", "outcomes", "unharmed", 0, "take_hit", "knockout", 0,
                              {"remember_state": "knockout_returns"}),
         f"actions.hit.outcomes.unharmed[0].take_hit.knockout[0].remember_state: unknown value 'knockout_returns' {UNDECLARED}"),
]

# -- interactions between characters -----------------------------------------------------------

INTERACTION_NAMES = "acharnement, duel, firearm, heal, search, shot, union"
BARE = ("interactions", "acharnement", "kinds", "bare_hands")

INTERACTIONS = [
    case("gn_fr", put("interactions", "arm_wrestling", {"winner": "duel_won"}),
         f"interactions.arm_wrestling: unknown interaction (known: {INTERACTION_NAMES})"),
    case("gn_fr", put("interactions", "search", "searched"), "interactions.search: must be a mapping of parameters"),
    case("gn_fr", put("interactions", "search", "swiftly", True), "interactions.search: unknown parameter 'swiftly'"),
    case("gn_fr", drop("interactions", "duel", "loser"), "interactions.duel: missing parameter 'loser'"),
    case("gn_fr", drop("interactions", "firearm", "max_range_m"), "interactions.firearm: missing parameter 'max_range_m'"),
    case("gn_fr", drop("interactions", "duel", "labels", "es"), f"interactions.duel.labels: {LANGUAGES}"),
    case("gn_fr", put("interactions", "duel", "winner", "duel_wonn"), "interactions.duel.winner: unknown action 'duel_wonn'"),
    case("gn_fr", put("interactions", "duel", "winner", "hit_stunning"),
         "interactions.duel.winner: action 'hit_stunning' must be declared_by rules"),
    case("gn_fr", put("interactions", "duel", "score", "charisma"), "interactions.duel.score: unknown point 'charisma'"),
    case("gn_fr", put("interactions", "firearm", "load_skill", "juggling"),
         "interactions.firearm.load_skill: unknown skill 'juggling'"),
    case("gn_fr", put("interactions", "duel", "cancelled_by", ["hit_stunning", "hit_sword"]),
         "interactions.duel.cancelled_by: a list of actions of this ruleset"),
    case("gn_fr", put("interactions", "duel", "cancelled_by", "hit_stunning"),
         "interactions.duel.cancelled_by: a list of actions of this ruleset"),
    case("gn_fr", put("interactions", "union", "in_states", ["healthy", "sleepy"]),
         "interactions.union.in_states: a list of states of this ruleset"),
    case("gn_fr", put("interactions", "union", "in_states", "healthy"),
         "interactions.union.in_states: a list of states of this ruleset"),
    case("gn_fr", put("interactions", "duel", "blocked_by_weapon", ["stunning", "laser"]),
         "interactions.duel.blocked_by_weapon: a list among firearm, stunning, wounding, or an $option"),
    case("gn_fr", put("interactions", "duel", "blocked_by_weapon", 5),
         "interactions.duel.blocked_by_weapon: a list among firearm, stunning, wounding, or an $option"),
    case("septenario_es", put("interactions", "firearm", "max_range_included", "yes"),
         "interactions.firearm.max_range_included: true or false"),
    case("airsoft_rats", put("interactions", "heal", "enabled_by", "medic_mod"),
         "interactions.heal.enabled_by: unknown option 'medic_mod'"),
    case("gn_fr", put("interactions", "union", "ratio", "lots"), "interactions.union.ratio: a number or an $option"),
    case("gn_fr", put("interactions", "union", "ratio", "$union_ratioo"), "interactions.union.ratio: unknown option 'union_ratioo'"),
    case("septenario_es", put("interactions", "firearm", "misses_if", ["moving"]),
         "interactions.firearm.misses_if: a mapping of keys, each with its labels"),
    case("septenario_es", drop("interactions", "firearm", "misses_if", "moving", "labels"),
         "interactions.firearm.misses_if.moving: missing field 'labels'"),
    case("septenario_es", drop("interactions", "firearm", "misses_if", "moving", "labels", "fr"),
         f"interactions.firearm.misses_if.moving.labels: {LANGUAGES}"),
    case("gn_fr", put("interactions", "acharnement", "kinds", {}), "interactions.acharnement.kinds: a mapping of kinds"),
    case("gn_fr", put("interactions", "acharnement", "kinds", ["bare_hands"]),
         "interactions.acharnement.kinds: a mapping of kinds"),
    case("gn_fr", drop(*BARE, "labels"), "interactions.acharnement.kinds.bare_hands: missing field 'labels'"),
    case("gn_fr", drop(*BARE, "labels", "en"), f"interactions.acharnement.kinds.bare_hands.labels: {LANGUAGES}"),
    case("gn_fr", drop(*BARE, "victim_in"), "interactions.acharnement.kinds.bare_hands: missing field 'victim_in'"),
    case("gn_fr", put(*BARE, "victim_in", ["sleepy"]),
         "interactions.acharnement.kinds.bare_hands.victim_in: a list of states of this ruleset"),
    case("gn_fr", drop(*BARE, "completes"), "interactions.acharnement.kinds.bare_hands: missing field 'completes'"),
    case("gn_fr", put(*BARE, "completes", "beaten"),
         "interactions.acharnement.kinds.bare_hands.completes: unknown action 'beaten'"),
    case("gn_fr", put(*BARE, "completes", "hit_stunning"),
         "interactions.acharnement.kinds.bare_hands.completes: action 'hit_stunning' must be declared_by rules"),
]


@pytest.mark.parametrize("key, change, expected",
                         TOP + PARTS + ACTIONS + ELEMENT_CASES + INTERACTIONS)
def test_a_broken_part_is_refused_naming_the_path(tmp_path, key, change, expected):
    assert refusal(tmp_path, key, change) == expected


# -- what a loaded ruleset holds ------------------------------------------------------------

def flat_options(data: dict) -> dict:
    return {key: value for group in data["options"].values() for key, value in group.items()}


@pytest.mark.parametrize("key", ["gn_fr", "septenario_es", "airsoft_rats"])
def test_a_loaded_ruleset_holds_each_part_as_the_file_declares_it(key):
    data = ruleset_data(key)
    for timer in (data.get("timers") or {}).values():
        timer.setdefault("on_expire", {})               # a timer without expiry expires to nothing
    rs = get_ruleset(key)
    assert (rs.key, rs.path, rs.name, rs.initial_state) == (
        key, str(DATA_DIR / f"{key}.yaml"), data["name"], data["initial_state"])
    assert rs.options == flat_options(data)
    for part in ("states", "timers", "actions", "values", "option_choices", "skills", "kits",
                 "capabilities", "points", "interactions", "flags", "traits", "value_cannot"):
        assert getattr(rs, part) == (data.get(part) or {}), part
    assert rs.inert_timer == data.get("inert_timer")
    assert rs.inert_cannot == data.get("inert_cannot", [])


def test_the_parts_a_ruleset_leaves_out_load_empty():
    rs = get_ruleset("zombie_race")
    assert rs.timers == rs.values == rs.skills == rs.kits == rs.capabilities == rs.points == {}
    assert rs.interactions == rs.flags == rs.traits == rs.value_cannot == {}
    assert rs.inert_timer is None and rs.inert_cannot == []
    assert rs.features == frozenset({"race"})


def test_a_ruleset_has_the_features_it_names_and_those_of_its_sections():
    assert get_ruleset("gn_fr").features == frozenset(ruleset_data("gn_fr")["features"])
    assert get_ruleset("septenario_es").features == frozenset(
        ruleset_data("septenario_es")["features"]) | {"body_hits", "conflicts", "days"}
    assert get_ruleset("airsoft_rats").has("heals") and not get_ruleset("gn_fr").has("heals")


def test_a_file_that_cannot_be_read_or_is_not_a_mapping_is_refused_by_name(tmp_path):
    with pytest.raises(RulesetError, match=r"^absent\.yaml: cannot read: "):
        load_ruleset(tmp_path / "absent.yaml")
    (tmp_path / "list.yaml").write_text("- just\n- a list\n", encoding="utf-8")
    with pytest.raises(RulesetError) as exc:
        load_ruleset(tmp_path / "list.yaml")
    assert str(exc.value) == "list.yaml: (top): must be a mapping"


def test_a_ruleset_file_is_read_as_utf8_whatever_the_locale():
    """A server whose locale is plain ASCII (no UTF-8 coercion) still reads the accents."""
    code = "import sys; from rulesets import load_ruleset; print(ascii(load_ruleset(sys.argv[1]).name['fr']))"
    env = {**os.environ, "LC_ALL": "C", "LANG": "C", "PYTHONCOERCECLOCALE": "0", "PYTHONUTF8": "0"}
    done = subprocess.run([sys.executable, "-c", code, str(DATA_DIR / "gn_fr.yaml")], env=env,
                          cwd=Path(__file__).resolve().parents[2], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ascii("GN — règles de santé et de médecine")


def test_a_timer_without_expiry_loads_with_an_empty_one(tmp_path):
    rs = loaded(tmp_path, "gn_fr", lambda data: None)
    assert rs.timers["inert"]["on_expire"] == {}
    assert rs.timers["recover"]["on_expire"] == {"tired": [{"enter": "healthy"}]}


# -- the options an organiser sets (Ruleset.merged_options, check_option) --------------------

GN = "gn_fr"


@pytest.mark.parametrize("key, overrides, problem", [
    (GN, {"never_improve": 1}, "option 'never_improve' must be like True, got 1"),
    (GN, {"never_improve": "yes"}, "option 'never_improve' must be like True, got 'yes'"),
    (GN, {"union_ratio": True}, "option 'union_ratio' must be like 3, got True"),
    (GN, {"union_ratio": -1}, "option 'union_ratio' must be like 3, got -1"),
    (GN, {"union_ratio": -0.5}, "option 'union_ratio' must be like 3, got -0.5"),
    (GN, {"union_ratio": "3"}, "option 'union_ratio' must be like 3, got '3'"),
    (GN, {"union_ratio": None}, "option 'union_ratio' must be like 3, got None"),
    (GN, {"first_aid_stack": 1}, "option 'first_aid_stack' must be like 'max', got 1"),
    (GN, {"first_aid_stack": "sum"}, "option 'first_aid_stack' must be one of max, replace, got 'sum'"),
    (GN, {"psych_traits": "humeur"},
     "option 'psych_traits' must be like ['humeur', 'activite', 'empathie', 'assurance'], got 'humeur'"),
    (GN, {"union_ratio": 4, "lives_initial": 3}, "unknown option 'lives_initial' for ruleset gn_fr"),
    ("airsoft_rats", {"medic_mode": 0}, "option 'medic_mode' must be like False, got 0"),
    ("airsoft_rats", {"medics": "anyone"}, "option 'medics' must be one of any_teammate, roster, got 'anyone'"),
])
def test_an_option_unlike_its_default_is_refused_naming_it(key, overrides, problem):
    rs = get_ruleset(key)
    with pytest.raises(RulesetError) as exc:
        rs.merged_options(overrides)
    assert str(exc.value) == problem


@pytest.mark.parametrize("key, overrides", [
    (GN, {"never_improve": False}),
    (GN, {"union_ratio": 0}),
    (GN, {"union_ratio": 2.5}),
    (GN, {"firearm_max_range_m": 12}),
    (GN, {"first_aid_stack": "replace", "tired_retrigger": "keep"}),
    (GN, {"psych_traits": ["humeur"]}),
    (GN, {"stun_loss": 0, "duel_confirm_s": 30}),
    ("airsoft_rats", {"ammo_limit_per_replica": 300}),    # a default left at null takes anything
    ("airsoft_rats", {"max_heals_per_player": "two"}),
    ("airsoft_rats", {"medic_mode": True, "medics": "roster"}),
])
def test_an_option_like_its_default_is_taken_on_top_of_the_defaults(key, overrides):
    rs = get_ruleset(key)
    defaults = dict(rs.options)
    merged = rs.merged_options(overrides)
    assert merged == {**defaults, **overrides}
    assert rs.options == defaults                          # the ruleset's own defaults are kept


def test_without_choices_the_options_are_the_defaults():
    rs = get_ruleset(GN)
    assert rs.merged_options(None) == rs.merged_options({}) == rs.options
    assert rs.merged_options(None) is not rs.options


def test_an_option_default_is_read_by_name_and_an_unknown_one_refused():
    rs = get_ruleset(GN)
    assert rs.default("union_ratio") == 3 and rs.default("first_aid_stack") == "max"
    assert rs.default("never_improve") is True
    with pytest.raises(RulesetError) as exc:
        rs.default("lives_initial")
    assert str(exc.value) == "unknown option 'lives_initial' for ruleset gn_fr"


def test_a_skill_is_named_by_its_labels_or_else_by_its_key(tmp_path):
    rs = get_ruleset(GN)
    assert rs.skill_label("surgery") == {"fr": "Chirurgie", "es": "Cirugía", "en": "Surgery"}
    assert rs.skill_label("juggling") == {"en": "juggling"}
    unlabelled = loaded(tmp_path, "septenario_es", drop("skills", "treatment", "labels"))
    assert unlabelled.skill_label("treatment") == {"en": "treatment"}
