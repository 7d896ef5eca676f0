"""airsoft_rats: one test per transition of the spec (docs/rules/airsoft_rats.md §4.3,
P01-P23), per timer (§4.2: the count of 10, the optional wait for a medic), per action
of §6 that the ruleset holds (C1-C7, C9, C10) and per option of §8 / Appendix A that
changes what happens (medic mode, respawn policy, off-game re-entry, a cap on heals, a
limit on the wait, extraction after a request, the "retour en jeu" call).

The heal and the extraction (P04-P11) are played between two players by the heal
interaction (combat/services/heals.py); here the rules actions it applies to the patient
(heal_started, heal_stopped, healed, extraction_started, extraction_stopped) are applied
directly. The game stop (P24/P25) is the game clock: every time here is a game second,
and rehearsals/airsoft_sanctions_and_game_stop.yaml shows a stop freezing a count.

A test states what a referee would check: the state, the exact deadlines, the values
(medic_requested, zone, out_reason, invalid_actions, heals_received), what the player
may do, and the hint the phone shows large, in French, Spanish and English.
"""
import pytest

from rulesets import RuleRefused, Rules, get_ruleset
from rulesets.messages import LANGUAGES

RS = get_ruleset("airsoft_rats")
SHEET: dict = {}
T = 100.0                     # the instant of the hit in most tests (game seconds)

IN_GAME = ["in_play", "hit_counting", "down_awaiting", "under_extraction", "being_healed",
           "healed_pending_call", "out_returning", "at_spawn"]
DOWN = ["hit_counting", "down_awaiting", "under_extraction", "being_healed",
        "healed_pending_call"]


def make_rules(**overrides) -> Rules:
    return Rules(RS, RS.merged_options(overrides))


@pytest.fixture
def rules() -> Rules:
    return make_rules()


@pytest.fixture
def medic() -> Rules:
    """A scenario with the medic mode (the rulebook's "mode médecin")."""
    return make_rules(medic_mode=True)


def act(rules, current, action, at, **params):
    return rules.apply(current, SHEET, action, at, params=params or None).state


def refused(rules, current, action, at, **params) -> str:
    with pytest.raises(RuleRefused) as refusal:
        rules.apply(current, SHEET, action, at, params=params or None)
    return refusal.value.code


def transitions(events):
    return [(e["from"], e["to"], e["at"]) for e in events if e["kind"] == "transition"]


def playing(rules, at=0.0):
    """A player in play: the game starts with everyone at their spawn."""
    s = act(rules, rules.initial_state(), "game_started", at)
    return s if s.status == "in_play" else act(rules, s, "respawn", at)


def counting(rules, at=T):
    """Hit at `at` in medic mode: counting to 10."""
    return act(rules, playing(rules), "hit", at)


def down(rules, at=T):
    """Hit at `at` in medic mode, the count of 10 over: waiting for a medic."""
    return rules.advance(counting(rules, at), SHEET, at + 10).state


def being_healed(rules, at=T, heal_at=None):
    return act(rules, down(rules, at), "heal_started", heal_at or at + 20)


def healed(rules, at=T):
    """Hit at `at`, a heal from at+20 completed at at+30: to shout "retour en jeu"."""
    return act(rules, being_healed(rules, at), "healed", at + 30)


def state_in(rules, status, at=T):
    """A player in `status` at `at`, reached by the rules' own way there."""
    if status == "in_play":
        return playing(rules)
    if status == "at_spawn":
        return act(rules, rules.initial_state(), "game_started", 0.0) \
            if rules.options["respawn_policy"] == "on_signal" else rules.initial_state()
    if status == "out_returning":
        return act(rules, playing(rules), "out_equipment", at)
    if status == "off_game":
        return act(rules, playing(rules), "off_game", at)
    if status == "removed":
        return act(rules, playing(rules), "removed", at)
    hit = at - 40       # the heal ends at `at`
    return {
        "hit_counting": lambda: counting(rules, at),
        "down_awaiting": lambda: down(rules, at - 10),
        "under_extraction": lambda: act(rules, down(rules, hit), "extraction_started", at),
        "being_healed": lambda: being_healed(rules, hit, at),
        "healed_pending_call": lambda: healed(rules, at - 30),
    }[status]()


# -- the ruleset as a whole ------------------------------------------------------------

def test_the_initial_state_is_at_the_spawn_with_nothing_counted(rules):
    s = rules.initial_state()
    assert s.status == "at_spawn"
    assert s.timers == {}
    assert s.values == {"medic_requested": False, "zone": None, "invalid_actions": 0,
                        "heals_received": 0, "heals_used_up": False, "out_reason": None,
                        "extraction_needs_request": False}
    assert not rules.is_inert(s, 0.0)


@pytest.mark.parametrize("state", sorted(RS.states))
def test_every_state_has_its_hint_in_every_language(state):
    """The hint is what the phone shows large: the one thing to do now."""
    spec = RS.states[state]
    assert set(spec["hint"]) == set(LANGUAGES)
    assert all(spec["hint"][lang].strip() for lang in LANGUAGES)
    assert all(spec["labels"][lang].strip() for lang in LANGUAGES)


