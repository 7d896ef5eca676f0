"""One process's share of a connect storm (bench/storm.py): its phones open their live
websocket at the storm's instant, speaking raw websocket bytes (bench/wire.py) so that
several processes together can offer thousands of handshakes a second, and retry until
each holds its snapshot. A phone that holds one keeps its socket open (answering the
server's pings, as a phone's browser does) until every phone of every process holds one.

Two kinds of phones:
- `backoff`: the app's own behaviour (js/live.js): a busy server's close (4013,
  `retry_after_ms`) is honoured (plus up to 500 ms), any other failure waits the app's
  backoff, 1 s, 2 s, 4 s... up to 30 s, times 0.5 to 1.5.
- `every-second`: a client that ignores the hint and tries again every second.

Every attempt whose upgrade request was written to the socket is recorded (wall clock),
so the storm can say how many handshakes a second were actually offered to the server.
"""
from __future__ import annotations

import asyncio
import random
import time

from bench.wire import CLOSE, PING, PONG, Refused, client_frame, close_frame, open_first, read_frame

HANDSHAKE_TIMEOUT_S = 10     # a phone gives up an unanswered handshake after this long
HINT_JITTER_S = 0.5          # what js/live.js adds to the server's delay


class Phones:
    def __init__(self, port: int, players: list[dict], mode: str, shared):
        self.port, self.players, self.mode = port, players, mode
        self.shared = shared                  # phones connected, phones given up, everyone done
        self.done = asyncio.Event()
        self.connected: list[float] = []      # wall-clock instants
        self.attempts: list[float] = []       # upgrade requests written
        self.hints: list[float] = []
        self.refusals = self.forbidden = 0
        self.errors: dict[str, int] = {}

    def _error(self, name: str) -> None:
        self.errors[name] = self.errors.get(name, 0) + 1

    def _refused(self, retry_after_ms) -> float | None:
        self.refusals += 1
        if not isinstance(retry_after_ms, (int, float)):
            self._error("busy without a delay")
            return None
        self.hints.append(retry_after_ms / 1000)
        return retry_after_ms / 1000

    async def _hold(self, reader, writer) -> None:
        """Holds the socket as a phone does, until the storm is over."""
        async def answer_pings():
            try:
                while True:
                    opcode, payload = await read_frame(reader)
                    if opcode == PING:
                        writer.write(client_frame(PONG, payload))
                    elif opcode == CLOSE:
                        break
            except (OSError, asyncio.IncompleteReadError):
                pass
            if not self.done.is_set():
                self._error("closed by the server while held")
        listening = asyncio.create_task(answer_pings())
        await self.done.wait()
        listening.cancel()
        writer.write(close_frame())

    async def attempt(self, path: str, session: str) -> tuple[str, float | None]:
        """One connect: ("held" | "busy" | "forbidden" | "error", the server's delay)."""
        try:
            kind, detail, reader, writer = await open_first(
                self.port, path, session, HANDSHAKE_TIMEOUT_S,
                on_written=lambda: self.attempts.append(time.time()))
        except Refused as refused:
            if refused.status == 403:
                return "forbidden", None
            self._error(f"HTTP {refused.status}")
            return "error", None
        try:
            if kind == "busy":
                return "busy", self._refused(detail)
            if kind == "closed":
                if detail == 4403:
                    return "forbidden", None
                self._error(f"close {detail}")
                return "error", None
            if detail.get("type") != "snapshot":
                self._error("unexpected first message")
                return "error", None
            self.connected.append(time.time())
            with self.shared["lock"]:
                self.shared["connected"].value += 1
            await self._hold(reader, writer)
            return "held", None
        finally:
            writer.close()

    async def phone(self, player: dict) -> None:
        path = f"/ws/live/?character={player['id']}"
        failures = 0
        while not self.done.is_set():
            hint = None
            try:
                outcome, hint = await self.attempt(path, player["session"])
            except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError,
                    asyncio.LimitOverrunError, ValueError) as error:
                self._error(type(error).__name__)     # reset, refused, timed out
                outcome = "error"
            except Exception as error:                # what the server sent made no sense
                self._error(f"unexpected {type(error).__name__}")
                outcome = "error"
            if outcome == "held":
                return
            if outcome == "forbidden":
                self.forbidden += 1
                self._given_up()
                return                                # the app stops there
            if self.mode == "every-second":
                delay = 1.0
            elif hint is not None:
                delay = hint + HINT_JITTER_S * random.random()
            else:
                delay = min(30, 2 ** failures) * (0.5 + random.random())
                failures += 1
            try:
                await asyncio.wait_for(self.done.wait(), timeout=delay)
            except asyncio.TimeoutError:
                pass

    def _given_up(self) -> None:
        """This phone will not connect: the storm must not wait for it."""
        with self.shared["lock"]:
            self.shared["given_up"].value += 1

    async def _watch_everyone(self) -> None:
        while not self.shared["everyone_done"].is_set():
            await asyncio.sleep(0.05)
        self.done.set()

    async def run(self, start_at: float) -> None:
        await asyncio.sleep(max(0.0, start_at - time.time()))
        watching = asyncio.create_task(self._watch_everyone())
        await asyncio.gather(*(self.phone(p) for p in self.players), return_exceptions=True)
        watching.cancel()


def storm_share(port: int, players: list[dict], mode: str, start_at: float, shared, results) -> None:
    """A process's entry point: its phones' storm, then what it met, on `results`."""
    import resource
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    phones = Phones(port, players, mode, shared)
    asyncio.run(phones.run(start_at))
    results.put({"connected": phones.connected, "attempts": phones.attempts, "hints": phones.hints,
                 "refusals": phones.refusals, "forbidden": phones.forbidden, "errors": phones.errors})
