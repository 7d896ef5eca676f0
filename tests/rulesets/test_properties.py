"""Property tests for the rules core, on gn_fr: random action sequences at random game
times, under random option variants (Appendix A of the spec)."""
from hypothesis import given, settings, strategies as st

from common.i18n import refusal_text
from rulesets import ENDING, RuleRefused, Rules, get_ruleset

RS = get_ruleset("gn_fr")
STATES = ("healthy", "tired", "wounded", "coma", "dead")
SEVERITY = {name: RS.states[name]["severity"] for name in STATES}

PROFILE = settings(max_examples=200, deadline=None)

# the timers each state may hold (spec §4.1 "Timers running")
TIMERS_ALLOWED = {
    "healthy": {"combat_recovery"},
    "tired": {"inert", "recover", "combat_recovery"},
    "wounded": {"inert", "deadline", "combat_recovery"},
    "coma": {"deadline", "combat_recovery"},
    "dead": {"corpse"},
}

MEDICS = [
    {"skills": {"first_aid": "novice", "surgery": "novice"}},
    {"skills": {"first_aid": "expert", "surgery": "expert", "metabolic_analysis": True}},
    {"skills": {"first_aid": "expert", "surgery": "novice", "metabolic_analysis": True}},
    {"skills": {}},
]

options = st.fixed_dictionaries({}, optional={
    "never_improve": st.booleans(),
    "tired_retrigger": st.sampled_from(["restart", "keep"]),
    "tired_recovery_from": st.sampled_from(["entry", "inert_end"]),
    "wounded_entry_inert_s": st.sampled_from([0, 60]),
    "rewound_deadline_policy": st.sampled_from(["min", "reset"]),
    "first_aid_stack": st.sampled_from(["max", "replace"]),
    "surgery_tired_entry_inert": st.booleans(),
    "corpse_timer_resets_on_interaction": st.booleans(),
    "stun_zero_becomes_tired": st.booleans(),
})

# whole seconds hit deadlines exactly (same-instant cases); fractions do not
gap = st.one_of(st.integers(0, 1200).map(float),
                st.floats(0, 2000, allow_nan=False, allow_infinity=False),
                st.sampled_from([0.0, 60.0, 300.0, 600.0, 900.0, 1800.0, 3600.0]))

step = st.tuples(
    st.sampled_from(sorted(RS.actions)),
    gap,
    st.sampled_from(MEDICS),
    st.booleans(),                      # calm place
    st.sampled_from(STATES),            # target of set_state
)
steps = st.lists(step, max_size=12)
sheets = st.integers(0, 5).map(lambda base: {"combat_base": base, "skills": {}})


def params_for(action, calm, target):
    if action == "surgery":
        return {"calm_place": calm}
    if action == "set_state":
        return {"state": target}
    return None


def play(rules, sheet, history, check=None):
    """Apply every step (refusals leave the state as it was); return the state and the
    time of the last accepted step, the instant that state is valid at.
    `check(before, after, at, action)` sees every accepted step."""
    state, now, valid_at = rules.initial_state(), 0.0, 0.0
    for action, dt, medic, calm, target in history:
        now += dt
        try:
            out = rules.apply(state, sheet, action, now, params=params_for(action, calm, target),
                              actor_sheet=medic)
        except RuleRefused:
            continue
        if check:
            check(state, out.state, now, action)
        state, valid_at = out.state, now
    return state, valid_at


def assert_invariants(state, sheet):
    assert state.status in STATES
    assert 0 <= state.values["combat_loss"] <= sheet["combat_base"]
    assert set(state.timers) <= TIMERS_ALLOWED[state.status], state
    if state.status == "tired":
        assert "recover" in state.timers
    if state.status in ("wounded", "coma"):
        assert "deadline" in state.timers
    if state.status == "dead":
        assert ("corpse" in state.timers) != state.values["corpse_released"]


@PROFILE
@given(options, sheets, steps, gap, gap)
def test_advance_in_two_steps_equals_advance_in_one(overrides, sheet, history, d1, d2):
    rules = Rules(RS, RS.merged_options(overrides))
    state, now = play(rules, sheet, history)
    t1, t2 = now + d1, now + d1 + d2
    first = rules.advance(state, sheet, t1)
    second = rules.advance(first.state, sheet, t2)
    direct = rules.advance(state, sheet, t2)
    assert second.state == direct.state
    assert first.events + second.events == direct.events


@PROFILE
@given(options, sheets, steps, gap)
def test_no_timer_fires_before_its_deadline(overrides, sheet, history, d):
    rules = Rules(RS, RS.merged_options(overrides))
    state, now = play(rules, sheet, history)
    until = now + d
    out = rules.advance(state, sheet, until)
    assert all(due > until for due in out.state.timers.values())
    fired = [e["at"] for e in out.events if e["kind"] == "timer_expired"]
    assert fired == sorted(fired)                       # in deadline order
    assert all(now <= at <= until for at in fired)
    # at any time before the first deadline nothing happens at all
    first = state.next_deadline()
    if first is not None:
        assert first > now
        quiet_until = now + d if now + d < first else now
        quiet = rules.advance(state, sheet, quiet_until)
        assert quiet.state == state and quiet.events == []
        assert rules.advance(state, sheet, first).events != []


