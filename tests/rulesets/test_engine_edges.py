"""The rules core at its edges (rulesets/engine.py, rulesets/instants.py): what a phone lists
as possible when several things take capabilities away at once (a paralysis, a weakness, a
Carga) and at the very first second of the game; what a declaration is refused with; the
cause the journal keeps of each transition; a character whose Rasgo changes an option for
them alone; the deadline a character's row is swept at; a window's last instant.
septenario_es unless said; times are game seconds."""
import copy
from dataclasses import replace

import pytest

from common.i18n import refusal_text
from rulesets import ENDING, RuleRefused, Rules
from rulesets.elements import ELEMENTS
from rulesets.engine import element_names
from rulesets.instants import expired, within
from septenario_world import (  # noqa: F401 (rules is a fixture)
    FIRST_AIDER, RS, SHEET, act, coraje, hit, incapacitated_at, make_rules, rules, transitions)

EVERYTHING = {"run", "walk", "fight", "traits", "objects", "speak", "first_aid"}  # Ileso's list
PARALYSED = (EVERYTHING - {"speak"}) | {"crawl"}     # what a paralysis takes (inert_cannot)


def able(rules, state, at, **more):
    can, cannot = rules.capabilities(state, at, **more)
    return set(can), set(cannot)


def paralysed_at(rules, at, state=None):
    """A simple trap's card says "paralysed" at `at`: nothing but speech for 5 minutes (TS5)."""
    return act(rules, state or rules.initial_state(), "trap_simple", at, leaves="paralysed")


def weak_at(rules, at):
    """Two days without food by `at`: weak (L15)."""
    s = act(rules, rules.initial_state(), "day_end", at - 1)
    return act(rules, s, "day_end", at)


# -- capabilities: every source of "cannot" adds up ------------------------------------------

def test_at_the_first_second_of_the_game_nothing_is_taken_away(rules):
    s = rules.initial_state()
    assert able(rules, s, 0.0) == (EVERYTHING, set())
    assert able(rules, s, 0.5, load="normal") == (EVERYTHING, set())
    assert not rules.is_inert(s, 0.0)


def test_a_paralysed_weak_character_still_cannot_walk(rules):
    s = paralysed_at(rules, 300.0, weak_at(rules, 200.0))
    assert s.values["weak"] is True and s.values["paralysed"] is True
    can, cannot = able(rules, s, 300.0)
    assert can == {"speak"}
    assert cannot == PARALYSED
    assert able(rules, s, 300.0 + 300)[0] == EVERYTHING - {"run"}    # only the weakness is left


@pytest.mark.parametrize("load", ["normal", "overloaded", "immobile"])
def test_a_paralysed_character_with_any_carga_cannot_move(rules, load):
    s = paralysed_at(rules, 100.0)
    can, cannot = able(rules, s, 150.0, load=load)
    assert can == {"speak"}
    assert cannot == PARALYSED


def test_a_paralysed_weak_overloaded_character_is_refused_everything_but_speech(rules):
    s = paralysed_at(rules, 300.0, weak_at(rules, 200.0))
    assert able(rules, s, 300.0, load="immobile") == ({"speak"}, PARALYSED)


def test_what_one_character_lacks_does_not_spread_to_the_next_paralysed_one():
    """A ruleset where weakness also takes speech (a paralysis does not): the phone of a
    paralysed weak character says so, and a paralysed one who ate still speaks."""
    ruleset = replace(RS, value_cannot={"weak": ["speak"]}, inert_cannot=list(RS.inert_cannot),
                      load={**RS.load, "cannot": {"overloaded": ["speak"]}})
    rules = Rules(ruleset, ruleset.merged_options({}))
    weak = paralysed_at(rules, 300.0, weak_at(rules, 200.0))
    assert able(rules, weak, 300.0) == (set(), PARALYSED | {"speak"})
    loaded = paralysed_at(rules, 300.0)
    assert able(rules, loaded, 300.0, load="overloaded") == (set(), PARALYSED | {"speak"})
    fed = paralysed_at(rules, 300.0)
    assert able(rules, fed, 300.0) == ({"speak"}, PARALYSED)
    assert able(rules, fed, 300.0, load="normal") == ({"speak"}, PARALYSED)
    assert ruleset.inert_cannot == RS.inert_cannot