def test_the_hints_say_what_the_rulebook_asks():
    hint = {key: spec["hint"]["fr"] for key, spec in RS.states.items()}
    assert "10" in hint["hit_counting"]                          # [L16]
    assert "11 à 20" in hint["being_healed"]                     # [L16], [L19]
    assert "retour en jeu" in hint["healed_pending_call"]        # [L20-24]
    assert "spawn" in hint["out_returning"] and "radio" in hint["out_returning"]   # [L15], [L25]
    assert "jamais" in hint["down_awaiting"]                     # no enemy info [L25]
    assert "« out »" in hint["in_play"]                          # [L15], [L61]


# What each state lets the player do (spec §4.1; the phone shows it).
CAPABILITIES = {
    "in_play": {"shoot", "move", "talk", "heal"},
    "hit_counting": set(),            # "on s'arrête" [L16]; no radio [L25]
    "down_awaiting": set(),           # stays where hit (B3)
    "under_extraction": set(),        # moved by the medic
    "being_healed": set(),            # standing still, counting 11 to 20
    "healed_pending_call": set(),     # nothing counts before the call [L23-24]
    "out_returning": {"move"},        # only back to the spawn, no radio [L15], [L25]
    "at_spawn": {"move", "talk"},
    "off_game": {"move"},
    "removed": set(),
}


@pytest.mark.parametrize("state", sorted(CAPABILITIES))
def test_what_each_state_lets_the_player_do(state):
    spec = RS.states[state]
    assert set(spec.get("can", [])) == CAPABILITIES[state]
    assert not set(spec.get("can", [])) & set(spec.get("cannot", []))
    if state != "in_play":
        assert "shoot" in spec["cannot"]


def test_appendix_A_defaults():
    assert RS.options == {
        "medic_mode": False, "medics": "any_teammate", "respawn_policy": "on_arrival_at_spawn",
        "ammo_limit_per_replica": None, "max_heals_per_player": None,
        "hit_count_s": 10, "heal_count_s": 10, "max_wait_for_medic_s": None,
        "extraction_requires_request": False,
        "extraction_medic_can_shoot": True, "healing_medic_can_shoot": False,
        "require_retour_en_jeu_call": True, "off_game_reentry": "via_spawn",
        "cheating_first_offence": "light",
        "max_power_joule": 1.2, "calibre_mm": 6, "full_auto": "forbidden",
        # Not in appendix A: how far back a hit declared in a dead zone may count (the app's).
        "late_declaration_max_s": 1800,
    }


def test_appendix_A_rules_left_to_referees_are_not_offered_as_options():
    """Nothing in the app applies them (docs/rules/airsoft_rats-coverage.md): an organiser
    who could set them would expect a change that never comes."""
    for key in ("pause_on_game_stop", "medic_mode_hand_raised", "medic_fire_during_heal",
                "patient_rehit_during_heal", "heal_interrupt", "grenade_hit_rule",
                "min_engagement_distance_m", "pistol_min_distance_m", "bb_type",
                "grenades_allowed", "grenades_must_be_announced"):
        assert key not in RS.options


def test_option_choices_refuse_what_the_spec_does_not_offer():
    RS.merged_options({"respawn_policy": "on_signal", "off_game_reentry": "direct",
                       "medics": "roster", "cheating_first_offence": "grave"})
    with pytest.raises(ValueError):
        RS.merged_options({"respawn_policy": "waves_every_5_min"})
    with pytest.raises(ValueError):
        RS.merged_options({"medic_mode": "yes"})


def test_no_points_lives_or_scores():
    """§5, §7: the rulebook defines no lives, points or scores; the app invents none."""
    assert RS.points == {}
    assert RS.kits == {}


# -- game start --------------------------------------------------------------------------

def test_a_game_starts_with_everyone_in_play_from_their_spawn(rules):
    out = rules.apply(rules.initial_state(), SHEET, "game_started", 0.0)
    assert out.state.status == "in_play"
    assert transitions(out.events) == [("at_spawn", "at_spawn", 0.0), ("at_spawn", "in_play", 0.0)]
    assert RS.actions["game_started"]["declared_by"] == ["rules"]


def test_a_new_game_puts_everyone_back_at_their_spawn_and_counts_heals_again(medic):
    s = act(medic, healed(medic), "acted_before_call", T + 31)
    s = act(medic, act(medic, s, "retour_en_jeu", T + 32), "hit", T + 100)
    assert s.values["heals_received"] == 1 and s.values["invalid_actions"] == 1
    s = act(medic, s, "game_started", 2000.0)
    assert s.status == "in_play" and s.timers == {}
    assert s.values["heals_received"] == 0 and s.values["invalid_actions"] == 0
    assert s.values["out_reason"] is None


@pytest.mark.parametrize("status", ["off_game", "removed"])
def test_a_new_game_leaves_off_game_and_removed_players_where_they_are(rules, status):
    assert refused(rules, state_in(rules, status), "game_started", 2000.0) == "not_in_state"