@PROFILE
@given(options, sheets, steps)
def test_apply_leaves_no_due_timer_and_keeps_invariants(overrides, sheet, history):
    rules = Rules(RS, RS.merged_options(overrides))

    def check(before, after, at, action):
        assert all(due > at for due in after.timers.values()), (action, after)
        assert_invariants(after, sheet)

    state, now = play(rules, sheet, history, check)
    assert_invariants(state, sheet)
    assert_invariants(rules.advance(state, sheet, now + 10_000.0).state, sheet)


@PROFILE
@given(options, sheets, steps, gap)
def test_state_is_one_of_five_and_combat_loss_in_range_at_every_instant(
        overrides, sheet, history, d):
    rules = Rules(RS, RS.merged_options(overrides))
    state, now = play(rules, sheet, history)
    out = rules.advance(state, sheet, now + d)
    for event in out.events:
        if event["kind"] == "transition":
            assert event["from"] in STATES and event["to"] in STATES
        if event["kind"] == "value_set" and event["key"] == "combat_loss":
            assert 0 <= event["value"] <= sheet["combat_base"]
    assert_invariants(out.state, sheet)


@PROFILE
@given(options, sheets, steps, st.sampled_from(MEDICS[:3]), st.floats(0, 1, allow_nan=False))
def test_first_aid_never_shortens_the_deadline(overrides, sheet, history, medic, frac):
    overrides = {**overrides, "first_aid_stack": "max"}     # A9 default
    rules = Rules(RS, RS.merged_options(overrides))
    state, now = play(rules, sheet, history)
    if state.status not in ("wounded", "coma"):
        return
    deadline = state.timers["deadline"]
    at = now + frac * (deadline - now)                     # completes in time (A8)
    if frac == 1:
        at = deadline
    before = rules.advance(state, sheet, at, seen_by=ENDING).state
    out = rules.apply(state, sheet, "first_aid", at, actor_sheet=medic, seen_by=ENDING)
    assert out.state.status == before.status
    hold = 3600.0 if medic["skills"]["first_aid"] == "novice" else 14400.0
    assert out.state.timers["deadline"] >= before.timers["deadline"]
    assert out.state.timers["deadline"] >= at + hold
    assert out.state.timers["deadline"] == max(before.timers["deadline"], at + hold)


@PROFILE
@given(options, sheets, steps, step)
def test_apply_is_deterministic_and_does_not_mutate(overrides, sheet, history, last):
    rules = Rules(RS, RS.merged_options(overrides))
    state, now = play(rules, sheet, history)
    action, dt, medic, calm, target = last
    snapshot = state.to_json()
    results = []
    for _ in range(2):
        try:
            out = rules.apply(state, sheet, action, now + dt,
                              params=params_for(action, calm, target), actor_sheet=medic)
            results.append(("ok", out.state, out.events))
        except RuleRefused as exc:
            results.append(("refused", exc.code, refusal_text(exc, "fr"), refusal_text(exc, "en")))
    assert results[0] == results[1]
    assert state.to_json() == snapshot


@PROFILE
@given(sheets, steps, st.sampled_from(["hit_stunning", "hit_wounding", "hit_firearm"]), gap)
def test_A3_hits_never_improve_health(sheet, history, action, dt):
    rules = Rules(RS, RS.merged_options({}))               # never_improve: true
    state, now = play(rules, sheet, history)
    at = now + dt
    before = rules.advance(state, sheet, at).state          # a hit declared sees it so
    try:
        out = rules.apply(state, sheet, action, at)
    except RuleRefused as exc:
        assert before.status == "dead" and exc.code == "not_in_state"
        return
    hit_result = [e for e in out.events if e["kind"] == "transition"
                  and e["cause"] == f"action:{action}"]
    for event in hit_result:
        assert SEVERITY[event["to"]] >= SEVERITY[event["from"]]
    assert SEVERITY[out.state.status] >= SEVERITY[before.status]


@PROFILE
@given(options, sheets, steps, gap)
def test_json_round_trip_and_is_inert_matches_timers(overrides, sheet, history, d):
    from rulesets import CharacterState
    rules = Rules(RS, RS.merged_options(overrides))
    state, now = play(rules, sheet, history)
    assert CharacterState.from_json(state.to_json()) == state
    at = now + d
    inert_until = state.timers.get("inert")
    expected = state.status in ("coma", "dead") or (inert_until is not None and at < inert_until)
    assert rules.is_inert(state, at) == expected
