"""`./run` as an organiser starts it (devtools/run.py: migrations, demo events, the server,
a Celery worker and beat), on the test database and Redis, read from its own output."""
from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINK = re.compile(r"^  (?P<who>.+?)\s+(?P<url>https?://\S+/login/\S+)$")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def database_url() -> str:
    from django.db import connection
    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    return f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


class DevRun:
    """devtools/run.py in its own process group. Each output line is kept; when the first
    login link is printed, its port is tried at that very moment, once."""

    def __init__(self, tmp_path: Path, *args: str, **env: str):
        from django.conf import settings
        base = {key: value for key, value in os.environ.items()
                if key not in ("PORT", "HOST", "PUBLIC_URL", "SECRET_KEY", "WEB_CONCURRENCY")}
        # Not the organiser's choices: the test database and Redis, a scratch var/, and one
        # process each on a machine shared with other tests.
        self.env = {**base, "DATABASE_URL": database_url(), "REDIS_URL": settings.REDIS_URL,
                    "VAR_DIR": str(tmp_path / "var"), "WEB_CONCURRENCY": "1",
                    "WORKER_CONCURRENCY": "1", **env}
        self.lines: list[str] = []
        self.first_link_connected: bool | None = None
        self.done = threading.Event()
        self.process = subprocess.Popen(
            [sys.executable, "devtools/run.py", *args], cwd=ROOT, env=self.env, text=True,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            line = line.rstrip("\n")
            match = LINK.match(line)
            if match and self.first_link_connected is None:
                url = urlsplit(match["url"])
                try:
                    with socket.create_connection(("127.0.0.1", url.port), timeout=2):
                        self.first_link_connected = True
                except OSError:
                    self.first_link_connected = False
            self.lines.append(line)
            if line.startswith("Running on "):
                self.done.set()
        self.done.set()

    def wait_started(self, timeout_s: float = 90) -> None:
        assert self.done.wait(timeout_s), "./run printed nothing in time:\n" + self.output
        assert self.process.poll() is None, "./run stopped:\n" + self.output

    @property
    def output(self) -> str:
        return "\n".join(self.lines)

    def links(self) -> dict[str, str]:
        self.wait_started()
        return {match["who"]: match["url"] for line in self.lines if (match := LINK.match(line))}

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()        # ./run stops its children on SIGTERM
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                pass
        try:
            os.killpg(self.process.pid, signal.SIGKILL)    # anything left of this run only
        except ProcessLookupError:
            pass


@pytest.fixture
def dev_run(tmp_path):
    """`dev_run(*args, **env)` starts ./run; every run started is stopped at the test's end."""
    runs = []

    def start(*args, **env):
        runs.append(DevRun(tmp_path, *args, **env))
        return runs[-1]
    yield start
    for run in runs:
        run.stop()
