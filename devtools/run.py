"""./run: migrate, load the demo event, start the web/websocket server (one process per core,
WEB_CONCURRENCY, sharing the port), two Celery workers and beat (and an embedded Redis when
REDIS_URL is not set, an embedded PostgreSQL when DATABASE_URL is not set), then print the
login links once the server answers. Ctrl-C stops everything; if one process dies, the others
are stopped too, so nothing runs half-alive.

`./run --https` serves https itself with the event's own certificate authority, for a LAN
with no internet (devtools/network.py, docs/field-network.md)."""
from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from devtools import network  # noqa: E402  (after the path is set)
from frontend.field_tls import field_tls_folder  # noqa: E402

PYTHON = sys.executable
BIN = Path(PYTHON).parent


def main(argv: list[str]) -> int:
    env = dict(os.environ)
    if set(argv) - {"--https"}:
        print("usage: ./run [--https]   (docs/field-network.md)", file=sys.stderr)
        return 2
    https = "--https" in argv
    try:
        plan = network.plan(env, https=https)
    except network.NetworkError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    env.setdefault("SECRET_KEY", local_secret_key(ROOT / "var" / "secret_key"))
    signal.signal(signal.SIGTERM, _stop_on_sigterm)    # the children stop with it from now on
    children: list[tuple[str, subprocess.Popen]] = []
    if not env.get("REDIS_URL"):
        from devtools import embedded_redis
        redis, env["REDIS_URL"] = embedded_redis.start(ROOT / "var" / "redis")
        children.append(("redis", redis))
        print(f"Started an embedded Redis at {env['REDIS_URL']} (set REDIS_URL to use your own)")
    try:
        if not env.get("DATABASE_URL"):
            children.append(("postgres", start_postgres(env)))
        manage = [PYTHON, "manage.py"]
        subprocess.run([*manage, "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
        if https:
            subprocess.run([*manage, "field_certificates"], cwd=ROOT, env=env, check=True)
        # Printed once the server answers: a link opened before that would fail.
        demo = subprocess.run([*manage, "load_demo"], cwd=ROOT, env=env, check=True,
                              stdout=subprocess.PIPE, text=True)
        setup = subprocess.run([*manage, "setup_link"], cwd=ROOT, env=env, check=True,  # first run only
                               stdout=subprocess.PIPE, text=True)
        tls = field_tls_folder(Path(env.get("VAR_DIR") or ROOT / "var"))
        commands = {
            **network.web_commands(plan, workers=web_concurrency(env), certificate=tls.server_cert,
                                   key=tls.server_key),
            **worker_commands(env),
            "beat": [str(BIN / "celery"), "-A", "config", "beat", "-l", "warning",
                     "-s", str(ROOT / "var" / "celerybeat-schedule")],
        }
        for name, command in commands.items():
            children.append((name, subprocess.Popen(command, cwd=ROOT, env=env)))
        network.wait_until_answering(plan, dict(children), ca_file=tls.ca_cert)
        print(demo.stdout + setup.stdout, flush=True)
        print(*filter(None, [network.address_warning(plan), network.describe(plan)]), sep="\n")
        print(f"\nRunning on {env['PUBLIC_URL']} (web and websockets in {web_concurrency(env)} processes, "
              f"{len(worker_commands(env))} workers, beat). Ctrl-C stops.\n", flush=True)
        return supervise(children, commands, env)
    except network.NetworkError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0
    finally:
        stop(children)


def worker_commands(env: dict) -> dict[str, list[str]]:
    """WORKERS Celery workers (default 2), each its own process with WORKER_CONCURRENCY
    children (default 1): a worker killed outright (`kill -9` of its main process) takes
    its prefetched tasks with it, and the other one keeps running what comes due while
    this one is started again (the sweeper applies what the killed one held)."""
    return {f"worker-{number}": [str(BIN / "celery"), "-A", "config", "worker", "-l", "warning",
                                 "-n", f"worker{number}@%h",
                                 "--concurrency", env.get("WORKER_CONCURRENCY", "1")]
            for number in range(1, max(1, int(env.get("WORKERS") or 2)) + 1)}


def start_postgres(env: dict) -> subprocess.Popen:
    """The embedded PostgreSQL of devtools/embedded_postgres.py, its cluster in var/postgres."""
    from devtools import embedded_postgres
    postgres, env["DATABASE_URL"] = embedded_postgres.start(ROOT / "var", "postgres")
    print(f"Started an embedded PostgreSQL at {env['DATABASE_URL']} (set DATABASE_URL to use your own)")
    return postgres


def web_concurrency(env: dict) -> int:
    """Server processes: WEB_CONCURRENCY, else one per core. Python runs one core at a time
    per process, and phones need no sticky sessions (the channel layer is in Redis), so
    the server's own supervisor starts them on one port, with no proxy in front."""
    return max(1, int(env.get("WEB_CONCURRENCY") or os.cpu_count() or 1))


def local_secret_key(path: Path) -> str:
    """A key of this laptop's own, kept across restarts so sessions and login links stay
    valid, and never the public default (the server refuses it once others can reach it)."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


def _stop_on_sigterm(signum, frame):
    raise KeyboardInterrupt


def supervise(children, commands, env) -> int:
    """A worker or beat that dies is started again (Celery's worker exits when its Redis
    restarts; deadlines are in the database, so nothing is lost meanwhile). If the web
    server or Redis dies, everything stops."""
    signal.signal(signal.SIGTERM, _stop_on_sigterm)
    signal.signal(signal.SIGINT, signal.default_int_handler)  # even if started in the background
    while True:
        for index, (name, process) in enumerate(children):
            if process.poll() is None:
                continue
            if name.startswith("worker") or name == "beat":
                print(f"{name} stopped (exit {process.returncode}); starting it again.")
                time.sleep(1)
                children[index] = (name, subprocess.Popen(commands[name], cwd=ROOT, env=env))
                continue
            print(f"{name} stopped (exit {process.returncode}); stopping the rest.")
            return process.returncode or 1
        time.sleep(0.5)


def stop(children) -> None:
    for name, process in reversed(children):
        if process.poll() is None:
            # PostgreSQL's fast shutdown (SIGINT) ends open sessions instead of waiting.
            process.send_signal(signal.SIGINT if name == "postgres" else signal.SIGTERM)
    deadline = time.monotonic() + 10
    for _, process in children:
        try:
            process.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            process.kill()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
