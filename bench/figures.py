"""Every figure of the targets table, each from a small adapter over a benchmark module's
`run(...)`: the adapter picks the sizes, calls the module and turns its dict into rows
(`key`, `value`, `display`, `holds`, `note`, `detail`).

Where a module does not have the measurement the target asks for yet, its adapter uses
what exists and says so in `note` (a stand-in), or returns the row as not measured. Each
adapter names the one function it calls: switching to a new one is a one-line change.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class Figure:
    key: str
    figure: str
    target: str


FIGURES = [
    Figure("storm_backoff", "2,000 phones dropped at once (app backoff): all back with a fresh snapshot", "≤ 60 s"),
    Figure("storm_every_second", "2,000 phones retrying every second: all connected; 403 to valid phones", "≤ 90 s, no 403"),
    Figure("connect_cpu", "CPU per websocket connect with its snapshot (server + PostgreSQL + Redis) ÷ a bare consumer, same process and client", "≤ 1.5×"),
    Figure("refused_cpu", "CPU per refused connect (busy) ÷ a bare consumer, same process and client", "≤ 0.5×"),
    Figure("constant_rps", "constant view req/s on one process", "≥ 5× today (115): ≥ 575"),
    Figure("snapshot_ratio", "snapshot req/s ÷ constant view req/s, same server", "≥ 0.5"),
    Figure("snapshot_queries", "queries per snapshot", "≤ 3"),
    Figure("deadline_p99", "deadline lateness p99 as received by the phone: 10,000 pending, 1,000 in one second", "≤ 1 s"),
    Figure("push_2000", "push to everyone p99, 2,000 phones", "≤ 300 ms"),
    Figure("push_5000", "push to everyone p99, 5,000 phones", "≤ 500 ms"),
    Figure("memory", "memory per idle websocket", "≤ 50 KiB"),
]
BY_KEY = {f.key: f for f in FIGURES}

# Sizes for `all`: the targets' own where the 10-minute budget allows, fewer repeats
# where a figure is a percentile of many receipts. `--quick` is for trying the command
# out on a shared machine, not for figures.
FULL = dict(storm=2000, connects=1000, requests=500, rest_seconds=5, idle=1000,
            push=(2000, 5000), pushes=5, push_pause_s=2.0, settle_s=5, pending=10000, burst=1000,
            burst_in_s=60)
QUICK = dict(storm=200, connects=200, requests=100, rest_seconds=2, idle=200,
             push=(200, 500), pushes=3, push_pause_s=1.0, settle_s=2, pending=1000, burst=100,
             burst_in_s=25)


def row(key: str, value, display: str, holds: bool | None, detail: dict, note: str | None = None) -> dict:
    return {"key": key, "value": value, "display": display, "holds": holds, "note": note,
            "detail": detail, "status": "ok"}


def not_measured(key: str, note: str) -> dict:
    return {"key": key, "value": None, "display": "", "holds": None, "note": note,
            "detail": {}, "status": "not measured"}


# --- the reconnect storms -------------------------------------------------------------

def _storm_row(key: str, result: dict, target_s: float) -> dict:
    """bench/storm.py's result as a row: the time until every phone held its snapshot,
    and the phones told "forbidden" (every login is valid: it must be 0)."""
    clients, connected = result["clients"], result["connected"]
    forbidden = result["forbidden_to_valid_phones"]
    if result["all_connected_s"] is not None:
        display = f"{result['all_connected_s']:.1f} s ({connected:,} / {clients:,})"
        holds = result["all_connected_s"] <= target_s and forbidden == 0
    else:
        display = f"{connected:,} / {clients:,} when the storm was given up"
        holds = False
    display += f", {forbidden} × 403, {result['server_cpu_ms_per_connect']} ms CPU a phone"
    return row(key, result["all_connected_s"], display, holds, result)


def storm_backoff(sizes: dict) -> list[dict]:
    from bench import storm
    return [_storm_row("storm_backoff", storm.run(sizes["storm"], "backoff"), 60)]


def storm_every_second(sizes: dict) -> list[dict]:
    from bench import storm
    return [_storm_row("storm_every_second", storm.run(sizes["storm"], "every-second"), 90)]


# --- in-process costs, REST, memory ---------------------------------------------------

def connect_cpu(sizes: dict) -> list[dict]:
    from bench import connect_floor
    result = connect_floor.run(connects=sizes["connects"], rounds_n=2)
    bare, refused_bare = result["bare_ms"], result["refused_bare_ms"]
    offered = f"client reached up to {result['offered_per_s']:,.0f} connects/s"
    return [
        row("connect_cpu", result["snapshot_ratio"],
            f"{result['snapshot_ratio']:.1f}×: {result['snapshot_ms']:.2f} ms vs {bare:.2f} ms; "
            + offered, result["snapshot_ratio"] <= 1.5, result),
        row("refused_cpu", result["refused_ratio"],
            f"{result['refused_ratio']:.2f}×: {result['refused_ms']:.2f} ms vs {refused_bare:.2f} ms; "
            + offered, result["refused_ratio"] <= 0.5, {}),
    ]


def rest(sizes: dict) -> list[dict]:
    from bench import rest as module
    result = module.run(sizes["rest_seconds"])
    fresh, loaded = result["queries_fresh"], result["queries_50_effects_500_lines"]
    return [
        row("constant_rps", result["baseline_rps"], f"{result['baseline_rps']:,} req/s",
            result["baseline_rps"] >= 575, result),
        row("snapshot_ratio", result["ratio"],
            f"{result['ratio']:.2f} ({result['snapshot_rps']:,} / {result['baseline_rps']:,} req/s)",
            result["ratio"] >= 0.5, result),
        row("snapshot_queries", max(fresh, loaded),
            f"{fresh} fresh, {loaded} after 50 effects and 500 journal lines", max(fresh, loaded) <= 3,
            result, "a French GN character who never fought"),
    ]


def memory(sizes: dict) -> list[dict]:
    from bench import connections
    result = connections.run(sizes["idle"])
    kib = result["kib_per_connection"]
    held = result["connected"]
    return [row("memory", kib, f"{kib:.1f} KiB ({held:,} phones held)",
                kib <= 50 and held >= sizes["idle"], result)]


# --- pushes and deadlines -------------------------------------------------------------

def _push(key: str, clients: int, sizes: dict, target_ms: float) -> list[dict]:
    from bench import push_latency
    result = push_latency.run(clients, cases=[("everyone", sizes["pushes"], sizes["push_pause_s"])],
                              settle_s=sizes["settle_s"])
    case = result["cases"]["everyone"]
    if case["p99"] is None:
        return [row(key, None, f"nothing received ({result['connected']:,} phones)", False, result)]
    return [row(key, round(case["p99"]),
                f"{case['p99']:,.0f} ms (p50 {case['p50']:,.0f}; {result['connected']:,} phones, "
                f"{sizes['pushes']} pushes, {case['lost']} missing)",
                case["p99"] <= target_ms and result["connected"] >= clients and case["lost"] == 0, result)]


def push_2000(sizes: dict) -> list[dict]:
    return _push("push_2000", sizes["push"][0], sizes, 300)


def push_5000(sizes: dict) -> list[dict]:
    return _push("push_5000", sizes["push"][1], sizes, 500)


def deadlines(sizes: dict) -> list[dict]:
    from bench import timers
    if hasattr(timers, "run"):              # measured at the phone
        result = timers.run(sizes["pending"], sizes["burst"])
        lateness, note = result.get("phone_lateness_s", result.get("lateness_s")), None
    else:                                   # today's: the journal's commit, not the phone
        timers.BURST_IN_S = sizes["burst_in_s"]   # less waiting before the burst than its 90 s
        result = timers.one_run(sizes["pending"], sizes["burst"])
        lateness, note = result["lateness_s"], "stand-in: journal time, not the phone"
    p99 = lateness["p99"]
    if p99 is None:
        return [row("deadline_p99", None, "no transition seen", False, result, note)]
    return [row("deadline_p99", p99,
                f"{p99:.2f} s (p50 {lateness['p50']:.2f}; {result.get('applied', '?')} / {sizes['burst']:,} "
                f"applied, {sizes['pending']:,} pending)",
                p99 <= 1 and result.get("applied", sizes["burst"]) >= sizes["burst"], result, note)]


# name → (adapter, the figures it gives, seconds it may take in `all` before it is cut).
# The sizes (FULL) are chosen for 10 minutes in all; the budgets leave room for a shared
# machine (connect_cost took 42 s at load 6-8 and over 90 s at load 8-9 on the 2 cores):
# they are there to cut a hang, not to hold the 10 minutes.
MEASUREMENTS: dict[str, tuple[Callable[[dict], list[dict]], tuple[str, ...], int]] = {
    "connect_cost": (connect_cpu, ("connect_cpu", "refused_cpu"), 240),
    "rest": (rest, ("constant_rps", "snapshot_ratio", "snapshot_queries"), 150),
    "connections": (memory, ("memory",), 120),
    "push_2000": (push_2000, ("push_2000",), 180),
    "push_5000": (push_5000, ("push_5000",), 300),
    "storm_backoff": (storm_backoff, ("storm_backoff",), 240),
    "storm_every_second": (storm_every_second, ("storm_every_second",), 240),
    "timers": (deadlines, ("deadline_p99",), 200),
}