# -- a rule that holds only when an option lists something (S27) ----------------------------

def test_S27_when_rest_is_not_required_a_rested_character_still_gains_one_coraje_at_dawn():
    rules = make_rules(rest_required_for=[])
    broke = {"trauma": 3, "coraje": 0}
    s = act(rules, rules.initial_state(), "rested", 10.0, broke)
    s = act(rules, s, "dawn", 100.0, broke)
    assert s.values["fatigued"] is False and coraje(rules, s, broke) == 1
    s = act(rules, s, "erotismo", 200.0, broke)                  # not fatigued either
    assert coraje(rules, s, broke) == 2


# -- what a declaration is refused with ---------------------------------------------------------

def refused(rules, state, action, at, sheet=SHEET, params=None):
    with pytest.raises(RuleRefused) as refusal:
        rules.apply(state, sheet, action, at, params=params)
    return refusal.value


def test_an_unknown_parameter_is_refused_by_its_name(rules):
    refusal = refused(rules, rules.initial_state(), "hit", 100.0, params={"angle": 30})
    assert refusal.code == "bad_input"
    assert "unknown parameter 'angle'" in refusal_text(refusal, "en")


def test_a_state_the_game_does_not_have_is_refused_listing_those_it_has(rules):
    refusal = refused(rules, rules.initial_state(), "set_state", 100.0, params={"state": "flying"})
    assert refusal.code == "bad_input"
    assert f"'flying' is not a state of this game ({', '.join(RS.states)})" in refusal_text(refusal, "en")


def test_a_choice_not_offered_is_refused_listing_the_choices(rules):
    refusal = refused(rules, rules.initial_state(), "hit", 100.0, params={"location": "belly"})
    assert refusal.code == "bad_input"
    choices = ", ".join(RS.actions["hit"]["params"]["location"]["choices"])
    assert f"parameter 'location' must be one of {choices}, not 'belly'" in refusal_text(refusal, "en")


def test_yes_or_no_is_not_a_number_of_points(rules):
    refusal = refused(rules, rules.initial_state(), "plot_completed", 100.0, params={"amount": True})
    assert refusal.code == "bad_input"
    assert "parameter 'amount' must be a int" in refusal_text(refusal, "en")
    s = act(rules, rules.initial_state(), "plot_completed", 100.0, amount=1)
    assert rules.point_value(s, SHEET, "coraje") == 2


def test_a_choice_without_a_default_must_be_made():
    """A ruleset whose trap card has no default reading: the player must say it."""
    actions = copy.deepcopy(RS.actions)
    del actions["trap_simple"]["params"]["leaves"]["default"]
    ruleset = replace(RS, actions=actions)
    rules = Rules(ruleset, ruleset.merged_options({}))
    refusal = refused(rules, rules.initial_state(), "trap_simple", 100.0)
    assert refusal.code == "bad_input"
    assert "parameter 'leaves' is required" in refusal_text(refusal, "en")
    s = act(rules, rules.initial_state(), "trap_simple", 100.0, leaves="paralysed")
    assert s.values["paralysed"] is True


def test_an_unknown_action_is_refused_listing_the_known_ones(rules):
    refusal = refused(rules, rules.initial_state(), "fly", 100.0)
    assert refusal.code == "unknown_action"
    assert "Unknown action 'fly'." in refusal_text(refusal, "en")
    assert f"Known actions: {', '.join(sorted(RS.actions))}." in refusal_text(refusal, "en")