# -- P01 / C1: standard mode ----------------------------------------------------------------

def test_P01_C1_a_hit_in_standard_mode_sends_the_player_back_to_spawn(rules):
    out = rules.apply(playing(rules), SHEET, "hit", T)
    s = out.state
    assert s.status == "out_returning"
    assert s.timers == {}                          # no count in standard mode
    assert s.values["out_reason"] == "hit"
    assert s.values["medic_requested"] is False
    assert transitions(out.events) == [("in_play", "out_returning", T)]
    # honour system; a referee; the rules, for a hit declared with its shooter (shot)
    assert RS.actions["hit"]["declared_by"] == ["self", "narrator", "rules"]


def test_P01_no_medic_can_be_requested_in_standard_mode(rules):
    s = act(rules, playing(rules), "hit", T)
    assert refused(rules, s, "request_medic", T + 20) == "not_in_state"
    assert refused(rules, s, "heal_started", T + 20) == "not_in_state"


def test_C1_a_hit_is_declared_in_play_only(rules):
    assert refused(rules, rules.initial_state(), "hit", T) == "not_in_state"   # at spawn
    assert refused(rules, state_in(rules, "off_game"), "hit", T + 1) == "not_in_state"


# -- P02 / P03 / TB1 / C2: medic mode, the count of 10 ------------------------------------

def test_P02_C2_a_hit_in_medic_mode_stops_the_player_for_a_count_of_10(medic):
    out = medic.apply(playing(medic), SHEET, "hit", T)
    s = out.state
    assert s.status == "hit_counting"
    assert s.timers == {"count": T + 10}
    assert s.values["out_reason"] == "hit"
    assert transitions(out.events) == [("in_play", "hit_counting", T)]
    assert medic.ruleset.leads_to("count", "hit_counting") == "down_awaiting"


def test_P03_TB1_after_10_seconds_the_player_waits_for_a_medic(medic):
    s = counting(medic)
    assert medic.advance(s, SHEET, T + 9.9).state.status == "hit_counting"
    out = medic.advance(s, SHEET, T + 10)
    assert out.state.status == "down_awaiting"
    assert out.state.timers == {}                 # no limit on the wait by default (B3)
    assert transitions(out.events) == [("hit_counting", "down_awaiting", T + 10)]
    assert medic.advance(out.state, SHEET, T + 10 * 3600).state.status == "down_awaiting"


def test_TB1_the_count_follows_the_option(medic):
    rules = make_rules(medic_mode=True, hit_count_s=15)
    s = counting(rules)
    assert s.timers == {"count": T + 15}
    assert rules.advance(s, SHEET, T + 14.9).state.status == "hit_counting"
    assert rules.advance(s, SHEET, T + 15).state.status == "down_awaiting"


def test_P03_nothing_happens_for_the_patient_before_the_count_is_over(medic):
    s = counting(medic)
    for action in ("request_medic", "heal_started", "extraction_started"):
        assert refused(medic, s, action, T + 9) == "not_in_state"
    assert medic.apply(s, SHEET, "request_medic", T + 11).state.values["medic_requested"]


# -- C3: calling for help -----------------------------------------------------------------

def test_C3_the_downed_player_requests_a_medic_and_says_what_the_zone_is(medic):
    out = medic.apply(down(medic), SHEET, "request_medic", T + 12, params={"zone": "dangerous"})
    s = out.state
    assert s.status == "down_awaiting"
    assert s.values["medic_requested"] is True and s.values["zone"] == "dangerous"
    assert transitions(out.events) == []
    assert RS.flags["medic_requested"]["fr"] == "Médecin demandé"   # shown on the phone


def test_C3_saying_nothing_of_the_zone_is_allowed(medic):
    s = act(medic, down(medic), "request_medic", T + 12)
    assert s.values["zone"] == "unknown"


def test_C3_the_zone_is_free_dangerous_or_suicidal_and_nothing_else(medic):
    """No enemy positions: the only things the player may say are the zone's kind [L25]."""
    choices = RS.actions["request_medic"]["params"]["zone"]["choices"]
    assert set(choices) == {"unknown", "free", "dangerous", "suicidal"}
    assert refused(medic, down(medic), "request_medic", T + 12, zone="behind_the_wall") \
        == "bad_input"


def test_C3_a_medic_is_requested_once(medic):
    s = act(medic, down(medic), "request_medic", T + 12, zone="free")
    assert refused(medic, s, "request_medic", T + 13, zone="dangerous") == "not_now"
    assert RS.actions["request_medic"]["declared_by"] == ["self"]


# -- medic_wait (B3 with max_wait_for_medic_s) -----------------------------------------------

def test_B3_medic_wait_without_a_limit_no_timer(medic):
    assert down(medic).timers == {}


