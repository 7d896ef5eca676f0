"""septenario_es: a declared hit, resolved as the spec's §4.4 says (docs/rules/septenario_es.md):
valid zones, solid blows, weapon classes (E1-E6), armour per Conflict (TS11, S7, S8, S26)
and wooden weapons (S9, S10). Times are game seconds."""
import pytest

from rulesets import RuleRefused
from septenario_world import RS, SHEET, hit, make_rules, rules  # noqa: F401 (rules is a fixture)

LIGHT = {**SHEET, "armour": "light"}
HEAVY = {**SHEET, "armour": "heavy"}


def results(events):
    return [e["result"] for e in events if e["kind"] == "hit_result"]


def trauma(rules, state, sheet=SHEET):
    return rules.point_value(state, sheet, "trauma")


# -- E1: valid zones, solid blows, unspecified location ------------------------------------

@pytest.mark.parametrize("weapon", ["standard", "heavy", "wooden"])
def test_E1_a_melee_blow_to_the_head_is_refused_and_changes_nothing(rules, weapon):
    s = rules.initial_state()
    with pytest.raises(RuleRefused) as refused:
        rules.apply(s, SHEET, "hit", 100.0, params={"location": "head", "weapon": weapon})
    assert refused.value.code == "hit_not_valid"
    assert rules.initial_state() == s


def test_E1_the_valid_zones_are_an_option():
    rules = make_rules(valid_melee_excludes=["neck", "weapon_hand"])   # helmets allowed
    s = hit(rules, rules.initial_state(), 100.0, location="head", weapon="standard")
    assert s.status == "incapacitated"            # the head counts as torso
    assert s.values["damage"][0]["location"] == "torso"


def test_E1_a_graze_changes_nothing_not_even_the_conflict(rules):
    s = hit(rules, rules.initial_state(), 50.0, location="left_arm")
    out = rules.apply(s, SHEET, "hit", 100.0, params={"location": "torso", "solid": False})
    assert out.state == s
    assert results(out.events) == ["not_solid"]
    armoured = rules.apply(rules.initial_state(), LIGHT, "hit", 100.0,
                           params={"solid": False}).state
    assert armoured.values["conflict_until"] is None and armoured.values["armour_left"] == 0


def test_E1_a_blow_with_no_location_said_lands_on_the_torso(rules):
    s = hit(rules, rules.initial_state(), 100.0)
    assert s.status == "incapacitated" and s.values["torso_wound"] is True


def test_S23_bare_hands_are_not_a_weapon_class(rules):
    assert "bare_hands" not in RS.actions["hit"]["params"]["weapon"]["choices"]
    with pytest.raises(RuleRefused) as refused:
        rules.apply(rules.initial_state(), SHEET, "hit", 1.0, params={"weapon": "fist"})
    assert refused.value.code == "bad_input"


# -- E2: missiles: valid anywhere, head = torso, piercing -------------------------------------

def test_E2_a_ranged_hit_to_the_head_counts_as_torso(rules):
    s = hit(rules, rules.initial_state(), 100.0, location="head", weapon="missile")
    assert s.status == "incapacitated"
    assert s.values["damage"][0]["location"] == "torso"
    assert s.values["torso_wound"] is True
    assert trauma(rules, s) == 2


def test_E2_L32_piercing_ignores_the_armour_without_wearing_it(rules):
    out = rules.apply(rules.initial_state(), LIGHT, "hit", 100.0,
                      params={"location": "left_arm", "weapon": "missile"})
    s = out.state
    assert s.status == "wounded"                   # not absorbed
    assert s.values["armour_left"] == 1            # untouched in this Conflict
    assert s.values["armour_lost"] == 0            # "no la destruye" (S7)
    s = hit(rules, s, 110.0, LIGHT, location="right_leg")   # a sword: the armour still holds
    assert s.status == "wounded" and s.values["armour_left"] == 0
    assert s.values["armour_lost"] == 0            # absorbed: no wound, no wear


