"""Django's Redis cache with one client per process.

Django makes a cache object per thread and per async context, and its Redis backend
builds a new client for each: a connection pool, a first TCP connection and a lookup of
redis-py's version in the installed packages' metadata (a few milliseconds of CPU). Every
websocket connect reads its snapshot on a fresh worker context, so it paid all of that. redis-py's client and pool are thread-safe: one per process serves
every thread (a forked worker gets fresh connections, the pool checks its pid)."""
from __future__ import annotations

import threading

from django.core.cache.backends.redis import RedisCache

_clients: dict[tuple, object] = {}
_lock = threading.Lock()


class SharedRedisCache(RedisCache):
    @property
    def _cache(self):
        key = (tuple(self._servers), repr(sorted(self._options.items())))
        client = _clients.get(key)
        if client is None:
            with _lock:
                client = _clients.setdefault(key, self._class(self._servers, **self._options))
        return client