def test_B3_medic_wait_with_a_limit_sends_the_player_to_spawn(medic):
    rules = make_rules(medic_mode=True, max_wait_for_medic_s=120)
    s = act(rules, down(rules), "request_medic", T + 15)
    assert s.timers == {"medic_wait": T + 130}       # 120 s from the end of the count
    assert rules.ruleset.leads_to("medic_wait", "down_awaiting") == "out_returning"
    assert rules.advance(s, SHEET, T + 129.9).state.status == "down_awaiting"
    out = rules.advance(s, SHEET, T + 130)
    assert out.state.status == "out_returning"
    assert out.state.timers == {}
    assert out.state.values["out_reason"] == "hit"
    assert out.state.values["medic_requested"] is False and out.state.values["zone"] is None
    assert transitions(out.events) == [("down_awaiting", "out_returning", T + 130)]


def test_B3_the_limit_stops_while_a_medic_works_and_starts_again_after(medic):
    rules = make_rules(medic_mode=True, max_wait_for_medic_s=120)
    s = act(rules, down(rules), "heal_started", T + 100)
    assert s.status == "being_healed" and s.timers == {}
    s = act(rules, s, "heal_stopped", T + 105)
    assert s.timers == {"medic_wait": T + 225}
    s = act(rules, s, "extraction_started", T + 200)
    assert s.status == "under_extraction" and s.timers == {}
    s = act(rules, s, "extraction_stopped", T + 300)
    assert s.timers == {"medic_wait": T + 420}


def test_B3_a_count_longer_than_nothing_the_limit_counts_from_the_end_of_the_count():
    rules = make_rules(medic_mode=True, max_wait_for_medic_s=60, hit_count_s=20)
    s = rules.advance(counting(rules), SHEET, T + 20).state
    assert s.timers == {"medic_wait": T + 80}


# -- P04 / C4: a heal in place ----------------------------------------------------------------

def test_P04_C4_a_heal_starts_on_the_downed_player(medic):
    out = medic.apply(down(medic), SHEET, "heal_started", T + 20)
    s = out.state
    assert s.status == "being_healed"
    assert s.timers == {}                     # TB2 is the interaction's duration
    assert transitions(out.events) == [("down_awaiting", "being_healed", T + 20)]


def test_P04_TB2_the_heal_interaction_counts_11_to_20_in_ten_seconds(medic):
    heal = RS.interactions["heal"]
    assert medic.option(heal["duration_s"]) == 10                    # B2
    assert make_rules(heal_count_s=20).option(heal["duration_s"]) == 20
    assert heal["enabled_by"] == "medic_mode"                        # [L16], [L18]
    assert heal["patient_in"] == ["down_awaiting", "under_extraction"]
    assert heal["extraction_in"] == ["down_awaiting"]                # B7: after the count
    assert heal["medic_in"] == ["in_play"]
    assert (heal["starts"], heal["stops"], heal["completes"]) == \
        ("heal_started", "heal_stopped", "healed")
    assert (heal["extraction_starts"], heal["extraction_stops"]) == \
        ("extraction_started", "extraction_stopped")
    assert heal["roster_skill"] == "medic"                           # B1 `medics: roster`


@pytest.mark.parametrize("action", ["heal_started", "heal_stopped", "healed",
                                    "extraction_started", "extraction_stopped"])
def test_P04_P11_the_heal_actions_are_the_interactions_not_a_phone_button(action):
    assert RS.actions[action]["declared_by"] == ["rules"]


# -- P05 / C5: extraction ----------------------------------------------------------------

def test_P05_C5_extraction_takes_the_downed_player_away(medic):
    out = medic.apply(down(medic), SHEET, "extraction_started", T + 15)
    s = out.state
    assert s.status == "under_extraction"
    assert s.timers == {}
    assert s.values["medic_requested"] is False       # B7: no request needed by default
    assert transitions(out.events) == [("down_awaiting", "under_extraction", T + 15)]


def test_B7_extraction_after_a_request_when_the_scenario_says_so():
    rules = make_rules(medic_mode=True, extraction_requires_request=True)
    s = down(rules)
    assert s.values["extraction_needs_request"] is True
    assert refused(rules, s, "extraction_started", T + 15) == "not_now"
    assert act(rules, s, "heal_started", T + 15).status == "being_healed"   # a heal in place needs none
    s = act(rules, s, "request_medic", T + 16, zone="suicidal")
    assert s.values["extraction_needs_request"] is False
    assert act(rules, s, "extraction_started", T + 20).status == "under_extraction"


def test_B7_the_request_is_asked_again_after_each_new_hit():
    rules = make_rules(medic_mode=True, extraction_requires_request=True)
    s = act(rules, down(rules), "request_medic", T + 16)
    s = act(rules, act(rules, s, "heal_started", T + 20), "healed", T + 30)
    s = act(rules, s, "retour_en_jeu", T + 31)
    s = rules.advance(act(rules, s, "hit", T + 100), SHEET, T + 110).state
    assert s.values["medic_requested"] is False
    assert refused(rules, s, "extraction_started", T + 115) == "not_now"


# -- P06: the heal after an extraction -----------------------------------------------------------

def test_P06_the_medic_stops_and_heals_the_extracted_player(medic):
    s = act(medic, down(medic), "extraction_started", T + 15)
    out = medic.apply(s, SHEET, "heal_started", T + 40)
    assert out.state.status == "being_healed"
    assert transitions(out.events) == [("under_extraction", "being_healed", T + 40)]


