"""The busy answer below the framework: the server's HTTP protocol (uvicorn's httptools
protocol, with this one method more) answers an upgrade to the live socket itself when the
door is full, with the bytes the gate would send (live/admission.py `busy_answer`): the
handshake, the `busy` message, the close 4013 with the same delay as its reason. No
websocket protocol object, no second parse of the request, no ASGI task, no application.

A crowd that ignores the hint (an old app, a captive portal replaying) is refused for a
fraction of a bare connect (docs/performance.md), so it cannot starve the phones admitted.
The gate stays behind it for what this cannot see: a phone the door fills up for between
the two (its place taken meanwhile), and servers that are not started by config/server.py.
"""
from __future__ import annotations

import asyncio
import base64
import binascii
import json
import struct

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from websockets.utils import accept_key

from . import admission
from .admission import LIVE_PATH, busy_message, busy_reason

TEXT, CLOSE = 0x1, 0x8
BUSY_CODE = 4013
# After our close, how long the phone has to answer with its own before the TCP connection
# is closed anyway (a phone that closed first, or vanished, is not waited for past this).
CLOSE_WAIT_S = 5.0


def server_frame(opcode: int, payload: bytes) -> bytes:
    """A final, unmasked frame (a server's); the busy answer's payloads are under 126 bytes."""
    return struct.pack("!BB", 0x80 | opcode, len(payload)) + payload


def busy_bytes(key: bytes, retry_after_s: float) -> bytes:
    """The whole refusal as one write: what `busy_answer` makes the server send."""
    busy = busy_message(retry_after_s)
    close = struct.pack("!H", BUSY_CODE) + busy_reason(busy).encode()
    return (b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            b"Sec-WebSocket-Accept: " + accept_key(key.decode()).encode() + b"\r\n\r\n"
            + server_frame(TEXT, json.dumps(busy).encode()) + server_frame(CLOSE, close))


def websocket_key(headers: list[tuple[bytes, bytes]]) -> bytes | None:
    """The client's key when the upgrade is one this answer may take (RFC 6455 4.2.1: a
    16-byte nonce, version 13); None sends the request the long way, which names what is
    wrong with it."""
    key = version = None
    for name, value in headers:
        if name == b"sec-websocket-key":
            key = value.strip()
        elif name == b"sec-websocket-version":
            version = value.strip()
    if key is None or version != b"13":
        return None
    try:
        return key if len(base64.b64decode(key, validate=True)) == 16 else None
    except (binascii.Error, ValueError):
        return None


class BusyHttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol (`--http live.busy_http:BusyHttpProtocol`, set by
    config/server.py) that refuses a full door's upgrades to the live socket itself."""

    def handle_websocket_upgrade(self) -> None:
        key = self._refusable_key()
        if key is None:
            return super().handle_websocket_upgrade()
        self.connections.discard(self)
        self.transport.write(busy_bytes(key, admission.door.retry_after_s()))
        self.transport.set_protocol(_ClosingAfterBusy(self.transport))

    def _refusable_key(self) -> bytes | None:
        if self.scope.get("method") != "GET" or self.url.split(b"?", 1)[0] != LIVE_PATH.encode():
            return None
        key = websocket_key(self.scope["headers"])
        return key if key is not None and admission.door.full() else None


class _ClosingAfterBusy(asyncio.Protocol):
    """What is left of a refused connection: the phone's close frame (or anything) ends it,
    as does its going away or CLOSE_WAIT_S of silence. Closing before the phone has read
    could reset the connection and lose the busy answer it has not read yet."""

    def __init__(self, transport: asyncio.Transport):
        self.transport = transport
        self.timer = asyncio.get_running_loop().call_later(CLOSE_WAIT_S, transport.close)

    def data_received(self, data: bytes) -> None:
        self.transport.close()

    def eof_received(self) -> bool:
        return False            # the phone is done: close our side too

    def connection_lost(self, exc: Exception | None) -> None:
        self.timer.cancel()
