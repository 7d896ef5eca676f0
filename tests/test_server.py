"""The server as production and ./run start it (`python -m config.server`): a real process
on a free port, on the test database, reached over the network as a phone reaches it."""
from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from devtools.run import web_concurrency
from fixtures import client_for
from players.services import character_create, event_create

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.django_db(transaction=True)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _database_url() -> str:
    """The test database, for the server process to read what the test committed."""
    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    return f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


class Server:
    def __init__(self, tmp_path, *options: str):
        self.port = _free_port()
        self.log = tmp_path / f"server-{self.port}.log"
        env = {**os.environ, "DATABASE_URL": _database_url(), "SECRET_KEY": settings.SECRET_KEY,
               "PUBLIC_URL": f"http://127.0.0.1:{self.port}", "LOG_LEVEL": "WARNING"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "config.server", "-b", "127.0.0.1", "-p", str(self.port), *options],
            cwd=ROOT, env=env, stdout=self.log.open("w"), stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.log.read_text()
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.1)        # waiting for a process to listen, not for the app's time
        raise AssertionError(f"nothing listens on {self.port}:\n{self.log.read_text()}")

    def get(self, path: str, **headers) -> tuple[int, dict]:
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", headers=headers)
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())

    def workers(self) -> int:
        """The worker processes the server started (beside multiprocessing's own helper)."""
        count = 0
        for process in Path("/proc").glob("[0-9]*"):
            try:
                parent = int((process / "stat").read_text().rsplit(")", 1)[1].split()[1])
                if parent == self.process.pid and b"spawn_main" in (process / "cmdline").read_bytes():
                    count += 1
            except (OSError, IndexError):
                continue
        return count

    def stop(self) -> str:
        self.process.terminate()
        self.process.wait(timeout=30)
        return self.log.read_text()


@pytest.fixture
def server_factory(tmp_path):
    servers = []

    def start(*options):
        servers.append(Server(tmp_path, *options))
        return servers[-1]
    yield start
    for server in servers:
        if server.process.poll() is None:
            server.stop()


def test_a_player_connects_over_the_network_to_one_port_served_by_two_processes(server_factory, narrator_user):
    from websockets.sync.client import connect

    event = event_create(name="Soirée", ruleset="gn_fr", by=narrator_user, start_clock=True)
    alice = character_create(event=event, name="Alice", sheet={"combat_base": 2}, by=narrator_user)
    session = client_for(alice.user).cookies["sessionid"].value
    server = server_factory("-w", "2")

    assert server.get("/healthz") == (200, {"ok": True})
    assert server.workers() == 2
    status, body = server.get(f"/api/characters/{alice.pk}/", Cookie=f"sessionid={session}",
                              Accept="application/json")
    assert (status, body["character"]["name"]) == (200, "Alice")

    origin = f"http://127.0.0.1:{server.port}"
    with connect(f"ws://127.0.0.1:{server.port}/ws/live/?character={alice.pk}", open_timeout=30,
                 additional_headers={"Cookie": f"sessionid={session}", "Origin": origin}) as phone:
        first = json.loads(phone.recv(timeout=30))
        assert (first["type"], first["snapshot"]["character"]["name"]) == ("snapshot", "Alice")
        phone.send(json.dumps({"type": "ping"}))
        assert json.loads(phone.recv(timeout=30))["type"] == "pong"

    # Another site's page is refused its websocket, as before.
    from websockets.exceptions import InvalidStatus
    with pytest.raises(InvalidStatus) as refused:
        connect(f"ws://127.0.0.1:{server.port}/ws/live/?character={alice.pk}", open_timeout=30,
                additional_headers={"Cookie": f"sessionid={session}", "Origin": "http://evil.example"})
    assert refused.value.response.status_code == 403
    assert "Traceback" not in server.stop()


def test_forwarded_addresses_are_believed_only_behind_a_proxy(server_factory):
    """A phone reaching the server directly must not choose the address the login rate
    limit counts; behind a proxy (`--proxy-headers`), the proxy's X-Forwarded-For is it."""
    direct = server_factory("--access-log")
    proxied = server_factory("--access-log", "--proxy-headers")
    for server in (direct, proxied):
        assert server.get("/healthz", **{"X-Forwarded-For": "203.0.113.7"})[0] == 200
    direct_log, proxied_log = direct.stop(), proxied.stop()
    assert "203.0.113.7" not in direct_log and '127.0.0.1:' in direct_log
    assert '203.0.113.7:0 - "GET /healthz' in proxied_log


def test_run_starts_a_web_process_per_core_unless_told():
    assert web_concurrency({}) == (os.cpu_count() or 1)
    assert web_concurrency({"WEB_CONCURRENCY": "3"}) == 3


async def _get(path: str, timeout: float = 30) -> dict:
    """`path` answered by the ASGI application in this process (headers by lower-case name)."""
    from channels.testing import HttpCommunicator

    from config.asgi import application
    communicator = HttpCommunicator(application, "GET", path, headers=[(b"host", b"testserver")])
    response = await communicator.get_response(timeout=timeout)
    return {**response, "headers": {k.decode().lower(): v.decode() for k, v in response["headers"]}}


@pytest.mark.asyncio
async def test_the_health_check_keeps_the_security_headers_and_pages_keep_every_middleware():
    """/healthz answers with its own short chain (config/http.py); the app's pages, served
    by the same ASGI application, still carry the CSP, frame and CSRF protections."""
    health = await _get("/healthz")
    assert (health["status"], json.loads(health["body"])) == (200, {"ok": True})
    assert health["headers"]["x-content-type-options"] == "nosniff"
    assert health["headers"]["referrer-policy"] == "same-origin"
    assert "set-cookie" not in health["headers"]

    page = await _get("/")
    assert page["status"] == 200
    assert "script-src 'self'" in page["headers"]["content-security-policy"]
    assert page["headers"]["x-frame-options"] == "DENY"
    assert "csrftoken=" in page["headers"]["set-cookie"]


def _healthz_in_a_forked_child(queue) -> None:
    try:
        queue.put(asyncio.run(_get("/healthz", timeout=10))["status"])
    except Exception as error:  # noqa: BLE001 - reported to the parent
        queue.put(f"{type(error).__name__}: {error}")


def test_a_process_forked_after_the_app_served_requests_serves_its_own():
    """A server that loads the app and then forks (gunicorn's --preload, the browser
    tests' server) must not lend the child the parent's idle request threads: they do not
    exist there, and each would take a request and never answer it."""
    import multiprocessing

    assert [asyncio.run(_get("/healthz"))["status"] for _ in range(3)] == [200, 200, 200]  # kept idle
    fork = multiprocessing.get_context("fork")
    queue = fork.Queue()
    child = fork.Process(target=_healthz_in_a_forked_child, args=(queue,))
    child.start()
    child.join(timeout=30)
    assert queue.get(timeout=1) == 200
