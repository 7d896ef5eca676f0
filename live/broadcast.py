"""What reaches a character's phones, handed over in memory by each server process.

Through the channel layer, a push to everyone stores one copy per phone in Redis, and each
process pops them one at a time (four Redis round trips each): 2,000 phones took seconds.
A broadcast goes once through Redis pub/sub to each ASGI process, which gives it to the
phones it holds. Pub/sub keeps nothing: a process cut from Redis at that moment misses
it, and its phones see the gap in their sequence numbers at their next message and fetch
a fresh snapshot (live.js), as for any lost message; once subscribed again, it asks each of
its phones what it holds and checks their access (as live/watch.py does when Redis lost
its data).

A character's socket (its player's phone, or a narrator watching it) joins no
channel-layer group: everything for it comes this way, a message to everyone, a batch of
snapshots, or one `deliver`ed to the phones of some characters or of some narrators (their
own snapshot, race entry or help call, an access check). A channel-layer channel for each
socket cost every connect and close five Redis round trips (a new connection among them)
and about a fifth of the connect's CPU.
"""
from __future__ import annotations

import asyncio
import json
import logging
from collections import defaultdict
from urllib.parse import urlparse

import redis.asyncio as aioredis
from django.conf import settings

from .redis_clients import sync_client

log = logging.getLogger(__name__)


def channel_name() -> str:
    # Pub/sub channels ignore the database number: keep one Redis's deployments apart.
    database = (urlparse(settings.REDIS_URL).path or "/0").strip("/") or "0"
    return f"companion:{database}:broadcast"


# Phones written to between two turns of the event loop. Writing a socket does not give
# the loop back (the bytes go to the transport's buffer), so a push to 5,000 phones held
# this process for the whole fan-out: every HTTP answer waited, the narrator's answer to
# that very push among them. The answer crosses the loop more than once on its way out
# (the thread's result, then the response): with 200 phones a turn it waited 25-30 ms
# behind a push to 2,000, with 50 about 10 ms.
HAND_OUT_SLICE = 50


class _Listener:
    """The phones of one event loop (one server process), by event, and the one
    subscription that feeds them."""

    def __init__(self):
        self.phones: dict[int, set] = defaultdict(set)
        # The same phones by the character they watch: a batch of snapshots is handed out
        # in the time of its own size, not of every phone of the event.
        self.watching: dict[int, set] = defaultdict(set)
        self.heard = 0                  # messages handed out since it was created
        self.subscribed = asyncio.Event()
        self.task = asyncio.ensure_future(self.listen())

    async def listen(self) -> None:
        lost = False
        while True:
            client = aioredis.Redis.from_url(settings.REDIS_URL)
            try:
                async with client.pubsub() as pubsub:
                    await pubsub.subscribe(channel_name())
                    self.subscribed.set()
                    if lost:        # what went by meanwhile is gone: the phones say what they hold
                        lost = False
                        await self.phones_check()
                    async for message in pubsub.listen():
                        if message["type"] == "message":
                            await self.hand_out(json.loads(message["data"]))
            except asyncio.CancelledError:
                raise
            except Exception:  # Redis restarted or unreachable: subscribe again
                log.warning("broadcast subscription lost; retrying", exc_info=True)
                self.subscribed.clear()
                lost = True
                await asyncio.sleep(1)
            finally:
                await client.aclose()

    async def phones_check(self) -> None:
        for number, phone in enumerate({p for phones in self.phones.values() for p in phones}):
            if number % HAND_OUT_SLICE == HAND_OUT_SLICE - 1:
                await asyncio.sleep(0)
            try:
                await phone.rejoin_and_check()
            except Exception:  # one closed socket must not keep the others waiting
                log.debug("check of a closing phone failed", exc_info=True)

    async def hand_out(self, message: dict) -> None:
        self.heard += 1
        if "snapshots" in message:
            await self.hand_out_snapshots(message)
            return
        if "deliver" in message:
            await self.hand_out_delivered(message)
            return
        named = set(message["characters"]) if message.get("characters") is not None else None
        encoded: dict[str, str] = {}       # its text per language, made by the first phone
        for number, phone in enumerate(list(self.phones.get(message["event"], ()))):
            if named is not None and phone.character_id not in named:
                continue
            if number % HAND_OUT_SLICE == HAND_OUT_SLICE - 1:
                await asyncio.sleep(0)
            try:
                await phone.broadcast_message(message, encoded)
            except Exception:  # one closed socket must not keep the others waiting
                log.debug("broadcast to a closing phone failed", exc_info=True)


    async def hand_out_snapshots(self, message: dict) -> None:
        """A batch of players' snapshots: each phone gets the one of the character it
        watches, and nothing of the others (a player sees only their own character)."""
        for number, (character, snapshot) in enumerate(message["snapshots"].items()):
            if number % HAND_OUT_SLICE == HAND_OUT_SLICE - 1:
                await asyncio.sleep(0)
            for phone in list(self.watching.get(int(character), ())):
                if phone.character_id != int(character):
                    continue
                try:
                    await phone.snapshot_message({"snapshot": snapshot})
                except Exception:  # one closed socket must not keep the others waiting
                    log.debug("snapshot to a closing phone failed", exc_info=True)

    async def hand_out_delivered(self, message: dict) -> None:
        """To the phones of `characters` and to those watching as a narrator of `users`:
        each such phone's handler of the message's type."""
        phones = {phone for character in message.get("characters") or ()
                  for phone in self.watching.get(character, ())}
        users = set(message.get("users") or ())
        if users:
            phones.update(phone for watching in self.watching.values() for phone in watching
                          if phone.narrator_id in users)
        for phone in list(phones):
            try:
                await phone.delivered(message["deliver"])
            except Exception:  # one closed socket must not keep the others waiting
                log.debug("a message to a closing phone failed", exc_info=True)


