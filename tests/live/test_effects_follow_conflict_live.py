"""Septenario: a blow that pushes the Conflict back moves the end of the character's
effect on the phone, in the snapshot pushed live; what the phone then holds equals a
fresh fetch."""
from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from fixtures import act, client_for, comparable, personaje, septenario_event, snapshot
from phone_merge import apply_push

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def connect(api, query: str):
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver"),
               (b"cookie", f"sessionid={api.cookies['sessionid'].value}".encode())]
    phone = WebsocketCommunicator(application, f"/ws/live/?{query}", headers=headers)
    connected, _ = await phone.connect(timeout=5)
    assert connected
    return phone


async def test_the_phone_sees_the_effects_end_follow_the_conflict(clock, narrator_user,
                                                                   narrator_api):
    event = await sync_to_async(septenario_event)(narrator_user)
    lucia = await sync_to_async(personaje)(event, narrator_user)
    api = await sync_to_async(client_for)(lucia.user, "es")
    phone = await connect(api, f"character={lucia.pk}&lang=es")
    held = (await phone.receive_json_from(timeout=5))["snapshot"]
    answer = await sync_to_async(narrator_api.post)(
        f"/api/events/{event.pk}/effects/", {"text": "Efecto: miedo", "character_ids": [lucia.pk]},
        format="json")
    assert answer.status_code == 201
    held = apply_push(held, await phone.receive_json_from(timeout=5))
    assert held["effects"][0]["ends_game_s"] == 120
    clock.advance(60)
    assert (await sync_to_async(act)(api, lucia, "hit", location="left_arm")).status_code == 200
    message = await phone.receive_json_from(timeout=5)
    assert message["type"] == "snapshot"
    held = apply_push(held, message)
    assert held["effects"][0]["ends_game_s"] == 180              # the Conflict's end
    fresh = await sync_to_async(snapshot)(api, lucia)
    assert comparable(held) == comparable(fresh)
    assert await phone.receive_nothing(timeout=0.2)
    await phone.disconnect()
