"""septenario_es: a treated wound heals an hour after its own treatment whatever comes
after it, and a wound taken since keeps its own course [L42]. Times are game seconds."""
import pytest

from septenario_world import (  # noqa: F401 (rules is a fixture)
    DOCTOR, FIRST_AIDER, HOUR, SHEET, act, hit, rules, trauma)

TREATED_AT = 600.0
HEALS_AT = TREATED_AT + HOUR


def treated_arm(rules):
    """An arm wounded at 100 s, treated (Medicina) at 600 s: it heals at 600 s + 1 h."""
    s = hit(rules, rules.initial_state(), 100.0, location="left_arm")
    return act(rules, s, "adequate_treatment", TREATED_AT, actor=DOCTOR)


def test_L42_a_treated_arm_heals_an_hour_after_its_treatment_despite_a_new_wound(rules):
    s = hit(rules, treated_arm(rules), 700.0, location="torso")
    assert s.status == "incapacitated"
    assert s.timers["heal"] == HEALS_AT                       # the arm's hour still runs
    s = act(rules, s, "first_aid", 730.0, actor=FIRST_AIDER)
    assert s.status == "grave"
    before = rules.advance(s, SHEET, HEALS_AT - 1).state
    assert before.values["limbs"] == {"left_arm": "useless"}
    healed = rules.advance(s, SHEET, HEALS_AT).state
    assert healed.values["limbs"] == {}                       # the arm works again
    assert [p["location"] for p in healed.values["damage"]] == ["torso"]
    assert healed.status == "grave"                           # the torso keeps its course
    assert "heal" not in healed.timers
    assert trauma(rules, healed) == trauma(rules, s)
    day_end = act(rules, healed, "day_end", HEALS_AT + 100)
    assert day_end.values["awaiting_narrator"] is True        # the torso was never treated


def test_L42_the_arm_heals_during_the_agony_and_the_agony_goes_on(rules):
    s = hit(rules, treated_arm(rules), HEALS_AT - 60, location="torso")
    assert s.status == "incapacitated" and s.timers["death"] == HEALS_AT - 60 + 300
    during = rules.advance(s, SHEET, HEALS_AT).state
    assert during.status == "incapacitated" and during.values["limbs"] == {}
    assert during.timers["death"] == HEALS_AT - 60 + 300
    assert rules.advance(s, SHEET, HEALS_AT - 60 + 300).state.status == "dead"


def test_L42_each_treated_wound_heals_an_hour_after_its_own_treatment(rules):
    s = hit(rules, treated_arm(rules), 700.0, location="torso")
    s = act(rules, s, "first_aid", 730.0, actor=FIRST_AIDER)
    s = act(rules, s, "treatment_given", 2000.0)              # the torso, later
    assert s.timers["heal"] == HEALS_AT and s.values["treated"] is True
    arm_healed = rules.advance(s, SHEET, HEALS_AT).state
    assert arm_healed.status == "grave" and arm_healed.timers["heal"] == 2000.0 + HOUR
    assert rules.advance(s, SHEET, 2000.0 + HOUR - 1).state.status == "grave"
    healed = rules.advance(s, SHEET, 2000.0 + HOUR).state
    assert healed.status == "unharmed" and healed.values["damage"] == []
    assert healed.timers == {} and healed.values["treated"] is False


def test_L42_a_trap_wound_has_no_point_but_still_keeps_its_course(rules):
    s = act(rules, treated_arm(rules), "trap_mechanical", 700.0)
    s = act(rules, s, "first_aid", 730.0, actor=FIRST_AIDER)
    healed = rules.advance(s, SHEET, HEALS_AT).state
    assert healed.values["limbs"] == {} and healed.status == "grave"
