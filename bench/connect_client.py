"""The load client of bench/connect_floor.py, in a process of its own: opens the websockets
a plan lists (path and session), `--concurrency` at a time, each read to its first
message and closed (bench/wire.py), and prints what it met and the rate it offered.

    .venv/bin/python -m bench.connect_client --port 8001 --plan plan.json --concurrency 32
"""
from __future__ import annotations

import argparse
import asyncio
import json
import time
from collections import Counter
from pathlib import Path

from bench.wire import Refused, first_message


async def connect_all(port: int, plan: list[dict], concurrency: int) -> dict:
    outcomes: Counter = Counter()
    queue = iter(plan)

    async def phone_after_phone() -> None:
        for phone in queue:
            try:
                kind, detail = await first_message(port, phone["path"], phone.get("session", ""))
                outcomes[kind if kind != "message" else detail.get("type", "?")] += 1
            except Refused as refused:
                outcomes[f"HTTP {refused.status}"] += 1
            except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError) as error:
                outcomes[type(error).__name__] += 1

    started = time.monotonic()
    await asyncio.gather(*(phone_after_phone() for _ in range(concurrency)))
    elapsed = time.monotonic() - started
    return {"outcomes": dict(outcomes), "elapsed_s": round(elapsed, 3),
            "per_s": round(len(plan) / elapsed, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--plan", type=Path, required=True)
    parser.add_argument("--concurrency", type=int, default=32)
    args = parser.parse_args()
    plan = json.loads(args.plan.read_text())
    print(json.dumps(asyncio.run(connect_all(args.port, plan, args.concurrency))), flush=True)


if __name__ == "__main__":
    main()
