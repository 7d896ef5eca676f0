"""A crowd of phones connecting at once: the server admits what it sustains and tells the
others at once when to come back (close 4013, `retry_after_ms`, spread over the next
seconds); a failed lookup is "come back later", never "forbidden"; a phone that hung up
while its connect waited costs nothing more."""
from __future__ import annotations

import asyncio
import contextlib
import json
import socket

import psycopg
import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connection
from redis.exceptions import RedisError
from fixtures import connect

from config.asgi import application
from live import admission, broadcast

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

CROWD = 24


@pytest.fixture(autouse=True)
def fresh_door(monkeypatch, settings):
    """This process's admission starts empty for each test (no crowd left by another)."""
    settings.LIVE_RETRY_MIN_S, settings.LIVE_RETRY_MAX_S, settings.LIVE_RETRY_JITTER_S = 1, 30, 1
    monkeypatch.setattr(admission, "door", admission.Door())


async def first_answer(phone) -> tuple[str, object]:
    """('snapshot', its version) or ('busy', retry_after_ms) or ('closed', code)."""
    output = await phone.receive_output(timeout=10)
    if output["type"] == "websocket.send":
        message = json.loads(output["text"])
        if message["type"] == "busy":
            closed = await phone.receive_output(timeout=10)
            assert (closed["type"], closed["code"]) == ("websocket.close", 4013), closed
            assert len(closed["reason"].encode()) <= 123
            assert json.loads(closed["reason"])["retry_after_ms"] == message["retry_after_ms"]
            return "busy", message["retry_after_ms"]
        assert message["type"] == "snapshot", message
        return "snapshot", message["snapshot"]["version"]
    assert output["type"] == "websocket.close", output
    return "closed", output["code"]


async def crowd_connects(api, character, count: int) -> list[tuple]:
    phones = await asyncio.gather(*(connect(api, f"character={character.pk}") for _ in range(count)))
    assert all(connected for _, connected, _ in phones)     # opened, then answered
    answers = await asyncio.gather(*(first_answer(phone) for phone, _, _ in phones))
    for phone, _, _ in phones:
        await phone.disconnect()
    return answers


@pytest.mark.parametrize("limit", ["in_progress", "per_second"])
async def test_a_crowd_beyond_the_limit_is_told_when_to_come_back(clock, settings, player,
                                                                   player_api, limit):
    if limit == "in_progress":
        settings.LIVE_CONNECTS_IN_PROGRESS_MAX, settings.LIVE_CONNECTS_PER_S = 3, 0
    else:
        settings.LIVE_CONNECTS_IN_PROGRESS_MAX, settings.LIVE_CONNECTS_PER_S = 1000, 4
        settings.LIVE_CONNECTS_BURST = 4
    answers = await crowd_connects(player_api, player, CROWD)
    kinds = [kind for kind, _ in answers]
    assert "closed" not in kinds                  # nobody valid is told "forbidden"
    assert kinds.count("snapshot") >= 3           # the admitted get their snapshot
    assert kinds.count("busy") >= CROWD // 2
    hints = sorted(ms for kind, ms in answers if kind == "busy")
    # Within the window, and spread: the crowd does not come back in the same second.
    assert 1000 <= hints[0] and hints[-1] <= 31_000
    assert hints[-1] - hints[0] >= 2000
    assert len(set(hints)) > len(hints) // 2

    # The refused come back (here at once, sooner than told): each round lets some in,
    # until every phone holds its snapshot.
    waiting = kinds.count("busy")
    for _ in range(CROWD):
        admission.door.tokens = None              # the bucket has refilled by their time
        kinds = [kind for kind, _ in await crowd_connects(player_api, player, waiting)]
        assert "closed" not in kinds
        waiting = kinds.count("busy")
        if not waiting:
            break
    assert waiting == 0
    assert admission.door.in_progress == 0


