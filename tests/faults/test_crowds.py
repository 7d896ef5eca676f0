"""Crowds of phones: the 200 players of an event connect at the same instant (their
server process just restarted, or everyone walks back into coverage), then all close at
once. One ASGI process started as in production (config/server.py), real Redis, the test
database."""
from __future__ import annotations

import asyncio
import json
import re
import time
from collections import Counter

import pytest
from django.conf import settings
from stack import session_for

pytestmark = pytest.mark.django_db(transaction=True)

CROWD = 200
# What a phone waits for before it calls a handshake failed; far longer than the server
# should need, so a failure here is the server's refusal or cut, not this client's impatience.
PHONE_PATIENCE_S = 30
# A traceback, an error, or the server cancelling a consumer that took too long to close
# (which would leave its groups behind).
SERVER_TROUBLE = re.compile(r"Traceback|Error|ERROR|Exception|CRITICAL|took too long")


async def _phone(url: str, headers: dict, character_id: int, barrier: asyncio.Event):
    """One phone: connect, wait for the first message; told the server is busy, come back
    when it says, as the app does (live/admission.py). Returns (socket, None, times told
    busy) or (None, why it failed, times told busy)."""
    from websockets.asyncio.client import connect

    await barrier.wait()
    busy = 0
    give_up_at = time.monotonic() + PHONE_PATIENCE_S
    while True:
        try:
            socket_ = await connect(url, additional_headers=headers, open_timeout=PHONE_PATIENCE_S,
                                    close_timeout=5, max_queue=None)
        except Exception as exc:  # refused, cut, timed out: what the phone would see
            return None, f"handshake: {type(exc).__name__}: {str(exc)[:60]}", busy
        try:
            first = json.loads(await asyncio.wait_for(socket_.recv(), PHONE_PATIENCE_S))
        except Exception as exc:
            await socket_.close()
            return None, f"first message: {type(exc).__name__}", busy
        if first.get("type") == "busy" and time.monotonic() < give_up_at:
            busy += 1
            await socket_.close()
            await asyncio.sleep(first["retry_after_ms"] / 1000)
            continue
        if first.get("type") != "snapshot" or first["snapshot"]["character"]["id"] != character_id:
            await socket_.close()
            return None, f"first message: {first.get('type')}", busy
        return socket_, None, busy


async def _crowd_connects_then_closes(server_url: str, phones: list[tuple[int, str]], while_connected):
    barrier = asyncio.Event()
    tasks = [_phone(f"ws{server_url[4:]}/ws/live/?character={pk}&lang=en",
                    {"Cookie": f"{settings.SESSION_COOKIE_NAME}={session}", "Origin": server_url},
                    pk, barrier)
             for pk, session in phones]
    started = time.monotonic()
    barrier.set()                      # every phone starts its handshake in the same instant
    results = await asyncio.gather(*tasks)
    connect_s = time.monotonic() - started
    sockets = [socket_ for socket_, _, _ in results if socket_ is not None]
    failures = Counter(why for _, why, _ in results if why is not None)
    failures["told busy, came back later (not a failure)"] = sum(busy for _, _, busy in results)
    seen_connected = while_connected()
    await asyncio.gather(*(socket_.close() for socket_ in sockets))
    return len(sockets), failures, connect_s, seen_connected


def _character_groups_left(redis, ids) -> list[str]:
    """Memberships the channel layer keeps in Redis (one sorted set per group)."""
    prefix = settings.CHANNEL_LAYERS["default"]["CONFIG"].get("prefix", "asgi")
    return [key.decode() for pk in ids
            for key in redis.keys(f"{prefix}:group:character-{pk}")]


def test_two_hundred_phones_connecting_at_once_then_closing_at_once(stack, game_factory):
    stack.start_redis()
    server = stack.start_server(wait=False)
    game = game_factory(CROWD, wounded_deadline_s=3600)
    phones = [(c.pk, session_for(c.user)) for c in game.characters]
    # The crowd arrives as the server starts listening: it was restarted under its phones,
    # or it just opened the game, and every phone reconnects at once.
    server.wait_ready()
    redis = stack.redis_client()
    opened, failures, connect_s, groups_while_connected = asyncio.run(_crowd_connects_then_closes(
        server.url, phones, lambda: len(_character_groups_left(redis, game.ids))))
    print(f"{opened} of {CROWD} phones got their snapshot in {connect_s:.1f} s; failures: {dict(failures)}")

    # Past what a process admits at once, phones are told when to come back, never refused.
    told_busy = failures.pop("told busy, came back later (not a failure)")
    print(f"told busy {told_busy} times in all")
    assert failures == Counter() and opened == CROWD, (
        f"{opened} of {CROWD} phones got their snapshot in {connect_s:.1f} s; "
        f"failed: {dict(failures)}\n{server.process.output()[-3000:]}")
    assert groups_while_connected == 0          # a character's socket joins no group (broadcast.py)
    # Once closed, the server forgets each phone's groups, without a complaint.
    deadline = time.monotonic() + 20
    while (left := _character_groups_left(redis, game.ids)) and time.monotonic() < deadline:
        time.sleep(0.2)
    time.sleep(0.5)                    # any late complaint of a closing consumer is logged
    trouble = [line for line in server.process.output().splitlines() if SERVER_TROUBLE.search(line)]
    assert trouble == [], f"{len(trouble)} lines of errors in the server's output:\n" + "\n".join(trouble[:40])
    assert left == [], f"{len(left)} groups of closed phones are still in Redis"
    assert server.process.alive