# -- P07 / P08 / P09: a heal interrupted --------------------------------------------------------

@pytest.mark.parametrize("why", ["P07 the medic lifts a hand", "P08 the medic fires",
                                 "P09 the medic is hit"])
def test_P07_P08_P09_an_interrupted_heal_leaves_the_patient_down(medic, why):
    s = act(medic, down(medic), "request_medic", T + 12, zone="free")
    s = act(medic, s, "heal_started", T + 20)
    out = medic.apply(s, SHEET, "heal_stopped", T + 27)
    s = out.state
    assert s.status == "down_awaiting"
    assert s.timers == {}
    assert s.values["medic_requested"] is True and s.values["zone"] == "free"   # still waiting
    assert s.values["heals_received"] == 0
    assert transitions(out.events) == [("being_healed", "down_awaiting", T + 27)]


def test_P07_the_next_heal_starts_again_from_11(medic):
    """[L26]: nothing of the first heal is kept; a new one is a whole new count."""
    s = act(medic, being_healed(medic), "heal_stopped", T + 27)
    out = medic.apply(s, SHEET, "heal_started", T + 60)
    assert out.state.status == "being_healed"
    assert out.state.timers == {} and out.state.values == s.values


def test_P09_the_medic_hit_during_an_extraction_drops_the_patient(medic):
    s = act(medic, down(medic), "extraction_started", T + 15)
    out = medic.apply(s, SHEET, "extraction_stopped", T + 25)
    assert out.state.status == "down_awaiting"
    assert transitions(out.events) == [("under_extraction", "down_awaiting", T + 25)]


def test_P09_the_medic_hit_goes_out_as_any_player(medic):
    """The medic's side of P09 is an ordinary hit (P02) on a player in play."""
    healer = playing(medic)
    assert act(medic, healer, "hit", T + 25).status == "hit_counting"


# -- P10 -----------------------------------------------------------------------------------

def test_P10_the_medic_lets_go_without_healing(medic):
    s = act(medic, down(medic), "extraction_started", T + 15)
    out = medic.apply(s, SHEET, "extraction_stopped", T + 45)
    assert out.state.status == "down_awaiting"
    assert out.state.timers == {}
    assert transitions(out.events) == [("under_extraction", "down_awaiting", T + 45)]


def test_P10_extraction_stops_only_an_extraction(medic):
    assert refused(medic, down(medic), "extraction_stopped", T + 45) == "not_in_state"
    assert refused(medic, being_healed(medic), "extraction_stopped", T + 25) == "not_in_state"


# -- P11: healed ------------------------------------------------------------------------------

def test_P11_the_heal_completes_and_the_player_must_shout(medic):
    s = act(medic, down(medic), "request_medic", T + 12, zone="dangerous")
    s = act(medic, s, "heal_started", T + 20)
    out = medic.apply(s, SHEET, "healed", T + 30)
    s = out.state
    assert s.status == "healed_pending_call"
    assert s.timers == {}
    assert s.values["heals_received"] == 1
    assert s.values["medic_requested"] is False and s.values["zone"] is None
    assert s.values["out_reason"] == "hit"         # not yet back in the game
    assert transitions(out.events) == [("being_healed", "healed_pending_call", T + 30)]


def test_P11_only_a_heal_under_way_completes(medic):
    assert refused(medic, down(medic), "healed", T + 30) == "not_in_state"


# -- P12 / C6: "retour en jeu" -------------------------------------------------------------------

def test_P12_C6_shouting_retour_en_jeu_brings_the_player_back(medic):
    out = medic.apply(healed(medic), SHEET, "retour_en_jeu", T + 35)
    s = out.state
    assert s.status == "in_play"
    assert s.timers == {}
    assert s.values["out_reason"] is None and s.values["heals_received"] == 1
    assert transitions(out.events) == [("healed_pending_call", "in_play", T + 35)]
    assert RS.actions["retour_en_jeu"]["declared_by"] == ["self"]


def test_P12_retour_en_jeu_only_after_a_heal(medic):
    for status in ("in_play", "down_awaiting", "being_healed", "at_spawn", "out_returning"):
        assert refused(medic, state_in(medic, status), "retour_en_jeu", T + 50) == "not_in_state"


def test_require_retour_en_jeu_call_off_puts_the_healed_player_in_play():
    rules = make_rules(medic_mode=True, require_retour_en_jeu_call=False)
    out = rules.apply(being_healed(rules), SHEET, "healed", T + 30)
    assert out.state.status == "in_play"
    assert out.state.values["heals_received"] == 1
    assert transitions(out.events) == [("being_healed", "healed_pending_call", T + 30),
                                       ("healed_pending_call", "in_play", T + 30)]


# -- P13: acting before the call ------------------------------------------------------------