async def test_a_phone_that_hung_up_while_waiting_costs_nothing_more(clock, player, player_api):
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver"),
               (b"cookie", f"sessionid={player_api.cookies['sessionid'].value}".encode())]
    phone = WebsocketCommunicator(application, f"/ws/live/?character={player.pk}", headers=headers)
    # The phone gives up before its connect is served (its handshake timed out).
    await phone.send_input({"type": "websocket.connect"})
    await phone.send_input({"type": "websocket.disconnect", "code": 1006})
    await phone.wait(timeout=10)
    assert await phone.receive_nothing(timeout=0.2)      # no snapshot built for nobody
    assert not any(player.pk in listener.watching for listener in broadcast._listeners.values())
    assert admission.door.in_progress == 0
    # The next phone is served as usual.
    again, connected, _ = await connect(player_api, f"character={player.pk}")
    assert connected and (await first_answer(again))[0] == "snapshot"
    await again.disconnect()


def _move_table(old: str, new: str) -> None:
    """On a connection of its own, closed at once: the server's pooled ones are untouched."""
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    with psycopg.connect(**params, autocommit=True) as own:
        own.execute(f"ALTER TABLE {old} RENAME TO {new}")


async def test_a_failed_login_lookup_is_busy_not_forbidden(clock, player, player_api):
    # The database fails the lookup (its table is gone from under it): the phone's login
    # may be perfectly valid, so it is told to come back, never that it is refused.
    await sync_to_async(_move_table, thread_sensitive=False)("django_session", "django_session_away")
    try:
        phone, connected, _ = await connect(player_api, f"character={player.pk}")
        assert connected
        kind, retry_after_ms = await first_answer(phone)
        assert kind == "busy" and 1000 <= retry_after_ms <= 31_000
    finally:
        await sync_to_async(_move_table, thread_sensitive=False)("django_session_away", "django_session")
    phone, connected, _ = await connect(player_api, f"character={player.pk}")
    assert (await first_answer(phone))[0] == "snapshot"
    await phone.disconnect()


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def test_a_channel_layer_failure_is_busy_not_forbidden(clock, settings, event, player,
                                                             player_api, narrator_api):
    # Redis refuses the channel layer's connection (nothing listens on its port).
    broken = {**settings.CHANNEL_LAYERS["default"]}
    broken["CONFIG"] = {**broken["CONFIG"], "hosts": [
        {**broken["CONFIG"]["hosts"][0], "address": f"redis://127.0.0.1:{_closed_port()}/0"}]}
    settings.CHANNEL_LAYERS = {"default": broken}
    narrators, connected, _ = await connect(narrator_api, f"event={event.pk}")
    assert connected
    kind, retry_after_ms = await first_answer(narrators)
    assert kind == "busy" and 1000 <= retry_after_ms <= 31_000
    with contextlib.suppress(RedisError):
        # The layer's receive loop (channels') fails too, once the phone has its answer.
        await narrators.disconnect()
    # A character's socket hears through the process's broadcast, not the layer.
    phone, connected, _ = await connect(player_api, f"character={player.pk}")
    assert connected and (await first_answer(phone))[0] == "snapshot"
    await phone.disconnect()


@pytest.mark.parametrize("rate, connect_s, last_back_s",
                         [(150, 0.05, (2, 4)), (150, 1.0, (2, 4)), (0, 0.05, (1, 2)), (0, 1.0, (9, 12))])
async def test_a_crowd_is_spread_at_the_rate_this_process_completes_connects(
        settings, rate, connect_s, last_back_s):
    """300 phones refused at once come back spread over the time the process needs for
    them. With a rate set (LIVE_CONNECTS_PER_S), at that rate, however slow the connects
    the crowd's own handshakes made; without one, 32 at once, each taking what connects
    took lately: a slow process spreads them wider."""
    settings.LIVE_CONNECTS_IN_PROGRESS_MAX, settings.LIVE_CONNECTS_PER_S = 32, rate
    settings.LIVE_RETRY_JITTER_S = 0
    door = admission.Door()
    for _ in range(40):
        door.in_progress += 1
        door.done(admission.time.monotonic() - connect_s)
    hints = [door.retry_after_s() for _ in range(300)]
    assert hints == sorted(hints)                 # each takes the next free slot
    low, high = last_back_s
    assert low <= hints[-1] <= high, hints[-1]
