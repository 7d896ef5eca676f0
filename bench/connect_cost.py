"""Server CPU and SQL queries of one websocket connect with its snapshot, and of one
constant HTTP answer, measured in-process (no network, no load client taking the CPU):
the ASGI application is called directly, as the server would call it, and the CPU time
of this process is divided by the number of calls. The machine may be shared: CPU time
does not count what other processes take, wall time would.

    .venv/bin/python -m bench.connect_cost --connects 300 --requests 2000 [--profile]
"""
from __future__ import annotations

import argparse
import asyncio
import os
import time

from bench.stack import cli, running_stack


class QueryCounter:
    """Counts the SQL statements of every connection, in every thread (the consumer reads
    on worker threads, so Django's per-connection capture would miss them)."""

    def __init__(self):
        self.count = 0

    def __call__(self, execute, sql, params, many, context):
        self.count += 1
        return execute(sql, params, many, context)

    def install(self) -> None:
        from django.db import connections
        from django.db.backends.signals import connection_created

        def hook(sender, connection, **kwargs):
            if self not in connection.execute_wrappers:
                connection.execute_wrappers.append(self)
        connection_created.connect(hook, weak=False)
        for connection in connections.all():
            hook(None, connection)


async def one_connect(application, character_id: int, cookie: str) -> dict:
    from channels.testing import WebsocketCommunicator
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver"),
               (b"cookie", cookie.encode())]
    phone = WebsocketCommunicator(application, f"/ws/live/?character={character_id}",
                                  headers=headers)
    connected, _ = await phone.connect(timeout=10)
    assert connected
    first = await phone.receive_json_from(timeout=10)
    assert first["type"] == "snapshot", first
    await phone.disconnect()
    return first


class BareConsumer:
    """The floor: a Channels consumer that accepts and sends one constant message, with
    no session, user, group or query (built lazily: Django must be set up first)."""

    @staticmethod
    def application():
        from channels.generic.websocket import AsyncJsonWebsocketConsumer

        class Bare(AsyncJsonWebsocketConsumer):
            async def connect(self):
                await self.accept()
                await self.send_json({"type": "snapshot", "snapshot": {}})
        return Bare.as_asgi()


async def bare_connect(application) -> None:
    from channels.testing import WebsocketCommunicator
    phone = WebsocketCommunicator(application, "/ws/live/")
    connected, _ = await phone.connect(timeout=10)
    assert connected
    assert (await phone.receive_json_from(timeout=10))["type"] == "snapshot"
    await phone.disconnect()


async def one_get(application, path: str, cookie: str = "") -> int:
    from channels.testing import HttpCommunicator
    headers = [(b"host", b"testserver")] + ([(b"cookie", cookie.encode())] if cookie else [])
    communicator = HttpCommunicator(application, "GET", path, headers=headers)
    response = await communicator.get_response(timeout=30)
    return response["status"]


def _per_call(cpu: float, calls: int) -> float:
    return round(cpu / calls * 1000, 3)


def connects(population, count: int, counter: QueryCounter, profile: bool) -> dict:
    from config.asgi import application
    players = population.players

    async def run(n: int):
        for i in range(n):
            player = players[i % len(players)]
            await one_connect(application, player["id"], f"sessionid={player['session']}")

    asyncio.run(run(min(count, 20)))            # warm-up: imports, pools, first reads

    async def counted() -> float:
        await run(1)            # the first of an event loop starts its broadcast listener
        counter.count = 0
        await run(10)
        return counter.count / 10
    queries = asyncio.run(counted())
    if profile:
        import cProfile
        import pstats
        with cProfile.Profile(time.process_time) as profiler:
            asyncio.run(run(count))
        profiler.dump_stats(os.environ.get("PROFILE_FILE", "var/bench/connect.prof"))
        pstats.Stats(profiler).sort_stats("tottime").print_stats(40)
    start = time.process_time()
    asyncio.run(run(count))
    cpu = time.process_time() - start
    bare = BareConsumer.application()

    async def floor(n: int):
        for _ in range(n):
            await bare_connect(bare)
    asyncio.run(floor(20))
    start = time.process_time()
    asyncio.run(floor(count))
    return {"connect_cpu_ms": _per_call(cpu, count), "connect_queries": queries,
            "bare_consumer_cpu_ms": _per_call(time.process_time() - start, count)}


def requests(count: int, counter: QueryCounter, paths: dict[str, tuple[str, str]]) -> dict:
    from config.asgi import application
    result = {}
    for name, (path, cookie) in paths.items():
        async def run(n: int):
            for _ in range(n):
                assert await one_get(application, path, cookie) == 200
        asyncio.run(run(20))
        counter.count = 0
        asyncio.run(run(1))
        queries = counter.count
        start = time.process_time()
        asyncio.run(run(count))
        result[f"{name}_cpu_ms"] = _per_call(time.process_time() - start, count)
        result[f"{name}_queries"] = queries
    return result


def run(connects: int = 300, requests: int = 2000, profile: bool = False) -> dict:
    return one_run(argparse.Namespace(connects=connects, requests=requests, profile=profile))


def one_run(args) -> dict:
    from bench import data
    with running_stack():
        population = data.populate(200)
        counter = QueryCounter()
        counter.install()
        player = population.players[0]
        cookie = f"sessionid={player['session']}"
        result = {"load_average": round(os.getloadavg()[0], 2)}
        result.update(connects(population, args.connects, counter, args.profile))
        result.update(requests(args.requests, counter, {
            "constant": ("/healthz", ""),
            "snapshot": (f"/api/characters/{player['id']}/", cookie)}))
        result["load_average_after"] = round(os.getloadavg()[0], 2)
    return result


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--connects", type=int, default=300)
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--runs", type=int, default=1)
    cli("bench.connect_cost", parser, lambda a: (one_run(a) for _ in range(a.runs)))
