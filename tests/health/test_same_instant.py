"""At the very second a count ends, every service agrees (rulesets/instants.py): airsoft
rulebook §2 "Après avoir compté jusqu'à 10, le blessé peut demander un médecin". What the
phone shows then is what the player may declare (a first aid that ends at a wound's
deadline is still in time: tests/health/test_api_flow.py)."""
from __future__ import annotations

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings, strategies as st

from fixtures import act, client_for, snapshot
from health.models import HealthState
from players.models import Event
from players.services import character_create, event_create, team_get_or_create

pytestmark = pytest.mark.django_db

SELF_ACTIONS = ["hit", "request_medic", "give_up", "retour_en_jeu", "arrived_at_spawn",
                "respawn", "out_equipment", "off_game", "back_from_off_game"]
BY_STATE = {"not_in_state", "not_now"}


def airsoft_player(narrator_user, name="Karim"):
    game = event_create(name="Partie au Terrier", ruleset="airsoft_rats", language="fr",
                        options={"medic_mode": True}, by=narrator_user, start_clock=True)
    character = character_create(event=game, name=name, sheet={}, by=narrator_user,
                                 team=team_get_or_create(event=game, name="rouge"))
    phone = client_for(character.user)
    assert act(phone, character, "respawn").status_code == 200
    return character, phone


def shown(phone, character) -> tuple[str, set]:
    held = snapshot(phone, character)
    return held["state"]["key"], {a["key"] for a in held["actions"]}


def test_P03_C3_at_exactly_ten_seconds_the_call_for_a_medic_is_shown_and_taken(
        clock, narrator_user):
    karim, phone = airsoft_player(narrator_user)
    assert act(phone, karim, "hit").status_code == 200
    clock.advance(10)                                  # the tenth second, to the microsecond
    state, actions = shown(phone, karim)
    assert state == "down_awaiting" and "request_medic" in actions
    asked = act(phone, karim, "request_medic", zone="free")
    assert asked.status_code == 200, asked.content
    held = snapshot(phone, karim)
    assert held["values"]["medic_requested"] is True
    assert "medic_requested" in {f["key"] for f in held["flags"]}


def test_P03_a_moment_before_ten_seconds_the_player_is_still_counting(clock, narrator_user):
    karim, phone = airsoft_player(narrator_user)
    assert act(phone, karim, "hit").status_code == 200
    clock.advance(9.999)
    state, actions = shown(phone, karim)
    assert state == "hit_counting" and "request_medic" not in actions
    refused = act(phone, karim, "request_medic", zone="free")
    assert (refused.status_code, refused.json()["error"]) == (409, "not_in_state")


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(steps=st.lists(st.tuples(st.sampled_from(SELF_ACTIONS),
                                st.sampled_from([0.0, 1.0, 5.0, 10.0])), max_size=5),
       onto_deadline=st.booleans())
def test_at_any_instant_the_snapshot_offers_exactly_what_the_server_accepts(
        clock, narrator_user, steps, onto_deadline):
    karim, phone = airsoft_player(narrator_user)
    for action, gap in steps:
        clock.advance(gap)
        act(phone, karim, action, **({"zone": "free"} if action == "request_medic" else {}))
    health = HealthState.objects.get(pk=karim.pk)
    if onto_deadline and health.next_deadline_s is not None:   # the very second it falls
        clock.advance(health.next_deadline_s
                      - Event.objects.get(pk=karim.event_id).game_time(clock.now))
    state, offered = shown(phone, karim)
    for action in SELF_ACTIONS:
        with transaction.atomic():                     # each tried alone, then undone
            answer = act(phone, karim, action,
                         **({"zone": "free"} if action == "request_medic" else {}))
            transaction.set_rollback(True)
        if action in offered:
            assert answer.status_code == 200, (state, action, answer.content)
        else:
            assert answer.status_code == 409, (state, action)
            assert answer.json()["error"] in BY_STATE, (state, action, answer.json())
