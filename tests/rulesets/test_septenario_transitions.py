"""septenario_es: one test per transition of the spec (docs/rules/septenario_es.md §4.3)
and per timer (§4.2): H01-H13 here (TS1, TS3, TS6, TS8, TS9), H14-H23 in
test_septenario_knockouts.py.

Every time is a game second. A test states what a narrator would check on the
character: the health state, the exact deadlines, Trauma and Coraje as they stand
(Rules.point_value), the limbs. Combat details (armour, weapon classes) are in
test_septenario_combat.py; Coraje, days, healing and the options of §8 in
test_septenario_resources.py.
"""
import pytest

from rulesets import ENDING, RuleRefused
from septenario_world import (  # noqa: F401 (rules is a fixture)
    # noqa: F401 (rules is a fixture)
    DOCTOR, FIRST_AIDER, HOUR, LAST_TRAUMA, MIN, RS, SHEET, act, coraje, dying_at, grave_at,
    hit, incapacitated_at, make_rules, rules, transitions, trauma)


# -- initial state --------------------------------------------------------------------

def test_initial_state_is_unharmed_with_the_sheet_scores(rules):
    s = rules.initial_state()
    assert s.status == "unharmed"
    assert s.timers == {}
    assert trauma(rules, s) == 3 and coraje(rules, s) == 1
    assert s.values["limbs"] == {} and s.values["damage"] == []
    assert not rules.is_inert(s, 0.0)


# -- H01: first point on a limb ----------------------------------------------------------

@pytest.mark.parametrize("limb", ["left_arm", "right_arm", "left_leg", "right_leg"])
def test_H01_a_limb_hit_makes_it_useless_and_the_character_wounded(rules, limb):
    out = rules.apply(rules.initial_state(), SHEET, "hit", 100.0,
                      params={"location": limb, "weapon": "standard"})
    s = out.state
    assert s.status == "wounded"
    assert s.values["limbs"] == {limb: "useless"}
    assert len(s.values["damage"]) == 1
    assert s.timers == {}                          # a wound lasts until healed (H08/H09)
    assert trauma(rules, s) == 3                   # a limb costs no Trauma
    assert not rules.is_inert(s, 100.0)
    assert transitions(out.events) == [("unharmed", "wounded", 100.0)]
    reminders = [e for e in out.events if e["kind"] == "reminder"]
    assert "Suelta" in reminders[0]["text"]["es"]  # drop what the limb holds [L35]


def test_H01_from_wounded_without_damage_points(rules):
    s = act(rules, rules.initial_state(), "set_state", 10.0, state="wounded")
    s = hit(rules, s, 100.0, location="left_leg")
    assert s.status == "wounded"
    assert s.values["limbs"] == {"left_leg": "useless"}


# -- H02: torso, or the second point anywhere -----------------------------------------

@pytest.mark.parametrize("location", ["torso", "unspecified"])
def test_H02_a_torso_wound_incapacitates_for_five_minutes(rules, location):
    out = rules.apply(rules.initial_state(), SHEET, "hit", 100.0, params={"location": location})
    s = out.state
    assert s.status == "incapacitated"
    assert s.timers == {"death": 400.0}
    assert trauma(rules, s) == 2
    assert s.values["torso_wound"] is True
    assert rules.available(s, "choose_death")     # S17b: torso wound
    assert rules.available(s, "spend_coraje")
    assert rules.is_inert(s, 100.0)
    assert transitions(out.events) == [("unharmed", "incapacitated", 100.0)]


def test_H02_a_hit_without_location_is_a_torso_hit(rules):
    s = rules.apply(rules.initial_state(), SHEET, "hit", 100.0).state
    assert s.status == "incapacitated"
    assert s.values["damage"][0]["location"] == "torso"


def test_H02_the_second_point_anywhere_incapacitates_without_immediate_death(rules):
    s = hit(rules, rules.initial_state(), 100.0, location="left_arm")
    out = rules.apply(s, SHEET, "hit", 200.0, params={"location": "right_leg"})
    s = out.state
    assert s.status == "incapacitated"
    assert s.values["limbs"] == {"left_arm": "useless", "right_leg": "useless"}
    assert s.timers == {"death": 500.0}
    assert trauma(rules, s) == 2
    assert s.values["torso_wound"] is False
    assert not rules.available(s, "choose_death")
    with pytest.raises(RuleRefused) as refused:
        rules.check(s, "choose_death")
    assert refused.value.code == "not_now"


def test_H02_the_same_limb_twice_also_incapacitates(rules):
    s = hit(rules, rules.initial_state(), 100.0, location="left_arm")
    s = hit(rules, s, 101.0, location="left_arm")
    assert s.status == "incapacitated"
    assert len(s.values["damage"]) == 2