def test_S7_piercing_degrades_armour_when_the_option_says_so():
    rules = make_rules(piercing_degrades_armour=True)
    s = hit(rules, rules.initial_state(), 100.0, LIGHT, location="left_arm", weapon="missile")
    assert s.status == "wounded"
    assert s.values["armour_lost"] == 1
    assert s.values["armour_left"] == 1            # only future Conflicts lose it


# -- E3 / S8: heavy weapons ----------------------------------------------------------------------

def test_E3_S8_a_heavy_weapon_disables_the_light_armour_point_and_wounds(rules):
    s = hit(rules, rules.initial_state(), 100.0, LIGHT, location="left_arm", weapon="heavy")
    assert s.status == "wounded"
    assert s.values["armour_left"] == 0
    assert s.values["armour_lost"] == 1


def test_E3_S8_each_heavy_blow_disables_the_next_point_of_a_heavy_armour(rules):
    out = rules.apply(rules.initial_state(), HEAVY, "hit", 100.0,
                      params={"location": "left_arm", "weapon": "heavy"})
    s = out.state
    assert s.status == "unharmed"                  # one point disabled, one absorbed
    assert results(out.events) == ["protected"]
    assert s.values["armour_left"] == 0
    assert s.values["armour_lost"] == 0            # not Herido: no loss for later (S8: this Conflict)
    s = hit(rules, s, 110.0, HEAVY, location="left_arm", weapon="heavy")
    assert s.status == "wounded" and s.values["armour_lost"] == 1
    s = hit(rules, s, 500.0, HEAVY, location="left_leg", weapon="standard")   # new Conflict
    assert s.status == "wounded"                   # 2 - 1 = 1 point: absorbed
    assert s.values["armour_left"] == 0


# -- E4: firearms -----------------------------------------------------------------------------

@pytest.mark.parametrize("sheet", [SHEET, HEAVY])
def test_E4_a_firearm_does_two_piercing_points_to_the_torso(rules, sheet):
    out = rules.apply(rules.initial_state(), sheet, "hit", 100.0,
                      params={"location": "left_arm", "weapon": "firearm"})
    s = out.state
    assert s.status == "incapacitated"
    assert [p["location"] for p in s.values["damage"]] == ["torso", "torso"]
    assert s.values["limbs"] == {}
    assert s.values["torso_wound"] is True
    assert trauma(rules, s, sheet) == 2            # one fall, one Trauma
    assert s.timers == {"death": 400.0}
    if sheet is HEAVY:
        assert s.values["armour_left"] == 2 and s.values["armour_lost"] == 0


def test_E4_the_firearm_interaction_hits_through_the_shot_action(rules):
    assert RS.interactions["firearm"]["hit"] == "shot"
    s = rules.apply(rules.initial_state(), SHEET, "shot", 100.0).state
    assert s.status == "incapacitated" and len(s.values["damage"]) == 2
    grave = rules.apply(rules.initial_state(), SHEET, "set_state", 1.0,
                        params={"state": "grave"}).state
    assert rules.apply(grave, SHEET, "shot", 100.0).state.status == "incapacitated"
    shooter = rules.apply(rules.initial_state(), SHEET, "fired", 100.0).state
    assert shooter.values["conflict_until"] == 220.0     # the shooter is in the Conflict


def test_E4_a_marksman_shoots_further():
    assert RS.options["firearm_range_m"] == 3
    rules = make_rules()
    assert rules.for_sheet({"abilities": ["tirador"]}).options["firearm_range_m"] == 15


# -- armour per Conflict (L31, TS11, S1, S7, S26) ---------------------------------------------

@pytest.mark.parametrize("location", ["left_arm", "right_leg", "torso"])
def test_L31_S26_light_armour_absorbs_the_first_point_of_each_conflict_anywhere(rules, location):
    out = rules.apply(rules.initial_state(), LIGHT, "hit", 100.0, params={"location": location})
    s = out.state
    assert s.status == "unharmed"                  # not Herido [L38]
    assert results(out.events) == ["protected"]
    assert s.values["armour_left"] == 0
    assert s.values["conflict_until"] == 220.0
    assert s.values["damage"] == []
    s = hit(rules, s, 150.0, LIGHT, location=location)
    assert s.status in ("wounded", "incapacitated")


