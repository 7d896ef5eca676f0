"""septenario_es: the transitions H14-H23 of the spec (docs/rules/septenario_es.md §4.3):
wooden weapons and knock-outs, traps, explosive, Muerte and Golpe Mortal, damage on those
already down, the corpse, the narrators' override; timers TS2, TS4, TS5, TS7, TS10.
H01-H13 are in test_septenario_transitions.py.

Every time is a game second. A test states what a narrator would check on the
character: the health state, the exact deadlines, Trauma and Coraje as they stand
(Rules.point_value), the limbs. Combat details (armour, weapon classes) are in
test_septenario_combat.py; Coraje, days, healing and the options of §8 in
test_septenario_resources.py.
"""
import pytest

from rulesets import RuleRefused
from septenario_world import (  # noqa: F401 (rules is a fixture)
    # noqa: F401 (rules is a fixture)
    DOCTOR, FIRST_AIDER, HOUR, LAST_TRAUMA, MIN, RS, SHEET, act, coraje, dying_at, grave_at,
    hit, incapacitated_at, make_rules, rules, transitions, trauma)


# -- H14 / H16 / TS2: wooden weapons knock out instead of incapacitating ----------------------

def test_H14_H16_TS2_a_wooden_blow_to_the_torso_knocks_out_for_five_minutes(rules):
    out = rules.apply(rules.initial_state(), SHEET, "hit", 100.0,
                      params={"location": "torso", "weapon": "wooden"})
    s = out.state
    assert s.status == "unconscious"
    assert s.timers == {"knockout": 400.0, "wooden": 400.0}
    assert trauma(rules, s) == 3                   # S9: no Trauma lost
    assert s.values["knockout_return"] == "unharmed"
    assert s.values["torso_wound"] is False
    assert rules.is_inert(s, 100.0)
    assert transitions(out.events) == [("unharmed", "unconscious", 100.0)]
    assert rules.advance(s, SHEET, 399.9).state.status == "unconscious"
    out = rules.advance(s, SHEET, 400.0)
    woke = out.state
    assert woke.status == "unharmed"
    assert transitions(out.events) == [("unconscious", "unharmed", 400.0)]
    assert woke.values["damage"] == [] and woke.timers == {}
    assert woke.values["knockout_return"] is None


def test_H14_a_second_wooden_point_knocks_out_a_wounded_one_who_wakes_wounded(rules):
    s = hit(rules, rules.initial_state(), 100.0, location="left_arm")          # useless
    s = hit(rules, s, 200.0, location="right_leg", weapon="wooden")
    assert s.status == "unconscious"
    assert s.values["limbs"] == {"left_arm": "useless", "right_leg": "stunned"}
    assert s.timers == {"knockout": 500.0, "wooden": 500.0}
    assert trauma(rules, s) == 3
    woke = rules.advance(s, SHEET, 500.0).state
    assert woke.status == "wounded"
    assert woke.values["limbs"] == {"left_arm": "useless"}
    assert len(woke.values["damage"]) == 1


def test_H14_S9_a_grave_character_hit_by_wood_sleeps_then_is_grave_again(rules):
    s = grave_at(rules, 100.0)
    s = hit(rules, s, 1000.0, location="left_arm", weapon="wooden")
    assert s.status == "unconscious"
    assert s.timers["knockout"] == 1300.0
    assert trauma(rules, s) == 2
    woke = rules.advance(s, SHEET, 1300.0).state
    assert woke.status == "grave"
    assert trauma(rules, woke) == 2


# -- H15 / H16b / TS4: a wooden blow to a limb ---------------------------------------------

def test_H15_H16b_TS4_a_wooden_blow_stuns_a_limb_for_five_minutes(rules):
    out = rules.apply(rules.initial_state(), SHEET, "hit", 100.0,
                      params={"location": "right_arm", "weapon": "wooden"})
    s = out.state
    assert s.status == "wounded"
    assert s.values["limbs"] == {"right_arm": "stunned"}
    assert s.timers == {"wooden": 400.0}
    assert any(e["kind"] == "reminder" for e in out.events)       # drop what it holds
    mid = rules.advance(s, SHEET, 399.9).state
    assert mid.status == "wounded" and mid.values["limbs"] == {"right_arm": "stunned"}
    out = rules.advance(s, SHEET, 400.0)
    assert out.state.status == "unharmed"
    assert out.state.values["limbs"] == {} and out.state.values["damage"] == []
    assert out.state.timers == {}
    assert transitions(out.events) == [("wounded", "unharmed", 400.0)]


