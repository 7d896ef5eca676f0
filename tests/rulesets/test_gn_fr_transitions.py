"""gn_fr: one test per transition of the spec (docs: docs/rules/gn_fr.md §4.3),
per timer (§4.2) and per option variant (§8, Appendix A).

Every time is a game second. A test states what a referee would check on the
character: the health state, the exact deadlines, the combat points lost.
"""
import pytest

from common.i18n import refusal_text
from rulesets import ENDING, CharacterState, RuleRefused, Rules, get_ruleset

RS = get_ruleset("gn_fr")
MIN = 60.0
HOUR = 3600.0

SHEET = {"combat_base": 3, "skills": {}}
WEAK = {"combat_base": 1, "skills": {}}          # one stun is enough to fall Tired
NOVICE = {"combat_base": 2, "skills": {"first_aid": "novice", "surgery": "novice"}}
EXPERT = {"combat_base": 2, "skills": {"first_aid": "expert", "surgery": "expert",
                                       "metabolic_analysis": True}}


def make_rules(**overrides) -> Rules:
    return Rules(RS, RS.merged_options(overrides))


@pytest.fixture
def rules() -> Rules:
    return make_rules()


def hit(rules, state, action, at, sheet=SHEET):
    return rules.apply(state, sheet, action, at).state


def wounded_at(rules, at, sheet=SHEET):
    return hit(rules, rules.initial_state(), "hit_wounding", at, sheet)


def coma_at(rules, at, sheet=SHEET):
    """Wounded at `at`, then shot: in a coma from `at` on, deadline at + 15 min."""
    return hit(rules, wounded_at(rules, at, sheet), "hit_firearm", at, sheet)


def dead_at(rules, at, sheet=SHEET):
    return rules.apply(rules.initial_state(), sheet, "set_state", at,
                       params={"state": "dead"}).state


def tired_at(rules, at, sheet=WEAK):
    return hit(rules, rules.initial_state(), "hit_stunning", at, sheet)


def transitions(events):
    return [(e["from"], e["to"], e["at"]) for e in events if e["kind"] == "transition"]


# -- initial state ------------------------------------------------------------------

def test_initial_state_is_healthy_without_timers(rules):
    s = rules.initial_state()
    assert s.status == "healthy"
    assert s.timers == {}
    assert s.values["combat_loss"] == 0
    assert not rules.is_inert(s, 0.0)


# -- G03 / G04: stunning weapon on HEALTHY -----------------------------------------

def test_G03_stun_on_healthy_loses_one_point_and_stays_healthy(rules):
    s = hit(rules, rules.initial_state(), "hit_stunning", 100.0)
    assert s.status == "healthy"
    assert s.values["combat_loss"] == 1
    assert s.timers == {"combat_recovery": 700.0}
    assert not rules.is_inert(s, 100.0)

    s = hit(rules, s, "hit_stunning", 200.0)          # cumulative, still >= 1 left
    assert s.status == "healthy"
    assert s.values["combat_loss"] == 2
    assert s.timers == {"combat_recovery": 800.0}


def test_G04_stun_bringing_score_to_zero_makes_tired(rules):
    s = rules.initial_state()
    for at in (100.0, 200.0):
        s = hit(rules, s, "hit_stunning", at)
    out = rules.apply(s, SHEET, "hit_stunning", 300.0)
    s = out.state
    assert s.status == "tired"
    assert s.values["combat_loss"] == 3                    # base 3: score 0
    assert s.timers == {"inert": 360.0, "recover": 900.0, "combat_recovery": 900.0}
    assert s.values["recover_kind"] == "standard_10m"
    assert rules.is_inert(s, 300.0)
    assert transitions(out.events) == [("healthy", "tired", 300.0)]


def test_G04_single_stun_on_base_one(rules):
    s = tired_at(rules, 100.0)
    assert s.status == "tired"
    assert s.values["combat_loss"] == 1
    assert s.timers["inert"] == 160.0
    assert s.timers["recover"] == 700.0


def test_G04_A23_loss_is_capped_at_base(rules):
    zero = {"combat_base": 0, "skills": {}}
    s = hit(rules, rules.initial_state(), "hit_stunning", 100.0, zero)
    assert s.status == "tired"
    assert s.values["combat_loss"] == 0


# -- G06 / G07: wounding weapon and firearm on HEALTHY or TIRED ----------------------

@pytest.mark.parametrize("action", ["hit_wounding", "hit_firearm"])
def test_G06_G07_wound_on_healthy(rules, action):
    s = hit(rules, rules.initial_state(), "hit_stunning", 50.0)   # loss 1, kept
    out = rules.apply(s, SHEET, action, 100.0)
    s = out.state
    assert s.status == "wounded"
    assert s.timers == {"inert": 160.0, "deadline": 1000.0, "combat_recovery": 700.0}
    assert s.values["deadline_kind"] == "untreated_15m"
    assert s.values["recover_kind"] is None
    assert s.values["combat_loss"] == 1
    assert transitions(out.events) == [("healthy", "wounded", 100.0)]


def test_G06_wound_on_tired_cancels_recovery(rules):
    s = tired_at(rules, 100.0)
    s = hit(rules, s, "hit_wounding", 130.0, WEAK)
    assert s.status == "wounded"
    assert "recover" not in s.timers
    assert s.timers["inert"] == 190.0
    assert s.timers["deadline"] == 1030.0
    assert s.values["recover_kind"] is None


