"""Reconnect storm: N phones connected, the server process restarted (every connection
dropped at once); the phones reconnect with their jittered backoff. Measured: the time
from the drop until every phone holds a fresh snapshot again.

    .venv/bin/python -m bench.reconnect --clients 2000 --runs 3
"""
from __future__ import annotations

import argparse
import time

from bench.load import Load, percentiles
from bench.stack import cli, server_with_players, running_stack


def one_run(clients: int) -> dict:
    with running_stack() as stack:
        population, port, players_file = server_with_players(stack, clients)
        load = Load(stack, port, players_file, clients, reconnect=True)
        stack.stop(stack.processes[-1])                 # every phone loses its connection
        dropped = time.time()
        load.tell("DROPPED")
        stack.start_web(port)
        load.wait_for("RESYNCED", timeout=180)           # bounded: 180 s at most
        result = load.finish()
    back = [t - dropped for t in result["resynced"]]
    return {"clients": clients, "connected_before": load.connected, "resynced": len(back),
            "all_back_s": round(max(back), 1) if back else None,
            "resync_s": {k: (round(v, 2) if v is not None else None) for k, v in percentiles(back).items()},
            "errors": result["errors"]}


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--clients", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=3)
    cli("bench.reconnect", parser, lambda a: (one_run(a.clients) for _ in range(a.runs)))
