"""Celery's Django fixup, except for what it does with the database around each task.

Celery closes the database connections before and after every task and, in a prefork
worker, the whole connection pool as well: each task opened a new pool (three threads,
two new PostgreSQL sessions, and a wait for them). A burst of 1,000 deadlines opened
3,000 sessions, and PostgreSQL forked a process for each (docs/performance.md, "ninth
round"). Here the connections go back to the pool around each task and the pool stays.
What the pool guarded against is kept: a child process drops the pool inherited from
its parent when it starts (Celery's `on_worker_process_init`, unchanged). And a task
that met a cut connection (PostgreSQL restarted) drops the pool with it, whose other
connections were cut too: that task fails (the sweeper applies its deadline), the next
one runs on a fresh pool.
"""
from __future__ import annotations

import os

from celery.fixups.django import DjangoFixup, DjangoWorkerFixup


class WorkerFixup(DjangoWorkerFixup):
    def close_database(self, **kwargs) -> None:
        for connection in self._db.connections.all(initialized_only=True):
            cut = (connection.connection is not None and connection.errors_occurred
                   and not connection.is_usable())
            try:
                connection.close()                      # back to its pool
                if cut and hasattr(connection, "close_pool"):
                    connection.close_pool()
            except self.interface_errors:
                pass
            except self.DatabaseError as exc:           # as Celery's own
                if "closed" not in str(exc) and "not connected" not in str(exc):
                    raise


class Fixup(DjangoFixup):
    @property
    def worker_fixup(self) -> WorkerFixup:
        if self._worker_fixup is None:      # made once the worker starts, as Celery's
            self._worker_fixup = WorkerFixup(self.app)
        return self._worker_fixup


def fixup(app) -> Fixup | None:
    """In place of Celery's `celery.fixups.django:fixup` (config/celery.py)."""
    if os.environ.get("DJANGO_SETTINGS_MODULE"):
        return Fixup(app).install()
    return None
