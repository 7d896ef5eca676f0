"""septenario_es: Coraje, Trauma, days, food and rest (docs/rules/septenario_es.md §4.5, §5,
E9, E16-E26), and the option variants of §8 / Appendix A that the transition tests do not
already cover. Times are game seconds; scores are read as a narrator reads them
(Rules.point_value)."""
import pytest

from rulesets import RuleRefused, RulesetError
from septenario_world import (  # noqa: F401 (rules is a fixture)
    DOCTOR, FIRST_AIDER, HOUR, LAST_TRAUMA, RS, SHEET, act, coraje, hit, make_rules, rules,
    trauma)


def days(rules, s, *steps, sheet=SHEET, start=1000.0):
    """Play a list of actions one game second apart."""
    for i, step in enumerate(steps):
        s = act(rules, s, step, start + i, sheet)
    return s


# -- Coraje: spent (E9, L14) ----------------------------------------------------------------

def test_E9_coraje_spent_on_a_trait_and_refused_at_zero(rules):
    s = act(rules, rules.initial_state(), "use_coraje", 10.0, what="Evasión")
    assert coraje(rules, s) == 0
    with pytest.raises(RuleRefused) as refused:
        rules.apply(s, SHEET, "use_coraje", 20.0, params={"what": "Evasión"})
    assert refused.value.code == "not_enough_points"


# -- Coraje: gained (E22, E25, E26, S19, S27) -------------------------------------------------

def test_E22_erotismo_gives_one_coraje_up_to_three(rules):
    s = rules.initial_state()
    for expected in (2, 3, 3):
        s = act(rules, s, "erotismo", 100.0)
        assert coraje(rules, s) == expected


def test_E22_S27_no_erotismo_coraje_after_a_night_without_rest(rules):
    s = act(rules, rules.initial_state(), "dawn", 100.0)   # did not rest: Fatiga
    assert s.values["fatigued"] is True and coraje(rules, s) == 1
    s = act(rules, s, "erotismo", 200.0)
    assert coraje(rules, s) == 1
    s = act(rules, s, "rested", 300.0)
    s = act(rules, s, "dawn", 400.0)                      # rested: +1 and no more Fatiga
    assert s.values["fatigued"] is False and coraje(rules, s) == 2
    assert s.values["rested"] is False                     # a new night to come
    s = act(rules, s, "erotismo", 500.0)
    assert coraje(rules, s) == 3


def test_E25_dawn_gives_one_coraje_only_after_good_rest_and_not_above_three(rules):
    s = act(rules, rules.initial_state(), "rested", 10.0)
    assert not rules.available(s, "rested")               # once a night
    s = act(rules, s, "dawn", 100.0)
    assert coraje(rules, s) == 2
    s = act(rules, s, "dawn", 200.0)                      # no rest this time
    assert coraje(rules, s) == 2
    high = {"trauma": 3, "coraje": 3}
    s = act(rules, rules.initial_state(), "rested", 10.0, high)
    s = act(rules, s, "dawn", 100.0, high)
    assert coraje(rules, s, high) == 3


def test_S27_without_rest_required_dawn_and_erotismo_always_give():
    rules = make_rules(rest_required_for=[])
    s = act(rules, rules.initial_state(), "dawn", 100.0)
    assert s.values["fatigued"] is True and coraje(rules, s) == 2
    s = act(rules, s, "erotismo", 200.0)
    assert coraje(rules, s) == 3


def test_S27_rest_required_for_dawn_only():
    rules = make_rules(rest_required_for=["dawn"])
    s = act(rules, rules.initial_state(), "dawn", 100.0)
    assert coraje(rules, s) == 1
    assert coraje(rules, act(rules, s, "erotismo", 200.0)) == 2


def test_S19_no_erotismo_cap_by_default_and_a_daily_cap_when_set(rules):
    assert RS.options["erotismo_daily_cap"] is None
    broke = {"trauma": 3, "coraje": 0}
    s = rules.initial_state()
    for _ in range(3):
        s = act(rules, s, "erotismo", 100.0, broke)
    assert coraje(rules, s, broke) == 3
    capped = make_rules(erotismo_daily_cap=1)
    s = capped.initial_state()
    s = act(capped, s, "erotismo", 100.0, broke)
    s = act(capped, s, "erotismo", 200.0, broke)
    assert coraje(capped, s, broke) == 1
    s = act(capped, s, "rested", 300.0, broke)
    s = act(capped, s, "dawn", 400.0, broke)              # +1, and a new day for Erotismo
    s = act(capped, s, "erotismo", 500.0, broke)
    assert coraje(capped, s, broke) == 3


