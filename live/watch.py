"""Redis losing its data under connected phones.

The channel layer's groups live in Redis. After a flush, a restart without persistence or
a failover to a replica that was behind, they are gone: every websocket stays open and
looks online, and hears nothing. Each server process therefore keeps a marker key in
Redis and reads it every `LIVE_WATCH_INTERVAL_S`. When the marker is missing or another
process wrote a new one (its data was lost), or Redis could not be read (messages
published meanwhile were lost), every phone of this process re-joins its groups and is
asked to send the versions it holds (`check`), so that what it missed is sent at once.

The phones' heartbeat does the same every 30 s on its own (consumers.py), which also
covers a group that expired.
"""
from __future__ import annotations

import asyncio
import logging
import secrets
import weakref
from urllib.parse import urlparse

import redis.asyncio as aioredis
from django.conf import settings

log = logging.getLogger(__name__)


def marker_key() -> str:
    database = (urlparse(settings.REDIS_URL).path or "/0").strip("/") or "0"
    return f"companion:{database}:live-marker"


class _Watch:
    """The phones of one event loop (one server process) and the task that watches Redis."""

    def __init__(self):
        self.phones: weakref.WeakSet = weakref.WeakSet()
        self.seen: bytes | None = None
        self.task = asyncio.ensure_future(self.run())

    async def run(self) -> None:
        client = aioredis.Redis.from_url(settings.REDIS_URL, socket_timeout=5)
        try:
            while True:
                await self.look(client)
                await asyncio.sleep(settings.LIVE_WATCH_INTERVAL_S)
        finally:
            await client.aclose()

    async def look(self, client) -> None:
        try:
            marker = await client.get(marker_key())
            if marker is None:
                await client.set(marker_key(), secrets.token_hex(8), nx=True)
                marker = await client.get(marker_key())
        except asyncio.CancelledError:
            raise
        except Exception:
            if self.seen != b"":
                log.warning("Redis unreachable: phones will be checked once it answers",
                            exc_info=True)
            self.seen = b""          # whatever was published meanwhile may be lost
            return
        if self.seen is not None and marker != self.seen:
            log.warning("Redis lost its data: %d phones re-join their groups", len(self.phones))
            await self.check_all()
        self.seen = marker

    async def check_all(self) -> None:
        for phone in list(self.phones):
            try:
                await phone.rejoin_and_check()
            except Exception:  # one closing socket must not keep the others waiting
                log.debug("check of a closing phone failed", exc_info=True)


_watches: dict[asyncio.AbstractEventLoop, _Watch] = {}


def watch(phone) -> None:
    loop = asyncio.get_running_loop()
    for closed in [other for other in _watches if other.is_closed()]:
        del _watches[closed]              # a test's finished loop; a server has one
    current = _watches.get(loop)
    if current is None or current.task.done():
        current = _watches[loop] = _Watch()
    current.phones.add(phone)


def unwatch(phone) -> None:
    current = _watches.get(asyncio.get_running_loop())
    if current is not None:
        current.phones.discard(phone)
