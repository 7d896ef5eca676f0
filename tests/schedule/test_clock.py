"""Arrêt de jeu: narrators pause the game clock, every countdown freezes and resumes
where it was; while paused only narrators act."""
from __future__ import annotations

from datetime import timedelta

import pytest
from fixtures import act, client_for, snapshot

from health.services import characters_sweep


def clock_action(api, event, action):
    return api.post(f"/api/events/{event.pk}/clock/", {"action": action}, format="json")


@pytest.mark.django_db
def test_pause_freezes_every_countdown_and_resume_continues(clock, event, player, player_api,
                                                           narrator_api):
    act(player_api, player, "hit_wounding")
    clock.advance(5 * 60)
    assert clock_action(narrator_api, event, "pause").status_code == 200

    clock.advance(60 * 60)                # an hour-long game stop
    characters_sweep()
    paused = snapshot(player_api, player)
    assert paused["state"]["key"] == "wounded"
    assert paused["clock"] == {"running": False, "game_time_s": 300, "game": None,
                               "next_game": None}
    assert paused["next"]["remaining_s"] == 600
    assert paused["next"]["at"] is None   # no wall-clock instant while frozen

    assert clock_action(narrator_api, event, "resume").status_code == 200
    clock.advance(599)
    running = snapshot(player_api, player)
    assert running["state"]["key"] == "wounded"
    assert running["next"]["remaining_s"] == 1
    assert running["next"]["at"] == (clock.now + timedelta(seconds=1)).isoformat()
    clock.advance(1)
    assert snapshot(player_api, player)["state"]["key"] == "coma"


@pytest.mark.django_db
def test_while_paused_players_and_medics_wait_but_narrators_act(clock, event, player, medic,
                                                                player_api, medic_api,
                                                                narrator_api):
    clock_action(narrator_api, event, "pause")
    refused = act(client_for(player.user, "fr"), player, "hit_wounding")
    assert refused.status_code == 409
    assert refused.json()["detail"].startswith("Le jeu est arrêté")
    started = medic_api.post(f"/api/characters/{medic.pk}/treatments/",
                             {"patient_code": player.code, "action": "metabolic_analysis"},
                             format="json")
    assert started.status_code == 409
    assert act(narrator_api, player, "set_state", state="tired").status_code == 200
    assert snapshot(player_api, player)["state"]["key"] == "tired"


@pytest.mark.django_db
def test_pausing_twice_is_refused_and_changes_nothing(clock, event, narrator_api):
    clock_action(narrator_api, event, "pause")
    clock.advance(10)
    again = clock_action(narrator_api, event, "pause")
    assert again.status_code == 409
    assert again.json()["error"] == "game_already_paused"
    assert clock_action(narrator_api, event, "resume").status_code == 200
    assert clock_action(narrator_api, event, "resume").status_code == 409
