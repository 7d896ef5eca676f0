"""The load generator: a separate process holding thousands of phones' websockets.

    python -m bench.client --port P --players players.json --count N --out result.json [--reconnect]

It connects N players (each with its session), prints `READY <connected> <failed>`, then
records every snapshot and pushed effect: the receipt time of each effect token (`bench-<n>`) and gaps in
the sequence numbers; with --snapshots, also each snapshot after the first (character, version,
state, receipt time). With --reconnect, a dropped connection comes back with the phone's
jittered backoff and the time of its fresh snapshot is recorded. A phone told the server is
busy comes back when it says, as the app does. `STOP` on stdin ends it:
the results are written to --out and `DONE` is printed. Bounded: it also stops by itself
after --max-seconds.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import sys
import time

from websockets.asyncio.client import connect

TOKEN = re.compile(r"bench-(\d+)")


class Phone:
    def __init__(self, player: dict, args, results: dict):
        self.player = player
        self.args = args
        self.results = results
        self.version = None
        self.seen: set[str] = set()
        self.pushes: set[str] = set()
        self.ready = asyncio.Event()
        self.awaiting_resync = False
        self.busy_ms = None

    def headers(self):
        return {"Cookie": f"sessionid={self.player['session']}",
                "Origin": f"http://127.0.0.1:{self.args.port}"}

    async def run(self):
        attempt = 0
        uri = f"ws://127.0.0.1:{self.args.port}/ws/live/?character={self.player['id']}"
        while not self.results["stopping"]:
            try:
                async with connect(uri, additional_headers=self.headers(), open_timeout=120,
                                   ping_interval=None, max_size=2 ** 22) as socket:
                    attempt = 0
                    async for raw in socket:
                        self.receive(json.loads(raw))
            except Exception as error:  # refused, reset, timed out: what a phone meets
                if self.busy_ms is None:    # a busy server's close is no error
                    self.results["errors"][type(error).__name__] = self.results["errors"].get(type(error).__name__, 0) + 1
            if self.busy_ms is not None and not self.results["stopping"]:
                # Told when to come back (live/admission.py): the app waits that, plus a
                # little, whatever its own backoff would say (js/live.js).
                self.results["busy"] += 1
                await asyncio.sleep(self.busy_ms / 1000 + random.random() * 0.5)
                self.busy_ms = None
                continue
            if not self.args.reconnect or self.results["stopping"]:
                self.ready.set()
                return
            self.results["drops"] += 1
            self.awaiting_resync = True
            # The phone's backoff: 1 s, 2 s, 4 s... up to 30 s, each times 0.5 to 1.5.
            await asyncio.sleep(min(30, 2 ** attempt) * (0.5 + random.random()))
            attempt += 1

    def receive(self, message: dict):
        now = time.time()
        if message.get("type") == "busy":           # the server's close follows
            self.busy_ms = message["retry_after_ms"]
            return
        if message.get("type") == "effect":
            # The phone adds a pushed effect to what it holds: the sequence moves by one.
            if self.version is not None and message["effect"]["push"] not in self.pushes:
                self.version += 1
                self.pushes.add(message["effect"]["push"])
            self.record([message["effect"]], now)
            return
        if message.get("type") != "snapshot":
            return
        snap = message["snapshot"]
        if not self.ready.is_set():
            self.results["connected"] += 1
            self.ready.set()
        if self.awaiting_resync:
            self.awaiting_resync = False
            self.results["resynced"].append(now)
        if self.version is not None and snap["version"] > self.version + 1:
            self.results["gaps"] += snap["version"] - self.version - 1
        if self.args.snapshots and self.version is not None:
            self.results["snapshots"].append([snap["character"]["id"], snap["version"],
                                              snap["state"]["key"], now])
        self.version = snap["version"]
        self.pushes = {effect["push"] for effect in snap["effects"]}
        self.record(snap["effects"], now)

    def record(self, effects: list[dict], now: float):
        for effect in effects:
            match = TOKEN.search(effect["text"])
            if match and match.group(0) not in self.seen:
                self.seen.add(match.group(0))
                self.results["receipts"].setdefault(match.group(0), []).append(now)


async def main(args) -> None:
    players = json.loads(open(args.players).read())["players"][: args.count]
    results = {"connected": 0, "receipts": {}, "gaps": 0, "errors": {}, "drops": 0, "busy": 0,
               "resynced": [], "dropped_at": None, "stopping": False, "snapshots": []}
    phones = [Phone(p, args, results) for p in players]
    tasks = []
    for start in range(0, len(phones), args.batch):       # connect in waves, as a crowd does
        batch = phones[start:start + args.batch]
        tasks += [asyncio.create_task(phone.run()) for phone in batch]
        await asyncio.wait_for(asyncio.gather(*(p.ready.wait() for p in batch)), timeout=300)
    print(f"READY {results['connected']} {len(phones) - results['connected']}", flush=True)
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    deadline = time.monotonic() + args.max_seconds
    told_resynced = False
    while time.monotonic() < deadline:
        if results["dropped_at"] and not told_resynced and len(results["resynced"]) >= results["connected"]:
            told_resynced = True
            print("RESYNCED", flush=True)
        try:
            line = (await asyncio.wait_for(reader.readline(), timeout=0.2)).decode().strip()
        except asyncio.TimeoutError:
            continue
        if line == "DROPPED":
            results["dropped_at"] = time.time()
        elif line == "STOP" or not line:
            break
    results["stopping"] = True
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    with open(args.out, "w") as out:
        json.dump({k: v for k, v in results.items() if k != "stopping"}, out)
    print("DONE", flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--players", required=True)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--out", required=True)
    # Waves of 500: the server admits what it sustains and spaces the rest of a wave over
    # the next seconds (live/admission.py); waves of 100 made 5,000 phones take 3 minutes.
    parser.add_argument("--batch", type=int, default=500)
    parser.add_argument("--reconnect", action="store_true")
    parser.add_argument("--snapshots", action="store_true")
    parser.add_argument("--max-seconds", type=float, default=900)
    import resource
    resource.setrlimit(resource.RLIMIT_NOFILE, (resource.getrlimit(resource.RLIMIT_NOFILE)[1],) * 2)
    asyncio.run(main(parser.parse_args()))