def test_not_enough_coraje_says_how_much_there_is(rules):
    s = act(rules, rules.initial_state(), "use_coraje", 10.0, what="Evasión")
    refusal = refused(rules, s, "use_coraje", 20.0, params={"what": "Evasión"})
    assert refusal.code == "not_enough_points"
    assert "than you have (0)" in refusal_text(refusal, "en")


# -- what the journal records of a change ----------------------------------------------------

def test_the_journal_keeps_the_action_its_instant_and_its_parameters(rules):
    out = rules.apply(rules.initial_state(), SHEET, "hit", 100.0, params={"location": "torso"})
    assert out.events[0] == {"kind": "action", "action": "hit", "at": 100.0,
                             "params": {"location": "torso", "weapon": "standard", "solid": True}}


def test_the_journal_keeps_each_timer_that_expired_and_when(rules):
    s = incapacitated_at(rules, 100.0)
    out = rules.advance(s, SHEET, 1000.0)
    assert [e for e in out.events if e["kind"] == "timer_expired"][0] == {
        "kind": "timer_expired", "timer": "death", "at": 400.0}


def test_each_transition_says_what_caused_it(rules):
    out = rules.apply(rules.initial_state(), SHEET, "hit", 100.0, params={"location": "torso"})
    assert [e["cause"] for e in out.events if e["kind"] == "transition"] == ["action:hit"]
    later = rules.advance(out.state, SHEET, 400.0)
    assert [(e["to"], e["cause"]) for e in later.events if e["kind"] == "transition"] == [
        ("dead", "timer:death")]


# -- a character whose Rasgo changes an option for them alone --------------------------------

def test_a_marksman_in_agony_is_given_first_aid_like_anyone(rules):
    marksman = {**SHEET, "abilities": ["tirador"]}
    assert rules.for_sheet(marksman) is not rules               # the Rasgo overrides an option
    s = incapacitated_at(rules, 100.0, marksman)
    out = rules.apply(s, marksman, "first_aid", 130.0, actor_sheet=FIRST_AIDER)
    assert out.state.status == "grave"
    assert transitions(out.events) == [("incapacitated", "grave", 130.0)]


def test_a_marksman_hit_on_the_arm_is_hurt_in_the_arm(rules):
    marksman = {**SHEET, "abilities": ["tirador"]}
    s = hit(rules, rules.initial_state(), 100.0, marksman, location="left_arm")
    assert s.status == "wounded" and s.values["limbs"] == {"left_arm": "useless"}


def test_a_marksman_treated_as_the_death_falls_is_in_time(rules):
    """A8: a treatment completing at the deadline comes before it, for a character whose
    Rasgo changes an option as for anyone."""
    marksman = {**SHEET, "abilities": ["tirador"]}
    s = incapacitated_at(rules, 100.0, marksman)
    assert rules.advance(s, marksman, 400.0, seen_by=ENDING).state.status == "incapacitated"
    assert rules.advance(s, marksman, 400.0).state.status == "dead"
    done = rules.apply(s, marksman, "first_aid", 400.0, actor_sheet=FIRST_AIDER, seen_by=ENDING)
    assert done.state.status == "grave"


def with_abilities(**abilities):
    """septenario_es with more Rasgos, each overriding options for its bearer alone."""
    ruleset = replace(RS, abilities={**RS.abilities, **{
        name: {"labels": {"fr": name, "es": name, "en": name}, "explains": {"en": name},
               "overrides": overrides} for name, overrides in abilities.items()}})
    return Rules(ruleset, ruleset.merged_options({}))


def test_a_rasgo_that_spends_coraje_by_itself_saves_its_bearer_alone_from_the_agony():
    rules = with_abilities(valor={"coraje_auto_spend": True})
    brave = {"trauma": 3, "coraje": 1, "abilities": ["valor"]}
    plain = {"trauma": 3, "coraje": 1}
    assert rules.advance(incapacitated_at(rules, 100.0, brave), brave, 400.0).state.status == "grave"
    assert rules.advance(incapacitated_at(rules, 100.0, plain), plain, 400.0).state.status == "dead"