def test_L31_heavy_armour_absorbs_two(rules):
    s = rules.initial_state()
    for at in (100.0, 101.0):
        s = hit(rules, s, at, HEAVY, location="torso")
        assert s.status == "unharmed"
    assert s.values["armour_left"] == 0
    s = hit(rules, s, 102.0, HEAVY, location="torso")
    assert s.status == "incapacitated"


def test_TS11_S1_the_armour_comes_back_after_120_s_without_combat(rules):
    s = hit(rules, rules.initial_state(), 100.0, LIGHT, location="left_arm")   # absorbed
    s = hit(rules, s, 219.0, LIGHT, location="left_arm")   # 119 s later: same Conflict
    assert s.status == "wounded"
    s = hit(rules, rules.initial_state(), 100.0, LIGHT, location="left_arm")
    s = hit(rules, s, 220.0, LIGHT, location="left_arm")   # 120 s without combat: a new one
    assert s.status == "unharmed"
    assert s.values["conflict_started"] == 220.0 and s.values["conflict_until"] == 340.0


def test_TS11_S1_the_conflict_window_slides_with_each_combat_event(rules):
    s = hit(rules, rules.initial_state(), 100.0, LIGHT, location="left_arm")   # absorbed
    s = rules.apply(s, LIGHT, "fired", 200.0).state        # fights on: until 320
    assert s.values["conflict_until"] == 320.0
    s = hit(rules, s, 300.0, LIGHT, location="left_arm")   # still the same Conflict
    assert s.status == "wounded"
    assert s.values["conflict_started"] == 100.0


def test_S1_a_narrator_closes_the_conflict_by_hand(rules):
    s = hit(rules, rules.initial_state(), 100.0, LIGHT, location="left_arm")
    s = rules.apply(s, LIGHT, "conflict_over", 130.0).state
    assert s.values["conflict_until"] is None
    s = hit(rules, s, 140.0, LIGHT, location="left_arm")
    assert s.status == "unharmed"                  # a new Conflict: armour again


def test_S7_the_armour_loses_one_point_once_per_conflict_in_which_its_wearer_is_wounded(rules):
    s = rules.initial_state()
    for at in (100.0, 101.0):                      # absorbed twice
        s = hit(rules, s, at, HEAVY, location="left_arm")
    s = hit(rules, s, 102.0, HEAVY, location="left_arm")
    assert s.status == "wounded" and s.values["armour_lost"] == 1
    s = hit(rules, s, 103.0, HEAVY, location="right_arm")
    assert s.status == "incapacitated"
    assert s.values["armour_lost"] == 1            # still once in this Conflict
    s = rules.apply(s, HEAVY, "first_aid", 133.0,
                    actor_sheet={"abilities": ["primeros_auxilios"]}).state
    s = hit(rules, s, 1000.0, HEAVY, location="torso")   # next Conflict: 2 - 1 = 1 point
    assert s.status == "grave" and s.values["armour_left"] == 0
    s = hit(rules, s, 1001.0, HEAVY, location="torso")
    assert s.status == "incapacitated" and s.values["armour_lost"] == 2
    s = hit(rules, s, 2000.0, HEAVY, location="torso")   # worn out: nothing left
    assert s.values["armour_left"] == 0


def test_S7_a_piercing_wound_does_not_use_up_the_conflicts_wear(rules):
    """§4.4: only an unprotected non-piercing wound sets `wounded_nonpiercing`, so a sword
    wound later in the same Conflict still costs the armour its point for the next ones."""
    s = hit(rules, rules.initial_state(), 100.0, LIGHT, location="left_arm", weapon="missile")
    assert s.status == "wounded" and s.values["armour_lost"] == 0
    s = hit(rules, s, 110.0, LIGHT, location="right_leg")          # absorbed
    assert s.values["armour_left"] == 0 and s.values["armour_lost"] == 0
    s = hit(rules, s, 115.0, LIGHT, location="right_leg")          # same Conflict, unprotected
    assert s.status == "incapacitated"
    assert s.values["armour_lost"] == 1


