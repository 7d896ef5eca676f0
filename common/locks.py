"""Locks that serialise one kind of write without holding a row other writes need.

An import of 5,000 characters takes seconds. Had it locked the event's row (FOR UPDATE),
an Emergencia or an arrêt de jeu, which update that row, would wait for it to end: a real
call for help must never wait behind a spreadsheet. A transaction-level advisory lock
(PostgreSQL) keyed on what it guards serialises the imports and registrations of one event
among themselves only, and is released when the transaction ends, however it ends.
"""
from __future__ import annotations

import zlib

from django.db import connection

# What a lock guards, as the first half of PostgreSQL's two-int advisory key.
REGISTRATION = "registration"     # characters and race entries of an event: names, fingers


def xact_lock(kind: str, pk: int) -> None:
    """Hold the lock (`kind`, `pk`) until the current transaction ends, waiting for it if
    another transaction holds it. (SQLite serialises every write: nothing to do.)"""
    if connection.vendor != "postgresql":
        return
    namespace = zlib.crc32(kind.encode()) & 0x7FFFFFFF
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [namespace, int(pk)])