def test_G07_firearm_on_tired(rules):
    s = tired_at(rules, 100.0)
    s = hit(rules, s, "hit_firearm", 400.0, WEAK)
    assert s.status == "wounded"
    assert "recover" not in s.timers
    assert s.timers["deadline"] == 1300.0
    assert s.timers["inert"] == 460.0


# -- G08: TIRED -> HEALTHY after 10 minutes -----------------------------------------

def test_G08_tired_recovers_ten_minutes_after_entry(rules):
    s = tired_at(rules, 100.0)
    assert rules.advance(s, WEAK, 699.9).state.status == "tired"
    out = rules.advance(s, WEAK, 700.0)
    assert out.state.status == "healthy"
    assert transitions(out.events) == [("tired", "healthy", 700.0)]
    assert out.state.timers == {}
    assert out.state.values["combat_loss"] == 0       # TM6 fired at 700 too
    assert out.state.values["recover_kind"] is None


def test_G08_after_surgery_reminds_to_return_the_koc(rules):
    s = wounded_at(rules, 100.0)
    s = rules.apply(s, SHEET, "surgery", 700.0, params={"calm_place": True},
                    actor_sheet=EXPERT).state
    assert s.values["wearing_koc"] is True
    out = rules.advance(s, SHEET, 700.0 + 30 * MIN)
    assert out.state.status == "healthy"
    assert out.state.values["wearing_koc"] is False
    reminders = [e for e in out.events if e["kind"] == "reminder"]
    assert len(reminders) == 1 and "KOC" in reminders[0]["text"]["fr"]


# -- G09: re-entering TIRED (stun on a TIRED character, A6) ----------------------------

def test_G09_stun_on_tired_restarts_inert_and_recovery(rules):
    s = tired_at(rules, 100.0)                      # inert 160, recover 700
    out = rules.apply(s, WEAK, "hit_stunning", 400.0)
    s = out.state
    assert s.status == "tired"
    assert s.timers["inert"] == 460.0
    assert s.timers["recover"] == 1000.0            # max(700, 400 + 600)
    assert s.timers["combat_recovery"] == 1000.0
    assert s.values["combat_loss"] == 1             # capped at base
    assert rules.is_inert(s, 459.0)
    assert not rules.is_inert(s, 460.0)
    assert transitions(out.events) == [("tired", "tired", 400.0)]


def test_G09_stun_on_tired_keeps_a_later_surgery_floor(rules):
    s = wounded_at(rules, 100.0)
    s = rules.apply(s, SHEET, "surgery", 200.0, params={"calm_place": True},
                    actor_sheet=NOVICE).state      # recover 200 + 1 h
    s = hit(rules, s, "hit_stunning", 500.0)
    assert s.status == "tired"
    assert s.timers["recover"] == 3800.0            # max(3800, 1100)
    assert s.timers["inert"] == 560.0
    assert s.values["recover_kind"] == "surgery_novice_min_1h"


def test_G09_stun_after_surgery_floor_passes_back_to_standard_recovery(rules):
    s = wounded_at(rules, 100.0)
    s = rules.apply(s, SHEET, "surgery", 800.0, actor_sheet=EXPERT).state  # recover 2600
    s = hit(rules, s, "hit_stunning", 2500.0)
    assert s.status == "tired"
    assert s.timers["recover"] == 3100.0            # max(2600, 2500 + 600)
    assert s.values["recover_kind"] == "standard_10m"
    assert s.values["wearing_koc"] is True          # still reminded at HEALTHY


# -- G11 / G17: treatment deadlines -------------------------------------------------

def test_G11_untreated_wound_falls_into_coma_after_15_minutes(rules):
    s = wounded_at(rules, 100.0)
    assert rules.advance(s, SHEET, 999.0).state.status == "wounded"
    out = rules.advance(s, SHEET, 1000.0)
    s = out.state
    assert s.status == "coma"
    assert transitions(out.events) == [("wounded", "coma", 1000.0)]
    assert s.timers == {"deadline": 1900.0}          # TM6 already fired at 700
    assert s.values["deadline_kind"] == "untreated_15m"
    assert rules.is_inert(s, 1000.0)


def test_G17_untreated_coma_dies_after_15_minutes(rules):
    s = coma_at(rules, 100.0)
    assert s.timers["deadline"] == 1000.0
    assert rules.advance(s, SHEET, 999.0).state.status == "coma"
    out = rules.advance(s, SHEET, 1000.0)
    s = out.state
    assert s.status == "dead"
    assert s.timers == {"corpse": 1600.0}
    assert s.values["combat_loss"] == 0
    assert s.values["corpse_released"] is False


def test_G11_G17_chain_lands_each_step_at_its_own_deadline(rules):
    s = wounded_at(rules, 100.0)
    out = rules.advance(s, SHEET, 2499.0)
    assert transitions(out.events) == [("wounded", "coma", 1000.0),
                                       ("coma", "dead", 1900.0)]
    assert out.state.status == "dead"
    assert out.state.timers == {"corpse": 2500.0}
    out = rules.advance(s, SHEET, 2500.0)
    assert out.state.values["corpse_released"] is True


# -- G12: firearm on WOUNDED ---------------------------------------------------------

