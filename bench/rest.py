"""REST: snapshot reads per second against a baseline view that returns a constant, on the
same server; and the SQL queries per snapshot as effects and journal lines pile up.

    .venv/bin/python -m bench.rest --seconds 10 --runs 3
"""
from __future__ import annotations

import argparse
import asyncio
import time

from bench.stack import cli, running_stack

CONCURRENCY = 32


async def hammer(port: int, path: str, cookie: str, seconds: float) -> int:
    """Keep-alive HTTP/1.1 GETs from CONCURRENCY connections, with the headers the phone
    sends (js/api.js); count the 200 answers."""
    done = 0
    stop = time.monotonic() + seconds
    request = (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {cookie}\r\n"
               f"Accept: application/json\r\nAccept-Language: fr\r\nX-Outbox-Oldest: none\r\n\r\n").encode()

    async def worker():
        nonlocal done
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        while time.monotonic() < stop:
            writer.write(request)
            await writer.drain()
            status = await reader.readline()
            length = 0
            while (line := await reader.readline()) not in (b"\r\n", b""):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            await reader.readexactly(length)
            done += status.startswith(b"HTTP/1.1 200")
        writer.close()

    await asyncio.gather(*(worker() for _ in range(CONCURRENCY)))
    return done


def queries_per_snapshot(population) -> dict:
    """The same read with 0 and with 50 effects and 500 journal lines."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from effects.services.effects import effect_push
    from live.snapshots import character_for_snapshot, character_snapshot
    from health.services import character_act
    from players.models import Character

    character = Character.objects.get(pk=population.players[0]["id"])

    def count():
        with CaptureQueriesContext(connection) as queries:
            now = timezone.now()
            character_snapshot(character_for_snapshot(character.pk, now), now)
        return len(queries)

    before = count()
    for i in range(50):
        effect_push(event=character.event, characters=[character], text=f"Effet {i}",
                    duration_s=None, set_state=None, by=None)
    for _ in range(225):   # 2 journal lines each (action + timers)
        character_act(character=character, action="hit_stunning", params={}, by=None, as_narrator=True)
    return {"queries_fresh": before, "queries_50_effects_500_lines": count()}


def one_run(seconds: float) -> dict:
    from bench import data
    with running_stack() as stack:
        population = data.populate(100)
        port = stack.start_web()
        cookie = f"sessionid={population.players[0]['session']}"
        path = f"/api/characters/{population.players[0]['id']}/"
        asyncio.run(hammer(port, path, cookie, 1))           # warm-up
        baseline = asyncio.run(hammer(port, "/healthz", cookie, seconds)) / seconds
        snapshots = asyncio.run(hammer(port, path, cookie, seconds)) / seconds
        queries = queries_per_snapshot(population)
    return {"baseline_rps": round(baseline), "snapshot_rps": round(snapshots),
            "ratio": round(snapshots / baseline, 2), **queries}


run = one_run


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--runs", type=int, default=3)
    cli("bench.rest", parser, lambda a: (one_run(a.seconds) for _ in range(a.runs)))