def test_E26_plots_raise_coraje_above_three_up_to_five(rules):
    s = act(rules, rules.initial_state(), "plot_completed", 100.0, amount=3)
    assert coraje(rules, s) == 4
    s = act(rules, s, "plot_completed", 200.0)            # one by default
    assert coraje(rules, s) == 5
    s = act(rules, s, "plot_completed", 300.0, amount=2)
    assert coraje(rules, s) == 5
    s = act(rules, s, "erotismo", 400.0)                  # above 3: passive gains give nothing
    assert coraje(rules, s) == 5
    assert "self" not in RS.actions["plot_completed"]["declared_by"]


# -- Trauma (§5, S18) -------------------------------------------------------------------------

def test_S18_trauma_and_coraje_come_from_the_sheet(rules):
    s = rules.initial_state()
    assert trauma(rules, s, {"trauma": 5, "coraje": 2}) == 5
    assert coraje(rules, s, {"trauma": 5, "coraje": 2}) == 2


def test_trauma_lost_only_on_each_fall(rules):
    s = hit(rules, rules.initial_state(), 100.0, location="torso")   # 3 -> 2
    s = act(rules, s, "spend_coraje", 110.0)                          # Grave
    s = hit(rules, s, 200.0, location="torso")                         # 2 -> 1
    s = hit(rules, s, 210.0, location="torso")                         # agony: no loss
    assert trauma(rules, s) == 1
    s = act(rules, s, "first_aid", 240.0, actor=FIRST_AIDER)
    s = act(rules, s, "dawn", 300.0)
    assert trauma(rules, s) == 1                                       # only after the Event


# -- food (S13, L15) and healing when hungry ------------------------------------------------------

def test_S13_hunger_stages_at_each_day_end_without_food(rules):
    s = rules.initial_state()
    flags = []
    for day in range(3):
        s = act(rules, s, "day_end", 1000.0 + day)
        flags.append((s.values["hungry"], s.values["weak"], s.values["starving"]))
    assert flags == [(True, False, False), (True, True, False), (True, True, True)]
    assert s.values["days_without_food"] == 3
    assert s.status == "unharmed"                         # starving: a narrator decides


def test_S13_eating_ends_hunger_and_resets_the_count_at_day_end(rules):
    s = days(rules, rules.initial_state(), "day_end", "day_end")
    assert s.values["weak"] is True
    s = act(rules, s, "ate", 3000.0)
    assert s.values["hungry"] is False and s.values["weak"] is False   # §4.5: exit = eats
    assert not rules.available(s, "ate")                                # once a day
    s = act(rules, s, "day_end", 4000.0)
    assert s.values["days_without_food"] == 0 and s.values["ate_today"] is False
    assert (s.values["hungry"], s.values["weak"], s.values["starving"]) == (False, False, False)


def test_S13_the_stages_are_an_option():
    rules = make_rules(hunger_stage_days=[2, 4, 6])
    s = days(rules, rules.initial_state(), "day_end")
    assert s.values["hungry"] is False
    s = days(rules, s, "day_end", start=2000.0)
    assert s.values["hungry"] is True and s.values["weak"] is False


def test_L15_TS8_treated_wounds_take_two_hours_when_hungry(rules):
    s = act(rules, rules.initial_state(), "day_end", 100.0)           # hungry
    s = hit(rules, s, 200.0, location="left_arm")
    s = act(rules, s, "adequate_treatment", 300.0, actor=DOCTOR)
    assert s.timers == {"heal": 300.0 + 2 * HOUR}
    assert rules.advance(s, SHEET, 300.0 + 2 * HOUR - 1).state.status == "wounded"
    assert rules.advance(s, SHEET, 300.0 + 2 * HOUR).state.status == "unharmed"


def test_TS8_the_heal_delay_is_an_option():
    rules = make_rules(treated_wound_heal_s=1800)
    s = hit(rules, rules.initial_state(), 200.0, location="left_arm")
    s = act(rules, s, "treatment_given", 300.0)
    assert s.timers == {"heal": 2100.0}