def test_G12_firearm_on_wounded_puts_in_coma(rules):
    s = wounded_at(rules, 100.0)
    out = rules.apply(s, SHEET, "hit_firearm", 130.0)
    s = out.state
    assert s.status == "coma"
    assert s.timers["deadline"] == 1030.0
    assert "inert" not in s.timers                  # a coma is inert by itself
    assert rules.is_inert(s, 5000.0)
    assert s.values["deadline_kind"] == "untreated_15m"
    assert transitions(out.events) == [("wounded", "coma", 130.0)]


def test_G12_firearm_after_first_aid_starts_a_fresh_15_minutes(rules):
    s = wounded_at(rules, 100.0)
    s = rules.apply(s, SHEET, "first_aid", 400.0, actor_sheet=EXPERT).state
    s = hit(rules, s, "hit_firearm", 1000.0)
    assert s.status == "coma"
    assert s.timers["deadline"] == 1900.0
    assert s.values["deadline_kind"] == "untreated_15m"


# -- G14 / G18: first aid ------------------------------------------------------------

@pytest.mark.parametrize("medic, hold, kind", [
    (NOVICE, HOUR, "first_aid_novice_1h"),
    (EXPERT, 4 * HOUR, "first_aid_expert_4h"),
])
def test_G14_first_aid_on_wounded_holds_1h_or_4h(rules, medic, hold, kind):
    s = wounded_at(rules, 100.0)
    out = rules.apply(s, SHEET, "first_aid", 400.0, actor_sheet=medic)
    s = out.state
    assert s.status == "wounded"
    assert s.timers["deadline"] == 400.0 + hold
    assert s.values["deadline_kind"] == kind
    assert any(e["kind"] == "reminder" and "KPS" in e["text"]["en"] for e in out.events)
    assert rules.advance(s, SHEET, 400.0 + hold - 1).state.status == "wounded"
    assert rules.advance(s, SHEET, 400.0 + hold).state.status == "coma"


@pytest.mark.parametrize("medic, hold, kind", [
    (NOVICE, HOUR, "first_aid_novice_1h"),
    (EXPERT, 4 * HOUR, "first_aid_expert_4h"),
])
def test_G18_first_aid_on_coma_holds_1h_or_4h(rules, medic, hold, kind):
    s = coma_at(rules, 100.0)
    s = rules.apply(s, SHEET, "first_aid", 500.0, actor_sheet=medic).state
    assert s.status == "coma"
    assert s.timers["deadline"] == 500.0 + hold
    assert s.values["deadline_kind"] == kind
    assert rules.advance(s, SHEET, 500.0 + hold - 1).state.status == "coma"
    assert rules.advance(s, SHEET, 500.0 + hold).state.status == "dead"


def test_G14_first_aid_completed_by_tired_medic_still_counts(rules):
    """A24: a Tired medic keeps their medical skills (the core does not look at the
    medic's state at all)."""
    s = wounded_at(rules, 100.0)
    s = rules.apply(s, SHEET, "first_aid", 400.0, actor_sheet=NOVICE).state
    assert s.timers["deadline"] == 4000.0


# -- G15: wounding weapon on WOUNDED (A7) ----------------------------------------------

def test_G15_second_wound_keeps_the_earlier_deadline(rules):
    s = wounded_at(rules, 100.0)
    s = hit(rules, s, "hit_wounding", 300.0)
    assert s.status == "wounded"
    assert s.timers["deadline"] == 1000.0            # min(1000, 1200)
    assert s.values["deadline_kind"] == "untreated_15m"
    assert s.timers["combat_recovery"] == 900.0


def test_G15_new_wound_after_first_aid_brings_back_15_minutes(rules):
    s = wounded_at(rules, 100.0)
    s = rules.apply(s, SHEET, "first_aid", 200.0, actor_sheet=NOVICE).state   # 3800
    s = hit(rules, s, "hit_wounding", 500.0)
    assert s.status == "wounded"
    assert s.timers["deadline"] == 1400.0
    assert s.values["deadline_kind"] == "untreated_15m"


def test_G15_deadline_kind_changes_only_if_the_deadline_changed(rules):
    s = wounded_at(rules, 100.0)
    s = rules.apply(s, SHEET, "first_aid", 200.0, actor_sheet=NOVICE).state   # 3800
    s = hit(rules, s, "hit_wounding", 3000.0)        # 3000 + 900 > 3800: unchanged
    assert s.timers["deadline"] == 3800.0
    assert s.values["deadline_kind"] == "first_aid_novice_1h"


# -- G16: surgery --------------------------------------------------------------------

def test_G16_novice_surgery_in_a_calm_place(rules):
    s = wounded_at(rules, 100.0)
    out = rules.apply(s, SHEET, "surgery", 800.0, params={"calm_place": True},
                      actor_sheet=NOVICE)
    s = out.state
    assert s.status == "tired"
    assert "deadline" not in s.timers
    assert s.timers["inert"] == 860.0                   # A11
    assert s.timers["recover"] == 800.0 + HOUR
    assert s.values["recover_kind"] == "surgery_novice_min_1h"
    assert s.values["deadline_kind"] is None
    assert s.values["wearing_koc"] is True
    assert rules.is_inert(s, 859.0) and not rules.is_inert(s, 860.0)
    assert transitions(out.events) == [("wounded", "tired", 800.0)]
    # A10: healthy automatically at exactly + 1 h
    assert rules.advance(s, SHEET, 800.0 + HOUR - 1).state.status == "tired"
    assert rules.advance(s, SHEET, 800.0 + HOUR).state.status == "healthy"