def test_P13_acting_before_the_call_counts_for_nothing(medic):
    s = healed(medic)
    out = medic.apply(s, SHEET, "acted_before_call", T + 32)
    s = out.state
    assert s.status == "healed_pending_call"
    assert s.values["invalid_actions"] == 1
    assert transitions(out.events) == []
    s = act(medic, s, "acted_before_call", T + 33)
    assert s.values["invalid_actions"] == 2
    # the rules too: a shot declared with its shooter, fired before the call (shot)
    assert set(RS.actions["acted_before_call"]["declared_by"]) == {"self", "narrator", "rules"}
    assert {"shoot", "move"} <= set(RS.states["healed_pending_call"]["cannot"])


def test_P13_the_invalid_actions_stay_after_the_call_for_the_referee(medic):
    s = act(medic, healed(medic), "acted_before_call", T + 32)
    s = act(medic, s, "retour_en_jeu", T + 40)
    assert s.status == "in_play" and s.values["invalid_actions"] == 1
    assert refused(medic, s, "acted_before_call", T + 41) == "not_in_state"


# -- P14: giving up ---------------------------------------------------------------------------

@pytest.mark.parametrize("by", ["self", "narrator"])
def test_P14_the_downed_player_gives_up_and_walks_to_spawn(medic, by):
    s = act(medic, down(medic), "request_medic", T + 12, zone="suicidal")
    out = medic.apply(s, SHEET, "give_up", T + 200)
    s = out.state
    assert s.status == "out_returning"
    assert s.timers == {}
    assert s.values["medic_requested"] is False and s.values["zone"] is None
    assert s.values["out_reason"] == "hit"
    assert transitions(out.events) == [("down_awaiting", "out_returning", T + 200)]
    assert by in RS.actions["give_up"]["declared_by"]


def test_P14_B3_even_while_counting(medic):
    out = medic.apply(counting(medic), SHEET, "give_up", T + 3)
    assert out.state.status == "out_returning" and out.state.timers == {}


def test_P14_not_while_a_medic_is_at_work(medic):
    assert refused(medic, being_healed(medic), "give_up", T + 25) == "not_in_state"


# -- P15 / C9: a referee's sanction-out ----------------------------------------------------------

@pytest.mark.parametrize("status", ["in_play", *DOWN, "at_spawn", "off_game"])
def test_P15_C9_a_sanction_out_sends_the_player_back_to_spawn(medic, status):
    s = state_in(medic, status)
    out = medic.apply(s, SHEET, "sanction_out", T + 1)
    after = out.state
    assert after.status == "out_returning"
    assert after.timers == {}                                  # a heal or a count is over
    assert after.values["out_reason"] == "sanction"
    assert after.values["medic_requested"] is False
    assert transitions(out.events) == [(status, "out_returning", T + 1)]


def test_P15_a_player_already_walking_back_is_marked_sanctioned(rules):
    s = act(rules, playing(rules), "hit", T)
    out = rules.apply(s, SHEET, "sanction_out", T + 5)
    assert out.state.status == "out_returning"
    assert out.state.values["out_reason"] == "sanction"
    assert transitions(out.events) == []


def test_C9_a_sanction_is_a_referees_not_a_players(rules):
    assert RS.actions["sanction_out"]["declared_by"] == ["narrator", "rules"]
    assert refused(rules, state_in(rules, "removed"), "sanction_out", T + 5) == "not_in_state"


# -- P16: under 3 m ----------------------------------------------------------------------

@pytest.mark.parametrize("mode", [False, True])
def test_P16_the_shooter_under_3_m_is_out_instead_of_the_target(mode):
    rules = make_rules(medic_mode=mode)
    shooter, target = playing(rules), playing(rules)
    out = rules.apply(shooter, SHEET, "too_close", T)
    assert out.state.status == "out_returning"       # straight back, even in medic mode
    assert out.state.values["out_reason"] == "too_close"
    assert out.state.timers == {}
    assert transitions(out.events) == [("in_play", "out_returning", T)]
    assert target.status == "in_play"                # nothing is declared on the target
    assert "min_engagement_distance_m" not in rules.options    # B15: the referees judge the 3 m


def test_P16_only_a_player_in_play_shoots(medic):
    assert refused(medic, down(medic), "too_close", T + 20) == "not_in_state"


# -- P17 / C7: battery or equipment ---------------------------------------------------------

@pytest.mark.parametrize("status", ["in_play", *DOWN])
def test_P17_C7_an_equipment_problem_sends_the_player_back_to_spawn(medic, status):
    out = medic.apply(state_in(medic, status), SHEET, "out_equipment", T + 1)
    assert out.state.status == "out_returning"
    assert out.state.timers == {}
    assert out.state.values["out_reason"] == "equipment"
    assert transitions(out.events) == [(status, "out_returning", T + 1)]
    assert RS.actions["out_equipment"]["declared_by"] == ["self"]


# -- P18 / C7: off game --------------------------------------------------------------------