def test_H02_E10_choosing_immediate_death_after_a_torso_wound(rules):
    s = incapacitated_at(rules, 100.0)
    out = rules.apply(s, SHEET, "choose_death", 150.0)
    assert out.state.status == "dead"
    assert out.state.timers == {"corpse": 270.0}
    assert transitions(out.events) == [("incapacitated", "dead", 150.0)]


def test_H02_S4_losing_the_last_trauma_point_leaves_dying_not_in_agony(rules):
    out = rules.apply(rules.initial_state(), LAST_TRAUMA, "hit", 100.0,
                      params={"location": "torso"})
    s = out.state
    assert s.status == "dying"
    assert s.timers == {"death": 400.0}
    assert trauma(rules, s, LAST_TRAUMA) == 0
    assert rules.is_inert(s, 100.0)
    with pytest.raises(RuleRefused) as refused:       # S4: no Coraje in the Trauma-0 sleep
        rules.check(s, "spend_coraje", sheet=LAST_TRAUMA)
    assert refused.value.code == "not_in_state"
    assert not rules.available(s, "choose_death")


# -- H03 / TS1: the agony ends in death --------------------------------------------------

def test_H03_TS1_agony_kills_after_five_minutes(rules):
    s = incapacitated_at(rules, 100.0)
    assert rules.advance(s, SHEET, 399.9).state.status == "incapacitated"
    out = rules.advance(s, SHEET, 400.0)
    assert out.state.status == "dead"
    assert transitions(out.events) == [("incapacitated", "dead", 400.0)]
    assert out.state.timers == {"corpse": 520.0}
    assert coraje(rules, out.state) == 1          # no automatic spend by default (S5)


# -- H04 / TS6: First Aid ---------------------------------------------------------------

def test_H04_TS6_first_aid_takes_half_a_minute_and_leaves_grave(rules):
    assert rules.duration("first_aid", level="yes") == 30.0
    s = incapacitated_at(rules, 100.0)
    out = rules.apply(s, SHEET, "first_aid", 130.0, actor_sheet=FIRST_AIDER)
    s = out.state
    assert s.status == "grave"
    assert s.timers == {}                          # death_at = null
    assert trauma(rules, s) == 2                   # no more Trauma lost
    assert not rules.is_inert(s, 130.0)
    assert s.values["torso_wound"] is False
    assert transitions(out.events) == [("incapacitated", "grave", 130.0)]


def test_H04_first_aid_completed_at_the_death_instant_is_in_time(rules):
    s = incapacitated_at(rules, 100.0)
    completed = rules.apply(s, SHEET, "first_aid", 400.0, actor_sheet=FIRST_AIDER,
                            seen_by=ENDING)            # ran before 400 and ends at it
    assert completed.state.status == "grave"
    assert rules.apply(s, SHEET, "hit", 400.1, params={"location": "left_arm"}).state.status \
        == "dead"


def test_H04_first_aid_needs_the_trait(rules):
    s = incapacitated_at(rules, 100.0)
    with pytest.raises(RuleRefused) as refused:
        rules.apply(s, SHEET, "first_aid", 130.0, actor_sheet={"trauma": 3})
    assert refused.value.code == "missing_skill"
    with pytest.raises(RuleRefused) as refused:
        rules.apply(rules.initial_state(), SHEET, "first_aid", 130.0, actor_sheet=FIRST_AIDER)
    assert refused.value.code == "not_in_state"


def test_H04_a_grave_first_aider_may_help_an_incapacitated_one_may_not(rules):
    """[L40]: Primeros Auxilios is usable while Grave; the service refuses an actor whose
    state lacks the capability the action names (actor_needs)."""
    needs = RS.actions["first_aid"]["actor_needs"]
    assert needs in RS.states["grave"]["can"]
    assert needs not in RS.states["incapacitated"].get("can", [])
    assert needs not in RS.states["unconscious"].get("can", [])


# -- H05: one Coraje to be Grave ---------------------------------------------------------

def test_H05_E9_spending_one_coraje_during_the_agony_leaves_grave(rules):
    s = incapacitated_at(rules, 100.0)
    out = rules.apply(s, SHEET, "spend_coraje", 399.0)
    s = out.state
    assert s.status == "grave"
    assert s.timers == {}
    assert coraje(rules, s) == 0
    assert trauma(rules, s) == 2
    assert transitions(out.events) == [("incapacitated", "grave", 399.0)]


def test_H05_without_coraje_the_spend_is_refused(rules):
    broke = {"trauma": 3, "coraje": 0}
    s = incapacitated_at(rules, 100.0, broke)
    with pytest.raises(RuleRefused) as refused:
        rules.apply(s, broke, "spend_coraje", 200.0)
    assert refused.value.code == "not_enough_points"
    assert s.status == "incapacitated" and s.timers == {"death": 400.0}


