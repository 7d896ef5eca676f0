"""Who may write to a character's health, and when (health/services.py, health/checks.py,
health/apis.py): while the game is paused only narrators act; a player never declares
what only a narrator may; a treatment is its medic's alone; a first-aider whom a trap left
paralysed gives no first aid until the paralysis ends."""
from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from fixtures import (MEDIC_SHEET, act, client_for, personaje, septenario_event, snapshot,
                      start_treatment)
from health.models import Treatment
from players.models import JournalEntry
from players.services import character_create

pytestmark = pytest.mark.django_db


def clock_to(api, event, action):
    response = api.post(f"/api/events/{event.pk}/clock/", {"action": action}, format="json")
    assert response.status_code == 200, response.content


@pytest.mark.parametrize("lang, words", [
    ("en", "The game is paused (game stop); only organisers can act."),
    ("fr", "Le jeu est arrêté (arrêt de jeu) ; seuls les organisateurs peuvent agir."),
    ("es", "El juego está detenido (Emergencia); solo la organización puede actuar."),
])
def test_while_paused_a_narrator_acts_and_a_player_is_refused(clock, event, player, narrator_api,
                                                             lang, words):
    clock_to(narrator_api, event, "pause")

    refused = act(client_for(player.user, lang), player, "hit_wounding")
    assert (refused.status_code, refused.json()) == (409, {"error": "game_paused", "detail": words})
    assert snapshot(narrator_api, player)["state"]["key"] == "healthy"

    done = act(narrator_api, player, "set_state", state="wounded")
    assert done.status_code == 200, done.content
    assert snapshot(narrator_api, player)["state"]["key"] == "wounded"


@pytest.mark.parametrize("lang, words", [
    ("en", "You cannot declare Set the health state yourself."),
    ("fr", "Vous ne pouvez pas déclarer vous-même : Changer l'état de santé."),
    ("es", "No puedes declarar tú mismo: Cambiar el estado de salud."),
])
def test_a_player_may_not_declare_a_narrator_only_action(clock, player, narrator_api, lang, words):
    refused = act(client_for(player.user, lang), player, "set_state", state="dead")
    assert (refused.status_code, refused.json()) == (
        403, {"error": "not_declarable", "detail": words})
    assert snapshot(narrator_api, player)["state"]["key"] == "healthy"
    assert not JournalEntry.objects.filter(character=player, kind="action").exists()


def test_a_treatment_is_its_medics_alone(clock, event, player, player_api, medic, medic_api,
                                         narrator_user):
    other = character_create(event=event, name="Claire", sheet=MEDIC_SHEET, kits={"kps": 1},
                             by=narrator_user)
    other_api = client_for(other.user)
    act(player_api, player, "hit_wounding")
    started = start_treatment(medic_api, medic, player, "first_aid").json()
    clock.advance(60)

    for method, path in (("get", ""), ("post", "complete/"), ("post", "abort/")):
        response = getattr(other_api, method)(f"/api/treatments/{started['id']}/{path}")
        assert response.status_code == 404, (path, response.content)
    assert Treatment.objects.get(pk=started["id"]).status == Treatment.RUNNING
    other.refresh_from_db()
    assert other.kits == {"kps": 1}                 # nobody's kit used by the refused attempt

    done = medic_api.post(f"/api/treatments/{started['id']}/complete/")
    assert (done.status_code, done.json()["status"]) == (200, "completed")


def test_a_paralysed_first_aider_gives_no_first_aid_until_the_paralysis_ends(clock, narrator_user):
    """Septenario, TS5: a simple trap's paralysis (`inert_cannot: first_aid`) leaves Inés
    Unharmed but unable to treat anyone for its five minutes."""
    event = septenario_event(narrator_user)
    lucia = personaje(event, narrator_user, "Lucía")
    ines = personaje(event, narrator_user, "Inés", abilities=["primeros_auxilios"])
    lucia_api, ines_api = client_for(lucia.user, "es"), client_for(ines.user, "es")
    trapped = act(ines_api, ines, "trap_simple", leaves="paralysed")
    assert trapped.json()["snapshot"]["state"]["key"] == "unharmed"
    clock.advance(10)
    act(lucia_api, lucia, "hit", location="torso")                  # Lucía falls, 5 min to live

    refused = start_treatment(ines_api, ines, lucia, "first_aid")
    assert (refused.status_code, refused.json()["error"]) == (409, "actor_cannot")
    assert not Treatment.objects.exists()

    clock.advance(290)                                             # the trap's 5 minutes are over
    started = start_treatment(ines_api, ines, lucia, "first_aid")
    assert started.status_code == 201, started.content


@pytest.mark.parametrize("action", ["first_aid", "surgery", "metabolic_analysis"])
def test_L17_an_inert_medic_cannot_start_first_aid_until_the_inert_minute_ends(
        clock, event, player, player_api, medic, medic_api, narrator_api, action):
    """"Fatigué : Le personnage tombe inerte 1mn": a medic who has just fallen Tired lies
    inert, and their own phone says they cannot act; no medical skill until the minute is
    over (a Tired medic may treat afterwards, A24)."""
    params = {"calm_place": True} if action == "surgery" else {}
    act(player_api, player, "hit_wounding")
    act(narrator_api, medic, "set_state", state="tired")
    clock.advance(30)
    mine = snapshot(medic_api, medic)["state"]
    assert "act" in [c["key"] for c in mine["cannot"]]

    refused = start_treatment(medic_api, medic, player, action, **params)
    assert (refused.status_code, refused.json()["error"]) == (409, "actor_cannot")
    assert "inert" in refused.json()["detail"]
    assert not Treatment.objects.exists()

    clock.advance(30)                                              # the inert minute is over
    started = start_treatment(medic_api, medic, player, action, **params)
    assert started.status_code == 201, started.content


def test_L58_a_medic_out_of_game_gives_no_first_aid(clock, event, player, player_api, medic,
                                                      medic_api, narrator_api):
    """"Les autres personnages vous ignoreront mais pas les organisateurs !": hors-jeu,
    Bruno's skills are out of the game too, and nobody treats a patient who is hors-jeu;
    an organiser's correction still lands."""
    act(player_api, player, "hit_wounding")
    assert act(medic_api, medic, "out_of_game").status_code == 200
    refused = start_treatment(medic_api, medic, player, "first_aid")
    assert (refused.status_code, refused.json()["error"]) == (409, "character_out_of_game")
    assert "Bruno" in refused.json()["detail"]
    assert not Treatment.objects.exists()

    assert act(medic_api, medic, "back_in_game").status_code == 200
    assert act(player_api, player, "out_of_game").status_code == 200
    refused = start_treatment(medic_api, medic, player, "first_aid")
    assert (refused.status_code, refused.json()["error"]) == (409, "character_out_of_game")
    assert "Alice" in refused.json()["detail"]
    corrected = act(narrator_api, player, "set_state", state="tired")
    assert corrected.status_code == 200, corrected.content

    assert act(player_api, player, "back_in_game").status_code == 200
    act(narrator_api, player, "set_state", state="wounded")
    assert start_treatment(medic_api, medic, player, "first_aid").status_code == 201