def test_an_unarmoured_character_has_no_armour_points(rules):
    s = hit(rules, rules.initial_state(), 100.0, location="left_arm")
    assert s.values["armour_left"] == 0 and s.values["armour_lost"] == 0


def test_a_hit_on_the_dead_only_keeps_the_conflict_going(rules):
    dead = rules.apply(rules.initial_state(), SHEET, "muerte", 10.0).state
    s = hit(rules, dead, 100.0, location="torso")
    assert s.status == "dead" and s.values["damage"] == []
    assert s.values["conflict_until"] == 220.0


# -- S21: damage lasts until healed -----------------------------------------------------------

def test_S21_the_second_point_counts_across_conflicts_until_healed(rules):
    s = hit(rules, rules.initial_state(), 100.0, location="left_arm")
    s = hit(rules, s, 100.0 + 2 * 3600, location="right_leg")
    assert s.status == "incapacitated"


# -- E5 / S9 / S10: wooden weapons -------------------------------------------------------------

def test_E5_wooden_blows_are_absorbed_by_armour(rules):
    s = hit(rules, rules.initial_state(), 100.0, LIGHT, location="torso", weapon="wooden")
    assert s.status == "unharmed" and s.values["armour_left"] == 0


def test_S9_a_wooden_limb_stun_lasts_five_minutes_then_nothing_is_left(rules):
    s = hit(rules, rules.initial_state(), 100.0, location="left_leg", weapon="wooden")
    assert s.status == "wounded" and s.values["limbs"] == {"left_leg": "stunned"}
    assert s.values["damage"][0]["expires_at"] == 400.0
    s = rules.advance(s, SHEET, 400.0).state
    assert s.status == "unharmed"
    s = hit(rules, s, 500.0, location="right_leg")          # a first point again
    assert s.status == "wounded"


def test_S9_during_the_stun_the_wooden_point_counts_as_the_first(rules):
    s = hit(rules, rules.initial_state(), 100.0, location="left_leg", weapon="wooden")
    s = hit(rules, s, 200.0, location="right_arm")          # a sword: the second point
    assert s.status == "incapacitated"
    assert trauma(rules, s) == 2


def test_S9_S10_a_knock_out_costs_no_trauma_and_returns_to_the_previous_state(rules):
    s = hit(rules, rules.initial_state(), 100.0, location="left_arm")      # wounded
    s = hit(rules, s, 200.0, location="torso", weapon="wooden")           # knocked out
    assert s.status == "unconscious" and trauma(rules, s) == 3
    assert s.values["knockout_return"] == "wounded"
    woke = rules.advance(s, SHEET, 500.0).state
    assert woke.status == "wounded" and trauma(rules, woke) == 3
    assert woke.values["limbs"] == {"left_arm": "useless"}


def test_S9_wooden_points_that_do_not_expire_keep_counting():
    rules = make_rules(wooden_points_expire=False)
    s = hit(rules, rules.initial_state(), 100.0, location="left_leg", weapon="wooden")
    assert s.values["damage"][0]["expires_at"] is None
    s = rules.advance(s, SHEET, 400.0).state
    assert s.status == "wounded"                   # the point stays (S21)...
    assert s.values["limbs"] == {}                 # ...but the limb works again after 5 min [L33]
    assert s.timers == {}
    s = hit(rules, s, 1000.0, location="right_leg", weapon="wooden")   # the second point
    assert s.status == "unconscious"
    woke = rules.advance(s, SHEET, 1300.0).state
    assert woke.status == "wounded" and len(woke.values["damage"]) == 2


def test_S9_a_knock_out_from_unharmed_with_a_point_left_wakes_wounded():
    rules = make_rules(wooden_points_expire=False)
    s = hit(rules, rules.initial_state(), 100.0, location="torso", weapon="wooden")
    woke = rules.advance(s, SHEET, 400.0).state
    assert woke.status == "wounded" and len(woke.values["damage"]) == 1


