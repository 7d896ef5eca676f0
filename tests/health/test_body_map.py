"""The body map on a Septenario phone: a limb a wooden blow stunned and until when, a
wounded torso, the Conflict under way and when it ends, and the armour left in it and
for the next ones, as the player reads them."""
from __future__ import annotations

import pytest

from fixtures import act, client_for, personaje, septenario_event, snapshot

pytestmark = pytest.mark.django_db

OK = {"status": "ok", "points": 0, "until_game_s": None, "remaining_s": None, "at": None}


@pytest.fixture
def game(clock, narrator_user):
    return septenario_event(narrator_user)


def where(snap, key) -> dict:
    return next(loc for loc in snap["body"]["locations"] if loc["key"] == key)


def test_a_wooden_blow_stuns_the_arm_for_five_minutes_and_the_map_says_until_when(
        game, narrator_user, clock):
    lucia = personaje(game, narrator_user)
    api = client_for(lucia.user, "es")
    clock.advance(10)
    assert act(api, lucia, "hit", location="left_arm", weapon="wooden").status_code == 200
    clock.advance(20.25)

    snap = snapshot(api, lucia)
    assert where(snap, "left_arm") == {
        "key": "left_arm", "label": "Brazo izquierdo", "status": "stunned", "points": 1,
        "until_game_s": 310.0, "remaining_s": 279.75, "at": "2026-06-06T20:05:10+00:00"}
    assert where(snap, "right_arm") == {"key": "right_arm", "label": "Brazo derecho", **OK}
    assert snap["body"]["damage_points"] == 1
    # The blow started a Conflict: it ends two minutes after it unless another comes.
    assert snap["body"]["conflict"] == {"until_game_s": 130.0, "remaining_s": 99.75,
                                        "at": "2026-06-06T20:02:10+00:00"}

    clock.advance(100)                                   # the Conflict is over, the stun not
    snap = snapshot(api, lucia)
    assert snap["body"]["conflict"] is None
    assert where(snap, "left_arm")["remaining_s"] == 179.75


def test_a_wound_in_the_torso_shows_on_the_torso(game, narrator_user):
    lucia = personaje(game, narrator_user)
    api = client_for(lucia.user, "es")
    snap = act(api, lucia, "hit", location="torso").json()["snapshot"]
    assert where(snap, "torso") == {"key": "torso", "label": "Torso", "status": "wounded",
                                    "points": 1, "until_game_s": None, "remaining_s": None,
                                    "at": None}
    assert where(snap, "left_leg")["status"] == "ok"


def test_the_armour_comes_back_whole_once_the_conflict_is_over(game, narrator_user, clock):
    lucia = personaje(game, narrator_user, armour="light")
    api = client_for(lucia.user, "es")
    whole = {"kind": "light", "base": 1, "next_conflict": 1, "left_now": 1}
    assert snapshot(api, lucia)["body"]["armour"] == whole       # no Conflict yet

    snap = act(api, lucia, "hit", location="left_arm").json()["snapshot"]
    # Absorbed: spent for this Conflict, not worn for the next ones (no wound).
    assert snap["body"]["armour"] == {**whole, "left_now": 0}
    clock.advance(121)
    assert snapshot(api, lucia)["body"]["armour"] == whole


def test_a_character_without_armour_has_no_armour_panel(game, narrator_user):
    lucia = personaje(game, narrator_user)
    assert snapshot(client_for(lucia.user, "es"), lucia)["body"]["armour"] is None