# -- conditions: tied, searched, No Existencia (E16, E17, S15) ------------------------------------

def test_E16_tied_and_untied_in_any_state(rules):
    s = hit(rules, rules.initial_state(), 100.0, location="torso")
    s = act(rules, s, "tied_up", 110.0)
    assert s.values["tied"] is True and not rules.available(s, "tied_up")
    s = act(rules, s, "untied", 120.0)
    assert s.values["tied"] is False and not rules.available(s, "untied")


def test_E17_only_the_immobile_are_searched(rules):
    """The search service lets only an inert character be searched; the rules say who is."""
    assert RS.interactions["search"]["searched"] == "searched"
    assert not rules.is_inert(rules.initial_state(), 100.0)
    s = hit(rules, rules.initial_state(), 100.0, location="torso")
    assert rules.is_inert(s, 100.0) and rules.available(s, "searched")
    assert act(rules, s, "searched", 110.0, location="botas", strip=False).status == "incapacitated"


def test_E17_TS5_a_paralysed_character_is_immobile_until_the_trap_wears_off(rules):
    s = act(rules, rules.initial_state(), "trap_simple", 100.0, leaves="paralysed")
    assert rules.is_inert(s, 100.0) and rules.is_inert(s, 399.9)
    assert not rules.is_inert(s, 400.0)
    assert rules.available(s, "searched")
    assert {"walk", "first_aid", "fight"} <= set(RS.inert_cannot)
    assert "speak" not in RS.inert_cannot


def test_S15_no_existencia_is_a_flag_the_narrator_grants_and_timers_keep_running(rules):
    assert RS.actions["no_existencia"]["declared_by"] == ["narrator"]
    s = hit(rules, rules.initial_state(), 100.0, location="torso")
    s = act(rules, s, "no_existencia", 110.0)
    assert s.values["no_existencia"] is True
    assert s.timers == {"death": 400.0}                   # no pause (S15)
    s = act(rules, s, "back_in_event", 120.0)
    assert s.values["no_existencia"] is False


# -- option variants of §8 -------------------------------------------------------------------------

@pytest.mark.parametrize("cost, left", [(1, 1), (2, 0)])
def test_S3_grave_to_incapacitated_trauma_cost(cost, left):
    rules = make_rules(grave_to_incap_trauma_cost=cost)
    s = hit(rules, rules.initial_state(), 100.0, location="torso")        # 3 -> 2
    s = act(rules, s, "spend_coraje", 110.0)
    s = hit(rules, s, 500.0, location="left_arm")
    assert trauma(rules, s) == left
    assert s.status == ("incapacitated" if left else "dying")


def test_S4_trauma_zero_agony_variant():
    rules = make_rules(trauma_zero_precedence="agony")
    s = hit(rules, rules.initial_state(), 100.0, LAST_TRAUMA, location="torso")
    assert s.status == "incapacitated" and trauma(rules, s, LAST_TRAUMA) == 0
    assert s.timers == {"death": 400.0}
    assert rules.available(s, "spend_coraje") and rules.available(s, "choose_death")
    fa = act(rules, s, "first_aid", 130.0, LAST_TRAUMA, actor=FIRST_AIDER)
    assert fa.status == "grave"                           # not a coma
    assert rules.advance(s, LAST_TRAUMA, 400.0).state.status == "dead"


@pytest.mark.parametrize("points, status", [(1, "grave"), (0, "dead")])
def test_S5_coraje_auto_spend_at_the_end_of_the_agony(points, status):
    rules = make_rules(coraje_auto_spend=True)
    sheet = {"trauma": 3, "coraje": points}
    s = hit(rules, rules.initial_state(), 100.0, sheet, location="torso")
    out = rules.advance(s, sheet, 400.0)
    assert out.state.status == status
    assert coraje(rules, out.state, sheet) == 0


def test_S12_first_aid_as_adequate_treatment_when_the_option_says_so():
    rules = make_rules(first_aid_is_adequate_treatment=True)
    s = hit(rules, rules.initial_state(), 100.0, location="torso")
    s = act(rules, s, "first_aid", 130.0, actor=FIRST_AIDER)
    assert s.status == "grave" and s.timers == {"heal": 130.0 + HOUR}
    assert s.values["treated"] is True
    assert rules.advance(s, SHEET, 130.0 + HOUR).state.status == "unharmed"


