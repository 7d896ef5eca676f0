"""Connect storm: N phones (valid logins) open their live websocket at the same instant, as
after a server restart or when the venue's Wi-Fi comes back, and retry until each holds
its snapshot. The phones (bench/storm_client.py: the app's backoff, or every second
ignoring the hint) run in CLIENT_PROCESSES processes of their own, speaking raw websocket
bytes, so that the client can offer what the storm names: the result says how many
attempts a second it actually offered.

Measured: the time until every phone holds a snapshot, the refusals seen (4013), the
phones told "forbidden" (4403 or HTTP 403: must be 0, every login is valid), other
errors, the attempts offered per second (the busiest second, and the first), and the
server's CPU per successful connect (its processes' user + system time over the storm,
divided by the phones connected). The load average is recorded beside.

    .venv/bin/python -m bench.storm --clients 1000 --mode every-second [--runs 1]
"""
from __future__ import annotations

import argparse
import multiprocessing
import os
import queue
import time
from collections import Counter
from pathlib import Path

from bench.connect_floor import FULL_ADMISSION, client
from bench.load import rounded_percentiles
from bench.stack import cli, group_cpu_s, running_stack, server_with_players
from bench.storm_client import storm_share

MODES = ("backoff", "every-second")
DEADLINE_S = 180             # a storm that has not settled by then is reported as such
CLIENT_PROCESSES = 4         # 500 phones each at 2,000: one process alone offers ~1,500/s
START_IN_S = 2.0             # the processes are started and ready before the instant


def _storm(port: int, players: list[dict], mode: str) -> dict:
    """The phones in CLIENT_PROCESSES processes; what they met, put together."""
    spawn = multiprocessing.get_context("spawn")
    shared = {"lock": spawn.Lock(), "connected": spawn.Value("i", 0),
              "given_up": spawn.Value("i", 0), "everyone_done": spawn.Event()}
    results = spawn.Queue()
    start_at = time.time() + START_IN_S
    shares = [players[i::CLIENT_PROCESSES] for i in range(CLIENT_PROCESSES)]
    processes = [spawn.Process(target=storm_share, args=(port, share, mode, start_at, shared, results))
                 for share in shares if share]
    for process in processes:
        process.start()
    give_up = start_at + DEADLINE_S
    while (shared["connected"].value + shared["given_up"].value < len(players)
           and time.time() < give_up and all(p.is_alive() for p in processes)):
        time.sleep(0.05)
    shared["everyone_done"].set()
    met = _results(processes, results)
    errors = Counter()
    for one in met:
        errors.update(one["errors"])
    return {"start_at": start_at, "connected": [t - start_at for one in met for t in one["connected"]],
            "attempts": [t - start_at for one in met for t in one["attempts"]],
            "hints": [h for one in met for h in one["hints"]],
            "refusals": sum(one["refusals"] for one in met),
            "forbidden": sum(one["forbidden"] for one in met), "errors": dict(errors)}


def _connect_once(stack, port: int, players: list[dict]) -> dict:
    """Every phone opens its websocket once, 32 at a time, and closes it (what they met);
    each must have had its snapshot, or the storm would not be of phones dropped."""
    plan = [{"path": f"/ws/live/?character={p['id']}", "session": p["session"]} for p in players]
    outcomes = client(stack, port, plan, 32)["outcomes"]
    if outcomes.get("snapshot", 0) != len(players):
        raise RuntimeError(f"the phones' first connects did not all get a snapshot: {outcomes}")
    return outcomes


def _results(processes, results) -> list[dict]:
    """What each client process met; one that died is named, not waited for."""
    met, deadline = [], time.time() + 60
    while len(met) < len(processes) and time.time() < deadline:
        try:
            met.append(results.get(timeout=1))
        except queue.Empty:
            if not any(p.is_alive() for p in processes):
                break
    for process in processes:
        process.join(timeout=30)
        if process.is_alive():
            process.terminate()
    if len(met) < len(processes):
        dead = [p.exitcode for p in processes if p.exitcode not in (0, None)]
        raise RuntimeError(f"{len(processes) - len(met)} client process(es) gave no result "
                           f"(exit codes {dead})")
    return met


def offered(attempts: list[float]) -> dict:
    """Upgrade requests written per second: in the storm's first second, in its busiest, on
    average."""
    by_second = Counter(int(t) for t in attempts if t >= 0)
    span = max(attempts) if attempts else 0
    return {"attempts": len(attempts), "first_second": by_second.get(0, 0),
            "busiest_second": max(by_second.values(), default=0),
            "mean_per_s": round(len(attempts) / span, 1) if span > 0 else None}


def _load() -> list[float]:
    return [float(x) for x in Path("/proc/loadavg").read_text().split()[:3]]


def run(clients: int, mode: str, env: dict | None = None) -> dict:
    """One storm of `clients` phones of kind `mode` ('backoff' or 'every-second') against
    one freshly started server (its settings from the environment, plus `env`).

    The phones were connected before, as when they are dropped at once (a server restart,
    the venue's Wi-Fi back): each has opened its websocket once, then the server process
    is restarted; what the phones left in Redis (their passes, the ready snapshots) is
    still there, as it is after a real restart."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}")
    saved = {k: os.environ.get(k) for k in (env or {})}
    os.environ.update({k: str(v) for k, v in (env or {}).items()})
    used = {k: os.environ[k] for k in os.environ if k.startswith("LIVE_") or k == "WEB_CONCURRENCY"}
    try:
        with running_stack() as stack:
            population, port, _ = server_with_players(stack, clients)
            # The first connects on a server that lets all in (they are not the storm).
            stack.stop(stack.processes[-1])
            stack.start_web(port=port, **FULL_ADMISSION)
            known = _connect_once(stack, port, population.players[:clients])
            stack.stop(stack.processes[-1])
            stack.start_web(port=port)
            web = stack.processes[-1]
            load_before = _load()
            cpu_before = group_cpu_s(web.pid)
            storm = _storm(port, population.players[:clients], mode)
            cpu = group_cpu_s(web.pid) - cpu_before
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    connected = len(storm["connected"])
    return {
        "clients": clients, "mode": mode, "connected": connected,
        "all_connected_s": round(max(storm["connected"]), 1) if connected == clients else None,
        "connected_s": rounded_percentiles(storm["connected"], 1),
        "forbidden_to_valid_phones": storm["forbidden"],
        "refusals": storm["refusals"],
        "hint_s": rounded_percentiles(storm["hints"], 1),
        "connected_before": known,
        "offered": {**offered(storm["attempts"]), "client_processes": CLIENT_PROCESSES},
        "errors": storm["errors"],
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
