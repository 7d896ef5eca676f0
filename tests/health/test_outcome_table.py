"""The outcome table a phone keeps for declarations tapped with no network
(`GET /api/characters/{id}/outcomes/`): what each declaration the player may make would
do now, worked out by the rules themselves for this character."""
from __future__ import annotations

import pytest

from fixtures import act, client_for, personaje, septenario_event

pytestmark = pytest.mark.django_db


def table(api, character):
    response = api.get(f"/api/characters/{character.pk}/outcomes/")
    assert response.status_code == 200, response.content
    return response.json()


def test_a_wound_shows_its_state_and_the_countdown_it_starts(clock, event, player, player_api):
    outcomes = table(player_api, player)
    assert outcomes["state"] == "healthy"
    assert set(outcomes["outcomes"]) == {"hit_stunning", "hit_wounding", "hit_firearm",
                                         "out_of_game"}
    [wound] = outcomes["outcomes"]["hit_wounding"]
    assert wound["state"] == "wounded" and wound["params"] == {}
    deadline = next(t for t in wound["timers"] if t["key"] == "deadline")
    assert deadline == {"key": "deadline", "kept": False, "after_s": 900, "leads_to": "coma"}
    assert outcomes["states"]["wounded"]["label"] == "Wounded"
    assert outcomes["states"]["coma"]["label"] == "In a coma"      # what the countdown leads to
    assert outcomes["timers"]["deadline"] == "Treatment deadline"
    assert "fight" in wound["cannot"]


def test_a_second_wound_keeps_the_first_deadline(clock, event, player, player_api):
    act(player_api, player, "hit_wounding")
    clock.advance(120)
    [again] = table(player_api, player)["outcomes"]["hit_wounding"]
    deadline = next(t for t in again["timers"] if t["key"] == "deadline")
    # rewound_deadline_policy: min, the default: the phone keeps the countdown it shows.
    assert deadline["kept"] is True and deadline["after_s"] is None


def test_a_stun_depends_on_the_characters_own_score(clock, event, player, player_api):
    [first] = table(player_api, player)["outcomes"]["hit_stunning"]
    assert first["state"] == "healthy"                  # combat score 2: one point lost
    act(player_api, player, "hit_stunning")
    [second] = table(player_api, player)["outcomes"]["hit_stunning"]
    assert second["state"] == "tired"                   # the last point: Tired


def test_a_hit_by_body_location_lists_each_place_and_weapon(clock, narrator_user):
    event = septenario_event(narrator_user)
    lucia = personaje(event, narrator_user)
    hits = table(client_for(lucia.user, "es"), lucia)["outcomes"]["hit"]
    by_params = {(e["params"]["location"], e["params"]["weapon"], e["params"]["solid"]): e
                 for e in hits}
    assert by_params[("left_arm", "standard", True)]["state"] == "wounded"
    assert by_params[("left_arm", "standard", False)]["state"] == "unharmed"
    # A melee blow to the head does not count (the server refuses it): no guess for it.
    assert ("head", "standard", True) not in by_params
    assert ("head", "missile", True) in by_params


def test_someone_elses_table_is_not_found(clock, event, player, other_player):
    response = client_for(other_player.user).get(f"/api/characters/{player.pk}/outcomes/")
    assert response.status_code == 404