@pytest.mark.parametrize("status", IN_GAME)
def test_P18_C7_a_player_goes_off_game_from_any_in_game_state(medic, status):
    s = state_in(medic, status)
    if status == "down_awaiting":
        s = act(medic, s, "request_medic", T + 1)
    out = medic.apply(s, SHEET, "off_game", T + 2)
    after = out.state
    assert after.status == "off_game"
    assert after.timers == {}
    assert after.values["medic_requested"] is False and after.values["zone"] is None
    assert transitions(out.events) == [(status, "off_game", T + 2)]


def test_P18_off_game_is_declared_by_the_player_only(rules):
    assert RS.actions["off_game"]["declared_by"] == ["self"]
    assert refused(rules, state_in(rules, "off_game"), "off_game", T + 61) == "not_in_state"


# -- P19: back from off game ----------------------------------------------------------------

def test_P19_B11_back_through_the_spawn_and_in_play_on_arrival(rules):
    out = rules.apply(state_in(rules, "off_game"), SHEET, "back_from_off_game", T + 600)
    assert out.state.status == "in_play"
    assert transitions(out.events) == [("off_game", "at_spawn", T + 600),
                                       ("at_spawn", "in_play", T + 600)]


def test_P19_B9_back_through_the_spawn_waits_there_for_the_signal():
    rules = make_rules(respawn_policy="on_signal")
    out = rules.apply(state_in(rules, "off_game"), SHEET, "back_from_off_game", T + 600)
    assert out.state.status == "at_spawn"
    assert transitions(out.events) == [("off_game", "at_spawn", T + 600)]
    assert act(rules, out.state, "respawn", T + 900).status == "in_play"


@pytest.mark.parametrize("policy", ["on_arrival_at_spawn", "on_signal"])
def test_P19_B11_direct_re_entry_skips_the_spawn(policy):
    rules = make_rules(off_game_reentry="direct", respawn_policy=policy)
    out = rules.apply(state_in(rules, "off_game"), SHEET, "back_from_off_game", T + 600)
    assert out.state.status == "in_play"
    assert transitions(out.events) == [("off_game", "in_play", T + 600)]


def test_P19_only_from_off_game(rules):
    assert refused(rules, playing(rules), "back_from_off_game", T) == "not_in_state"


# -- P20 / P21: spawn -------------------------------------------------------------------------

def test_P20_P21_B9_arriving_at_spawn_is_back_in_play_at_once(rules):
    s = act(rules, playing(rules), "hit", T)
    out = rules.apply(s, SHEET, "arrived_at_spawn", T + 90)
    assert out.state.status == "in_play"
    assert out.state.values["out_reason"] is None
    assert transitions(out.events) == [("out_returning", "at_spawn", T + 90),
                                       ("at_spawn", "in_play", T + 90)]


def test_P20_P21_B9_on_signal_the_player_waits_at_spawn_for_the_wave():
    rules = make_rules(respawn_policy="on_signal")
    s = act(rules, playing(rules), "hit", T)
    out = rules.apply(s, SHEET, "arrived_at_spawn", T + 90)
    s = out.state
    assert s.status == "at_spawn"
    assert s.timers == {} and s.values["out_reason"] is None
    assert transitions(out.events) == [("out_returning", "at_spawn", T + 90)]
    assert refused(rules, s, "hit", T + 100) == "not_in_state"     # nobody shoots at spawn
    out = rules.apply(s, SHEET, "respawn", T + 300)
    assert out.state.status == "in_play"
    assert transitions(out.events) == [("at_spawn", "in_play", T + 300)]
    assert set(RS.actions["respawn"]["declared_by"]) == {"self", "narrator"}


def test_P20_only_a_player_walking_back_arrives(rules):
    assert refused(rules, playing(rules), "arrived_at_spawn", T) == "not_in_state"
    assert refused(rules, playing(rules), "respawn", T) == "not_in_state"


# -- P22 / C10: grave sanctions ---------------------------------------------------------------

@pytest.mark.parametrize("status", [*IN_GAME, "off_game"])
def test_P22_C10_a_grave_sanction_removes_the_player_from_any_state(medic, status):
    s = state_in(medic, status)
    if status == "down_awaiting":
        s = act(medic, s, "request_medic", T + 1, zone="free")
    out = medic.apply(s, SHEET, "removed", T + 2)
    after = out.state
    assert after.status == "removed"
    assert medic.is_inert(after, T + 2)
    assert after.timers == {}
    assert after.values["medic_requested"] is False and after.values["zone"] is None
    assert after.values["out_reason"] == "sanction"
    assert transitions(out.events) == [(status, "removed", T + 2)]
    assert RS.actions["removed"]["declared_by"] == ["narrator", "rules"]


def test_P22_a_second_grave_sanction_keeps_the_player_removed(rules):
    """Removed from the game, then expelled for the day: the register records both, the
    player stays removed (no refusal for the second one)."""
    out = rules.apply(state_in(rules, "removed"), SHEET, "removed", T + 300)
    assert out.state.status == "removed"
    assert transitions(out.events) == []


def test_P22_nothing_a_removed_player_declares_counts(medic):
    s = state_in(medic, "removed")
    for action in ("hit", "off_game", "out_equipment", "respawn", "arrived_at_spawn",
                   "sanction_out", "game_started"):
        assert refused(medic, s, action, T + 300) == "not_in_state"


