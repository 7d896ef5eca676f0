"""Who may open a live websocket now, and who must come back later.

A crowd of phones reconnecting at once (a server restart, the venue's Wi-Fi back) used to
collapse the server: every connect read the login, joined groups and built a snapshot at
once, the handshakes queued past the phones' patience, the phones gave up and retried,
and the server kept working for connections nobody held any more. Some lookups failed
under the load and those phones were told "forbidden" and stopped for good.

Here, per server process:
- A connect is admitted while fewer than LIVE_CONNECTS_IN_PROGRESS_MAX are in progress
  and a token of the bucket refilled at LIVE_CONNECTS_PER_S is left (both measured on the
  target machine, see docs/performance.md). The others are told at once, before any
  database or Redis work, when to come back: each refused phone is given the next free
  slot of a virtual queue served at the rate this process completes connects
  (LIVE_CONNECTS_PER_S; without it, as many at once as it admits divided by how long a
  connect takes lately), plus jitter, so the crowd returns spread over the next seconds
  instead of all together.
- A phone that hangs up while its connect waits is noticed (`Hangup`) and its work dropped.
- A lookup that fails (database, Redis, the channel layer) is `BUSY_ERRORS`: the phone is
  told to come back, never that it is forbidden.
"""
from __future__ import annotations

import asyncio
import json
import random
import time

from django.conf import settings
from django.db import Error as DatabaseError
from redis.exceptions import RedisError

# What a crowd or a fault makes a connect raise: the phone is told to come back. Anything
# else is a bug and is left to raise (it is logged by the server).
BUSY_ERRORS = (DatabaseError, RedisError, OSError, TimeoutError)
# How much each connect's duration moves the running mean (about the last 20 connects).
DURATION_WEIGHT = 0.05
# The live socket's path: the only one admission watches (the race's public page is not).
LIVE_PATH = "/ws/live/"


class Door:
    """The admission state of this process (one instance: `door`)."""

    def __init__(self):
        self.in_progress = 0
        self.tokens = None           # filled on first use, from the settings then in force
        self.refilled = time.monotonic()
        self.next_slot = 0.0         # monotonic time of the next free return slot
        self.connect_s = None        # running mean of how long an admitted connect takes

    def _rate(self) -> float:
        return float(settings.LIVE_CONNECTS_PER_S)

    def _refill(self, now: float) -> None:
        rate = self._rate()
        burst = max(1.0, float(settings.LIVE_CONNECTS_BURST) or rate)
        if self.tokens is None:
            self.tokens = burst
        elif rate > 0:
            self.tokens = min(burst, self.tokens + (now - self.refilled) * rate)
        self.refilled = now

    def admit(self) -> float | None:
        """The instant this connect was let in (hand it to `done()` when it ends), or None:
        come back later. No I/O."""
        if self.in_progress >= settings.LIVE_CONNECTS_IN_PROGRESS_MAX:
            return None
        now = time.monotonic()
        if self._rate() > 0:
            self._refill(now)
            if self.tokens < 1:
                return None
            self.tokens -= 1
        self.in_progress += 1
        return now

    def full(self) -> bool:
        """Whether a connect now would be refused; takes nothing (live/busy_http.py asks
        before any websocket exists, the gate still takes its ticket)."""
        if self.in_progress >= settings.LIVE_CONNECTS_IN_PROGRESS_MAX:
            return True
        if self._rate() > 0:
            self._refill(time.monotonic())
            return self.tokens < 1
        return False

    def done(self, started: float) -> None:
        self.in_progress -= 1
        took = time.monotonic() - started
        self.connect_s = took if self.connect_s is None else (
            self.connect_s + DURATION_WEIGHT * (took - self.connect_s))

    def _serving_rate(self) -> float:
        """Connects per second this process completes: LIVE_CONNECTS_PER_S, the rate measured
        on the target machine, when it is set. Only without one, as many at once as it
        admits, each taking what connects took lately. A rate read from the durations during
        a crowd is the crowd's own handshakes slowing the loop: it planned 2,000 dropped
        phones over 32 s while the process sat three quarters idle (docs/performance.md,
        "A refused crowd returns at the measured rate"). A phone that comes back before its
        slot is free is refused again for a fraction of a connect and takes the next one."""
        ceiling = self._rate()
        if ceiling > 0:
            return ceiling
        if not self.connect_s:
            return max(1.0, float(settings.LIVE_CONNECTS_IN_PROGRESS_MAX))
        return max(1.0, settings.LIVE_CONNECTS_IN_PROGRESS_MAX / self.connect_s)

    def retry_after_s(self) -> float:
        """When a refused phone should come back: the next free slot of a queue served at
        the rate connects complete (so a crowd of N is spread over N / rate seconds), at
        least LIVE_RETRY_MIN_S, at most LIVE_RETRY_MAX_S, plus up to LIVE_RETRY_JITTER_S."""
        now = time.monotonic()
        low, high = settings.LIVE_RETRY_MIN_S, settings.LIVE_RETRY_MAX_S
        rate = self._serving_rate()
        self.next_slot = max(self.next_slot, now + low) + 1 / rate
        wait = self.next_slot - now
        if wait > high:
            # More phones than the window holds (or phones that ignore the hint keep
            # taking slots): spread the rest evenly over the whole window.
            self.next_slot = now + high
            wait = random.uniform(low, high)
        return round(min(high, wait + random.uniform(0, settings.LIVE_RETRY_JITTER_S)), 1)


