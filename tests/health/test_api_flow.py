"""The wound -> first aid -> coma timeline through the API, as a player, a medic and a
narrator would play it."""
from __future__ import annotations

import pytest
from fixtures import act, snapshot


@pytest.mark.django_db
def test_wound_first_aid_then_coma(clock, player, medic, player_api, medic_api):
    assert snapshot(player_api, player)["state"]["key"] == "healthy"

    response = act(player_api, player, "hit_wounding", key="k1")
    assert response.status_code == 200, response.content
    state = response.json()["snapshot"]
    assert state["state"]["key"] == "wounded"
    assert state["state"]["label"] == "Wounded"
    assert state["next"]["leads_to"]["key"] == "coma"
    assert state["next"]["remaining_s"] == 900

    clock.advance(5 * 60)
    start = medic_api.post(f"/api/characters/{medic.pk}/treatments/",
                           {"patient_code": player.code, "action": "first_aid"}, format="json")
    assert start.status_code == 201, start.content
    treatment = start.json()
    assert treatment["duration_s"] == 60

    early = medic_api.post(f"/api/treatments/{treatment['id']}/complete/")
    assert early.status_code == 409
    assert "not finished" in early.json()["detail"]

    clock.advance(60)
    done = medic_api.post(f"/api/treatments/{treatment['id']}/complete/")
    assert done.status_code == 200, done.content
    assert done.json()["status"] == "completed"

    state = snapshot(player_api, player)
    assert state["state"]["key"] == "wounded"
    assert state["next"]["remaining_s"] == 3600  # first aid novice: 1 h from completion
    medic.refresh_from_db()
    assert medic.kits["kps"] == 1

    clock.advance(3600)
    assert snapshot(player_api, player)["state"]["key"] == "coma"


@pytest.mark.django_db
def test_first_aid_completed_at_the_deadline_instant_is_in_time(clock, player, medic, player_api,
                                                                 medic_api):
    """A8: the deadline is inclusive for a treatment completing at that very instant."""
    act(player_api, player, "hit_wounding")
    clock.advance(14 * 60)
    treatment = medic_api.post(f"/api/characters/{medic.pk}/treatments/",
                               {"patient_code": player.code, "action": "first_aid"},
                               format="json").json()
    clock.advance(60)                     # completes at 15:00, the wounded deadline
    done = medic_api.post(f"/api/treatments/{treatment['id']}/complete/")
    assert done.status_code == 200, done.content
    state = snapshot(player_api, player)
    assert state["state"]["key"] == "wounded"
    assert state["next"]["remaining_s"] == 3600


@pytest.mark.django_db(transaction=True)
def test_a_write_while_redis_is_down_is_saved_and_answered(clock, player, player_api, settings):
    """Publishing after the commit is best effort: no 500 for a change already saved."""
    settings.CHANNEL_LAYERS = {"default": {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        "CONFIG": {"hosts": [{"address": "redis://127.0.0.1:1/0", "socket_timeout": 1}]}}}
    response = act(player_api, player, "hit_wounding", key="while-redis-is-down")
    assert response.status_code == 200, response.content
    assert snapshot(player_api, player)["state"]["key"] == "wounded"
