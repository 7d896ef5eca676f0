"""Every figure of the targets table in one command.

    python -m bench all [--quick] [--only NAME,...] [--no-table]
    python -m bench table var/bench/summary-A.json [var/bench/summary-B.json]
    python -m bench measure NAME --out FILE [--quick]      (one measurement; `all` uses it)

`all` runs each measurement of bench/figures.py in its own process (a run's settings,
Redis port and connections must not leak into the next; a crash or a hang costs only
its own figures), cut after its time budget. It prints the elapsed time of each, records
the 1-minute load average at its start and end (each starts once the load the previous
one left has fallen to 1.2, waiting at most 3 minutes), writes var/bench/summary-<time>.json
(the path is printed) and rewrites the table in docs/performance.md from it. A figure
that fails is marked failed in the summary, the others still run, and the command exits
non-zero.
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
import traceback
from datetime import datetime, timezone
from pathlib import Path

from bench import figures, summary
from bench.stack import ROOT, load_average

OUT = ROOT / "var" / "bench"
# Before each measurement, the load the previous one left (its servers and clients) is
# let fall below this, for at most SETTLE_MAX_S: a figure begun above 1.5 does not count
# (bench/summary.py), and one measurement must not disqualify the next.
SETTLED_LOAD = 1.2
SETTLE_MAX_S = 180


def settle() -> float:
    """Wait until the 1-minute load is at most SETTLED_LOAD (bounded); seconds waited."""
    began = time.monotonic()
    while load_average() > SETTLED_LOAD and time.monotonic() - began < SETTLE_MAX_S:
        time.sleep(5)
    return time.monotonic() - began


def commit() -> str | None:
    try:
        found = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=ROOT,
                               capture_output=True, text=True, timeout=10)
        return found.stdout.strip() or None
    except OSError:
        return None


def measure(name: str, out: Path, quick: bool) -> None:
    """One measurement, in this process: its rows to `out`."""
    # `all` stops a measurement over its budget with SIGTERM: unwind, so the stack's
    # servers (in their own sessions) are stopped by its `finally`.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("cut: over its time budget"))
    adapter, _, _ = figures.MEASUREMENTS[name]
    rows = adapter(figures.QUICK if quick else figures.FULL)
    out.write_text(json.dumps(rows, default=str))


def _run_child(name: str, quick: bool, budget: float) -> tuple[list[dict] | None, str | None]:
    rows_file = OUT / f"rows-{name}.json"
    rows_file.unlink(missing_ok=True)
    command = [sys.executable, "-m", "bench", "measure", name, "--out", str(rows_file)]
    child = subprocess.Popen(command + (["--quick"] if quick else []), cwd=ROOT)
    try:
        child.wait(timeout=budget)
    except subprocess.TimeoutExpired:
        child.send_signal(signal.SIGTERM)
        try:
            child.wait(timeout=60)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
        return None, f"cut after its budget of {budget:.0f} s"
    if child.returncode != 0 or not rows_file.exists():
        return None, f"exit status {child.returncode} (its traceback is above)"
    return json.loads(rows_file.read_text()), None


def run_all(args) -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    names = args.only.split(",") if args.only else list(figures.MEASUREMENTS)
    unknown = set(names) - set(figures.MEASUREMENTS)
    if unknown:
        raise SystemExit(f"unknown measurement(s): {', '.join(sorted(unknown))}")
    started, clock = datetime.now(timezone.utc), time.monotonic()
    stamp = started.strftime("%Y%m%dT%H%M%SZ")
    rows, failed = {}, []
    for i, name in enumerate(names, 1):
        _, keys, budget = figures.MEASUREMENTS[name]
        waited = settle()
        print(f"[{i}/{len(names)}] {name} … (after {waited:.0f} s for the load to settle)", flush=True)
        load_start, began = load_average(), time.monotonic()
        measured, error = _run_child(name, args.quick, budget)
        elapsed = time.monotonic() - began
        load = {"start": load_start, "end": load_average()}
        if error:
            failed.append(name)
            print(f"[{i}/{len(names)}] {name} FAILED after {elapsed:.0f} s: {error}", flush=True)
            measured = [{"key": key, "status": "failed", "error": error, "value": None,
                         "display": "", "holds": None, "note": None, "detail": {}} for key in keys]
        for one in measured:
            one.update(load=load, elapsed_s=round(elapsed, 1), measurement=name)
            rows[one["key"]] = one
            if not error:
                print(f"    {one['key']}: {one['display'] or one['status']} {one.get('note') or ''}"
                      f"  holds={one['holds']}", flush=True)
        print(f"[{i}/{len(names)}] {name}: {elapsed:.0f} s (load {load['start']:.2f} → {load['end']:.2f})",
              flush=True)
    path = OUT / f"summary-{stamp}.json"
    document = {"file": str(path.relative_to(ROOT)), "started_at": started.isoformat(timespec="seconds"),
                "elapsed_s": round(time.monotonic() - clock, 1), "commit": commit(),
                "cpus": os.cpu_count(), "quick": args.quick,
                "sizes": figures.QUICK if args.quick else figures.FULL, "failed": failed,
                "figures": [{**rows[f.key], "figure": f.figure, "target": f.target}
                            for f in figures.FIGURES if f.key in rows]}
    path.write_text(json.dumps(document, indent=1, default=str))
    print(f"all: {document['elapsed_s']:.0f} s, {len(failed)} measurement(s) failed", flush=True)
    print(path)
    if not args.no_table:
        summary.write_table([path], Path(args.doc))
        print(f"table written to {args.doc}")
    return 1 if failed else 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    everything = commands.add_parser("all", help="every figure, a JSON summary and the table")
    everything.add_argument("--quick", action="store_true", help="small sizes, to try the command")
    everything.add_argument("--only", help="comma-separated measurements: " + ", ".join(figures.MEASUREMENTS))
    everything.add_argument("--no-table", action="store_true", help="do not rewrite docs/performance.md")
    everything.add_argument("--doc", default=str(summary.DOC))
    table = commands.add_parser("table", help="rewrite the table from one or two summaries")
    table.add_argument("summaries", nargs="+")
    table.add_argument("--doc", default=str(summary.DOC))
    one = commands.add_parser("measure", help="one measurement, in this process")
    one.add_argument("name", choices=list(figures.MEASUREMENTS))
    one.add_argument("--out", required=True)
    one.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    if args.command == "all":
        return run_all(args)
    if args.command == "table":
        print(summary.write_table(args.summaries, Path(args.doc)))
        return 0
    try:
        measure(args.name, Path(args.out), args.quick)
    except BaseException:
        traceback.print_exc()
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