@pytest.mark.parametrize("calm", [False, True])
def test_G16_expert_surgery_anywhere(rules, calm):
    s = wounded_at(rules, 100.0)
    s = rules.apply(s, SHEET, "surgery", 800.0, params={"calm_place": calm},
                    actor_sheet=EXPERT).state
    assert s.status == "tired"
    assert "deadline" not in s.timers
    assert s.timers["inert"] == 860.0
    assert s.timers["recover"] == 800.0 + 30 * MIN      # "dans exactement 30 minutes"
    assert s.values["recover_kind"] == "surgery_expert_exact_30m"
    assert rules.advance(s, SHEET, 800.0 + 30 * MIN).state.status == "healthy"


def test_G16_expert_surgery_without_calm_place_param(rules):
    s = wounded_at(rules, 100.0)
    s = rules.apply(s, SHEET, "surgery", 800.0, actor_sheet=EXPERT).state
    assert s.status == "tired"
    assert s.timers["recover"] == 800.0 + 30 * MIN


@pytest.mark.parametrize("medic, recover", [(NOVICE, HOUR), (EXPERT, 30 * MIN)])
def test_G16_surgery_on_coma(rules, medic, recover):
    s = coma_at(rules, 100.0)
    s = rules.apply(s, SHEET, "surgery", 900.0, params={"calm_place": True},
                    actor_sheet=medic).state
    assert s.status == "tired"
    assert "deadline" not in s.timers
    assert s.timers["inert"] == 960.0
    assert s.timers["recover"] == 900.0 + recover
    assert s.values["deadline_kind"] is None


def test_G16_A11_surgery_without_inert_fall():
    rules = make_rules(surgery_tired_entry_inert=False)
    s = wounded_at(rules, 100.0)
    s = rules.apply(s, SHEET, "surgery", 800.0, params={"calm_place": True},
                    actor_sheet=EXPERT).state
    assert s.status == "tired"
    assert "inert" not in s.timers
    assert not rules.is_inert(s, 800.0)
    assert s.timers["recover"] == 800.0 + 30 * MIN


@pytest.mark.parametrize("level, calm, seconds", [
    ("novice", True, 600.0),
    ("novice", False, 600.0),
    ("expert", False, 600.0),
    ("expert", True, 300.0),
])
def test_G16_surgery_durations(rules, level, calm, seconds):
    assert rules.duration("surgery", level=level, params={"calm_place": calm}) == seconds


def test_action_durations(rules):
    assert rules.duration("first_aid", level="novice") == 60.0
    assert rules.duration("first_aid", level="expert") == 60.0
    assert rules.duration("metabolic_analysis", level="yes") == 10.0
    assert rules.duration("surgery", level="expert") == 600.0
    assert rules.duration("hit_wounding", level=None) == 0.0


@pytest.mark.parametrize("params", [{"calm_place": False}, {}])
def test_G16_novice_surgery_refused_outside_a_calm_place(rules, params):
    s = wounded_at(rules, 100.0)
    with pytest.raises(RuleRefused) as exc:
        rules.apply(s, SHEET, "surgery", 800.0, params=params, actor_sheet=NOVICE)
    assert exc.value.code == "calm_place_required"
    assert "endroit calme" in refusal_text(exc.value, "fr")
    assert "calm place" in refusal_text(exc.value, "en")
    assert refusal_text(exc.value, "fr").startswith("Chirurgie")


@pytest.mark.parametrize("status_maker", [
    lambda r: r.initial_state(),
    lambda r: tired_at(r, 100.0),
    lambda r: dead_at(r, 100.0),
])
def test_G16_surgery_refused_unless_wounded_or_coma(rules, status_maker):
    s = status_maker(rules)
    with pytest.raises(RuleRefused) as exc:
        rules.apply(s, SHEET, "surgery", 150.0, params={"calm_place": True},
                    actor_sheet=EXPERT)
    assert exc.value.code == "not_in_state"


# -- G19 / G20: the corpse -----------------------------------------------------------

def test_G19_corpse_released_after_10_minutes(rules):
    s = dead_at(rules, 100.0)
    assert s.timers == {"corpse": 700.0}
    assert rules.advance(s, SHEET, 699.0).state.values["corpse_released"] is False
    out = rules.advance(s, SHEET, 700.0)
    assert out.state.status == "dead"
    assert out.state.values["corpse_released"] is True
    assert out.state.timers == {}


def test_G20_corpse_interaction_restarts_the_10_minutes(rules):
    s = dead_at(rules, 100.0)
    s = rules.apply(s, SHEET, "corpse_interaction", 500.0).state
    assert s.status == "dead"
    assert s.timers == {"corpse": 1100.0}
    assert rules.advance(s, SHEET, 1099.0).state.values["corpse_released"] is False
    released = rules.advance(s, SHEET, 1100.0).state
    assert released.values["corpse_released"] is True
    # once released, using the body changes nothing
    after = rules.apply(released, SHEET, "corpse_interaction", 1200.0).state
    assert after.timers == {} and after.values["corpse_released"] is True