def test_H16b_the_stunned_limb_comes_back_while_knocked_out_and_the_wake_is_unharmed(rules):
    s = hit(rules, rules.initial_state(), 100.0, location="right_arm", weapon="wooden")
    s = hit(rules, s, 200.0, location="torso", weapon="wooden")      # second point: asleep
    assert s.status == "unconscious" and s.values["knockout_return"] == "wounded"
    mid = rules.advance(s, SHEET, 400.0).state                        # the arm's 5 min
    assert mid.status == "unconscious" and mid.values["limbs"] == {}
    assert len(mid.values["damage"]) == 1
    woke = rules.advance(s, SHEET, 500.0).state
    assert woke.status == "unharmed"                                   # nothing left
    assert woke.values["damage"] == [] and woke.timers == {}


# -- H17: explosive, Muerte, Golpe Mortal --------------------------------------------------

def _every_alive_state(rules):
    unharmed = rules.initial_state()
    wounded = hit(rules, unharmed, 10.0, location="left_arm")
    knocked = hit(rules, unharmed, 10.0, location="torso", weapon="wooden")
    return {"unharmed": unharmed, "wounded": wounded, "grave": grave_at(rules, 10.0),
            "unconscious": knocked, "incapacitated": incapacitated_at(rules, 10.0),
            "dying": dying_at(rules, 10.0),
            "coma": act(rules, dying_at(rules, 10.0), "first_aid", 40.0, LAST_TRAUMA,
                        actor=FIRST_AIDER)}


@pytest.mark.parametrize("action", ["explosive", "muerte"])
def test_H17_an_explosive_or_muerte_kills_in_every_living_state(rules, action):
    for name, s in _every_alive_state(rules).items():
        assert s.status == name
        sheet = LAST_TRAUMA if name in ("dying", "coma") else SHEET
        out = rules.apply(s, sheet, action, 100.0)
        assert out.state.status == "dead", name
        assert out.state.timers == {"corpse": 220.0}, name
    dead = act(rules, rules.initial_state(), "muerte", 10.0)
    with pytest.raises(RuleRefused) as refused:
        rules.apply(dead, SHEET, action, 20.0)
    assert refused.value.code == "not_in_state"


def test_H17_muerte_ignores_coraje_and_the_agony(rules):
    s = incapacitated_at(rules, 100.0)
    s = act(rules, s, "muerte", 150.0)
    assert s.status == "dead" and coraje(rules, s) == 1


@pytest.mark.parametrize("target", ["incapacitated", "unconscious", "dying", "coma"])
def test_H17_E11_a_golpe_mortal_kills_the_helpless(rules, target):
    s = _every_alive_state(rules)[target]
    sheet = LAST_TRAUMA if target in ("dying", "coma") else SHEET
    out = rules.apply(s, sheet, "golpe_mortal", 100.0, params={"armed": True},
                      actor_sheet={"trauma": 3})
    assert out.state.status == "dead"
    assert transitions(out.events) == [(target, "dead", 100.0)]


@pytest.mark.parametrize("target, code", [("grave", "not_in_state"), ("wounded", "not_in_state"),
                                          ("unharmed", "not_in_state")])
def test_H17_S17_no_golpe_mortal_on_those_who_can_resist(rules, target, code):
    s = _every_alive_state(rules)[target]
    with pytest.raises(RuleRefused) as refused:
        rules.apply(s, SHEET, "golpe_mortal", 100.0)
    assert refused.value.code == code


