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
    FIRST_AIDER, RS, SHEET, act, hit, incapacitated_at, rules, transitions)

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


# -- what a declaration is refused with ---------------------------------------------------------

def refused(rules, state, action, at, sheet=SHEET, params=None):
    with pytest.raises(RuleRefused) as refusal:
        rules.apply(state, sheet, action, at, params=params)
    return refusal.value


def test_an_unknown_parameter_is_refused_by_its_name(rules):
    refusal = refused(rules, rules.initial_state(), "hit", 100.0, params={"angle": 30})
    assert refusal.code == "bad_input"
    assert "unknown parameter 'angle'" in refusal_text(refusal, "en")


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


def test_a_marksman_treated_as_the_death_falls_is_in_time(rules):
    """A8: a treatment completing at the deadline comes before it, for a character whose
    Rasgo changes an option as for anyone."""
    marksman = {**SHEET, "abilities": ["tirador"]}
    s = incapacitated_at(rules, 100.0, marksman)
    assert rules.advance(s, marksman, 400.0, seen_by=ENDING).state.status == "incapacitated"
    assert rules.advance(s, marksman, 400.0).state.status == "dead"
    done = rules.apply(s, marksman, "first_aid", 400.0, actor_sheet=FIRST_AIDER, seen_by=ENDING)
    assert done.state.status == "grave"


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
