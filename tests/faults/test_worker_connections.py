"""A prefork worker, as ./run and the documented deployment start it, runs its tasks on the
connections of its database pool: a burst of deadline tasks opens no PostgreSQL session per
task (config/worker_fixup.py). Celery's own Django fixup closed the whole pool around every
task, so each of a burst's 1,000 tasks opened new sessions."""
from __future__ import annotations

import os
import time
from pathlib import Path

from celery import Celery
from django.db import connection

from stack import task_log, wait_for

TASKS = 40
PGPORT = int(connection.settings_dict.get("PORT") or 5432)


def sessions_ended() -> int:
    """Sessions of the test database that have ended since its statistics began."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute("SELECT sessions FROM pg_stat_database WHERE datname = current_database()")
        return cursor.fetchone()[0]


def database_ports(process_group: int) -> list[int]:
    """The local ports of the PostgreSQL connections that a process group holds (the
    worker and its children), read from /proc: the sessions to cut are these alone."""
    inodes = set()
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if os.getpgid(int(pid)) != process_group:
                continue
            for fd in os.listdir(f"/proc/{pid}/fd"):
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
                if target.startswith("socket:["):
                    inodes.add(target[8:-1])
        except OSError:         # gone in between
            continue
    ports = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            local, remote, inode = fields[1], fields[2], fields[9]
            if inode in inodes and int(remote.rsplit(":", 1)[1], 16) == PGPORT:
                ports.append(int(local.rsplit(":", 1)[1], 16))
    return ports


def test_a_burst_of_deadline_tasks_reuses_the_workers_connections(stack, game_factory):
    game = game_factory(TASKS, wounded_deadline_s=600)     # nothing due: each task only reads
    stack.start_redis()
    worker = stack.start_worker(pool="prefork", concurrency=1)
    broker = Celery("faults", broker=stack.redis_url, set_as_current=False)
    broker.send_task("health.tasks.advance_character", args=(game.ids[0],))
    wait_for(lambda: len(task_log([worker], "advance_character")) == 1, 30, "the first task")
    time.sleep(1.5)                                          # its statistics flushed
    before = sessions_ended()
    for pk in game.ids:
        broker.send_task("health.tasks.advance_character", args=(pk,))
    wait_for(lambda: len(task_log([worker], "advance_character")) == TASKS + 1, 60,
             f"{TASKS} more tasks")
    time.sleep(1.5)
    opened = sessions_ended() - before
    assert opened <= 2, f"{opened} PostgreSQL sessions opened and closed by {TASKS} tasks"


def test_a_worker_whose_connections_were_cut_recovers_at_the_next_task(stack, game_factory):
    """The database restarted under a worker that keeps its connections: the one task
    that meets a cut connection fails (the sweeper applies its deadline anyway), the
    pool of cut connections is dropped, and every task after it runs."""
    game = game_factory(5, wounded_deadline_s=600)
    stack.start_redis()
    worker = stack.start_worker(pool="prefork", concurrency=1)
    broker = Celery("faults", broker=stack.redis_url, set_as_current=False)
    broker.send_task("health.tasks.advance_character", args=(game.ids[0],))
    wait_for(lambda: len(task_log([worker], "advance_character")) == 1, 30, "the first task")
    with connection.cursor() as cursor:             # the worker's sessions, no other
        cursor.execute("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                       "WHERE datname = current_database() AND client_port = ANY(%s)",
                       [database_ports(worker.popen.pid)])
        assert cursor.fetchone()[0] >= 1
    for number in range(1, 11):
        broker.send_task("health.tasks.advance_character", args=(game.ids[number % 5],))
        wait_for(lambda: worker.output().count("advance_character[") >= 2 * (number + 1), 30,
                 f"task {number} to end")
    ends = [line for line in worker.output().splitlines()
            if "advance_character[" in line and " received" not in line]
    assert len(ends) == 11, ends
    failed = [line for line in ends if " succeeded in " not in line]
    assert len(failed) == 1 and ends.index(failed[0]) == 1, ends