def test_H17_TS7_golpe_mortal_takes_two_seconds_armed_the_words_and_thirty_unarmed(rules):
    assert "other" in RS.actions["golpe_mortal"]["declared_by"]
    assert rules.duration("golpe_mortal", level=None) == 2.0            # armed by default
    assert rules.duration("golpe_mortal", level=None, params={"armed": True}) == 2.0
    # [L44] "se tarda Medio Minuto" of blows after the words said with 1-s pauses
    assert rules.duration("golpe_mortal", level=None, params={"armed": False}) == 32.0
    slower = make_rules(golpe_mortal_unarmed_s=60)
    assert slower.duration("golpe_mortal", level=None, params={"armed": False}) == 62.0


# -- H18 / TS5: a simple trap ----------------------------------------------------------------

def test_H18_TS5_a_simple_trap_knocks_out_for_five_minutes(rules):
    s = hit(rules, rules.initial_state(), 50.0, location="left_arm")
    out = rules.apply(s, SHEET, "trap_simple", 100.0, params={"leaves": "unconscious"})
    s = out.state
    assert s.status == "unconscious"
    assert s.timers == {"knockout": 400.0}
    assert s.values["knockout_return"] == "wounded"
    woke = rules.advance(s, SHEET, 400.0).state
    assert woke.status == "wounded" and woke.values["limbs"] == {"left_arm": "useless"}


def test_H18_TS5_a_simple_trap_paralyses_for_five_minutes(rules):
    out = rules.apply(rules.initial_state(), SHEET, "trap_simple", 100.0,
                      params={"leaves": "paralysed"})
    s = out.state
    assert s.status == "unharmed"
    assert s.values["paralysed"] is True
    assert s.timers == {"paralysis": 400.0}
    assert transitions(out.events) == []
    assert rules.advance(s, SHEET, 399.9).state.values["paralysed"] is True
    assert rules.advance(s, SHEET, 400.0).state.values["paralysed"] is False


def test_H18_TS5_the_trap_duration_is_its_own_option(rules):
    slow = make_rules(simple_trap_s=600)
    s = act(slow, slow.initial_state(), "trap_simple", 100.0, leaves="unconscious")
    assert s.timers == {"knockout": 700.0}
    s = act(slow, slow.initial_state(), "trap_simple", 100.0, leaves="paralysed")
    assert s.timers == {"paralysis": 700.0}


def test_H18_the_trap_card_must_say_which(rules):
    with pytest.raises(RuleRefused) as refused:
        rules.apply(rules.initial_state(), SHEET, "trap_simple", 100.0,
                    params={"leaves": "asleep"})
    assert refused.value.code == "bad_input"


# -- H19: a mechanical trap -------------------------------------------------------------------

@pytest.mark.parametrize("make", ["unharmed", "wounded", "grave"])
def test_H19_a_mechanical_trap_incapacitates_losing_one_trauma(make):
    rules = make_rules(grave_to_incap_trauma_cost=2)   # the trap is INCAP(1) even on Grave
    s = _every_alive_state(rules)[make]
    before = trauma(rules, s)
    out = rules.apply(s, SHEET, "trap_mechanical", 100.0)
    assert out.state.status == "incapacitated"
    assert out.state.timers == {"death": 400.0}
    assert trauma(rules, out.state) == before - 1
    assert out.state.values["torso_wound"] is False      # no immediate death offered


# -- H20: damage on a knocked-out character (S24) -------------------------------------------------

def test_H20_a_limb_hit_while_knocked_out_wakes_wounded(rules):
    s = act(rules, rules.initial_state(), "trap_simple", 100.0, leaves="unconscious")
    s = hit(rules, s, 150.0, location="left_leg")
    assert s.status == "unconscious"
    assert s.timers == {"knockout": 400.0}
    assert s.values["limbs"] == {"left_leg": "useless"}
    woke = rules.advance(s, SHEET, 400.0).state
    assert woke.status == "wounded"


def test_H20_S24_an_incapacitating_hit_replaces_the_knock_out(rules):
    s = act(rules, rules.initial_state(), "trap_simple", 100.0, leaves="unconscious")
    out = rules.apply(s, SHEET, "hit", 150.0, params={"location": "torso"})
    s = out.state
    assert s.status == "incapacitated"
    assert s.timers == {"death": 450.0}
    assert trauma(rules, s) == 2
    assert s.values["knockout_return"] is None
    assert transitions(out.events) == [("unconscious", "incapacitated", 150.0)]


