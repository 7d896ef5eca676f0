"""Ruleset files: every shipped one loads; a broken one fails at load time with an error
that names the file and the field."""
import re

import pytest
from ruleset_copies import drop, load_error, ruleset_data, write

from rulesets import RulesetError, Rules, available_rulesets, get_ruleset, load_ruleset
from rulesets.loader import DATA_DIR

SHIPPED = sorted(DATA_DIR.glob("*.yaml"))


def test_gn_fr_is_shipped():
    assert "gn_fr" in available_rulesets()
    assert DATA_DIR / "gn_fr.yaml" in SHIPPED


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_every_shipped_ruleset_loads(path):
    rs = load_ruleset(path)
    assert rs.key == path.stem
    assert rs.initial_state in rs.states
    rules = Rules(rs, rs.merged_options({}))
    state = rules.initial_state()
    assert state.status == rs.initial_state
    assert rules.advance(state, {}, 0.0).state == state
    # every action declared in a state can be checked against it (no crash in the data)
    for key, action in rs.actions.items():
        for status in action["outcomes"]:
            assert status in rs.states, (key, status)


@pytest.mark.parametrize("key", available_rulesets())
def test_get_ruleset_by_key(key):
    assert get_ruleset(key).key == key


def test_unknown_ruleset_key():
    with pytest.raises(RulesetError, match="unknown ruleset 'nope'"):
        get_ruleset("nope")


# -- broken copies -----------------------------------------------------------------

BROKEN = "gn_fr_broken.yaml"


def test_unbroken_copy_loads(tmp_path):
    rs = load_ruleset(write(tmp_path, ruleset_data("gn_fr"), "gn_fr_copy.yaml"))
    assert set(rs.actions) == set(get_ruleset("gn_fr").actions)


def test_unknown_rule_element(tmp_path):
    data = ruleset_data("gn_fr")
    data["actions"]["first_aid"]["outcomes"]["wounded"][0] = {
        "set_timr": {"timer": "deadline", "after": 3600}}
    message = load_error(tmp_path, data, BROKEN)
    assert "actions.first_aid.outcomes.wounded[0]" in message
    assert "unknown rule element 'set_timr'" in message


def test_unknown_element_parameter(tmp_path):
    data = ruleset_data("gn_fr")
    data["timers"]["deadline"]["on_expire"]["wounded"] = [{"enter": {"state": "coma",
                                                                     "softly": True}}]
    message = load_error(tmp_path, data, BROKEN)
    assert "timers.deadline.on_expire.wounded[0].enter" in message
    assert "unknown parameter 'softly'" in message


def test_unknown_timer(tmp_path):
    data = ruleset_data("gn_fr")
    data["states"]["wounded"]["on_enter"].append({"set_timer": {"timer": "bleeding",
                                                                "after": 60}})
    index = len(data["states"]["wounded"]["on_enter"]) - 1
    message = load_error(tmp_path, data, BROKEN)
    assert f"states.wounded.on_enter[{index}].set_timer" in message
    assert "unknown timer 'bleeding'" in message


def test_unknown_timer_in_clear_timer(tmp_path):
    data = ruleset_data("gn_fr")
    data["states"]["coma"]["on_enter"][0] = {"clear_timer": "recovr"}
    message = load_error(tmp_path, data, BROKEN)
    assert "states.coma.on_enter[0].clear_timer" in message
    assert "unknown timer 'recovr'" in message


def test_unknown_inert_timer(tmp_path):
    data = ruleset_data("gn_fr")
    data["inert_timer"] = "sleep"
    message = load_error(tmp_path, data, BROKEN)
    assert "inert_timer: unknown timer 'sleep'" in message


def test_unknown_option_reference(tmp_path):
    data = ruleset_data("gn_fr")
    data["states"]["wounded"]["on_enter"] = [
        {"set_timer": {"timer": "deadline", "after": "$nope"}}]
    message = load_error(tmp_path, data, BROKEN)
    assert "states.wounded.on_enter[0].set_timer.after" in message
    assert "unknown option 'nope'" in message


def test_unknown_option_reference_in_duration(tmp_path):
    data = ruleset_data("gn_fr")
    data["actions"]["first_aid"]["duration_s"] = "$nope"
    message = load_error(tmp_path, data, BROKEN)
    assert "actions.first_aid.duration_s" in message
    assert "unknown option 'nope'" in message


