"""gn_fr: the outcomes of fights between characters as the rules core applies them (the
combat app picks who gets which): duels G01/G02/G09/G21 (A3, A4), union G05, acharnement
G10/G13 with the recovery held (A14), searches GA12/G20, hors-jeu GA13."""
import pytest

from rulesets import RuleRefused, Rules, get_ruleset

RS = get_ruleset("gn_fr")
SHEET = {"combat_base": 3}


def rules_with(**overrides) -> Rules:
    return Rules(RS, RS.merged_options(overrides))


@pytest.fixture
def rules() -> Rules:
    return rules_with()


def state_after(rules, *steps, sheet=SHEET, start=None):
    state = start or rules.initial_state()
    for action, at, *params in steps:
        state = rules.apply(state, sheet, action, at, params=params[0] if params else None).state
    return state


def test_a_win_costs_a_point_and_the_ten_minutes_restart(rules):
    state = state_after(rules, ("duel_won", 0), ("duel_won", 300))
    assert rules.point_value(state, SHEET, "combat_score") == 1
    assert state.timers["combat_recovery"] == 900
    assert rules.advance(state, SHEET, 900).state.values["combat_loss"] == 0


def test_a_winner_at_zero_stays_healthy_unless_the_option_says_otherwise():
    weak = {"combat_base": 1}
    assert state_after(rules_with(), ("duel_won", 0), sheet=weak).status == "healthy"
    assert state_after(rules_with(duel_winner_zero_becomes_tired=True), ("duel_won", 0),
                       sheet=weak).status == "tired"


def test_losing_tires_a_healthy_character_and_restarts_a_tired_ones_minute(rules):
    tired = state_after(rules, ("duel_lost", 0))
    assert (tired.status, tired.timers["inert"], tired.timers["recover"]) == ("tired", 60, 600)
    again = state_after(rules, ("duel_lost", 300), start=tired)
    assert (again.timers["inert"], again.timers["recover"]) == (360, 900)      # A6


@pytest.mark.parametrize("state", ["wounded", "coma"])
def test_losing_never_heals(rules, state):
    start = state_after(rules, ("set_state", 0, {"state": state}))
    assert state_after(rules, ("union_lost", 10), start=start).status == state


def test_literal_reading_lets_a_loser_improve_to_tired():
    rules = rules_with(never_improve=False)
    start = state_after(rules, ("set_state", 0, {"state": "wounded"}))
    assert state_after(rules, ("duel_lost", 10), start=start).status == "tired"


def test_effective_score_is_zero_while_tired_or_wounded(rules):
    tired = state_after(rules, ("duel_lost", 0))
    assert rules.point_value(tired, SHEET, "combat_score") == 0


def test_a_beating_holds_the_recovery_until_its_end_and_completes_into_wounded(rules):
    tired = state_after(rules, ("duel_lost", 0))                     # recovers at 600
    held = state_after(rules, ("acharnement_started", 400), start=tired)
    assert held.timers["recover"] == 700
    assert rules.advance(held, SHEET, 650).state.status == "tired"
    done = state_after(rules, ("acharnement_bare_hands", 700), start=held)
    assert done.status == "wounded" and done.values["recovery_held"] is None


def test_a_beating_stopped_early_gives_the_recovery_back(rules):
    held = state_after(rules, ("duel_lost", 0), ("acharnement_started", 400))
    released = state_after(rules, ("acharnement_stopped", 450), start=held)
    assert released.timers["recover"] == 600
    late = state_after(rules, ("acharnement_stopped", 650), start=held)
    assert late.status == "healthy"                # its recovery had passed: at once


def test_a_new_fall_during_the_beating_keeps_its_longer_recovery(rules):
    held = state_after(rules, ("duel_lost", 0), ("acharnement_started", 400))
    fell = state_after(rules, ("duel_lost", 450), ("acharnement_stopped", 500), start=held)
    assert fell.timers["recover"] == 1050                            # 450 + 10 min, kept


def test_without_the_option_the_recovery_does_not_wait():
    rules = rules_with(acharnement_defers_recovery=False)
    held = state_after(rules, ("duel_lost", 0), ("acharnement_started", 400))
    assert held.timers["recover"] == 600


def test_a_wounding_beating_puts_a_wounded_victim_in_a_coma(rules):
    wounded = state_after(rules, ("hit_wounding", 0))
    assert state_after(rules, ("acharnement_wounding", 300), start=wounded).status == "coma"


def test_a_search_strips_only_when_everything_is_taken(rules):
    coma = state_after(rules, ("set_state", 0, {"state": "coma"}))
    boots = state_after(rules, ("searched", 10, {"location": "bottes", "strip": False}), start=coma)
    assert boots.values["naked"] is False
    stripped = state_after(rules, ("searched", 10, {"location": "tout", "strip": True}), start=coma)
    assert stripped.values["naked"] is True


def test_searching_a_corpse_uses_it(rules):
    dead = state_after(rules, ("set_state", 0, {"state": "dead"}))
    used = state_after(rules, ("searched", 500, {"location": "poches", "strip": False}), start=dead)
    assert used.timers["corpse"] == 1100


def test_hors_jeu_is_declared_once_and_lifted_once(rules):
    out = state_after(rules, ("out_of_game", 0))
    assert out.values["out_of_game"] is True
    assert not rules.available(out, "out_of_game") and rules.available(out, "back_in_game")
    with pytest.raises(RuleRefused) as refused:
        rules.apply(out, SHEET, "out_of_game", 10)
    assert refused.value.code == "not_now"


def test_the_union_majority_loses_no_point_unless_the_option_says_so():
    """A12 (iii): by default the majority only took part in a fight."""
    default = state_after(rules_with(), ("union_won", 0))
    assert (default.values["combat_loss"], default.timers["combat_recovery"]) == (0, 600)
    costly = state_after(rules_with(union_majority_point_loss=1), ("union_won", 0))
    assert costly.values["combat_loss"] == 1 and costly.status == "healthy"


def test_the_list_of_combat_events_is_not_an_option():
    # Every fight restarts the ten minutes; no other list is implemented, so none is offered.
    with pytest.raises(Exception, match="unknown option 'combat_event_kinds'"):
        RS.merged_options({"combat_event_kinds": ["duel"]})
