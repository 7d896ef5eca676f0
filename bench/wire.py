"""A websocket phone reduced to the bytes (RFC 6455), for load clients that must offer
thousands of handshakes a second from a few processes: the `websockets` library spends
more CPU per handshake than the server's bare consumer, so a client built on it measures
itself. Only what a phone's connect does: the upgrade, the first message (or the busy
refusal and its close), a close. No extension, no fragmentation (the server sends none)."""
from __future__ import annotations

import asyncio
import base64
import json
import os
import struct

CLOSE, TEXT, PING, PONG = 0x8, 0x1, 0x9, 0xA
BUSY_CODES = (4013, 1013)     # the live socket's busy close, and the standard "try again later"
NO_CODE = 1005                # a close frame without a code (RFC 6455 7.1.5)


class Refused(Exception):
    """The server answered the upgrade with an HTTP status (403...)."""

    def __init__(self, status: int):
        super().__init__(f"HTTP {status}")
        self.status = status


def upgrade_request(port: int, path: str, session: str = "") -> bytes:
    key = base64.b64encode(os.urandom(16)).decode()
    cookie = f"Cookie: sessionid={session}\r\n" if session else ""
    return (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
            f"Origin: http://127.0.0.1:{port}\r\n{cookie}\r\n").encode()


def client_frame(opcode: int, payload: bytes) -> bytes:
    """A client's frames are masked (RFC 6455 5.3); control frames only (under 126 bytes)."""
    mask = os.urandom(4)
    return bytes([0x80 | opcode, 0x80 | len(payload)]) + mask + bytes(
        b ^ mask[i % 4] for i, b in enumerate(payload))


def close_frame(code: int = 1000) -> bytes:
    return client_frame(CLOSE, struct.pack("!H", code))


async def read_frame(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    first, second = await reader.readexactly(2)
    length = second & 0x7F
    if length == 126:
        length = struct.unpack("!H", await reader.readexactly(2))[0]
    elif length == 127:
        length = struct.unpack("!Q", await reader.readexactly(8))[0]
    return first & 0x0F, await reader.readexactly(length)


async def open_first(port: int, path: str, session: str = "", timeout: float = 10,
                     on_written=None) -> tuple[str, dict | int | None, asyncio.StreamReader,
                                                asyncio.StreamWriter]:
    """Open a phone's socket and read its first answer; the socket stays open for the
    caller to hold or close. (kind, detail, reader, writer): ("message", the JSON) for an
    accepted phone; ("busy", retry_after_ms or None) for a refusal, as the busy message or
    as a busy close whose reason carries it; ("closed", the close code) for any other
    close. An HTTP answer raises Refused. `on_written`: called once the upgrade request has
    left (a load client counts the handshakes it offered)."""
    reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), timeout)
    try:
        writer.write(upgrade_request(port, path, session))
        await writer.drain()
        if on_written is not None:
            on_written()
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout)
        status = int(head.split(b" ", 2)[1])
        if status != 101:
            raise Refused(status)
        opcode, payload = await asyncio.wait_for(read_frame(reader), timeout)
        if opcode == CLOSE:
            code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else NO_CODE
            if code in BUSY_CODES:
                return "busy", _retry_after_ms(payload[2:]), reader, writer
            return "closed", code, reader, writer
        message = json.loads(payload)
        if message.get("type") == "busy":         # the server's close follows
            return "busy", message.get("retry_after_ms"), reader, writer
        return "message", message, reader, writer
    except BaseException:
        writer.close()
        raise


def _retry_after_ms(reason: bytes) -> int | float | None:
    try:
        return json.loads(reason)["retry_after_ms"]
    except (ValueError, KeyError, TypeError):
        return None


async def first_message(port: int, path: str, session: str = "",
                        timeout: float = 10) -> tuple[str, dict | int | None]:
    """Open, read the first answer (as `open_first` names it), close."""
    kind, detail, _reader, writer = await open_first(port, path, session, timeout)
    if kind != "closed":
        writer.write(close_frame())
    writer.close()
    return kind, detail
