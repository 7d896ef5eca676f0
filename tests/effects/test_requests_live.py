"""Requests to the organisers reach the narrators' screens the moment they are asked or
answered, through the event's narrators' group, and nobody else's phone."""
from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from fixtures import client_for, connect

from effects.models import OrganiserRequest
from players.services import event_create

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

QUESTION = "Je brise le vieux coffre à coups de hache"


@pytest.fixture
def other_api(other_player):
    return client_for(other_player.user)


def ask(api, character, text=QUESTION):
    return api.post(f"/api/characters/{character.pk}/requests/", {"text": text}, format="json")


def reply(api, request_id, text="Effet : le coffre s'ouvre"):
    return api.post(f"/api/requests/{request_id}/answer/", {"text": text}, format="json")


async def narrators_screen(api, event):
    """The narrators' live view, past its first snapshot."""
    screen, connected, _ = await connect(api, f"event={event.pk}&lang=fr")
    assert connected
    first = await screen.receive_json_from(timeout=5)
    assert first["type"] == "event_snapshot"
    return screen


async def players_phone(api, character):
    phone, connected, _ = await connect(api, f"character={character.pk}")
    assert connected
    assert (await phone.receive_json_from(timeout=5))["type"] == "snapshot"
    return phone


async def next_of_type(screen, kind: str) -> dict:
    """The next message of that type (effects and snapshots may come before it)."""
    for _ in range(10):
        message = await screen.receive_json_from(timeout=5)
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind} message")


async def test_a_new_request_reaches_the_narrators_at_once_and_no_player(
        clock, event, player, other_player, other_api, narrator_api, player_api):
    narrators = await narrators_screen(narrator_api, event)
    asker = await players_phone(player_api, player)
    other = await players_phone(other_api, other_player)

    response = await sync_to_async(ask)(player_api, player)
    assert response.status_code == 201

    message = await narrators.receive_json_from(timeout=5)
    assert message["type"] == "request"
    assert isinstance(message["server_time"], float)
    request = message["request"]
    assert (request["id"], request["status"], request["text"]) == (response.json()["id"], "open", QUESTION)
    assert request["character"] == {"id": player.pk, "name": "Alice"}
    # Neither the one who asked nor any other player hears of it.
    assert await asker.receive_nothing(timeout=0.5)
    assert await other.receive_nothing(timeout=0.2)
    for screen in (narrators, asker, other):
        await screen.disconnect()


async def test_an_answered_request_leaves_every_narrators_list(
        clock, event, player, other_player, other_api, narrator_api, player_api):
    asked = (await sync_to_async(ask)(player_api, player)).json()
    narrators = await narrators_screen(narrator_api, event)
    other = await players_phone(other_api, other_player)

    assert (await sync_to_async(reply)(narrator_api, asked["id"])).status_code == 200

    closed = (await next_of_type(narrators, "request"))["request"]
    assert (closed["id"], closed["status"], closed["answered_by"]) == (asked["id"], "answered", "narrator")
    assert await other.receive_nothing(timeout=0.5)
    await narrators.disconnect()
    await other.disconnect()


async def test_a_refused_request_is_not_announced(clock, event, player, narrator_api, player_api):
    narrators = await narrators_screen(narrator_api, event)
    assert (await sync_to_async(ask)(player_api, player, text="   ")).status_code == 400
    assert await narrators.receive_nothing(timeout=0.5)
    assert await sync_to_async(OrganiserRequest.objects.count)() == 0
    await narrators.disconnect()


async def test_another_events_narrators_hear_nothing(clock, event, player, narrator_user,
                                                     narrator_api, player_api):
    elsewhere = await sync_to_async(event_create)(name="Autre GN", ruleset="gn_fr",
                                                  by=narrator_user, start_clock=True)
    narrators = await narrators_screen(narrator_api, elsewhere)
    assert (await sync_to_async(ask)(player_api, player)).status_code == 201
    assert await narrators.receive_nothing(timeout=0.5)
    await narrators.disconnect()