_listeners: dict[asyncio.AbstractEventLoop, _Listener] = {}


async def join(event_id: int, phone) -> None:
    """Register a connected phone; returns once this process listens, so that nothing
    published after the phone's first snapshot is missed."""
    loop = asyncio.get_running_loop()
    for closed in [other for other in _listeners if other.is_closed()]:
        del _listeners[closed]            # a test's finished loop; a server has one
    listener = _listeners.get(loop)
    if listener is None or listener.task.done():
        listener = _listeners[loop] = _Listener()
    listener.phones[event_id].add(phone)
    listener.watching[phone.character_id].add(phone)
    try:
        await asyncio.wait_for(listener.subscribed.wait(), timeout=5)
    except asyncio.TimeoutError:  # Redis is down: the phone still gets its snapshots
        log.warning("broadcast subscription not ready")


def heard() -> int | None:
    """How many broadcasts this process has handed out, None while it is not listening: a
    phone that read its snapshot before joining compares it before and after joining, and
    reads again if one may have gone by in between."""
    listener = _listeners.get(asyncio.get_running_loop())
    if listener is None or listener.task.done() or not listener.subscribed.is_set():
        return None
    return listener.heard


def leave(event_id: int, phone) -> None:
    listener = _listeners.get(asyncio.get_running_loop())
    if listener is not None:
        listener.phones[event_id].discard(phone)
        watching = listener.watching.get(phone.character_id)
        if watching is not None:
            watching.discard(phone)
            if not watching:
                del listener.watching[phone.character_id]


def publish_snapshots(event_id: int, snapshots: list[dict]) -> None:
    """Send a batch of characters' snapshots to every process, keyed by character: each
    process hands each one only to that character's phones."""
    publish(event_id, {"snapshots": {str(s["character"]["id"]): s for s in snapshots}})


def deliver(message: dict, *, characters=(), users=()) -> None:
    """Send `message` (its "type" names the consumer's handler) to the phones of these
    characters and of these narrators' users, wherever they are connected."""
    publish(None, {"deliver": message, "users": sorted(set(users))},
            characters=sorted(set(characters)))


def publish(event_id: int | None, message: dict, characters: list[int] | None = None) -> None:
    """Send to every process (called after commit, from synchronous code); each hands it
    to its phones of `characters` (None: every phone of the event)."""
    sync_client().publish(channel_name(), json.dumps({"event": event_id, "characters": characters,
                                                **message}))
