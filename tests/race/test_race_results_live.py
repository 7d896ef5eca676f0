"""The public results page's socket: a spectator, not logged in, is told that the results
changed when a runner punches or a life is taken, and told nothing else (the page then
reads itself again, as anyone may); an address that is no race is refused."""
from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from racekit import balise, grab, punch, start, survivor_api

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

SAME_ORIGIN = [(b"origin", b"http://testserver"), (b"host", b"testserver")]


async def spectator(event_id: int, headers=SAME_ORIGIN):
    socket = WebsocketCommunicator(application, f"/ws/race/{event_id}/results/", headers=headers)
    connected, _ = await socket.connect(timeout=5)
    return socket, connected


async def test_a_spectator_is_told_that_the_results_changed_and_nothing_more(
        clock, race, famille, enrol, organiser_api, zombie_api):
    lucie = await sync_to_async(enrol)("Lucie", 101, phone="06 11 22 33 44")
    await sync_to_async(start)(organiser_api, lucie)
    watching, connected = await spectator(race.pk)
    assert connected
    assert await watching.receive_nothing(timeout=0.3)

    clock.advance(12 * 60)
    phone_api = await sync_to_async(survivor_api)(lucie)
    await sync_to_async(punch)(phone_api, lucie, await sync_to_async(balise)(famille, "31"))
    assert await watching.receive_json_from(timeout=5) == {"type": "results_changed"}

    await sync_to_async(grab)(zombie_api, race, lucie)
    assert await watching.receive_json_from(timeout=5) == {"type": "results_changed"}
    await watching.send_json_to({"type": "ping"})           # nothing to say: ignored
    assert await watching.receive_nothing(timeout=0.3)
    await watching.disconnect()


async def test_an_address_that_is_no_race_is_refused_with_its_code(narrator_user, event):
    watching, connected = await spectator(event.pk)          # a murder mystery, not a race
    assert connected
    closed = await watching.receive_output(timeout=5)
    assert (closed["type"], closed["code"]) == ("websocket.close", 4404)


async def test_another_sites_page_cannot_listen(race):
    _, connected = await spectator(race.pk, headers=[(b"origin", b"http://evil.example"),
                                                    (b"host", b"testserver")])
    assert not connected
