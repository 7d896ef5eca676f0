"""What each phone receives during a duel: its own snapshot with its own result, never
the other side's score (the rulebook has them announce it discreetly; the phone keeps it
secret altogether)."""
from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from fixtures import client_for

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def phone(api, character):
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver"),
               (b"cookie", f"sessionid={api.cookies['sessionid'].value}".encode())]
    socket = WebsocketCommunicator(application, f"/ws/live/?character={character.pk}",
                                   headers=headers)
    connected, _ = await socket.connect(timeout=5)
    assert connected
    return socket


async def everything(socket) -> list[dict]:
    messages = []
    while not await socket.receive_nothing(timeout=0.3):
        messages.append(await socket.receive_json_from(timeout=1))
    return messages


async def test_each_phone_gets_its_own_result_and_never_the_other_score(clock, event, player,
                                                                        other_player):
    alice_api = await sync_to_async(client_for)(player.user)
    denis_api = await sync_to_async(client_for)(other_player.user)
    alice, denis = await phone(alice_api, player), await phone(denis_api, other_player)

    proposed = await sync_to_async(alice_api.post)(
        f"/api/characters/{player.pk}/duels/", {"opponent_code": other_player.code}, format="json")
    answered = await sync_to_async(denis_api.post)(
        f"/api/duels/{proposed.json()['duel']}/answer/", {"accept": True}, format="json")
    assert answered.status_code == 200

    for socket, me, my_base, other_base, result in (
            (alice, player, 2, 3, "lost"), (denis, other_player, 3, 2, "won")):
        received = await everything(socket)
        snapshots = [m["snapshot"] for m in received if m["type"] == "snapshot"]
        assert {s["character"]["id"] for s in snapshots} == {me.pk}
        last_duel = [f for f in snapshots[-1]["fights"] if f["kind"] == "duel"][0]
        assert last_duel["result"] == result
        raw = json.dumps(received)
        assert f'"base": {other_base}' not in raw and "scores" not in raw
        assert all(p["base"] == my_base for s in snapshots for p in s["points"])
        await socket.disconnect()