def test_a_rasgo_that_shortens_the_wooden_stun_shortens_it_for_its_bearer_alone():
    rules = with_abilities(duro={"wooden_limb_stun_s": 60})
    tough = {**SHEET, "abilities": ["duro"]}
    assert hit(rules, rules.initial_state(), 100.0, tough, location="left_arm",
               weapon="wooden").timers == {"wooden": 160.0}
    assert hit(rules, rules.initial_state(), 100.0, SHEET, location="left_arm",
               weapon="wooden").timers == {"wooden": 400.0}


# -- timers due when something is declared -------------------------------------------------------

def test_S5_a_declaration_as_the_agony_ends_comes_after_the_coraje_spent(rules):
    rules = make_rules(coraje_auto_spend=True)
    s = incapacitated_at(rules, 100.0)
    s = act(rules, s, "ate", 400.0)
    assert s.status == "grave" and s.values["ate_today"] is True
    assert coraje(rules, s) == 0


def rearming(after):
    """septenario_es where the paralysis re-arms itself `after` seconds when it ends."""
    timers = copy.deepcopy(RS.timers)
    timers["paralysis"]["on_expire"] = {"*": [{"set_timer": {"timer": "paralysis", "after": after}}]}
    ruleset = replace(RS, timers=timers)
    return Rules(ruleset, ruleset.merged_options({}))


def test_a_timer_that_keeps_firing_at_one_instant_stops_the_rules_naming_the_ruleset():
    rules = rearming(0)
    s = paralysed_at(rules, 100.0)
    with pytest.raises(RuntimeError) as looping:
        rules.advance(s, SHEET, 500.0)
    assert str(looping.value) == "septenario_es: timers keep firing at 500.0; check the ruleset"


def test_a_timer_re_armed_every_second_is_applied_up_to_a_thousand_times_at_once():
    rules = rearming(1)
    s = paralysed_at(rules, 0.0)                              # due at 300, then every second
    out = rules.advance(s, SHEET, 300.0 + 998)
    assert len([e for e in out.events if e["kind"] == "timer_expired"]) == 999
    assert out.state.timers["paralysis"] == 300.0 + 999
    with pytest.raises(RuntimeError):
        rules.advance(s, SHEET, 300.0 + 999)


# -- the deadline a character's row is swept at ----------------------------------------------

def test_the_next_deadline_is_the_earliest_timer(rules):
    assert rules.initial_state().next_deadline() is None
    s = hit(rules, rules.initial_state(), 100.0, location="left_arm", weapon="wooden")
    assert s.next_deadline() == 400.0                       # the arm's five minutes
    s = hit(rules, s, 200.0, location="torso", weapon="wooden")
    assert s.timers == {"wooden": 400.0, "knockout": 500.0}
    assert s.next_deadline() == 400.0
    woke = rules.advance(s, {"trauma": 3, "coraje": 1}, 500.0).state
    assert woke.timers == {} and woke.next_deadline() is None


# -- a window's last instant ------------------------------------------------------------------

def test_a_window_includes_its_last_instant():
    """gn_fr L28: "dans les 3 secondes": an answer declared at the third second is in time."""
    assert within(103.0, 103.0)
    assert within(103.0, 101.5)
    assert not within(103.0, 103.001)


def test_a_wrong_order_at_an_instant_is_refused_naming_the_two_there_are():
    with pytest.raises(ValueError) as wrong:
        expired(10.0, 10.0, seen_by="strict")
    assert str(wrong.value) == "seen_by must be one of ending, declared, not 'strict'"


# -- the elements a ruleset file may use ------------------------------------------------------

def test_the_elements_a_ruleset_may_use_are_listed_by_name():
    names = element_names()
    assert names == sorted(names)
    assert set(names) == set(ELEMENTS)
    assert {"enter", "set_timer", "take_hit", "spend_points", "expire_wooden"} <= set(names)
