"""septenario_es at the edges of the body rules (rulesets/body.py): a limb stunned by a
wooden blow for its own five minutes when the points outlast the stun [L33], damage points
as a narrator reads them (where, which weapon), a sheet without Coraje and a character
stored before the ruleset counted what it spent. Times are game seconds."""
from rulesets import CharacterState
from septenario_world import (  # noqa: F401 (rules is a fixture)
    SHEET, coraje, grave_at, hit, make_rules, rules, trauma)


def two_wooden_limbs(rules):
    """A wooden blow on the left arm at 100 (stunned until 400), another on the right arm
    at 200 (stunned until 500): the second point knocks out (S9)."""
    s = hit(rules, rules.initial_state(), 100.0, location="left_arm", weapon="wooden")
    s = hit(rules, s, 200.0, location="right_arm", weapon="wooden")
    assert s.status == "unconscious"
    assert s.values["limbs"] == {"left_arm": "stunned", "right_arm": "stunned"}
    return s


def test_L33_each_stunned_limb_comes_back_after_its_own_five_minutes():
    rules = make_rules(wooden_points_expire=False)
    s = two_wooden_limbs(rules)
    at_450 = rules.advance(s, SHEET, 450.0).state
    assert at_450.values["limbs"] == {"right_arm": "stunned"}     # the left arm's are over
    assert len(at_450.values["damage"]) == 2                      # the points stay (S21)
    assert at_450.timers["wooden"] == 500.0
    at_500 = rules.advance(s, SHEET, 500.0).state
    assert at_500.values["limbs"] == {} and "wooden" not in at_500.timers


def test_L33_with_expiring_points_the_later_limb_stays_stunned_too(rules):
    s = two_wooden_limbs(rules)
    at_450 = rules.advance(s, SHEET, 450.0).state
    assert at_450.values["limbs"] == {"right_arm": "stunned"}
    assert [p["location"] for p in at_450.values["damage"]] == ["right_arm"]


def test_L33_wooden_points_stored_before_the_stun_was_kept_apart_stun_until_they_expire(rules):
    """Damage points written by an earlier version carry only `expires_at`: a limb they
    stun stays stunned until then."""
    s = two_wooden_limbs(rules)
    old = [{k: v for k, v in p.items() if k != "stunned_until"} for p in s.values["damage"]]
    s = CharacterState(s.status, s.timers, {**s.values, "damage": old})
    at_450 = rules.advance(s, SHEET, 450.0).state
    assert at_450.values["limbs"] == {"right_arm": "stunned"}
    assert at_450.timers["wooden"] == 500.0
    assert rules.advance(s, SHEET, 500.0).state.values["limbs"] == {}


def test_each_damage_point_names_its_location_and_weapon_for_the_narrator(rules):
    s = hit(rules, rules.initial_state(), 100.0, location="left_leg", weapon="heavy")
    s = hit(rules, s, 150.0, location="torso", weapon="missile")
    assert [(p["location"], p["weapon"], p["at"]) for p in s.values["damage"]] == [
        ("left_leg", "heavy", 100.0), ("torso", "missile", 150.0)]


def test_S5_a_sheet_without_coraje_has_none_to_spend_when_the_agony_ends():
    rules = make_rules(coraje_auto_spend=True)
    sheet = {"trauma": 3}                       # the roster's Coraje cell was left empty
    s = hit(rules, rules.initial_state(), 100.0, sheet, location="torso")
    assert coraje(rules, s, sheet) == 0
    out = rules.advance(s, sheet, 400.0).state
    assert out.status == "dead"
    assert coraje(rules, out, sheet) == 0


def stored_without(rules, value):
    """The initial state as a character stored before the ruleset declared `value` has it."""
    s = rules.initial_state()
    return CharacterState(s.status, dict(s.timers), {k: v for k, v in s.values.items() if k != value})


def test_E9_a_character_stored_before_coraje_was_counted_spends_what_the_phone_shows(rules):
    s = stored_without(rules, "coraje_spent")
    assert coraje(rules, s) == 1
    s = rules.apply(s, SHEET, "use_coraje", 10.0, params={"what": "Evasión"}).state
    assert coraje(rules, s) == 0 and s.values["coraje_spent"] == 1


def test_E26_a_character_stored_before_coraje_was_counted_gains_from_what_the_phone_shows(rules):
    s = stored_without(rules, "coraje_spent")
    s = rules.apply(s, SHEET, "plot_completed", 10.0, params={"amount": 2}).state
    assert coraje(rules, s) == 3


def test_H07_H20_a_knocked_out_grave_character_loses_the_grave_cost_not_the_first_fall_cost():
    """The two costs told apart: a first fall costs 2 Trauma here, a Grave one's fall 1."""
    rules = make_rules(incap_trauma_cost=2, grave_to_incap_trauma_cost=1)
    sheet = {"trauma": 5, "coraje": 0}
    s = grave_at(rules, 100.0, sheet)
    assert trauma(rules, s, sheet) == 3
    s = hit(rules, s, 1000.0, sheet, location="torso", weapon="wooden")      # asleep
    assert s.status == "unconscious" and s.values["knockout_return"] == "grave"
    s = hit(rules, s, 1100.0, sheet, location="torso")                       # H07, not H01
    assert s.status == "incapacitated"
    assert trauma(rules, s, sheet) == 2


def test_S7_a_character_stored_before_armour_wear_was_counted_wears_it_once(rules):
    heavy = {**SHEET, "armour": "heavy"}
    s = stored_without(rules, "armour_lost")
    s = hit(rules, s, 100.0, heavy, location="left_arm", weapon="heavy")   # 1 disabled, 1 absorbed
    assert s.status == "unharmed" and s.values["armour_left"] == 0
    s = hit(rules, s, 101.0, heavy, location="left_arm", weapon="heavy")   # wounded: the armour wears
    assert s.status == "wounded" and s.values["armour_lost"] == 1
    s = hit(rules, s, 1000.0, heavy, location="right_leg")                 # a new Conflict
    assert s.values["armour_left"] == 0 and s.values["armour_lost"] == 1   # 2 - 1, then absorbed
    assert s.status == "wounded"
