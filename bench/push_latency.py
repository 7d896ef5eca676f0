"""Push latency: a narrator pushes an effect to one character, to a team of 50 and to
everyone, with N phones connected to one server process; latency is the time from the
API call to the receipt on each phone. Every message carries a sequence number; the
phones count gaps and missing receipts.

    .venv/bin/python -m bench.push_latency --clients 2000 --runs 3
"""
from __future__ import annotations

import argparse
import random
import time

from bench.load import Load, Narrator, percentiles
from bench.stack import cli, server_with_players, running_stack

CASES = [("one character", 20, 0.3), ("team of 50", 10, 0.6), ("everyone", 5, 4.0)]


def target(case: str, population) -> tuple[dict, int]:
    players = population.players
    if case == "one character":
        return {"character_ids": [random.choice(players)["id"]]}, 1
    if case == "team of 50":
        team = random.choice(players)["team"]
        return {"team": team}, sum(1 for p in players if p["team"] == team)
    return {"everyone": True}, len(players)


def run(clients: int, cases=CASES, settle_s: float = 60) -> dict:
    """One run: `cases` as (case, pushes, pause after each in s); `settle_s` is how long
    the phones are left to receive before whatever is missing counts as lost."""
    with running_stack() as stack:
        population, port, players_file = server_with_players(stack, clients)
        load = Load(stack, port, players_file, clients)
        narrator = Narrator(port, population.narrator_session)
        # One push first, not counted: the server's first request loads what every later
        # one finds ready (URL resolvers, the ruleset, pooled connections).
        narrator.post(f"/api/events/{population.event_id}/effects/",
                      {"text": "Effet : warm-up", "character_ids": [population.players[0]["id"]]})
        time.sleep(1)
        sent = {}
        api_ms = {case: [] for case, _, _ in cases}
        token = 0
        for case, repeats, pause in cases:
            for _ in range(repeats):
                token += 1
                body, expected = target(case, population)
                started = time.time()
                narrator.post(f"/api/events/{population.event_id}/effects/",
                              {"text": f"Effet : bench-{token}", **body})
                api_ms[case].append((time.time() - started) * 1000)
                sent[f"bench-{token}"] = (case, started, expected)
                time.sleep(pause)
        # Anything not received once the channel layer's expiry (60 s) has passed is lost.
        time.sleep(settle_s)
        result = load.finish()
    rows = {}
    for case, _, _ in cases:
        latencies, lost = [], 0
        for name, (kind, started, expected) in sent.items():
            if kind != case:
                continue
            receipts = result["receipts"].get(name, [])
            latencies += [(t - started) * 1000 for t in receipts]
            lost += expected - len(receipts)
        rows[case] = {**percentiles(latencies), "lost": lost, "api_ms": percentiles(api_ms[case])}
    return {"clients": clients, "connected": load.connected, "gaps": result["gaps"],
            "errors": result["errors"], "cases": rows}


one_run = run


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--clients", type=int, nargs="+", default=[2000])
    parser.add_argument("--runs", type=int, default=3)
    cli("bench.push_latency", parser, lambda a: (one_run(c) for c in a.clients for _ in range(a.runs)))