def test_H05_the_spend_is_too_late_once_the_agony_is_over(rules):
    s = incapacitated_at(rules, 100.0)
    with pytest.raises(RuleRefused) as refused:
        rules.apply(s, SHEET, "spend_coraje", 400.5)
    assert refused.value.code == "not_in_state"     # dead at 400


def test_H05_only_in_the_agony(rules):
    with pytest.raises(RuleRefused) as refused:
        rules.apply(rules.initial_state(), SHEET, "spend_coraje", 10.0)
    assert refused.value.code == "not_in_state"


# -- H06: more damage during the agony --------------------------------------------------

@pytest.mark.parametrize("params", [
    {"location": "torso"},
    {"location": "left_leg"},
    {"location": "torso", "weapon": "wooden"},
    {"location": "left_arm", "weapon": "heavy"},
    {"weapon": "firearm"},
    {"location": "head", "weapon": "missile"},
])
def test_H06_more_damage_in_the_agony_changes_nothing(rules, params):
    s = hit(rules, rules.initial_state(), 100.0, location="left_arm")
    s = hit(rules, s, 110.0, location="right_arm")    # second point: agony, no torso wound
    out = rules.apply(s, SHEET, "hit", 200.0, params=params)
    after = out.state
    assert after.status == "incapacitated"
    assert after.timers == {"death": 410.0}            # unchanged: cannot kill sooner
    assert trauma(rules, after) == 2                   # no more Trauma lost
    assert after.values["damage"] == s.values["damage"]
    assert after.values["limbs"] == s.values["limbs"]
    assert after.values["torso_wound"] is False        # no immediate death offered now
    assert transitions(out.events) == []


# -- H07: Grave hit again ----------------------------------------------------------------

@pytest.mark.parametrize("location", ["left_arm", "torso"])
def test_H07_grave_hit_again_falls_incapacitated_losing_trauma(rules, location):
    s = grave_at(rules, 100.0)                          # trauma 2
    out = rules.apply(s, SHEET, "hit", 1000.0, params={"location": location})
    s = out.state
    assert s.status == "incapacitated"
    assert s.timers == {"death": 1300.0}                # a new 5-minute agony
    assert trauma(rules, s) == 1
    assert s.values["torso_wound"] is (location == "torso")
    assert transitions(out.events) == [("grave", "incapacitated", 1000.0)]


def test_H07_grave_with_the_last_trauma_point_falls_dying(rules):
    two = {"trauma": 2, "coraje": 0}
    s = grave_at(rules, 100.0, two)                     # trauma 1
    s = hit(rules, s, 1000.0, two, location="left_leg")
    assert s.status == "dying"
    assert trauma(rules, s, two) == 0
    assert s.timers == {"death": 1300.0}


def test_H07_a_blow_the_armour_stops_leaves_a_grave_character_grave(rules):
    heavy = {**SHEET, "armour": "heavy"}
    s = rules.initial_state()
    for at in (100.0, 101.0, 102.0):                      # two absorbed, the third wounds
        s = hit(rules, s, at, heavy, location="torso")
    s = act(rules, s, "first_aid", 132.0, heavy, actor=FIRST_AIDER)
    assert s.status == "grave" and s.values["armour_lost"] == 1
    s = hit(rules, s, 1000.0, heavy, location="left_arm")   # a new Conflict: 1 point left
    assert s.status == "grave"
    assert trauma(rules, s, heavy) == 2


# -- H08 / TS8: adequate treatment heals an hour later -------------------------------------

@pytest.mark.parametrize("make", ["wounded", "grave"])
def test_H08_TS8_treated_wounds_heal_one_hour_after_the_treatment(rules, make):
    if make == "wounded":
        s = hit(rules, rules.initial_state(), 100.0, location="left_arm")
    else:
        s = grave_at(rules, 100.0)
    s = act(rules, s, "adequate_treatment", 600.0, actor=DOCTOR)
    assert s.status == make
    assert s.timers == {"heal": 600.0 + HOUR}
    assert s.values["treated"] is True
    assert rules.advance(s, SHEET, 600.0 + HOUR - 1).state.status == make
    out = rules.advance(s, SHEET, 600.0 + HOUR)
    healed = out.state
    assert healed.status == "unharmed"
    assert transitions(out.events) == [(make, "unharmed", 600.0 + HOUR)]
    assert healed.values["limbs"] == {} and healed.values["damage"] == []
    assert healed.values["treated"] is False
    assert healed.timers == {}
    assert trauma(rules, healed) == trauma(rules, s)   # Trauma is not restored [L42]


