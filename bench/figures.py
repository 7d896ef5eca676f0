"""Every figure of the targets table, each from a small adapter over a benchmark module's
`run(...)`: the adapter picks the sizes, calls the module and turns its dict into rows
(`key`, `value`, `display`, `holds`, `note`, `detail`).

Each adapter names the one function it calls: switching to a new one is a one-line
change. The targets are issue 31's (crowds at the floor), on this 2-core machine.
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
    Figure("connect_cpu", "CPU per websocket connect with its snapshot (server + PostgreSQL + Redis) ÷ a bare consumer, same process and client", "≤ 1.5×"),
    Figure("refused_cpu", "CPU per refused connect (busy) ÷ a bare consumer, same process and client", "≤ 0.5×"),
    Figure("storm_every_second", "2,000 phones retrying every second, ignoring the hint: all connected; 403 to valid phones", "≤ 60 s, no 403"),
    Figure("storm_backoff", "2,000 phones dropped at once, the app's backoff: all back with a fresh snapshot", "≤ 30 s"),
    Figure("snapshot_ratio", "snapshot req/s ÷ constant view req/s, same server", "≥ 0.5"),
    Figure("constant_rps", "constant view req/s on one process", "≥ 575"),
    Figure("snapshot_queries", "queries per snapshot", "≤ 3"),
    Figure("push_2000", "push to everyone p99, 2,000 phones", "≤ 200 ms, 0 lost"),
    Figure("push_5000", "push to everyone p99, 5,000 phones", "≤ 400 ms, 0 lost"),
    Figure("push_api", "the narrator's push to everyone answered (2,000 phones), worst of the pushes", "≤ 50 ms"),
    Figure("deadline_p99", "deadline lateness p99 at the phone: 1,000 at one instant, 10,000 pending, queued into running workers", "≤ 500 ms"),
    Figure("deadline_kill", "same, one of two workers killed with -9 at the instant", "≤ 3 s, none lost or doubled"),
    Figure("reference_10000", "10,000 phones on 2 server processes + 2 workers: all connected, push to everyone p99, memory per phone", "all, ≤ 1 s, ≤ 50 KiB"),
    Figure("memory", "memory per idle websocket (one process, 1,000 phones)", "≤ 50 KiB"),
]
BY_KEY = {f.key: f for f in FIGURES}

# Sizes for `all`: the targets' own where the 10-minute budget allows, fewer repeats
# where a figure is a percentile of many receipts. `--quick` is for trying the command
# out on a shared machine, not for figures.
FULL = dict(storm=2000, connects=1000, requests=500, rest_seconds=5, idle=1000,
            push=(2000, 5000), pushes=5, push_pause_s=2.0, settle_s=5, pending=10000, burst=1000,
            reference=10000)
QUICK = dict(storm=200, connects=200, requests=100, rest_seconds=2, idle=200,
             push=(200, 500), pushes=3, push_pause_s=1.0, settle_s=2, pending=1000, burst=100,
             reference=1000)


def row(key: str, value, display: str, holds: bool | None, detail: dict, note: str | None = None) -> dict:
    return {"key": key, "value": value, "display": display, "holds": holds, "note": note,
            "detail": detail, "status": "ok"}


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
    offered = result["offered"]
    display += (f", {forbidden} × 403; handshakes offered: {offered['first_second']:,} in the "
                f"first second, {offered['mean_per_s']:,.0f}/s on average ({offered['attempts']:,}); "
                f"{result['server_cpu_ms_per_connect']} ms CPU a phone")
    return row(key, result["all_connected_s"], display, holds, result)


def storm_backoff(sizes: dict) -> list[dict]:
    from bench import storm
    return [_storm_row("storm_backoff", storm.run(sizes["storm"], "backoff"), 30)]


def storm_every_second(sizes: dict) -> list[dict]:
    from bench import storm
    return [_storm_row("storm_every_second", storm.run(sizes["storm"], "every-second"), 60)]


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

def _push(key: str, clients: int, sizes: dict, target_ms: float) -> tuple[dict, dict]:
    from bench import push_latency
    result = push_latency.run(clients, cases=[("everyone", sizes["pushes"], sizes["push_pause_s"])],
                              settle_s=sizes["settle_s"])
    case = result["cases"]["everyone"]
    if case["p99"] is None:
        return row(key, None, f"nothing received ({result['connected']:,} phones)", False, result), case
    return row(key, round(case["p99"]),
               f"{case['p99']:,.0f} ms (p50 {case['p50']:,.0f}; {result['connected']:,} phones, "
               f"{sizes['pushes']} pushes, {case['lost']} missing)",
               case["p99"] <= target_ms and result["connected"] >= clients and case["lost"] == 0,
               result), case


def push_2000(sizes: dict) -> list[dict]:
    pushed, case = _push("push_2000", sizes["push"][0], sizes, 200)
    api = case["api_ms"]
    answered = row("push_api", round(api["max"]),
                   f"{api['max']:,.0f} ms (p50 {api['p50']:,.0f}; {sizes['pushes']} pushes to "
                   f"{sizes['push'][0]:,} phones)", api["max"] <= 50, {"api_ms": api})
    return [pushed, answered]


def push_5000(sizes: dict) -> list[dict]:
    return [_push("push_5000", sizes["push"][1], sizes, 400)[0]]


def _deadline_row(key: str, result: dict, sizes: dict, target_s: float) -> dict:
    lateness = result["phone_lateness_s"]
    if lateness["p99"] is None:
        return row(key, None, "no transition seen", False, result)
    complete = result["applied"] >= sizes["burst"] and result["phones_told"] >= sizes["burst"]
    return row(key, lateness["p99"],
               f"{lateness['p99']:.2f} s (p50 {lateness['p50']:.2f}; {result['applied']:,} / "
               f"{sizes['burst']:,} applied, {result['doubled']} doubled, {result['early']} early; "
               f"{sizes['pending']:,} pending)",
               lateness["p99"] <= target_s and complete and not result["doubled"]
               and not result["early"], result)


def deadlines(sizes: dict) -> list[dict]:
    from bench import timers
    return [_deadline_row("deadline_p99", timers.run(sizes["pending"], sizes["burst"]), sizes, 0.5)]


def deadlines_kill(sizes: dict) -> list[dict]:
    from bench import timers
    return [_deadline_row("deadline_kill", timers.run(sizes["pending"], sizes["burst"], kill=True),
                          sizes, 3)]


def reference(sizes: dict) -> list[dict]:
    from bench import reference as module
    result = module.run(sizes["reference"])
    push, kib = result["push_ms"], result["kib_per_phone"]
    if push["p99"] is None:
        return [row("reference_10000", None, f"nothing received ({result['connected']:,} phones)",
                    False, result)]
    return [row("reference_10000", push["p99"],
                f"{result['connected']:,} / {result['phones']:,} connected; push p99 "
                f"{push['p99']:,.0f} ms (p50 {push['p50']:,.0f}, {result['lost']} missing); "
                f"{kib:.1f} KiB a phone", result["connected"] >= result["phones"]
                and push["p99"] <= 1000 and result["lost"] == 0 and kib <= 50, result)]


# name → (adapter, the figures it gives, seconds it may take in `all` before it is cut).
# The sizes (FULL) are the targets' own (about 15 minutes in all); the budgets leave room for a shared
# machine (connect_cost took 42 s at load 6-8 and over 90 s at load 8-9 on the 2 cores):
# they are there to cut a hang, not to hold the 15 minutes.
MEASUREMENTS: dict[str, tuple[Callable[[dict], list[dict]], tuple[str, ...], int]] = {
    "connect_cost": (connect_cpu, ("connect_cpu", "refused_cpu"), 240),
    "rest": (rest, ("constant_rps", "snapshot_ratio", "snapshot_queries"), 150),
    "connections": (memory, ("memory",), 120),
    "push_2000": (push_2000, ("push_2000", "push_api"), 180),
    "push_5000": (push_5000, ("push_5000",), 300),
    "storm_backoff": (storm_backoff, ("storm_backoff",), 330),
    "storm_every_second": (storm_every_second, ("storm_every_second",), 330),
    "timers": (deadlines, ("deadline_p99",), 200),
    "timers_kill": (deadlines_kill, ("deadline_kill",), 200),
    "reference": (reference, ("reference_10000",), 600),
}