def test_S9_a_wooden_trauma_cost_when_the_option_sets_one():
    rules = make_rules(wooden_trauma_loss=1)
    s = hit(rules, rules.initial_state(), 100.0, location="torso", weapon="wooden")
    assert s.status == "unconscious" and trauma(rules, s) == 2
    last = {"trauma": 1, "coraje": 0}
    s = hit(rules, rules.initial_state(), 100.0, last, location="torso", weapon="wooden")
    assert s.status == "dying"


def test_S9_without_a_wooden_cost_a_trauma_zero_character_is_only_knocked_out():
    rules = make_rules(trauma_zero_precedence="agony")
    none_left = {"trauma": 1, "coraje": 1}
    s = hit(rules, rules.initial_state(), 100.0, none_left, location="torso")   # agony, 0
    s = rules.apply(s, none_left, "spend_coraje", 110.0).state                  # Grave at 0
    assert s.status == "grave" and trauma(rules, s, none_left) == 0
    s = hit(rules, s, 1000.0, none_left, location="left_arm", weapon="wooden")
    assert s.status == "unconscious"               # not Incapacitado: no Trauma involved


# -- E6: Romper ---------------------------------------------------------------------------------

def test_E6_a_broken_wooden_weapon_is_flagged_until_replaced(rules):
    s = rules.apply(rules.initial_state(), SHEET, "weapon_broken", 100.0).state
    assert s.values["weapon_broken"] is True
    assert not rules.available(s, "weapon_broken")
    s = rules.apply(s, SHEET, "weapon_replaced", 200.0).state
    assert s.values["weapon_broken"] is False


def test_E6_S11_polearms_daggers_knives_and_wooden_weapons_do_not_break_a_wooden_one(rules):
    # [L33] "se parten si un arma que no sea del mismo tipo, de Asta o daga / cuchillo las golpea"
    assert RS.options["wooden_breakers_exclude"] == ["wooden", "polearm", "dagger", "knife"]
    for breaker in ("wooden", "polearm", "dagger", "knife"):
        with pytest.raises(RuleRefused) as refused:
            rules.apply(rules.initial_state(), SHEET, "weapon_broken", 10.0,
                        params={"breaker": breaker})
        assert refused.value.code == "romper_breaker"
    for breaker in ("standard", "heavy"):
        s = rules.apply(rules.initial_state(), SHEET, "weapon_broken", 10.0,
                        params={"breaker": breaker}).state
        assert s.values["weapon_broken"] is True


def test_S11_the_inclusive_reading_lets_polearms_and_daggers_break_it():
    rules = make_rules(wooden_breakers_exclude=["wooden"])
    for breaker in ("polearm", "dagger", "knife"):
        s = rules.apply(rules.initial_state(), SHEET, "weapon_broken", 10.0,
                        params={"breaker": breaker}).state
        assert s.values["weapon_broken"] is True
    with pytest.raises(RuleRefused):
        rules.apply(rules.initial_state(), SHEET, "weapon_broken", 10.0,
                    params={"breaker": "wooden"})


def test_E6_romper_shouted_less_than_a_second_before_the_blow_breaks_nothing(rules):
    # [L33] 'grita "Romper" UN SEGUNDO ANTES de golpear'
    with pytest.raises(RuleRefused) as refused:
        rules.apply(rules.initial_state(), SHEET, "weapon_broken", 10.0,
                    params={"shouted_s_before": 0})
    assert (refused.value.code, refused.value.params["lead"]) == ("romper_too_late", "1")
    s = rules.apply(rules.initial_state(), SHEET, "weapon_broken", 10.0,
                    params={"shouted_s_before": 1}).state
    assert s.values["weapon_broken"] is True
    stricter = make_rules(romper_lead_s=2)
    with pytest.raises(RuleRefused):
        stricter.apply(stricter.initial_state(), SHEET, "weapon_broken", 10.0,
                       params={"shouted_s_before": 1})