def test_H20_a_knocked_out_grave_character_falls_as_a_grave_one(rules):
    s = grave_at(rules, 100.0)                                        # trauma 2
    s = hit(rules, s, 1000.0, location="torso", weapon="wooden")      # asleep
    s = hit(rules, s, 1100.0, location="left_leg")                    # H07, not H01
    assert s.status == "incapacitated"
    assert s.timers["death"] == 1400.0 and "knockout" not in s.timers
    assert trauma(rules, s) == 1


def test_H20_a_wooden_blow_on_the_knocked_out_restarts_the_five_minutes(rules):
    s = hit(rules, rules.initial_state(), 100.0, location="torso", weapon="wooden")
    s = hit(rules, s, 300.0, location="left_arm", weapon="wooden")
    assert s.status == "unconscious"
    assert s.timers["knockout"] == 600.0
    assert rules.advance(s, SHEET, 600.0).state.status == "unharmed"


# -- H21: the dying and the comatose ----------------------------------------------------------

@pytest.mark.parametrize("which", ["dying", "coma"])
def test_H21_more_damage_cannot_kill_the_dying_or_the_comatose(rules, which):
    s = _every_alive_state(rules)[which]
    for at, params in ((100.0, {"location": "torso"}), (101.0, {"weapon": "firearm"}),
                       (102.0, {"location": "left_leg", "weapon": "heavy"})):
        out = rules.apply(s, LAST_TRAUMA, "hit", at, params=params)
        assert out.state.status == which
        assert out.state.timers == s.timers
        assert out.state.values["damage"] == s.values["damage"]
        assert trauma(rules, out.state, LAST_TRAUMA) == 0


# -- H22 / TS10: the corpse ----------------------------------------------------------------

def test_H22_TS10_the_corpse_stays_two_minutes_then_may_leave(rules):
    s = act(rules, incapacitated_at(rules, 100.0), "golpe_mortal", 200.0)
    assert s.status == "dead"
    assert s.timers == {"corpse": 320.0}
    assert s.values["corpse_released"] is False
    assert rules.advance(s, SHEET, 319.9).state.values["corpse_released"] is False
    out = rules.advance(s, SHEET, 320.0)
    assert out.state.status == "dead"
    assert out.state.values["corpse_released"] is True
    assert out.state.timers == {}


def test_H22_death_stops_every_other_timer(rules):
    s = hit(rules, rules.initial_state(), 100.0, location="left_arm", weapon="wooden")
    s = act(rules, s, "trap_simple", 110.0, leaves="paralysed")
    s = act(rules, s, "explosive", 120.0)
    assert s.timers == {"corpse": 240.0}
    assert s.values["paralysed"] is False


# -- H23: the narrators' decision is final ------------------------------------------------------

@pytest.mark.parametrize("target", [s for s in RS.states])
def test_H23_a_narrator_may_set_any_state(rules, target):
    s = incapacitated_at(rules, 100.0)
    out = rules.apply(s, SHEET, "set_state", 200.0, params={"state": target})
    assert out.state.status == target


def test_H23_setting_unharmed_heals_and_setting_incapacitated_starts_the_agony(rules):
    s = incapacitated_at(rules, 100.0)
    s = act(rules, s, "set_state", 200.0, state="unharmed")
    assert s.timers == {} and s.values["damage"] == [] and s.values["limbs"] == {}
    assert trauma(rules, s) == 2                     # Trauma is the narrators' to restore
    s = hit(rules, s, 300.0, location="left_arm")     # a first point again, not a second
    assert s.status == "wounded"
    s = act(rules, s, "set_state", 400.0, state="incapacitated")
    assert s.timers == {"death": 700.0}
    s = act(rules, s, "set_state", 500.0, state="dead")
    s = act(rules, s, "set_state", 600.0, state="unharmed")   # a wrong judgement revised [L6]
    assert s.status == "unharmed"