def test_unknown_option_reference_in_by_level(tmp_path):
    data = ruleset_data("gn_fr")
    element = data["actions"]["first_aid"]["outcomes"]["coma"][0]["set_timer"]
    element["after"]["by_level"]["expert"] = "$nope"
    message = load_error(tmp_path, data, BROKEN)
    assert "actions.first_aid.outcomes.coma[0].set_timer.after.by_level" in message
    assert "unknown option 'nope'" in message


def test_unknown_option_in_condition(tmp_path):
    data = ruleset_data("gn_fr")
    element = data["actions"]["hit_wounding"]["outcomes"]["wounded"][1]["set_timer"]
    element["when_option_is"] = {"nope": "min"}
    message = load_error(tmp_path, data, BROKEN)
    assert "actions.hit_wounding.outcomes.wounded[1].set_timer.when_option_is" in message
    assert "unknown option 'nope'" in message


def test_broken_element_inside_on_change(tmp_path):
    data = ruleset_data("gn_fr")
    element = data["actions"]["hit_wounding"]["outcomes"]["wounded"][1]["set_timer"]
    element["on_change"] = [{"set_values": {"deadline_knd": "untreated_15m"}}]
    message = load_error(tmp_path, data, BROKEN)
    assert "actions.hit_wounding.outcomes.wounded[1].set_timer.on_change[0].set_values" \
        in message
    assert "unknown value 'deadline_knd'" in message


@pytest.mark.parametrize("path, where", [
    (("states", "coma", "labels"), "states.coma.labels"),
    (("timers", "corpse", "labels"), "timers.corpse.labels"),
    (("actions", "surgery", "labels"), "actions.surgery.labels"),
    (("actions", "surgery", "params", "calm_place", "labels"),
     "actions.surgery.params.calm_place.labels"),
    (("name",), "name"),
])
def test_missing_labels_language(tmp_path, path, where):
    data = ruleset_data("gn_fr")
    drop(*path, "es")(data)
    message = load_error(tmp_path, data, BROKEN)
    assert f": {where}: " in message
    assert "labels need the languages fr, es, en" in message


def test_missing_labels(tmp_path):
    data = ruleset_data("gn_fr")
    del data["states"]["dead"]["labels"]
    message = load_error(tmp_path, data, BROKEN)
    assert "states.dead" in message and "missing field 'labels'" in message


def test_unknown_state_in_outcomes(tmp_path):
    data = ruleset_data("gn_fr")
    data["actions"]["first_aid"]["outcomes"]["zombie"] = []
    message = load_error(tmp_path, data, BROKEN)
    assert "actions.first_aid.outcomes" in message
    assert "unknown state 'zombie'" in message


def test_unknown_state_entered(tmp_path):
    data = ruleset_data("gn_fr")
    data["actions"]["hit_firearm"]["outcomes"]["wounded"][1] = {"enter": "zombie"}
    message = load_error(tmp_path, data, BROKEN)
    assert "actions.hit_firearm.outcomes.wounded[1].enter" in message
    assert "unknown state 'zombie'" in message


def test_unknown_state_in_timer_expiry(tmp_path):
    data = ruleset_data("gn_fr")
    data["timers"]["deadline"]["on_expire"]["zombie"] = [{"enter": "dead"}]
    message = load_error(tmp_path, data, BROKEN)
    assert "timers.deadline.on_expire" in message
    assert "unknown state 'zombie'" in message


def test_unknown_initial_state(tmp_path):
    data = ruleset_data("gn_fr")
    data["initial_state"] = "zombie"
    message = load_error(tmp_path, data, BROKEN)
    assert "initial_state: unknown state 'zombie'" in message


def test_unknown_value(tmp_path):
    data = ruleset_data("gn_fr")
    data["states"]["dead"]["on_enter"][1] = {"set_values": {"soul": 0}}
    message = load_error(tmp_path, data, BROKEN)
    assert "states.dead.on_enter[1].set_values" in message
    assert "unknown value 'soul'" in message


def test_unknown_refusal_message(tmp_path):
    data = ruleset_data("gn_fr")
    data["actions"]["surgery"]["requires"][0]["refusal"] = "too_noisy"
    message = load_error(tmp_path, data, BROKEN)
    assert "actions.surgery.requires[0].refusal" in message
    assert "unknown message 'too_noisy'" in message


def test_unknown_capability(tmp_path):
    data = ruleset_data("gn_fr")
    data["states"]["tired"]["cannot"].append("fly")
    message = load_error(tmp_path, data, BROKEN)
    assert "states.tired.cannot" in message and "unknown capability 'fly'" in message


