"""The busy answer below the framework (live/busy_http.py): a full process answers an
upgrade to the live socket from its HTTP protocol, with the gate's bytes, and the
application never runs; everything else goes the long way. Served by the protocol class
config/server.py names, on a real socket, to a client that checks the handshake and the
frames as a browser does (the `websockets` library)."""
from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import struct

import pytest
from uvicorn.config import Config
from uvicorn.server import ServerState
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosedError

from config.server import HTTP_PROTOCOL
from live import admission, busy_http

pytestmark = pytest.mark.asyncio


@pytest.fixture(autouse=True)
def fresh_door(monkeypatch, settings):
    settings.LIVE_RETRY_MIN_S, settings.LIVE_RETRY_MAX_S, settings.LIVE_RETRY_JITTER_S = 1, 30, 1
    settings.LIVE_CONNECTS_PER_S = 0
    monkeypatch.setattr(admission, "door", admission.Door())


class Application:
    """Counts what reaches the application; accepts and sends one message."""

    def __init__(self):
        self.calls = 0

    async def __call__(self, scope, receive, send):
        self.calls += 1
        assert (await receive())["type"] == "websocket.connect"
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.send", "text": json.dumps({"type": "snapshot"})})
        await receive()


@contextlib.asynccontextmanager
async def serving(application):
    """The server's protocol class, as config/server.py names it, on a port of its own."""
    config = Config(app=application, http=HTTP_PROTOCOL, ws="websockets-sansio",
                    lifespan="off", proxy_headers=False, log_level="warning")
    config.load()
    state = ServerState()
    loop = asyncio.get_running_loop()
    server = await loop.create_server(
        lambda: config.http_protocol_class(config=config, server_state=state, app_state={}),
        "127.0.0.1", 0)
    try:
        yield server.sockets[0].getsockname()[1]
    finally:
        server.close()
        for protocol in list(state.connections):
            protocol.shutdown()


async def busy_answer(port: int, path: str = "/ws/live/?character=7") -> tuple[dict, int, dict]:
    """What a phone reads: the message, then the close's code and reason."""
    async with connect(f"ws://127.0.0.1:{port}{path}", open_timeout=5) as phone:
        message = json.loads(await asyncio.wait_for(phone.recv(), 5))
        with pytest.raises(ConnectionClosedError) as closed:
            await asyncio.wait_for(phone.recv(), 5)
    return message, closed.value.rcvd.code, json.loads(closed.value.rcvd.reason)


async def test_a_full_process_refuses_the_upgrade_itself_and_the_application_never_runs(settings):
    settings.LIVE_CONNECTS_IN_PROGRESS_MAX = 0
    application = Application()
    async with serving(application) as port:
        message, code, reason = await busy_answer(port)
    assert message["type"] == "busy" and 1000 <= message["retry_after_ms"] <= 31_000
    assert code == 4013 and reason == {"retry_after_ms": message["retry_after_ms"]}
    assert application.calls == 0


async def test_a_crowd_refused_this_way_is_spread_over_return_slots(settings):
    settings.LIVE_CONNECTS_PER_S, settings.LIVE_CONNECTS_IN_PROGRESS_MAX = 10, 0
    settings.LIVE_RETRY_JITTER_S = 0
    async with serving(Application()) as port:
        delays = [(await busy_answer(port))[0]["retry_after_ms"] for _ in range(6)]
    # The next free slot each, 100 ms apart at 10 connects a second.
    assert delays == sorted(delays) and delays[-1] - delays[0] >= 400


async def test_an_open_door_lets_the_phone_through_to_the_application():
    application = Application()
    async with serving(application) as port:
        async with connect(f"ws://127.0.0.1:{port}/ws/live/?character=7", open_timeout=5) as phone:
            assert json.loads(await asyncio.wait_for(phone.recv(), 5)) == {"type": "snapshot"}
    assert application.calls == 1


async def test_other_sockets_of_a_full_process_go_the_long_way(settings):
    settings.LIVE_CONNECTS_IN_PROGRESS_MAX = 0
    application = Application()
    async with serving(application) as port:
        async with connect(f"ws://127.0.0.1:{port}/ws/race/public/", open_timeout=5) as page:
            assert json.loads(await asyncio.wait_for(page.recv(), 5)) == {"type": "snapshot"}
    assert application.calls == 1


async def raw_upgrade(port: int, key: str, version: str = "13") -> tuple[bytes, asyncio.StreamReader,
                                                                          asyncio.StreamWriter]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write((f"GET /ws/live/?character=7 HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                  f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                  f"Sec-WebSocket-Version: {version}\r\n\r\n").encode())
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
    return head, reader, writer


@pytest.mark.parametrize("key, version", [("not a key", "13"), (base64.b64encode(b"short").decode(), "13"),
                                          (base64.b64encode(os.urandom(16)).decode(), "8")])
async def test_a_malformed_upgrade_is_not_answered_busy_but_named_the_long_way(settings, key, version):
    settings.LIVE_CONNECTS_IN_PROGRESS_MAX = 0
    async with serving(Application()) as port:
        head, _, writer = await raw_upgrade(port, key, version)
        writer.close()
    assert head.split(b" ", 2)[1] in (b"400", b"426")


async def test_a_phone_that_never_answers_the_close_is_let_go(settings, monkeypatch):
    """The connection is closed once the phone has had CLOSE_WAIT_S to read and answer."""
    settings.LIVE_CONNECTS_IN_PROGRESS_MAX = 0
    monkeypatch.setattr(busy_http, "CLOSE_WAIT_S", 0.2)
    async with serving(Application()) as port:
        head, reader, writer = await raw_upgrade(port, base64.b64encode(os.urandom(16)).decode())
        rest = await asyncio.wait_for(reader.read(), 5)         # up to the server's close
        writer.close()
    assert head.startswith(b"HTTP/1.1 101 ")
    text_length, close_length = rest[1], rest[2 + rest[1] + 1]
    assert rest[0] == 0x81 and json.loads(rest[2:2 + text_length])["type"] == "busy"
    close = rest[2 + text_length + 2:2 + text_length + 2 + close_length]
    assert rest[2 + text_length] == 0x88 and struct.unpack("!H", close[:2])[0] == 4013
