"""ASGI servers side by side on the same app, the same database and the same Redis: for
each server, one process started the way config/server.py would start it, then

- the constant view (`/healthz`) and a player's snapshot (`/api/characters/<id>/`) in
  requests per second from 32 keep-alive connections, and the server's CPU per request;
- the same constant answered by a bare Django view with no middleware (the floor:
  `bench/bare.py`), on the same server;
- a connect storm: N phones opening their websocket at the same instant; the time until
  every one holds its first snapshot, and the server's CPU per connect.

Server CPU is read from /proc/<pid>/stat for the server's whole process group (granian
answers from a child process), so the load client's own CPU is not counted; requests per
second are counted by the client on this shared machine, with the load average beside.

    .venv/bin/python -m bench.servers [--quick] [--servers daphne uvicorn granian]

`run(quick)` returns the same figures as a dict for `python -m bench all`.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import time

from bench.rest import hammer
from bench.stack import BIN, ROOT, free_port, group_cpu_s, running_stack, wait_for_port

APPLICATION = "config.asgi:application"
BARE_APPLICATION = "bench.bare:application"
LISTEN_BACKLOG = 1024


def daphne(host: str, port: int, application: str) -> list[str]:
    """What config/server.py started until the fourth round."""
    return [str(BIN / "daphne"), "--endpoint", f"tcp:port={port}:interface={host}:backlog={LISTEN_BACKLOG}",
            "--websocket_connect_timeout", "60", application]


def uvicorn(host: str, port: int, application: str) -> list[str]:
    """As config/server.py starts it (httptools, the sans-I/O websockets)."""
    from config.server import command
    return command(host, port, "--log-level", "warning", application=application)


def granian(host: str, port: int, application: str) -> list[str]:
    return [str(BIN / "granian"), "--interface", "asgi", "--host", host, "--port", str(port),
            "--workers", "1", "--loop", "uvloop", "--backlog", str(LISTEN_BACKLOG),
            "--log-level", "warning", application]


SERVERS = {"daphne": daphne, "uvicorn": uvicorn, "granian": granian}


async def storm(port: int, players: list[dict], timeout: float = 60) -> dict:
    """Every phone opens its websocket at once; each waits for its first snapshot."""
    from websockets.asyncio.client import connect
    started = time.monotonic()
    times, errors, sockets = [], {}, []

    async def phone(player):
        uri = f"ws://127.0.0.1:{port}/ws/live/?character={player['id']}"
        headers = {"Cookie": f"sessionid={player['session']}", "Origin": f"http://127.0.0.1:{port}"}
        try:
            socket = await connect(uri, additional_headers=headers, open_timeout=timeout,
                                   ping_interval=None, max_size=2 ** 22)
            sockets.append(socket)
            while json.loads(await asyncio.wait_for(socket.recv(), timeout))["type"] != "snapshot":
                pass
            times.append(time.monotonic() - started)
        except Exception as error:      # refused, reset, timed out: counted, as a phone meets them
            errors[type(error).__name__] = errors.get(type(error).__name__, 0) + 1

    await asyncio.gather(*(phone(p) for p in players))
    await asyncio.gather(*(s.close() for s in sockets), return_exceptions=True)
    return {"connected": len(times), "all_connected_s": round(max(times), 2) if times else None,
            "errors": errors}


def measure(stack, name: str, population, seconds: float, phones: int) -> dict:
    """One server process: constant, snapshot, storm; then the bare floor on a fresh one."""
    import redis
    redis.Redis.from_url(stack.redis_url).flushall()   # the bench's own Redis: no warm snapshots
    player = population.players[0]
    cookie = f"sessionid={player['session']}"
    snapshot = f"/api/characters/{player['id']}/"
    result = {"load_average_before": round(os.getloadavg()[0], 2)}

    def rate(process, port, path, key):
        asyncio.run(hammer(port, path, cookie, 1))               # warm-up
        cpu = group_cpu_s(process.pid)
        count = asyncio.run(hammer(port, path, cookie, seconds))
        result[f"{key}_rps"] = round(count / seconds)
        result[f"{key}_cpu_ms"] = round((group_cpu_s(process.pid) - cpu) / max(1, count) * 1000, 2)

    port = free_port()
    process = stack.spawn(f"{name}-{port}", SERVERS[name]("127.0.0.1", port, APPLICATION))
    wait_for_port(port)
    rate(process, port, "/healthz", "constant")
    rate(process, port, snapshot, "snapshot")
    result["ratio"] = round(result["snapshot_rps"] / max(1, result["constant_rps"]), 2)
    stack.stop(process)

    # The storm on a process that has just started, as after a restart.
    port = free_port()
    process = stack.spawn(f"{name}-{port}", SERVERS[name]("127.0.0.1", port, APPLICATION))
    wait_for_port(port)
    asyncio.run(hammer(port, "/healthz", cookie, 0.5))         # Django loaded, as a live server
    cpu = group_cpu_s(process.pid)
    crowd = asyncio.run(storm(port, population.players[:phones]))
    spent = group_cpu_s(process.pid) - cpu
    result["storm"] = {"phones": phones, **crowd,
                       "cpu_ms_per_connect": round(spent / max(1, crowd["connected"]) * 1000, 1)}
    stack.stop(process)

    port = free_port()
    process = stack.spawn(f"{name}-bare-{port}", SERVERS[name]("127.0.0.1", port, BARE_APPLICATION),
                          DJANGO_SETTINGS_MODULE="bench.bare")
    wait_for_port(port)
    rate(process, port, "/healthz", "bare")
    stack.stop(process)
    result["load_average_after"] = round(os.getloadavg()[0], 2)
    return result


def run(quick: bool, servers: list[str] | None = None) -> dict:
    """{server: figures} for each server; quick: 3 s per rate and 200 phones, else 10 s
    and 1,000 phones."""
    from bench import data
    seconds, phones = (3, 200) if quick else (10, 1000)
    with running_stack() as stack:
        population = data.populate(phones)
        return {name: measure(stack, name, population, seconds, phones)
                for name in servers or list(SERVERS)}


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="3 s per rate, 200 phones")
    parser.add_argument("--servers", nargs="+", choices=list(SERVERS), default=list(SERVERS))
    arguments = parser.parse_args()
    os.chdir(ROOT)
    print(json.dumps(run(arguments.quick, arguments.servers), indent=1))
