"""One order at one game instant (rulesets/instants.py, docs/architecture.md "Time"): what
ran before and ends at the instant comes before the timers due then; what is declared or
read at it sees them expired. For any timeline of any ruleset and any instant (the exact
second of a deadline above all), what a phone is shown as declarable is what the rules
accept, and the state they act on is the state the phone shows."""
import pytest
from hypothesis import given, settings, strategies as st

from health.selectors import declarable_actions
from rulesets import DECLARED, ENDING, RuleRefused, Rules, available_rulesets, get_ruleset
from rulesets.instants import expired

PROFILE = settings(max_examples=150, deadline=None)
PLAYED = [key for key in available_rulesets() if get_ruleset(key).actions]
# Refusals that speak of the state, the only ones the snapshot's list answers for; the
# others (a skill, a cost, a parameter) are checked when declared, whatever the instant.
BY_STATE = {"not_in_state", "not_now"}
OPTIONS = {"airsoft_rats": {"medic_mode": True}}


def test_an_ending_comes_before_the_timer_a_declaration_sees_expired():
    assert expired(10.0, 10.0, seen_by=DECLARED)
    assert not expired(10.0, 10.0, seen_by=ENDING)
    assert expired(9.999, 10.0, seen_by=ENDING) and expired(9.999, 10.0, seen_by=DECLARED)
    assert not expired(10.001, 10.0, seen_by=DECLARED)
    with pytest.raises(ValueError):
        expired(10.0, 10.0, seen_by="strict")


def params(rules, action):
    """Something valid for each parameter that has no default (the first choice, a state)."""
    out = {}
    for name, spec in (rules.action_spec(action).get("params") or {}).items():
        if "default" in spec:
            continue
        if spec["type"] == "choice":
            out[name] = next(iter(spec["choices"]))
        elif spec["type"] == "state":
            out[name] = rules.ruleset.initial_state
    return out or None


@st.composite
def timelines(draw):
    """A ruleset, a character and what was declared on it, then an instant: most often
    the very second one of its deadlines falls, else a little before or after."""
    key = draw(st.sampled_from(PLAYED))
    ruleset = get_ruleset(key)
    rules = Rules(ruleset, ruleset.merged_options(OPTIONS.get(key, {})))
    sheet = {"combat_base": draw(st.integers(0, 4)), "skills": {}}
    actions = sorted(a for a, spec in ruleset.actions.items()
                     if {"self", "narrator", "rules"} & set(spec["declared_by"]))
    state, now = rules.initial_state(), 0.0
    for action in draw(st.lists(st.sampled_from(actions), max_size=10)):
        now += draw(st.sampled_from([0.0, 1.0, 10.0, 60.0, 120.0, 300.0, 900.0]))
        try:
            state = rules.apply(state, sheet, action, now, params=params(rules, action)).state
        except RuleRefused:
            continue
    deadlines = sorted(state.timers.values())
    if deadlines and draw(st.booleans()):
        at = draw(st.sampled_from(deadlines)) + draw(st.sampled_from([0.0, 0.0, -0.001, 0.001]))
    else:
        at = now + draw(st.sampled_from([0.0, 5.0, 10.0, 600.0]))
    return rules, sheet, state, max(at, now)


@PROFILE
@given(timelines())
def test_what_the_phone_offers_at_any_instant_is_what_a_declaration_may_do(timeline):
    rules, sheet, stored, at = timeline
    shown_state = rules.advance(stored, sheet, at).state           # the snapshot's
    shown = {a["key"] for a in declarable_actions(rules.ruleset, rules, shown_state)}
    for action, spec in rules.ruleset.actions.items():
        if "self" not in spec["declared_by"]:
            continue
        try:
            out = rules.apply(stored, sheet, action, at, params=params(rules, action))
        except RuleRefused as refused:
            if refused.code in BY_STATE:
                assert action not in shown, (action, refused.code, shown_state)
            continue
        assert action in shown, (action, shown_state)
        # The declaration acted on the state the phone showed: its outcome is the same
        # from the stored state as from the shown one.
        again = rules.apply(shown_state, sheet, action, at, params=params(rules, action))
        assert again.state == out.state


@PROFILE
@given(timelines())
def test_an_ending_at_the_instant_acts_before_the_timers_due_then(timeline):
    rules, sheet, stored, at = timeline
    before = rules.advance(stored, sheet, at, seen_by=ENDING).state
    assert all(due >= at for due in before.timers.values())
    shown = rules.advance(before, sheet, at).state
    assert shown == rules.advance(stored, sheet, at).state          # one path, two halves
    assert all(due > at for due in shown.timers.values())