def test_P22_reinstated_by_the_organisers_the_player_starts_from_spawn(rules):
    out = rules.apply(state_in(rules, "removed"), SHEET, "reinstated", T + 900)
    assert out.state.status == "at_spawn"
    assert out.state.values["out_reason"] is None
    assert transitions(out.events) == [("removed", "at_spawn", T + 900)]
    assert act(rules, out.state, "respawn", T + 901).status == "in_play"
    assert RS.actions["reinstated"]["declared_by"] == ["narrator", "rules"]
    assert refused(rules, playing(rules), "reinstated", T) == "not_in_state"


# -- P23: hit again while out ------------------------------------------------------------

@pytest.mark.parametrize("status", [*DOWN, "out_returning"])
def test_P23_B5_a_player_already_out_is_not_hit_again(medic, status):
    s = state_in(medic, status)
    out = medic.apply(s, SHEET, "hit", T + 5)
    assert out.state == s                    # same state, deadlines and values
    assert transitions(out.events) == []


def test_P23_a_second_hit_does_not_restart_the_count(medic):
    s = act(medic, counting(medic), "hit", T + 8)
    assert s.timers == {"count": T + 10}
    assert medic.advance(s, SHEET, T + 10).state.status == "down_awaiting"


# -- a referee's correction ---------------------------------------------------------------

def test_a_referee_sets_any_state(medic):
    assert RS.actions["set_state"]["declared_by"] == ["narrator"]
    s = act(medic, playing(medic), "set_state", T, state="down_awaiting")
    assert s.status == "down_awaiting"
    assert act(medic, s, "set_state", T + 1, state="in_play").status == "in_play"


# -- B8: heals per player --------------------------------------------------------------------

def test_B8_heals_are_unlimited_by_default(medic):
    s = healed(medic)
    for n in range(2, 5):
        at = T + 100 * n
        s = act(medic, act(medic, s, "retour_en_jeu", at), "hit", at + 1)
        s = act(medic, medic.advance(s, SHEET, at + 11).state, "heal_started", at + 12)
        s = act(medic, s, "healed", at + 22)
        assert s.status == "healed_pending_call" and s.values["heals_received"] == n
    assert s.values["heals_used_up"] is False


def test_B8_one_heal_per_player_then_the_next_is_refused():
    rules = make_rules(medic_mode=True, max_heals_per_player=1)
    s = healed(rules)
    assert s.values["heals_received"] == 1 and s.values["heals_used_up"] is True
    s = act(rules, act(rules, s, "retour_en_jeu", T + 31), "hit", T + 200)
    s = rules.advance(s, SHEET, T + 210).state
    assert refused(rules, s, "heal_started", T + 220) == "not_now"
    s = act(rules, s, "extraction_started", T + 220)    # extraction is not a heal
    assert refused(rules, s, "heal_started", T + 240) == "not_now"
    s = act(rules, act(rules, s, "extraction_stopped", T + 250), "give_up", T + 260)
    assert s.status == "out_returning"


def test_B8_the_cap_is_per_game():
    rules = make_rules(medic_mode=True, max_heals_per_player=1)
    s = act(rules, act(rules, healed(rules), "retour_en_jeu", T + 31), "game_started", 3000.0)
    assert s.values["heals_received"] == 0 and s.values["heals_used_up"] is False
    s = rules.advance(act(rules, s, "hit", 3100.0), SHEET, 3110.0).state
    assert act(rules, s, "heal_started", 3120.0).status == "being_healed"


def test_B8_two_heals_allowed_by_a_cap_of_2():
    rules = make_rules(medic_mode=True, max_heals_per_player=2)
    s = healed(rules)
    assert s.values["heals_used_up"] is False
    s = act(rules, act(rules, s, "retour_en_jeu", T + 31), "hit", T + 200)
    s = act(rules, rules.advance(s, SHEET, T + 210).state, "heal_started", T + 220)
    s = act(rules, s, "healed", T + 230)
    assert s.values["heals_received"] == 2 and s.values["heals_used_up"] is True


# -- medic mode off: the whole medic side is closed ---------------------------------------------

def test_medic_mode_off_no_count_no_medic(rules):
    s = act(rules, playing(rules), "hit", T)
    assert s.status == "out_returning" and s.timers == {}
    for action in ("request_medic", "heal_started", "extraction_started", "give_up"):
        assert refused(rules, s, action, T + 20) == "not_in_state"


# -- options that only the referees and other services read ---------------------------------

def test_options_read_elsewhere_are_present_for_them():
    """club/selectors.py reads the replica limits; club/services/sanctions.py reads B13; the heal
    interaction reads B1 and the medic's shooting rules (rulesets/contracts.py)."""
    assert {"chrony", "club_sanctions", "heals", "games"} <= RS.features
    for key in ("max_power_joule", "calibre_mm", "full_auto", "cheating_first_offence",
                "medics", "extraction_medic_can_shoot", "healing_medic_can_shoot"):
        assert key in RS.options
