"""The live socket's heartbeat proves a phone's contact too (live/phone_contact.py): a
phone that only listens (no request for minutes) but whose heartbeat said its outbox was
empty cannot send a tap dated before that heartbeat."""
from __future__ import annotations

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async

from fixtures import connect, next_snapshot
from live.phone_contact import phone_contact_proven

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


def declare(api, character, tapped_at):
    return api.post(f"/api/characters/{character.pk}/actions/",
                    {"action": "hit_wounding", "tapped_at": tapped_at.isoformat()},
                    format="json")


async def pong(phone) -> None:
    while (await phone.receive_json_from(timeout=5))["type"] != "pong":
        pass


async def test_a_heartbeat_with_nothing_waiting_bounds_the_late_taps(clock, player, player_api):
    phone, connected, _ = await connect(player_api, f"character={player.pk}")
    assert connected
    held = await next_snapshot(phone)
    clock.advance(60)
    tapped = clock.now
    clock.advance(5 * 60)
    await phone.send_json_to({"type": "ping", "client_time": 1.0, "outbox_oldest": "none",
                              "versions": {str(player.pk): held["version"]}})
    await pong(phone)
    session = player_api.cookies["sessionid"].value
    assert await sync_to_async(phone_contact_proven)(session) == clock.now
    clock.advance(60)

    refused = await sync_to_async(declare)(player_api, player, tapped)

    assert refused.status_code == 409
    assert refused.json()["error"] == "tap_before_recorded"
    # A heartbeat with a write still waiting proves only up to that write.
    await phone.send_json_to({"type": "ping", "client_time": 2.0,
                              "outbox_oldest": (clock.now - timedelta(minutes=30)).isoformat(),
                              "versions": {str(player.pk): held["version"]}})
    await pong(phone)
    assert await sync_to_async(phone_contact_proven)(session) == clock.now - timedelta(seconds=60)
    await phone.disconnect()
