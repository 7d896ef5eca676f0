"""No phone stays stale: when Redis loses the channel layer's groups (the narrators' view),
or a server process's subscription to the broadcast misses messages (a character's
phone), the heartbeat (a ping carrying the versions the phone holds) re-joins them and
sends what was missed, and each server process notices the loss by itself within seconds
and asks its phones to check.

The real-process version of this, with Redis flushed under daphne, is in
tests/faults/test_faults.py."""
from __future__ import annotations

import asyncio

import pytest
import redis
from asgiref.sync import sync_to_async
from django.conf import settings
from fixtures import act, connect, next_snapshot

from live.watch import marker_key

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


def lose_groups(*, marker: bool = False) -> None:
    """What a Redis flush does to the channel layer: every group membership is gone (and,
    with `marker`, what tells the server processes that their data is still there)."""
    client = redis.Redis.from_url(settings.REDIS_URL)
    prefix = settings.CHANNEL_LAYERS["default"]["CONFIG"].get("prefix", "asgi")
    for key in client.scan_iter(f"{prefix}:group:*"):
        client.delete(key)
    if marker:
        client.delete(marker_key())


async def receive_until(phone, wanted: str, timeout: float = 5) -> dict:
    while True:
        message = await phone.receive_json_from(timeout=timeout)
        if message["type"] == wanted:
            return message


def cut_subscriptions() -> None:
    """What a Redis restart or a network cut does to the server's subscription: the
    broadcast (live/broadcast.py) misses what is published until it subscribes again."""
    redis.Redis.from_url(settings.REDIS_URL).client_kill_filter(_type="pubsub")


async def test_a_player_whose_process_missed_a_message_gets_it_at_the_next_heartbeat(
        clock, player, player_api, narrator_api):
    phone, _, _ = await connect(player_api, f"character={player.pk}")
    held = await next_snapshot(phone)
    await sync_to_async(cut_subscriptions)()
    await sync_to_async(act)(narrator_api, player, "hit_wounding")
    # Subscribed again, the process asks its phones what they hold: the change is missed.
    assert (await receive_until(phone, "check"))["type"] == "check"
    await phone.send_json_to({"type": "ping", "client_time": 1.0,
                              "versions": {str(player.pk): held["version"]}})
    missed = await next_snapshot(phone)
    assert missed["state"]["key"] == "wounded"
    assert missed["version"] == held["version"] + 1
    assert (await phone.receive_json_from(timeout=5))["type"] == "pong"

    # Subscribed again: the next change arrives by itself.
    clock.advance(120)
    await sync_to_async(act)(narrator_api, player, "hit_wounding")
    assert (await next_snapshot(phone))["version"] > missed["version"]
    await phone.disconnect()


async def test_a_heartbeat_that_holds_the_current_version_costs_only_a_pong(
        clock, player, player_api):
    phone, _, _ = await connect(player_api, f"character={player.pk}")
    held = await next_snapshot(phone)
    await phone.send_json_to({"type": "ping", "versions": {str(player.pk): held["version"]}})
    assert (await phone.receive_json_from(timeout=5))["type"] == "pong"
    assert await phone.receive_nothing(timeout=0.3)
    await phone.disconnect()


async def test_a_heartbeat_never_returns_another_characters_snapshot(
        clock, player, other_player, player_api, narrator_api):
    phone, _, _ = await connect(player_api, f"character={player.pk}")
    await next_snapshot(phone)
    await sync_to_async(act)(narrator_api, other_player, "hit_wounding")
    await phone.send_json_to({"type": "ping", "versions": {str(other_player.pk): 0,
                                                           "x": "y", "1" * 40: 1}})
    assert (await phone.receive_json_from(timeout=5))["type"] == "pong"
    assert await phone.receive_nothing(timeout=0.3)
    await phone.disconnect()


async def test_the_narrators_view_gets_every_character_it_missed(
        clock, event, player, other_player, narrator_api):
    narrators, _, _ = await connect(narrator_api, f"event={event.pk}")
    view = await receive_until(narrators, "event_snapshot")
    held = {str(s["character"]["id"]): s["version"] for s in view["characters"]}
    await sync_to_async(lose_groups)()
    await sync_to_async(act)(narrator_api, player, "hit_wounding")
    await sync_to_async(act)(narrator_api, other_player, "hit_wounding")
    assert await narrators.receive_nothing(timeout=0.3)

    await narrators.send_json_to({"type": "ping", "versions": held})
    missed = {(await next_snapshot(narrators))["character"]["id"] for _ in range(2)}
    assert missed == {player.pk, other_player.pk}
    await narrators.disconnect()