def test_option_defined_twice(tmp_path):
    data = ruleset_data("gn_fr")
    data["options"]["misc"]["never_improve"] = False
    message = load_error(tmp_path, data, BROKEN)
    assert "options.misc.never_improve" in message and "defined twice" in message


def test_bad_param_type(tmp_path):
    data = ruleset_data("gn_fr")
    data["actions"]["surgery"]["params"]["calm_place"]["type"] = "boolean"
    message = load_error(tmp_path, data, BROKEN)
    assert "actions.surgery.params.calm_place.type" in message


def test_medic_action_needs_a_declared_skill(tmp_path):
    data = ruleset_data("gn_fr")
    data["actions"]["first_aid"]["skill"] = "bandaging"
    message = load_error(tmp_path, data, BROKEN)
    assert "actions.first_aid.skill" in message


def test_unknown_kit(tmp_path):
    data = ruleset_data("gn_fr")
    data["actions"]["surgery"]["kit"] = "scalpel"
    message = load_error(tmp_path, data, BROKEN)
    assert "actions.surgery.kit" in message and "unknown kit 'scalpel'" in message


def test_yaml_syntax_error_names_the_file(tmp_path):
    path = tmp_path / "gn_fr_broken.yaml"
    path.write_text("key: gn_fr\nstates: [unclosed\n", encoding="utf-8")
    with pytest.raises(RulesetError, match=r"^gn_fr_broken\.yaml: cannot read"):
        load_ruleset(path)


def test_not_a_mapping(tmp_path):
    path = tmp_path / "gn_fr_broken.yaml"
    path.write_text("- just\n- a list\n", encoding="utf-8")
    with pytest.raises(RulesetError, match=re.escape("gn_fr_broken.yaml: (top)")):
        load_ruleset(path)


def test_missing_required_top_field(tmp_path):
    data = ruleset_data("gn_fr")
    del data["actions"]
    message = load_error(tmp_path, data, BROKEN)
    assert "(top)" in message and "missing field 'actions'" in message


# -- interactions between characters ------------------------------------------------

def test_unknown_interaction_fails_at_load(tmp_path):
    data = ruleset_data("gn_fr")
    data["interactions"]["arm_wrestling"] = {"winner": "duel_won"}
    message = load_error(tmp_path, data, BROKEN)
    assert "interactions.arm_wrestling" in message and "unknown interaction" in message


@pytest.mark.parametrize("change, where, problem", [
    (lambda d: d["interactions"]["duel"].update(winner="duel_wonn"), "interactions.duel.winner",
     "unknown action 'duel_wonn'"),
    (lambda d: d["interactions"]["duel"].update(score="charisma"), "interactions.duel.score",
     "unknown point 'charisma'"),
    (lambda d: d["interactions"]["duel"].pop("loser"), "interactions.duel", "missing parameter 'loser'"),
    (lambda d: d["interactions"]["union"].update(ratio="$union_ratioo"), "interactions.union.ratio",
     "unknown option 'union_ratioo'"),
    (lambda d: d["interactions"]["union"].update(in_states=["healthy", "sleepy"]),
     "interactions.union.in_states", "a list of states"),
    (lambda d: d["interactions"]["firearm"].update(load_skill="juggling"),
     "interactions.firearm.load_skill", "unknown skill 'juggling'"),
    (lambda d: d["interactions"]["acharnement"]["kinds"]["bare_hands"].update(completes="hit_stunning"),
     "interactions.acharnement.kinds.bare_hands.completes", "must be declared_by rules"),
    (lambda d: d["interactions"]["search"].update(swiftly=True), "interactions.search",
     "unknown parameter 'swiftly'"),
])
def test_a_broken_interaction_names_its_field(tmp_path, change, where, problem):
    data = ruleset_data("gn_fr")
    change(data)
    message = load_error(tmp_path, data, BROKEN)
    assert where in message and problem in message, message


def test_postponing_a_timer_needs_a_declared_value(tmp_path):
    data = ruleset_data("gn_fr")
    data["actions"]["acharnement_started"]["outcomes"]["tired"][1]["postpone_timer"]["remember"] = "nowhere"
    message = load_error(tmp_path, data, BROKEN)
    assert "postpone_timer" in message and "unknown value 'nowhere'" in message


def test_a_role_the_server_does_not_know_fails(tmp_path):
    data = ruleset_data("gn_fr")
    data["actions"]["duel_won"]["declared_by"] = ["referee"]
    message = load_error(tmp_path, data, BROKEN)
    assert "actions.duel_won.declared_by" in message
