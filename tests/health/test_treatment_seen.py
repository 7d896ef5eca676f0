"""A treatment as its two sides see it: the patient's phone shows who treats them and
until when while it runs (and nothing once it is over); the medic's answer says what it
did, naming the patient's state only where the rules decide it whatever it was."""
from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from fixtures import (act, client_for, connect, next_snapshot, personaje, septenario_event, snapshot,
                      start_treatment)

pytestmark = pytest.mark.django_db


def pause(api, event, action="pause"):
    assert api.post(f"/api/events/{event.pk}/clock/", {"action": action},
                    format="json").status_code == 200


def test_the_patient_sees_who_treats_them_and_until_when(clock, event, player, other_player,
                                                          medic, medic_api, player_api,
                                                          narrator_api):
    act(player_api, player, "hit_wounding")
    started = start_treatment(medic_api, medic, player, "first_aid").json()
    clock.advance(18)
    running, = snapshot(player_api, player)["treatments"]
    # The medic is named by their character's name, and nothing else of them.
    assert set(running) == {"id", "action", "care", "by", "game_s", "remaining_s", "at"}
    assert (running["by"], running["action"]["label"], running["care"]) == ("Bruno", "First aid", True)
    assert running["remaining_s"] == 42
    assert running["at"] == started["ready_at"]
    assert snapshot(client_for(other_player.user), other_player)["treatments"] == []

    pause(narrator_api, event)                 # frozen: no instant, the seconds left
    clock.advance(600)
    frozen, = snapshot(player_api, player)["treatments"]
    assert (frozen["remaining_s"], frozen["at"]) == (42, None)
    pause(narrator_api, event, "resume")

    assert medic_api.post(f"/api/treatments/{started['id']}/abort/").status_code == 200
    assert snapshot(player_api, player)["treatments"] == []


def test_a_killing_blow_is_shown_as_what_it_is(clock, narrator_user):
    event = septenario_event(narrator_user)
    lucia, mateo = personaje(event, narrator_user, "Lucía"), personaje(event, narrator_user, "Mateo")
    lucia_api, mateo_api = client_for(lucia.user, "es"), client_for(mateo.user, "es")
    act(lucia_api, lucia, "hit", location="torso")          # down: a Golpe Mortal applies
    assert start_treatment(mateo_api, mateo, lucia, "golpe_mortal", armed=True).status_code == 201
    running, = snapshot(lucia_api, lucia)["treatments"]
    assert (running["by"], running["action"]["label"], running["care"]) == ("Mateo", "Golpe Mortal", False)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_patients_phone_hears_the_start_and_the_abort_and_no_one_else(
        clock, event, player, other_player, medic, medic_api, player_api):
    other_api = await sync_to_async(client_for)(await sync_to_async(lambda: other_player.user)())
    phone, connected, _ = await connect(player_api, f"character={player.pk}&lang=es")
    assert connected
    first = await next_snapshot(phone)
    other, connected, _ = await connect(other_api, f"character={other_player.pk}")
    assert connected
    await next_snapshot(other)

    await sync_to_async(act)(player_api, player, "hit_wounding")
    await next_snapshot(phone)
    started = (await sync_to_async(start_treatment)(medic_api, medic, player, "first_aid")).json()
    seen = await next_snapshot(phone)
    assert seen["version"] > first["version"]
    assert [(t["by"], t["action"]["label"], t["remaining_s"]) for t in seen["treatments"]] == [
        ("Bruno", "Primeros auxilios", 60)]
    await sync_to_async(medic_api.post)(f"/api/treatments/{started['id']}/abort/")
    assert (await next_snapshot(phone))["treatments"] == []
    assert await other.receive_nothing(timeout=0.5)
    await phone.disconnect()
    await other.disconnect()


def test_a_surgery_tells_the_medic_the_state_it_leaves(clock, player, medic, medic_api,
                                                       player_api):
    act(player_api, player, "hit_wounding")
    started = start_treatment(medic_api, medic, player, "surgery", calm_place=True).json()
    clock.advance(300)
    done = medic_api.post(f"/api/treatments/{started['id']}/complete/").json()
    assert done["status"] == "completed"
    assert done["result"]["state"] == {"key": "tired", "label": "Tired"}
    recover, = done["result"]["timers"]
    assert (recover["key"], recover["remaining_s"], recover["leads_to"]["label"]) == (
        "recover", 1800, "Healthy")
    assert snapshot(player_api, player)["state"]["key"] == "tired"


def test_a_first_aid_keeps_the_patients_state_from_the_medic(clock, player, medic, medic_api,
                                                             player_api):
    """Its result depends on the patient's state (wounded: an hour before a coma; in a
    coma: an hour before death), which the medic does not learn from it."""
    act(player_api, player, "hit_wounding")
    started = start_treatment(medic_api, medic, player, "first_aid").json()
    clock.advance(60)
    done = medic_api.post(f"/api/treatments/{started['id']}/complete/").json()
    assert done["status"] == "completed"
    assert done["result"] == {}


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_medics_phone_hears_the_kit_a_treatment_used(clock, player, medic, medic_api,
                                                              player_api):
    """A first aid uses a KPS: the medic's own sheet, on their phone, says one is left."""
    def kps(snap) -> int:
        return next(k["count"] for k in snap["sheet"]["kits"] if k["key"] == "kps")

    await sync_to_async(act)(player_api, player, "hit_wounding")
    started = (await sync_to_async(start_treatment)(medic_api, medic, player, "first_aid")).json()
    phone, connected, _ = await connect(medic_api, f"character={medic.pk}")
    assert connected
    assert kps(await next_snapshot(phone)) == 2
    clock.advance(60)

    done = await sync_to_async(medic_api.post)(f"/api/treatments/{started['id']}/complete/")

    assert done.status_code == 200, done.content
    assert kps(await next_snapshot(phone)) == 1
    await phone.disconnect()