door = Door()
# Where the gate hands its ticket to the consumer (the ASGI scope).
SCOPE_KEY = "live_admission"


class Ticket:
    """One admitted connect, counted in progress until `done()`: the consumer calls it once
    its first message is sent; the gate, when the socket ends without that. Once only."""

    def __init__(self, started: float):
        self.started: float | None = started

    def done(self) -> None:
        if self.started is not None:
            door.done(self.started)
            self.started = None


def ticket() -> Ticket | None:
    started = door.admit()
    return None if started is None else Ticket(started)


class Gate:
    """ASGI middleware in front of every other layer of the live websocket (origin, session,
    routing, the consumer and its channel): a phone beyond what this process sustains is
    told when to come back for the cost of its handshake and two messages, a fraction of
    an admitted connect (docs/performance.md). A crowd that ignores the hint therefore
    cannot starve the connects already admitted."""

    def __init__(self, application, path: str = LIVE_PATH):
        self.application, self.path = application, path

    async def __call__(self, scope, receive, send):
        if scope["type"] != "websocket" or scope.get("path") != self.path:
            return await self.application(scope, receive, send)
        admitted = ticket()
        if admitted is None:
            return await refuse(receive, send)
        try:
            return await self.application({**scope, SCOPE_KEY: admitted}, receive, send)
        finally:
            admitted.done()


async def refuse(receive, send) -> None:
    """The busy answer in plain ASGI messages, with no consumer built."""
    if (await receive())["type"] == "websocket.connect":
        await busy_answer(send)


async def busy_answer(send) -> None:
    """Accept, say when to come back, close: the refusal a phone reads (docs/api.md)."""
    busy = busy_message(door.retry_after_s())
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.send", "text": json.dumps(busy)})
    # 4013: RFC 6455's 1013 "Try Again Later" in the application's range (daphne lets
    # an application close only with 1000 or 3000-4999).
    await send({"type": "websocket.close", "code": 4013, "reason": busy_reason(busy)})


def busy_message(retry_after_s: float) -> dict:
    """The refusal the phone reads (a browser WebSocket sees messages and a close event's
    code and reason, never an HTTP status)."""
    return {"type": "busy", "retry_after_ms": int(retry_after_s * 1000)}


def busy_reason(busy: dict) -> str:
    """The same delay as the close reason (code 4013), for servers that send one; well
    under the 123 bytes a close frame allows."""
    return json.dumps({"retry_after_ms": busy["retry_after_ms"]}, separators=(",", ":"))


class Hangup:
    """Wraps the connection's ASGI `receive` so that the consumer can tell, while its
    connect waits, whether the phone has already hung up: during the connect, the next
    message is read ahead; it is handed on untouched when the consumer asks for it."""

    def __init__(self, receive):
        self._receive = receive
        self._ahead: asyncio.Future | None = None

    async def receive(self):
        if self._ahead is not None:
            ahead, self._ahead = self._ahead, None
            return await ahead
        return await self._receive()

    def listen(self) -> None:
        """Start reading ahead (once the connect message has been taken)."""
        if self._ahead is None:
            self._ahead = asyncio.ensure_future(self._receive())

    @property
    def gone(self) -> bool:
        ahead = self._ahead
        return (ahead is not None and ahead.done() and not ahead.cancelled()
                and ahead.exception() is None
                and ahead.result().get("type") == "websocket.disconnect")

    def stop(self) -> None:
        if self._ahead is not None and not self._ahead.done():
            self._ahead.cancel()
