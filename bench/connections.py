"""Idle websockets held by one server process, and the memory each costs.

    .venv/bin/python -m bench.connections --clients 1000 2000 5000 --runs 3
"""
from __future__ import annotations

import argparse
import time
import urllib.request

from bench.load import Load
from bench.stack import cli, server_with_players, rss_kib, running_stack


def one_run(clients: int) -> dict:
    with running_stack() as stack:
        population, port, players_file = server_with_players(stack, clients)
        web = stack.processes[-1]
        # Warm up: Django, the URLconf and the consumer are loaded before the baseline.
        urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz").read()
        warm = Load(stack, port, players_file, 1)
        warm.finish()
        time.sleep(1)
        base = rss_kib(web.pid)
        started = time.monotonic()
        load = Load(stack, port, players_file, clients)
        connect_s = time.monotonic() - started
        time.sleep(3)
        held = rss_kib(web.pid)
        result = load.finish()
    return {"clients": clients, "connected": load.connected, "failed": load.failed,
            "connect_all_s": round(connect_s, 1), "rss_base_mib": round(base / 1024, 1),
            "rss_held_mib": round(held / 1024, 1),
            "kib_per_connection": round((held - base) / max(1, load.connected), 1),
            "errors": result["errors"]}


run = one_run


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--clients", type=int, nargs="+", default=[1000, 2000, 5000])
    parser.add_argument("--runs", type=int, default=3)
    cli("bench.connections", parser, lambda a: (one_run(c) for c in a.clients for _ in range(a.runs)))