async def test_heartbeats_check_the_database_at_most_once_a_second(clock, event, player,
                                                                   narrator_api):
    """A phone (or anyone) sending pings in a loop cannot make the server query for each."""
    narrators, _, _ = await connect(narrator_api, f"event={event.pk}")
    view = await receive_until(narrators, "event_snapshot")
    held = {str(s["character"]["id"]): s["version"] for s in view["characters"]}
    await narrators.send_json_to({"type": "ping", "versions": held})
    await receive_until(narrators, "pong")
    await sync_to_async(lose_groups)()
    await sync_to_async(act)(narrator_api, player, "hit_wounding")
    await narrators.send_json_to({"type": "ping", "versions": held})
    assert (await narrators.receive_json_from(timeout=5))["type"] == "pong"   # no snapshot yet
    await asyncio.sleep(settings.LIVE_CHECK_MIN_INTERVAL_S)
    await narrators.send_json_to({"type": "ping", "versions": held})
    assert (await next_snapshot(narrators))["state"]["key"] == "wounded"
    await narrators.disconnect()


async def test_the_server_notices_redis_lost_its_data_and_asks_its_phones_to_check(
        clock, player, player_api, settings):
    settings.LIVE_WATCH_INTERVAL_S = 0.1
    phone, _, _ = await connect(player_api, f"character={player.pk}")
    await next_snapshot(phone)
    client = redis.Redis.from_url(settings.REDIS_URL)
    for _ in range(50):                     # the process has read its marker once
        if client.get(marker_key()) is not None:
            break
        await asyncio.sleep(0.1)
    await sync_to_async(lose_groups)(marker=True)
    assert (await phone.receive_json_from(timeout=3))["type"] == "check"
    await phone.disconnect()


def first_read_delayed(monkeypatch, read: str, then):
    """Run `then` (once) right after the connect's first read: the database's, when the
    phone has to prove its session ("proof"), or Redis's, when it holds a pass ("pass",
    live/passes.py)."""
    from live import consumers, passes
    module, name = (consumers, "_character_first") if read == "proof" else (passes, "ready_snapshot")
    original, done = getattr(module, name), []

    async def read_then(*args, **kwargs):
        first = await original(*args, **kwargs)
        if not done:
            done.append(await then())
        return first
    monkeypatch.setattr(module, name, read_then)
    return done


async def listening_phone(player, player_api, read: str):
    """A phone of the player, connected first so that this process listens; with "proof",
    its pass is voided so that the next connect reads the database."""
    from live import passes
    listening, _, _ = await connect(player_api, f"character={player.pk}")
    await next_snapshot(listening)
    if read == "proof":
        await sync_to_async(passes.characters_moved)([player.pk])
    return listening


@pytest.mark.parametrize("read", ["proof", "pass"])
async def test_a_change_committed_while_the_first_snapshot_is_built_is_not_missed(
        clock, player, player_api, narrator_api, monkeypatch, read):
    """The groups are joined before the first snapshot is read: a change that commits
    just after that read still reaches the phone through them."""
    listening = await listening_phone(player, player_api, read)
    changes = first_read_delayed(monkeypatch, read,
                                 lambda: sync_to_async(act)(narrator_api, player, "hit_wounding"))

    phone, _, _ = await connect(player_api, f"character={player.pk}")
    assert changes, "the first read was not the one delayed"
    first = await next_snapshot(phone)
    if first["state"]["key"] == "healthy":      # read before the change: it follows
        first = await next_snapshot(phone)
    assert first["state"]["key"] == "wounded"
    await phone.disconnect()
    await listening.disconnect()


@pytest.mark.parametrize("read", ["proof", "pass"])
async def test_an_effect_for_everyone_pushed_while_the_first_snapshot_is_built_is_not_missed(
        clock, event, player, player_api, narrator_api, monkeypatch, read):
    """The event's broadcasts are joined once the read has named the event: an effect for
    everyone that goes by in between is in the snapshot (read again) or arrives after it."""
    listening = await listening_phone(player, player_api, read)

    async def push():
        pushed = await sync_to_async(narrator_api.post)(
            f"/api/events/{event.pk}/effects/",
            {"text": "Brouillard", "duration_s": 600, "everyone": True},
            format="json", HTTP_IDEMPOTENCY_KEY="fog")
        await asyncio.sleep(0.2)        # the broadcast reaches this process meanwhile
        return pushed
    pushed = first_read_delayed(monkeypatch, read, push)

    phone, _, _ = await connect(player_api, f"character={player.pk}")
    first = await next_snapshot(phone)
    assert pushed[0].status_code == 201, pushed[0].content
    if not any(e["text"] == "Brouillard" for e in first["effects"]):
        message = await phone.receive_json_from(timeout=5)
        assert message["type"] == "effect" and message["effect"]["text"] == "Brouillard"
    await phone.disconnect()
    await listening.disconnect()