def test_G20_A15_fixed_corpse_timer():
    rules = make_rules(corpse_timer_resets_on_interaction=False)
    s = dead_at(rules, 100.0)
    s = rules.apply(s, SHEET, "corpse_interaction", 500.0).state
    assert s.timers == {"corpse": 700.0}


@pytest.mark.parametrize("action", ["hit_stunning", "hit_wounding", "hit_firearm",
                                    "first_aid"])
def test_dead_refuses_hits_and_first_aid(rules, action):
    s = dead_at(rules, 100.0)
    with pytest.raises(RuleRefused) as exc:
        rules.apply(s, SHEET, action, 200.0, actor_sheet=EXPERT)
    assert exc.value.code == "not_in_state"


def test_corpse_interaction_refused_on_the_living(rules):
    with pytest.raises(RuleRefused) as exc:
        rules.apply(rules.initial_state(), SHEET, "corpse_interaction", 100.0)
    assert exc.value.code == "not_in_state"
    assert "Mort" in refusal_text(exc.value, "fr")


# -- G21 / G22: never improve, no coup de grâce ---------------------------------------

def test_G21_stun_on_wounded_costs_a_point_but_keeps_wounded(rules):
    s = wounded_at(rules, 100.0, WEAK)
    out = rules.apply(s, WEAK, "hit_stunning", 300.0)
    s = out.state
    assert s.status == "wounded"
    assert s.values["combat_loss"] == 1                 # score 0, but never improves
    assert s.timers["deadline"] == 1000.0
    assert s.timers["combat_recovery"] == 900.0
    assert transitions(out.events) == []
    s = hit(rules, s, "hit_stunning", 400.0, WEAK)
    assert s.values["combat_loss"] == 1                 # capped


def test_G21_stun_on_coma_keeps_coma(rules):
    s = coma_at(rules, 100.0, WEAK)
    s = hit(rules, s, "hit_stunning", 300.0, WEAK)
    assert s.status == "coma"
    assert s.values["combat_loss"] == 1
    assert s.timers["deadline"] == 1000.0


@pytest.mark.parametrize("action", ["hit_wounding", "hit_firearm"])
def test_G22_wound_or_shot_on_coma_changes_nothing(rules, action):
    s = coma_at(rules, 100.0)
    s = rules.apply(s, SHEET, "first_aid", 200.0, actor_sheet=NOVICE).state
    out = rules.apply(s, SHEET, action, 500.0)
    assert out.state.status == "coma"
    assert out.state.timers["deadline"] == s.timers["deadline"] == 3800.0
    assert out.state.values["deadline_kind"] == "first_aid_novice_1h"
    assert transitions(out.events) == []


# -- G24: organiser override -------------------------------------------------------

@pytest.mark.parametrize("target, timers", [
    ("healthy", {}),
    ("tired", {"inert": 160.0, "recover": 700.0}),
    ("wounded", {"inert": 160.0, "deadline": 1000.0}),
    ("coma", {"deadline": 1000.0}),
    ("dead", {"corpse": 700.0}),
])
def test_G24_set_state_from_healthy(rules, target, timers):
    out = rules.apply(rules.initial_state(), SHEET, "set_state", 100.0,
                      params={"state": target})
    assert out.state.status == target
    assert out.state.timers == timers


def test_G24_set_state_heals_a_coma_completely(rules):
    s = coma_at(rules, 100.0)
    s = rules.apply(s, SHEET, "set_state", 200.0, params={"state": "healthy"}).state
    assert s.status == "healthy"
    assert "deadline" not in s.timers and "inert" not in s.timers
    assert s.values["deadline_kind"] is None


def test_G24_set_state_raises_the_dead(rules):
    s = dead_at(rules, 100.0)
    s = rules.apply(s, SHEET, "set_state", 200.0, params={"state": "wounded"}).state
    assert s.status == "wounded"
    assert s.timers == {"inert": 260.0, "deadline": 1100.0}
    assert s.values["deadline_kind"] == "untreated_15m"


def test_G24_set_state_may_lower_severity_despite_never_improve(rules):
    s = wounded_at(rules, 100.0)
    s = rules.apply(s, SHEET, "set_state", 200.0, params={"state": "tired"}).state
    assert s.status == "tired"
    assert "deadline" not in s.timers
    assert s.timers["recover"] == 800.0


@pytest.mark.parametrize("params", [{}, {"state": "zombie"}, {"state": 3},
                                    {"state": "dead", "why": "plot"}])
def test_G24_set_state_bad_params_refused(rules, params):
    with pytest.raises(RuleRefused) as exc:
        rules.apply(rules.initial_state(), SHEET, "set_state", 100.0, params=params)
    assert exc.value.code == "bad_input"
    assert refusal_text(exc.value, "fr").startswith("Requête invalide")


# -- TM1: the inert minute ----------------------------------------------------------

def test_TM1_inert_for_exactly_one_minute_on_tired_entry(rules):
    s = tired_at(rules, 100.0)
    assert rules.is_inert(s, 100.0)
    assert rules.is_inert(s, 159.999)
    assert not rules.is_inert(s, 160.0)
    s2 = rules.advance(s, WEAK, 160.0).state
    assert "inert" not in s2.timers
    assert s2.status == "tired"
    assert not rules.is_inert(s2, 160.0)