def test_S16_the_coma_count_lasts_the_character_s_life(rules):
    s = hit(rules, rules.initial_state(), 100.0, LAST_TRAUMA, location="torso")
    s = act(rules, s, "first_aid", 130.0, LAST_TRAUMA, actor=FIRST_AIDER)
    s = act(rules, s, "trauma_restored", 10 * HOUR, LAST_TRAUMA)
    s = act(rules, s, "dawn", 20 * HOUR, LAST_TRAUMA)
    assert s.values["coma_count"] == 1


@pytest.mark.parametrize("exit_state", ["grave", "wounded", "unharmed"])
def test_S29_the_state_a_coma_wakes_into(exit_state):
    rules = make_rules(coma_exit_state=exit_state)
    s = hit(rules, rules.initial_state(), 100.0, LAST_TRAUMA, location="torso")
    s = act(rules, s, "first_aid", 130.0, LAST_TRAUMA, actor=FIRST_AIDER)
    s = act(rules, s, "trauma_restored", 2 * HOUR, LAST_TRAUMA, amount=1)
    assert s.status == exit_state
    assert trauma(rules, s, LAST_TRAUMA) == 1
    assert (s.values["damage"] == []) is (exit_state == "unharmed")


def test_S17_golpe_mortal_targets_without_coma():
    rules = make_rules(golpe_mortal_targets=["incapacitated", "unconscious", "dying"])
    s = hit(rules, rules.initial_state(), 100.0, LAST_TRAUMA, location="torso")
    s = act(rules, s, "first_aid", 130.0, LAST_TRAUMA, actor=FIRST_AIDER)
    assert s.status == "coma"
    with pytest.raises(RuleRefused) as refused:
        rules.apply(s, LAST_TRAUMA, "golpe_mortal", 200.0)
    assert refused.value.code == "not_in_state"
    assert not rules.available(s, "golpe_mortal")


def test_S17_golpe_mortal_on_grave_when_the_event_allows_it():
    rules = make_rules(golpe_mortal_targets=["incapacitated", "unconscious", "dying", "coma",
                                             "grave"])
    s = act(rules, rules.initial_state(), "set_state", 10.0, state="grave")
    assert act(rules, s, "golpe_mortal", 100.0, armed=False).status == "dead"


def test_options_refuse_what_the_spec_does_not_allow():
    with pytest.raises(RulesetError):
        RS.merged_options({"coma_exit_state": "dead"})
    with pytest.raises(RulesetError):
        RS.merged_options({"trauma_zero_precedence": "both"})
    with pytest.raises(RulesetError):
        RS.merged_options({"coraje_auto_spend": "yes"})


def test_appendix_A_defaults():
    o = RS.options
    assert (o["conflict_gap_s"], o["agony_s"], o["knockout_s"], o["trauma_zero_unconscious_s"],
            o["wooden_limb_stun_s"], o["simple_trap_s"], o["first_aid_s"],
            o["golpe_mortal_unarmed_s"], o["treated_wound_heal_s"], o["corpse_min_s"]) == \
        (120, 300, 300, 300, 300, 300, 30, 30, 3600, 120)
    assert (o["coraje_max"], o["coraje_passive_cap"], o["carga_capacity"],
            o["carga_overload_margin"]) == (5, 3, 5, 2)
    assert (o["weapon_damage"], o["firearm_damage"], o["armour_light"], o["armour_heavy"]) == \
        (1, 2, 1, 2)
    assert o["golpe_mortal_targets"] == ["incapacitated", "unconscious", "dying", "coma"]
    assert RS.effect_default == "conflict"                # TS12: an effect lasts one Conflict
    assert "defence_window_s" not in o                    # TS13: the defence is the players' call


def test_abilities_grant_the_skills(rules):
    assert rules.skill_level("first_aid", FIRST_AIDER) == "yes"
    assert rules.skill_level("adequate_treatment", DOCTOR) == "yes"
    assert rules.skill_level("first_aid", DOCTOR) is None


def test_S1_an_effects_end_follows_its_conflict_by_default_or_stays_fixed():
    assert RS.options["effect_conflict_mode"] == "sliding"     # spec S1, Norma general [L9]
    assert RS.merged_options({"effect_conflict_mode": "fixed"})["effect_conflict_mode"] == "fixed"
    with pytest.raises(RulesetError):
        RS.merged_options({"effect_conflict_mode": "until_removed"})
