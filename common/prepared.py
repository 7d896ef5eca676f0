"""A read by primary key whose SQL is compiled once per process.

Django builds and compiles a queryset's SQL on every evaluation. For the row that every
websocket connect and every snapshot read (a character with five tables joined, live/
snapshots.character_row) that was about 2.5 ms of CPU, against 0.4 ms to run the query:
the largest single cost of a connect (docs/performance.md). Here the queryset is compiled
once, with a stand-in id, and each read runs the same SQL with the id asked for; the rows
become model instances through Django's own iterable (select_related, annotations,
converters), so the result is the queryset's own.
"""
from __future__ import annotations

import copy
import threading
from typing import Callable

from django.db import connections
from django.db.models import Model, QuerySet
from django.db.models.sql.query import Query

# An id no row has, to find where the id goes among the compiled query's parameters.
STAND_IN_ID = -7_319_024_613


class ByPrimaryKey:
    """`make(pk)` returns the queryset of one row (without slicing or ordering)."""

    def __init__(self, make: Callable[[int], QuerySet]):
        self._make = make
        self._compiled: tuple | None = None
        self._lock = threading.Lock()

    def get(self, pk: int) -> Model | None:
        template, compiler, sql, params, index = self._compiled or self._compile()
        query = copy.copy(template.query)
        query.__class__ = _PreparedQuery
        query.prepared = (compiler, sql, (*params[:index], pk, *params[index + 1:]))
        found = list(QuerySet(model=template.model, query=query, using=template.db))
        return found[0] if found else None

    def _compile(self) -> tuple:
        with self._lock:
            if self._compiled is None:
                template = self._make(STAND_IN_ID)
                compiler = template.query.get_compiler(using=template.db)
                sql, params = compiler.as_sql()
                if list(params).count(STAND_IN_ID) != 1:
                    raise ValueError("the queryset must use the id exactly once")
                self._compiled = (template, compiler, sql, tuple(params),
                                  list(params).index(STAND_IN_ID))
        return self._compiled


class _PreparedQuery(Query):
    """The query of one read: its compiler is the first one's, with this read's
    parameters and this thread's connection."""

    prepared: tuple

    def get_compiler(self, using=None, connection=None, elide_empty=True):
        first, sql, params = self.prepared
        compiler = copy.copy(first)
        compiler.query = self
        compiler.connection = connection or connections[using]
        compiler.using = using
        compiler.as_sql = lambda *args, **kwargs: (sql, params)
        return compiler