def test_TM1_A2_wounded_entry_is_inert_one_minute(rules):
    s = wounded_at(rules, 100.0)
    assert rules.is_inert(s, 159.0)
    assert not rules.is_inert(s, 160.0)


def test_TM1_coma_and_dead_are_always_inert(rules):
    assert rules.is_inert(coma_at(rules, 100.0), 10_000.0)
    assert rules.is_inert(dead_at(rules, 100.0), 10_000.0)


# -- TM6: combat recovery -------------------------------------------------------------

def test_TM6_combat_points_return_after_10_minutes_without_combat(rules):
    s = hit(rules, rules.initial_state(), "hit_stunning", 100.0)
    s = hit(rules, s, "hit_stunning", 400.0)              # restarts the 10 minutes
    assert s.values["combat_loss"] == 2
    assert s.timers == {"combat_recovery": 1000.0}
    assert rules.advance(s, SHEET, 999.0).state.values["combat_loss"] == 2
    out = rules.advance(s, SHEET, 1000.0)
    assert out.state.values["combat_loss"] == 0
    assert out.state.status == "healthy"
    assert out.state.timers == {}


def test_TM6_A5_a_wounding_hit_counts_as_combat(rules):
    s = hit(rules, rules.initial_state(), "hit_stunning", 100.0)   # recovery 700
    s = hit(rules, s, "hit_wounding", 600.0)
    assert s.timers["combat_recovery"] == 1200.0
    assert rules.advance(s, SHEET, 1199.0).state.values["combat_loss"] == 1
    assert rules.advance(s, SHEET, 1200.0).state.values["combat_loss"] == 0


# -- option variants (Appendix A) --------------------------------------------------

def test_A1_recovery_counted_from_end_of_inert_minute():
    rules = make_rules(tired_recovery_from="inert_end")
    s = tired_at(rules, 100.0)
    assert s.timers["inert"] == 160.0
    assert s.timers["recover"] == 760.0
    assert rules.advance(s, WEAK, 759.0).state.status == "tired"
    assert rules.advance(s, WEAK, 760.0).state.status == "healthy"


def test_A1_inert_end_also_on_re_entry():
    rules = make_rules(tired_recovery_from="inert_end")
    s = tired_at(rules, 100.0)
    s = hit(rules, s, "hit_stunning", 300.0, WEAK)
    assert s.timers["inert"] == 360.0
    assert s.timers["recover"] == 960.0                  # 300 + 60 + 600


def test_A2_no_inert_fall_when_wounded():
    rules = make_rules(wounded_entry_inert_s=0)
    s = wounded_at(rules, 100.0)
    assert s.status == "wounded"
    assert not rules.is_inert(s, 100.0)
    assert s.timers["deadline"] == 1000.0


def test_A3_literal_reading_lets_a_stun_lower_wounded_to_tired():
    rules = make_rules(never_improve=False)
    s = wounded_at(rules, 100.0, WEAK)
    s = hit(rules, s, "hit_stunning", 300.0, WEAK)
    assert s.status == "tired"
    assert "deadline" not in s.timers
    assert s.timers["inert"] == 360.0
    assert s.timers["recover"] == 900.0


def test_A3_default_never_improve(rules):
    s = wounded_at(rules, 100.0, WEAK)
    s = hit(rules, s, "hit_stunning", 300.0, WEAK)
    assert s.status == "wounded"
    assert s.timers["deadline"] == 1000.0


def test_A6_keep_does_not_restart_tired_timers():
    rules = make_rules(tired_retrigger="keep")
    s = tired_at(rules, 100.0)
    s = hit(rules, s, "hit_stunning", 130.0, WEAK)
    assert s.status == "tired"
    assert s.timers["inert"] == 160.0
    assert s.timers["recover"] == 700.0
    assert s.timers["combat_recovery"] == 730.0          # still a combat event


def test_A7_reset_policy_gives_a_fresh_15_minutes():
    rules = make_rules(rewound_deadline_policy="reset")
    s = wounded_at(rules, 100.0)
    s = hit(rules, s, "hit_wounding", 300.0)
    assert s.timers["deadline"] == 1200.0
    assert s.values["deadline_kind"] == "untreated_15m"


def test_A7_default_min_policy(rules):
    s = wounded_at(rules, 100.0)
    s = hit(rules, s, "hit_wounding", 300.0)
    assert s.timers["deadline"] == 1000.0


def test_A9_first_aid_stacks_with_max(rules):
    s = wounded_at(rules, 100.0)
    s = rules.apply(s, SHEET, "first_aid", 200.0, actor_sheet=EXPERT).state
    assert s.timers["deadline"] == 200.0 + 4 * HOUR
    s = rules.apply(s, SHEET, "first_aid", 300.0, actor_sheet=NOVICE).state
    assert s.timers["deadline"] == 200.0 + 4 * HOUR      # a novice never shortens it
    assert s.values["deadline_kind"] == "first_aid_expert_4h"
    s = rules.apply(s, SHEET, "first_aid", 400.0, actor_sheet=EXPERT).state
    assert s.timers["deadline"] == 400.0 + 4 * HOUR


