"""./run: migrate, load the demo event, start the web/websocket server (one process per core,
WEB_CONCURRENCY, sharing the port), a Celery worker and beat (and an embedded Redis when
REDIS_URL is not set). Ctrl-C stops everything; if one
process dies, the others are stopped too, so nothing runs half-alive."""
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
from config.server import command as server_command  # noqa: E402  (after the path is set)

PYTHON = sys.executable
BIN = Path(PYTHON).parent


def main() -> int:
    env = dict(os.environ)
    port = env.setdefault("PORT", "8000")
    env.setdefault("PUBLIC_URL", f"http://127.0.0.1:{port}")
    env.setdefault("SECRET_KEY", local_secret_key(ROOT / "var" / "secret_key"))
    children: list[tuple[str, subprocess.Popen]] = []
    if not env.get("REDIS_URL"):
        from devtools import embedded_redis
        redis, env["REDIS_URL"] = embedded_redis.start(ROOT / "var" / "redis")
        children.append(("redis", redis))
        print(f"Started an embedded Redis at {env['REDIS_URL']} (set REDIS_URL to use your own)")
    try:
        manage = [PYTHON, "manage.py"]
        subprocess.run([*manage, "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
        subprocess.run([*manage, "load_demo"], cwd=ROOT, env=env, check=True)
        subprocess.run([*manage, "setup_link"], cwd=ROOT, env=env, check=True)  # first run only
        commands = {
            "web": server_command(env.get("HOST", "0.0.0.0"), int(port), workers=web_concurrency(env)),
            "worker": [str(BIN / "celery"), "-A", "config", "worker", "-l", "warning",
                       "--concurrency", env.get("WORKER_CONCURRENCY", "2")],
            "beat": [str(BIN / "celery"), "-A", "config", "beat", "-l", "warning",
                     "-s", str(ROOT / "var" / "celerybeat-schedule")],
        }
        for name, command in commands.items():
            children.append((name, subprocess.Popen(command, cwd=ROOT, env=env)))
        print(f"\nRunning on {env['PUBLIC_URL']} (web and websockets in {web_concurrency(env)} processes, "
              "worker, beat). Ctrl-C stops.\n")
        return supervise(children, commands, env)
    except KeyboardInterrupt:
        return 0
    finally:
        stop(children)


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
            if name in ("worker", "beat"):
                print(f"{name} stopped (exit {process.returncode}); starting it again.")
                time.sleep(1)
                children[index] = (name, subprocess.Popen(commands[name], cwd=ROOT, env=env))
                continue
            print(f"{name} stopped (exit {process.returncode}); stopping the rest.")
            return process.returncode or 1
        time.sleep(0.5)


def stop(children) -> None:
    for _, process in reversed(children):
        if process.poll() is None:
            process.terminate()
    deadline = time.monotonic() + 10
    for _, process in children:
        try:
            process.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            process.kill()


if __name__ == "__main__":
    sys.exit(main())
