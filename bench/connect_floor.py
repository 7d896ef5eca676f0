"""CPU of one websocket connect, counted where it is spent: the server process, PostgreSQL
and Redis, against the floor of a bare Channels consumer served by the same process to
the same client in the same run (bench/floor.py). The client runs in its own process and
speaks raw websocket bytes (bench/wire.py), so that it does not take the server's CPU for
a library's handshake; it records the rate it offered.

Three kinds of connect, each measured as rounds of `connects` phones, alternating with the
bare consumer's:
- `snapshot`: a player's phone, valid session, its character's snapshot (the same phones
  connected once before the rounds: the snapshots are cached, as after a restart);
- `refused`: the same phones against a second server whose admission lets none in
  (LIVE_CONNECTS_PER_S near zero): the busy answer and its close;
- `bare`: the floor, in each server.

CPU is read from /proc before and after each round (plus a settle time for the
disconnects), less what the same processes spent idle over as long.

    .venv/bin/python -m bench.connect_floor --connects 500 --rounds 2
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

from bench.stack import ROOT, cli, group_cpu_s, load_average, postgres_cpu_s, running_stack

FLOOR_APP = "bench.floor:application"
BARE_PATH = "/ws/bare/"        # the floor's route in FLOOR_APP (imports Django: not here)
SETTLE_S = 1.0
# A server that admits no one (after the first phone): every connect is refused.
NO_ADMISSION = {"LIVE_CONNECTS_PER_S": "0.0001", "LIVE_CONNECTS_BURST": "1"}
# A server that admits every phone of a round (no rate; as many at once as the client
# opens): the cost of a connect, not of the admission's pacing.
FULL_ADMISSION = {"LIVE_CONNECTS_PER_S": "0", "LIVE_CONNECTS_IN_PROGRESS_MAX": "10000"}


class Meter:
    """CPU seconds of the server's processes, PostgreSQL's and Redis's."""

    def __init__(self, web_pid: int, redis_pid: int):
        self.web_pid, self.redis_pid = web_pid, redis_pid

    def read(self) -> dict:
        return {"server": group_cpu_s(self.web_pid), "postgres": postgres_cpu_s(),
                "redis": group_cpu_s(self.redis_pid)}

    def idle_per_s(self) -> dict:
        before = self.read()
        time.sleep(SETTLE_S)
        return {k: v - before[k] for k, v in self.read().items()}


def client(stack, port: int, plan: list[dict], concurrency: int) -> dict:
    path = stack.logs / f"plan-{port}.json"
    path.write_text(json.dumps(plan))
    done = subprocess.run([sys.executable, "-m", "bench.connect_client", "--port", str(port),
                           "--plan", str(path), "--concurrency", str(concurrency)],
                          cwd=ROOT, env=stack.env(), capture_output=True, text=True, check=True,
                          timeout=600)
    return json.loads(done.stdout.strip().splitlines()[-1])


def round_cost(stack, meter: Meter, port: int, plan: list[dict], concurrency: int,
               expected: str) -> dict:
    idle = meter.idle_per_s()
    before = meter.read()
    offered = client(stack, port, plan, concurrency)
    time.sleep(SETTLE_S)
    after = meter.read()
    spent_s = offered["elapsed_s"] + SETTLE_S
    cpu = {k: max(0.0, after[k] - before[k] - idle[k] * spent_s) for k in after}
    served = offered["outcomes"].get(expected, 0)
    return {"cpu_ms": {k: round(1000 * v / max(1, served), 3) for k, v in cpu.items()},
            "total_ms": round(1000 * sum(cpu.values()) / max(1, served), 3),
            "served": served, **offered}


def rounds(stack, meter, port, kinds: dict, rounds_n: int, concurrency: int) -> dict:
    """kinds: {name: (plan, expected first message)}; alternated, `rounds_n` times."""
    found = {name: [] for name in kinds}
    for _ in range(rounds_n):
        for name, (plan, expected) in kinds.items():
            found[name].append(round_cost(stack, meter, port, plan, concurrency, expected))
    return found


def mean_total(results: list[dict]) -> float:
    return round(sum(r["total_ms"] for r in results) / len(results), 3)


def run(connects: int = 500, rounds_n: int = 2, concurrency: int = 32) -> dict:
    from bench import data
    with running_stack() as stack:
        population = data.populate(connects)
        phones = [{"path": f"/ws/live/?character={p['id']}&lang=fr", "session": p["session"]}
                  for p in population.players]
        bare = [{"path": BARE_PATH}] * connects
        load_before = load_average()

        port = stack.start_web(application=FLOOR_APP, **FULL_ADMISSION)
        meter = Meter(stack.processes[-1].pid, stack.redis.pid)
        client(stack, port, phones, concurrency)          # caches the snapshots, warms up
        client(stack, port, bare, concurrency)
        admitted = rounds(stack, meter, port, {"bare": (bare, "snapshot"),
                                               "snapshot": (phones, "snapshot")},
                          rounds_n, concurrency)

        closed_port = stack.start_web(application=FLOOR_APP, **NO_ADMISSION)
        meter = Meter(stack.processes[-1].pid, stack.redis.pid)
        client(stack, closed_port, bare, concurrency)
        client(stack, closed_port, phones[:50], concurrency)
        refused = rounds(stack, meter, closed_port, {"bare": (bare, "snapshot"),
                                                     "refused": (phones, "busy")},
                         rounds_n, concurrency)
    bare_ms, refused_bare_ms = mean_total(admitted["bare"]), mean_total(refused["bare"])
    snapshot_ms, refused_ms = mean_total(admitted["snapshot"]), mean_total(refused["refused"])
    return {
        "connects": connects, "rounds": rounds_n, "concurrency": concurrency,
        "bare_ms": bare_ms, "snapshot_ms": snapshot_ms,
        "snapshot_ratio": round(snapshot_ms / bare_ms, 2),
        "refused_bare_ms": refused_bare_ms, "refused_ms": refused_ms,
        "refused_ratio": round(refused_ms / refused_bare_ms, 2),
        "offered_per_s": max(r["per_s"] for group in (admitted, refused)
                             for results in group.values() for r in results),
        "admitted": admitted, "refused": refused,
        "load_average": {"before": load_before, "after": load_average()},
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--connects", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--runs", type=int, default=1)
    cli("bench.connect_floor", parser,
        lambda a: (run(a.connects, a.rounds, a.concurrency) for _ in range(a.runs)))