def test_A9_novice_then_expert(rules):
    s = wounded_at(rules, 100.0)
    s = rules.apply(s, SHEET, "first_aid", 200.0, actor_sheet=NOVICE).state
    s = rules.apply(s, SHEET, "first_aid", 300.0, actor_sheet=EXPERT).state
    assert s.timers["deadline"] == 300.0 + 4 * HOUR
    assert s.values["deadline_kind"] == "first_aid_expert_4h"


def test_A9_replace_policy_lets_a_later_novice_shorten():
    rules = make_rules(first_aid_stack="replace")
    s = wounded_at(rules, 100.0)
    s = rules.apply(s, SHEET, "first_aid", 200.0, actor_sheet=EXPERT).state
    s = rules.apply(s, SHEET, "first_aid", 300.0, actor_sheet=NOVICE).state
    assert s.timers["deadline"] == 300.0 + HOUR
    assert s.values["deadline_kind"] == "first_aid_novice_1h"


# -- A8 and same-instant ordering (§0) ------------------------------------------------

def test_A8_first_aid_completing_at_the_wound_deadline_is_in_time(rules):
    s = wounded_at(rules, 100.0)                         # deadline 1000
    s = rules.apply(s, SHEET, "first_aid", 1000.0, actor_sheet=NOVICE, seen_by=ENDING).state
    assert s.status == "wounded"
    assert s.timers["deadline"] == 1000.0 + HOUR


def test_A8_first_aid_completing_at_the_coma_deadline_is_in_time(rules):
    s = coma_at(rules, 100.0)                            # deadline 1000
    s = rules.apply(s, SHEET, "first_aid", 1000.0, actor_sheet=EXPERT, seen_by=ENDING).state
    assert s.status == "coma"
    assert s.timers["deadline"] == 1000.0 + 4 * HOUR


def test_A8_surgery_completing_at_the_deadline_is_in_time(rules):
    s = wounded_at(rules, 100.0)
    s = rules.apply(s, SHEET, "surgery", 1000.0, actor_sheet=EXPERT).state
    assert s.status == "tired"
    assert s.timers["recover"] == 1000.0 + 30 * MIN


def test_A8_first_aid_one_instant_late_finds_a_coma(rules):
    s = wounded_at(rules, 100.0)
    s = rules.apply(s, SHEET, "first_aid", 1000.5, actor_sheet=NOVICE).state
    assert s.status == "coma"                            # A8: moved on, still eligible
    assert s.timers["deadline"] == 1000.5 + HOUR


def test_same_instant_a_declared_hit_sees_the_recovery_done(rules):
    """rulesets/instants.py: a hit is declared at its instant and sees the state the
    phone shows then, the timers due at that instant expired: a stun at the very second
    a Tired character recovers costs a Healthy one a point (G04)."""
    s = wounded_at(rules, 100.0)
    s = rules.apply(s, SHEET, "surgery", 800.0, actor_sheet=EXPERT).state  # recover 2600
    assert rules.advance(s, SHEET, 2600.0).state.status == "healthy"      # what the phone shows
    s = hit(rules, s, "hit_stunning", 2600.0)
    assert s.status == "healthy"
    assert s.values["combat_loss"] == 1
    assert s.timers["combat_recovery"] == 3200.0


def test_same_instant_a_hit_on_a_coma_at_its_deadline_finds_the_dead(rules):
    """The same rule the other way: the coma's fifteen minutes are over at 15:00, so a
    wound declared then is refused as on any dead character."""
    s = coma_at(rules, 100.0)                            # deadline 1000
    with pytest.raises(RuleRefused) as refused:
        hit(rules, s, "hit_wounding", 1000.0)
    assert refused.value.code == "not_in_state"


def test_same_instant_a_completion_still_comes_before_the_expiry(rules):
    """A first aid that ran before the deadline and ends at it is in time (A8), while a
    first aid declared anew at that instant would find the coma."""
    s = wounded_at(rules, 100.0)                         # deadline 1000
    ended = rules.apply(s, SHEET, "first_aid", 1000.0, actor_sheet=NOVICE, seen_by=ENDING)
    declared = rules.apply(s, SHEET, "first_aid", 1000.0, actor_sheet=NOVICE)
    assert (ended.state.status, declared.state.status) == ("wounded", "coma")


def test_apply_leaves_no_timer_due_at_its_own_instant(rules):
    s = wounded_at(rules, 100.0)                         # deadline 1000
    out = rules.apply(s, SHEET, "hit_stunning", 1000.0)  # hit first, then the deadline
    assert out.state.status == "coma"
    assert all(due > 1000.0 for due in out.state.timers.values())


# -- refusals (in fr / en) ---------------------------------------------------------

@pytest.mark.parametrize("maker, fr_state, en_state", [
    (lambda r: r.initial_state(), "En pleine forme", "Healthy"),
    (lambda r: tired_at(r, 100.0), "Fatigué", "Tired"),
])
def test_first_aid_refused_on_healthy_or_tired(rules, maker, fr_state, en_state):
    s = maker(rules)
    with pytest.raises(RuleRefused) as exc:
        rules.apply(s, WEAK, "first_aid", 120.0, actor_sheet=EXPERT)
    err = exc.value
    assert err.code == "not_in_state"
    fr, en = refusal_text(err, "fr"), refusal_text(err, "en")
    assert fr == ("Premiers secours ne s'applique qu'à : Blessé, Dans le coma ; "
                  f"ce personnage est {fr_state}.")
    assert en == f"First aid applies to Wounded, In a coma; this character is {en_state}."
    assert "Herido" in refusal_text(err, "es")


