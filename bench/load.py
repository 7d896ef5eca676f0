"""Driving the load generator process and calling the API as a narrator."""
from __future__ import annotations

import json
import secrets
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from bench.stack import ROOT


class Load:
    """The phones: a separate process (bench/client.py) holding the websockets."""

    def __init__(self, stack, port: int, players_file, count: int, reconnect: bool = False,
                 snapshots: bool = False):
        # One file per generator: several may run at once (bench/reference.py).
        self.out = stack.logs / f"client-{Path(players_file).stem}-{count}.json"
        self.out.unlink(missing_ok=True)
        command = [sys.executable, "-m", "bench.client", "--port", str(port), "--players",
                   str(players_file), "--count", str(count), "--out", str(self.out)]
        if reconnect:
            command.append("--reconnect")
        if snapshots:
            command.append("--snapshots")
        self.process = subprocess.Popen(command, cwd=ROOT, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True)
        ready = self.process.stdout.readline().split()
        if not ready or ready[0] != "READY":
            raise RuntimeError(f"the load generator did not start: {ready}")
        self.connected, self.failed = int(ready[1]), int(ready[2])

    def tell(self, line: str) -> None:
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def wait_for(self, word: str, timeout: float) -> bool:
        """Wait (bounded) for the load generator to print `word`."""
        import select
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.process.stdout], [], [], 1)
            if ready and self.process.stdout.readline().strip() == word:
                return True
        return False

    def finish(self) -> dict:
        self.tell("STOP")
        for line in self.process.stdout:
            if line.strip() == "DONE":
                break
        self.process.wait(timeout=60)
        return json.loads(self.out.read_text())


class Narrator:
    """HTTP calls with the narrator's session (and a CSRF token of our own making)."""

    def __init__(self, port: int, session: str):
        self.base = f"http://127.0.0.1:{port}"
        self.csrf = secrets.token_hex(16)
        self.cookie = f"sessionid={session}; csrftoken={self.csrf}"

    def post(self, path: str, body: dict) -> dict:
        request = urllib.request.Request(
            self.base + path, data=json.dumps(body).encode(), method="POST",
            headers={"Content-Type": "application/json", "Cookie": self.cookie,
                     "X-CSRFToken": self.csrf})
        with urllib.request.urlopen(request, timeout=120) as response:
            return json.loads(response.read())


def percentiles(values: list[float]) -> dict:
    if not values:
        return {"p50": None, "p95": None, "p99": None, "max": None}
    ordered = sorted(values)
    pick = lambda q: ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]
    return {"p50": pick(0.50), "p95": pick(0.95), "p99": pick(0.99), "max": ordered[-1]}


def rounded_percentiles(values: list[float], digits: int) -> dict:
    return {k: (round(v, digits) if v is not None else None) for k, v in percentiles(values).items()}


def spread(runs: list[float]) -> str:
    """min / median / max of several runs, as the tables show them."""
    return f"{min(runs):.1f} / {statistics.median(runs):.1f} / {max(runs):.1f}"
