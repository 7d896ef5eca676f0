"""The reference deployment of docs/operations.md, measured on this machine: two server
processes sharing one port (uvicorn's own supervisor, as `./run` and the documented
deployment start them), two Celery workers and beat, one Redis, one PostgreSQL, and
`phones` phones connected at once (10,000 for the target).

The phones are held by CLIENT_PROCESSES load generators (bench/client.py), each its own
process, so that no single client process receives 10,000 messages a push. A narrator
pushes an effect to everyone PUSHES times; every phone must receive every push.

Measured: phones connected, push latency from the API call to each receipt (p50, p99),
receipts missing, and the memory each phone costs the server processes (their resident
memory held with every phone connected, less before any, divided by the phones).

    .venv/bin/python -m bench.reference --phones 10000
"""
from __future__ import annotations

import argparse
import json
import time
import urllib.request
from pathlib import Path

from bench.load import Load, Narrator, percentiles
from bench.stack import cli, group_rss_kib, running_stack

SERVER_PROCESSES = 2
CLIENT_PROCESSES = 4
PUSHES = 5
PAUSE_S = 4.0        # between pushes: each reaches 10,000 phones before the next
SETTLE_S = 10        # after the last push, before what is missing counts as lost


def _slices(stack, population, phones: int) -> list[tuple[Path, int]]:
    files = []
    for i in range(CLIENT_PROCESSES):
        share = population.players[:phones][i::CLIENT_PROCESSES]
        path = stack.logs / f"reference-players-{i}.json"
        path.write_text(json.dumps({"event_id": population.event_id, "players": share}))
        files.append((path, len(share)))
    return files


def run(phones: int = 10000) -> dict:
    from bench import data
    from bench.timers import workers_start
    started = time.monotonic()
    with running_stack() as stack:
        population = data.populate(phones)
        port = stack.start_web(workers=SERVER_PROCESSES)
        web = stack.processes[-1]
        workers_start(stack)
        narrator = Narrator(port, population.narrator_session)
        for _ in range(2 * SERVER_PROCESSES):      # each process loads what it serves
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz").read()
        narrator.post(f"/api/events/{population.event_id}/effects/",
                      {"text": "Effet : warm-up", "character_ids": [population.players[0]["id"]]})
        time.sleep(1)
        base_kib = group_rss_kib(web.pid)
        connecting = time.monotonic()
        loads = [Load(stack, port, path, count) for path, count in _slices(stack, population, phones)]
        connect_s = time.monotonic() - connecting
        time.sleep(3)
        held_kib = group_rss_kib(web.pid)
        connected = sum(load.connected for load in loads)
        sent, api_ms = {}, []
        for number in range(1, PUSHES + 1):
            began = time.time()
            narrator.post(f"/api/events/{population.event_id}/effects/",
                          {"text": f"Effet : bench-{number}", "everyone": True})
            api_ms.append((time.time() - began) * 1000)
            sent[f"bench-{number}"] = began
            time.sleep(PAUSE_S)
        time.sleep(SETTLE_S)
        results = [load.finish() for load in loads]
    latencies, received = [], 0
    for name, began in sent.items():
        receipts = [t for result in results for t in result["receipts"].get(name, [])]
        received += len(receipts)
        latencies += [(t - began) * 1000 for t in receipts]
    errors: dict[str, int] = {}
    for result in results:
        for kind, count in result["errors"].items():
            errors[kind] = errors.get(kind, 0) + count
    return {"phones": phones, "server_processes": SERVER_PROCESSES, "workers": 2,
            "client_processes": CLIENT_PROCESSES, "connected": connected,
            "connect_all_s": round(connect_s, 1), "pushes": PUSHES,
            "push_ms": {k: (round(v) if v is not None else None) for k, v in percentiles(latencies).items()},
            "lost": connected * PUSHES - received, "api_ms": percentiles(api_ms),
            "rss_base_mib": round(base_kib / 1024, 1), "rss_held_mib": round(held_kib / 1024, 1),
            "kib_per_phone": round((held_kib - base_kib) / max(1, connected), 1),
            "gaps": sum(result["gaps"] for result in results), "errors": errors,
            "run_s": round(time.monotonic() - started, 1)}


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--phones", type=int, default=10000)
    parser.add_argument("--runs", type=int, default=1)
    cli("bench.reference", parser, lambda a: (run(a.phones) for _ in range(a.runs)))