@pytest.mark.parametrize("actor", [
    None,
    {"skills": {}},
    {"skills": {"first_aid": "none"}},
    {"skills": {"first_aid": False, "surgery": "expert"}},
])
def test_first_aid_missing_skill(rules, actor):
    s = wounded_at(rules, 100.0)
    with pytest.raises(RuleRefused) as exc:
        rules.apply(s, SHEET, "first_aid", 200.0, actor_sheet=actor)
    assert exc.value.code == "missing_skill"
    assert refusal_text(exc.value, "fr") == ("Premiers secours demande la compétence Premiers "
                                       "secours sur votre fiche de personnage.")
    assert refusal_text(exc.value, "en") == ("First aid needs the skill First aid on your "
                                       "character sheet.")


def test_surgery_missing_skill(rules):
    s = wounded_at(rules, 100.0)
    with pytest.raises(RuleRefused) as exc:
        rules.apply(s, SHEET, "surgery", 200.0, params={"calm_place": True},
                    actor_sheet={"skills": {"first_aid": "expert"}})
    assert exc.value.code == "missing_skill"
    assert "Chirurgie" in refusal_text(exc.value, "fr")


def test_refusal_leaves_the_state_untouched(rules):
    s = wounded_at(rules, 100.0)
    snapshot = s.to_json()
    with pytest.raises(RuleRefused):
        rules.apply(s, SHEET, "first_aid", 200.0, actor_sheet=None)
    assert s.to_json() == snapshot


def test_unknown_action(rules):
    with pytest.raises(RuleRefused) as exc:
        rules.apply(rules.initial_state(), SHEET, "fireball", 100.0)
    assert exc.value.code == "unknown_action"
    assert "fireball" in refusal_text(exc.value, "fr")
    assert "hit_stunning" in refusal_text(exc.value, "en")


@pytest.mark.parametrize("params", [{"calm_place": "yes"}, {"calm_place": 1},
                                    {"calm": True}])
def test_bad_param(rules, params):
    s = wounded_at(rules, 100.0)
    with pytest.raises(RuleRefused) as exc:
        rules.apply(s, SHEET, "surgery", 200.0, params=params, actor_sheet=EXPERT)
    assert exc.value.code == "bad_input"
    assert refusal_text(exc.value, "en").startswith("Invalid request")


def test_param_on_an_action_without_params(rules):
    with pytest.raises(RuleRefused) as exc:
        rules.apply(rules.initial_state(), SHEET, "hit_stunning", 100.0,
                    params={"weapon": "club"})
    assert exc.value.code == "bad_input"


def test_unknown_option_override_rejected():
    from rulesets import RulesetError
    with pytest.raises(RulesetError):
        make_rules(nope=True)
    with pytest.raises(RulesetError):
        make_rules(never_improve="yes")


# -- GA8: metabolic analysis (A17) ---------------------------------------------------

@pytest.mark.parametrize("maker, status", [
    (lambda r: r.initial_state(), "healthy"),
    (lambda r: wounded_at(r, 100.0), "wounded"),
    (lambda r: coma_at(r, 100.0), "coma"),
    (lambda r: dead_at(r, 100.0), "dead"),
])
def test_GA8_metabolic_analysis_reveals_the_state_only(rules, maker, status):
    s = maker(rules)
    out = rules.apply(s, SHEET, "metabolic_analysis", 110.0, actor_sheet=EXPERT)
    assert out.state == s
    reveals = [e for e in out.events if e["kind"] == "reveal"]
    assert reveals == [{"kind": "reveal", "at": 110.0, "revealed": {"state": status}}]


def test_GA8_metabolic_analysis_needs_the_skill(rules):
    with pytest.raises(RuleRefused) as exc:
        rules.apply(rules.initial_state(), SHEET, "metabolic_analysis", 100.0,
                    actor_sheet=NOVICE)
    assert exc.value.code == "missing_skill"


# -- serialisation -----------------------------------------------------------------

def test_state_json_round_trip(rules):
    s = wounded_at(rules, 100.0)
    assert CharacterState.from_json(s.to_json()) == s


@pytest.mark.parametrize("level", [True, "Expert", "master", 3])
def test_malformed_skill_level_is_refused_not_a_crash(rules, level):
    """§3.1: first_aid / surgery are none / novice / expert. A sheet with anything else
    must be refused with a readable message, not crash the core at completion."""
    s = wounded_at(rules, 100.0)
    for action, params in (("first_aid", None), ("surgery", {"calm_place": True})):
        with pytest.raises(RuleRefused) as exc:
            rules.apply(s, SHEET, action, 200.0, params=params,
                        actor_sheet={"skills": {action: level}})
        assert exc.value.code == "bad_input"
        assert "novice, expert" in refusal_text(exc.value, "en")


def test_skill_without_levels_accepts_true(rules):
    out = rules.apply(rules.initial_state(), SHEET, "metabolic_analysis", 10.0,
                      actor_sheet={"skills": {"metabolic_analysis": True}})
    assert [e for e in out.events if e["kind"] == "reveal"]


def test_choice_option_typo_rejected():
    from rulesets import RulesetError
    with pytest.raises(RulesetError):
        make_rules(first_aid_stack="maximum")
