"""Calls for help and positions follow the person: in their export, gone after their
erasure and after the event's retention."""
from __future__ import annotations

from datetime import timedelta

from fixtures import client_for
from players.models import JournalEntry
from players.privacy_services import events_personal_data_purge
from safety.models import Contact, HelpCall

POSITION = {"latitude": 45.7612, "longitude": 4.8321, "accuracy_m": 8.0}


def a_call(api, event, note="sprained wrist by the lake"):
    response = api.post(f"/api/events/{event.pk}/help/", {"kind": "injured", "note": note,
                                                          "position": POSITION}, format="json")
    assert response.status_code == 201, response.content
    return response.json()["id"]


def test_the_export_holds_the_persons_calls_positions_and_contact(
        clock, event, player, other_player, player_api, narrator_api):
    mine = a_call(player_api, event)
    a_call(client_for(other_player.user), event, note="someone else's")
    player_api.post(f"/api/characters/{player.pk}/battery/", {"level": 0.4}, format="json")
    document = narrator_api.post(f"/api/characters/{player.pk}/export/", {}, format="json").json()
    call, = document["help_calls"]
    assert (call["id"], call["note"], call["position"]) == (mine, "sprained wrist by the lake", POSITION)
    contact, = document["safety_contacts"]
    assert (contact["character"], contact["battery_level"]) == (player.pk, 40)
    # No race tracked here: no last position (tests/safety/test_race_tracking.py has one).
    assert contact["last_position"] is None


def test_an_erasure_deletes_the_persons_calls_and_contact_and_keeps_others(
        clock, event, player, other_player, player_api, narrator_api):
    a_call(player_api, event)
    theirs = a_call(client_for(other_player.user), event, note="someone else's")
    response = narrator_api.post(f"/api/characters/{player.pk}/erase/", {"confirm": True}, format="json")
    assert response.status_code == 200, response.content
    assert list(HelpCall.objects.values_list("pk", flat=True)) == [theirs]
    assert not Contact.objects.filter(pk=player.pk).exists()
    assert not HelpCall.objects.filter(note__contains="sprained").exists()
    # The journal still says a call was made, without its note or place.
    assert JournalEntry.objects.filter(kind="safety", what="help_called").count() == 2


def test_the_retention_purge_lets_go_of_every_call_and_contact(clock, event, player, player_api):
    a_call(player_api, event)
    clock.advance(timedelta(days=event.retention_days + 1).total_seconds())
    assert events_personal_data_purge() == 1
    assert not HelpCall.objects.exists() and not Contact.objects.exists()
