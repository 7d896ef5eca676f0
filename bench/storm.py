"""Connect storm: N phones (valid logins) open their live websocket at the same instant, as
after a server restart or when the venue's Wi-Fi comes back, and retry until each holds
its snapshot. Two kinds of phones:

- `backoff`: the app's own behaviour (js/live.js): a busy server's close (4013,
  `retry_after_ms`) is honoured (plus up to 500 ms), any other failure waits the app's
  backoff, 1 s, 2 s, 4 s... up to 30 s, times 0.5 to 1.5.
- `every-second`: a naive client that ignores the hint and tries again every second.

Measured: the time until every phone holds a snapshot, the refusals seen (4013), the
phones told "forbidden" (4403 or HTTP 403: must be 0, every login is valid), other
errors, and the server's CPU per successful connect (its processes' user + system time
over the storm, divided by the phones connected). The load average is recorded beside.

    .venv/bin/python -m bench.storm --clients 1000 --mode every-second [--runs 1]
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import time
from pathlib import Path

from bench.load import percentiles
from bench.stack import cli, group_cpu_s, running_stack, server_with_players

MODES = ("backoff", "every-second")
DEADLINE_S = 180             # a storm that has not settled by then is reported as such
HANDSHAKE_TIMEOUT_S = 10     # a phone gives up an unanswered handshake after this long
HINT_JITTER_S = 0.5          # what js/live.js adds to the server's delay


class Storm:
    def __init__(self, port: int, players: list[dict], mode: str):
        self.port, self.players, self.mode = port, players, mode
        self.connected: list[float] = []
        self.refusals = 0
        self.hints: list[float] = []
        self.forbidden = 0
        self.errors: dict[str, int] = {}
        self.started = 0.0
        self.done = asyncio.Event()

    def _refused(self, retry_after_ms) -> float | None:
        self.refusals += 1
        if not isinstance(retry_after_ms, (int, float)):
            self._error("4013 without a delay")
            return None
        self.hints.append(retry_after_ms / 1000)
        return retry_after_ms / 1000

    def _error(self, name: str) -> None:
        self.errors[name] = self.errors.get(name, 0) + 1

    async def phone(self, player: dict) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed, InvalidStatus
        uri = f"ws://127.0.0.1:{self.port}/ws/live/?character={player['id']}"
        headers = {"Cookie": f"sessionid={player['session']}", "Origin": f"http://127.0.0.1:{self.port}"}
        attempt = 0
        while not self.done.is_set():
            hint = None
            try:
                async with connect(uri, additional_headers=headers, open_timeout=HANDSHAKE_TIMEOUT_S,
                                   ping_interval=None, max_size=2 ** 22) as socket:
                    first = json.loads(await socket.recv())
                    if first.get("type") == "busy":       # the server's close follows
                        hint = self._refused(first.get("retry_after_ms"))
                    elif first.get("type") == "snapshot":
                        self.connected.append(time.monotonic() - self.started)
                        if len(self.connected) == len(self.players):
                            self.done.set()
                        await self.done.wait()        # holds its socket, as a phone does
                        return
                    else:
                        self._error("unexpected first message")
            except ConnectionClosed as closed:
                code, reason = (closed.rcvd.code, closed.rcvd.reason) if closed.rcvd else (1006, "")
                if code in (4013, 1013):
                    try:
                        hint = self._refused(json.loads(reason)["retry_after_ms"])
                    except (ValueError, KeyError, TypeError):
                        hint = self._refused(None)
                elif code == 4403:
                    self.forbidden += 1
                    return                            # the app stops there
                else:
                    self._error(f"close {code}")
            except InvalidStatus as refused:
                status = refused.response.status_code
                if status == 403:
                    self.forbidden += 1
                    return
                self._error(f"HTTP {status}")
            except Exception as error:  # reset, refused, timed out: what a phone meets
                self._error(type(error).__name__)
            if self.mode == "every-second":
                delay = 1.0
            elif hint is not None:
                delay = hint + HINT_JITTER_S * random.random()
            else:
                delay = min(30, 2 ** attempt) * (0.5 + random.random())
                attempt += 1
            try:
                await asyncio.wait_for(self.done.wait(), timeout=delay)
            except asyncio.TimeoutError:
                pass

    async def run(self) -> None:
        self.started = time.monotonic()
        tasks = [asyncio.create_task(self.phone(p)) for p in self.players]
        try:
            await asyncio.wait_for(self.done.wait(), timeout=DEADLINE_S)
        except asyncio.TimeoutError:
            self.done.set()
        await asyncio.gather(*tasks, return_exceptions=True)


def _load() -> list[float]:
    return [float(x) for x in Path("/proc/loadavg").read_text().split()[:3]]


def run(clients: int, mode: str, env: dict | None = None) -> dict:
    """One storm of `clients` phones of kind `mode` ('backoff' or 'every-second') against
    one freshly started server (its settings from the environment, plus `env`)."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}")
    saved = {k: os.environ.get(k) for k in (env or {})}
    os.environ.update({k: str(v) for k, v in (env or {}).items()})
    used = {k: os.environ[k] for k in os.environ if k.startswith("LIVE_") or k == "WEB_CONCURRENCY"}
    try:
        with running_stack() as stack:
            population, port, _ = server_with_players(stack, clients)
            web = stack.processes[-1]
            load_before = _load()
            cpu_before = group_cpu_s(web.pid)
            storm = Storm(port, population.players[:clients], mode)
            import resource
            soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            asyncio.run(storm.run())
            cpu = group_cpu_s(web.pid) - cpu_before
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    connected = len(storm.connected)
    return {
        "clients": clients, "mode": mode, "connected": connected,
        "all_connected_s": round(max(storm.connected), 1) if connected == clients else None,
        "connected_s": {k: (round(v, 1) if v is not None else None) for k, v in percentiles(storm.connected).items()},
        "forbidden_to_valid_phones": storm.forbidden,
        "refusals": storm.refusals,
        "hint_s": {k: (round(v, 1) if v is not None else None) for k, v in percentiles(storm.hints).items()},
        "errors": storm.errors,
        "server_cpu_s": round(cpu, 2),
        "server_cpu_ms_per_connect": round(1000 * cpu / connected, 1) if connected else None,
        "load_average": {"before": load_before, "after": _load()},
        "settings": used,
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=1000)
    parser.add_argument("--mode", choices=MODES, default="backoff")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help="a server setting for this run, e.g. LIVE_CONNECTS_PER_S=200")
    cli("bench.storm", parser,
        lambda a: (run(a.clients, a.mode, dict(s.split("=", 1) for s in a.set)) for _ in range(a.runs)))