def test_H08_treatment_needs_the_skill_or_a_narrator(rules):
    s = hit(rules, rules.initial_state(), 100.0, location="left_arm")
    with pytest.raises(RuleRefused) as refused:
        rules.apply(s, SHEET, "adequate_treatment", 600.0, actor_sheet={"trauma": 1})
    assert refused.value.code == "missing_skill"
    assert RS.actions["treatment_given"]["declared_by"] == ["narrator"]
    s = act(rules, s, "treatment_given", 600.0)          # S12: narrator-granted
    assert s.timers == {"heal": 600.0 + HOUR}


def test_H08_first_aid_is_not_adequate_treatment_by_default(rules):
    s = grave_at(rules, 100.0)
    assert "heal" not in s.timers and s.values["treated"] is False


# -- H09 / TS9: untreated wounds at day end -----------------------------------------------

def test_H09_TS9_day_end_marks_untreated_wounds_for_a_narrator(rules):
    wounded = hit(rules, rules.initial_state(), 100.0, location="left_arm")
    treated = act(rules, wounded, "adequate_treatment", 200.0, actor=DOCTOR)
    grave = grave_at(rules, 100.0)
    unharmed = rules.initial_state()
    at = 1000.0
    assert act(rules, wounded, "day_end", at).values["awaiting_narrator"] is True
    assert act(rules, grave, "day_end", at).values["awaiting_narrator"] is True
    assert act(rules, treated, "day_end", at).values["awaiting_narrator"] is False
    assert act(rules, unharmed, "day_end", at).values["awaiting_narrator"] is False
    s = act(rules, wounded, "day_end", at)
    assert s.status == "wounded" and s.timers == {}      # nothing automatic: a narrator decides


def test_H09_the_narrator_decides_the_wounds_healed(rules):
    s = hit(rules, rules.initial_state(), 100.0, location="left_arm")
    s = act(rules, s, "day_end", 1000.0)
    s = act(rules, s, "wounds_healed", 1100.0)
    assert s.status == "unharmed"
    assert s.values["awaiting_narrator"] is False
    assert s.values["limbs"] == {} and s.values["damage"] == []


# -- H10 / TS3: dying without First Aid ---------------------------------------------------

def test_H10_TS3_the_trauma_zero_sleep_kills_after_five_minutes(rules):
    s = dying_at(rules, 100.0)
    assert rules.advance(s, LAST_TRAUMA, 399.9).state.status == "dying"
    out = rules.advance(s, LAST_TRAUMA, 400.0)
    assert out.state.status == "dead"
    assert out.state.timers == {"corpse": 520.0}
    assert transitions(out.events) == [("dying", "dead", 400.0)]


# -- H11 / H12: First Aid on the dying: coma, and the second coma kills -----------------------

def test_H11_first_aid_on_the_dying_stabilises_into_a_coma(rules):
    s = dying_at(rules, 100.0)
    out = rules.apply(s, LAST_TRAUMA, "first_aid", 130.0, actor_sheet=FIRST_AIDER)
    s = out.state
    assert s.status == "coma"
    assert s.timers == {}                           # until Trauma comes back
    assert s.values["coma_count"] == 1
    assert trauma(rules, s, LAST_TRAUMA) == 0
    assert rules.is_inert(s, 10 * HOUR)
    assert transitions(out.events) == [("dying", "coma", 130.0)]


def test_H12_the_second_coma_kills(rules):
    s = dying_at(rules, 100.0)
    s = act(rules, s, "first_aid", 130.0, LAST_TRAUMA, actor=FIRST_AIDER)      # coma 1
    s = act(rules, s, "trauma_restored", 1000.0, LAST_TRAUMA, amount=1)        # grave
    s = hit(rules, s, 2000.0, LAST_TRAUMA, location="torso")                   # dying again
    assert s.status == "dying" and s.values["coma_count"] == 1
    out = rules.apply(s, LAST_TRAUMA, "first_aid", 2030.0, actor_sheet=FIRST_AIDER)
    assert out.state.status == "dead"
    assert out.state.timers == {"corpse": 2150.0}
    assert transitions(out.events) == [("dying", "dead", 2030.0)]


# -- H13: Trauma restored wakes the coma ----------------------------------------------------

def test_H13_restoring_trauma_wakes_a_coma_into_grave(rules):
    s = dying_at(rules, 100.0)
    s = act(rules, s, "first_aid", 130.0, LAST_TRAUMA, actor=FIRST_AIDER)
    out = rules.apply(s, LAST_TRAUMA, "trauma_restored", 5 * HOUR, params={"amount": 1})
    s = out.state
    assert s.status == "grave"                     # S29
    assert trauma(rules, s, LAST_TRAUMA) == 1
    assert s.values["damage"] != []                # the wounds are still there (H08/H09)
    assert transitions(out.events) == [("coma", "grave", 5 * HOUR)]


def test_H13_trauma_never_goes_above_the_sheet(rules):
    s = incapacitated_at(rules, 100.0)
    s = act(rules, s, "trauma_restored", 200.0, amount=5)
    assert trauma(rules, s) == 3
