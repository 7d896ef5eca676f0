"""How the event loop's code reaches the database: each read on a thread of its own."""
from __future__ import annotations

import functools

from channels.db import database_sync_to_async
from django.db import close_old_connections


def concurrent_db(func):
    """Connecting phones query the database concurrently (not on one shared thread): a
    crowd reconnecting at once would otherwise wait in a single queue."""
    @functools.wraps(func)
    def closing(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        finally:
            # database_sync_to_async closes connections outside the context the query ran
            # in (asgiref runs it in a copied context), so it never sees this one: each
            # websocket would keep a pooled PostgreSQL connection until the pool runs dry.
            close_old_connections()
    return database_sync_to_async(closing, thread_sensitive=False)
