"""Django's Redis cache with one client per process.

Django makes a cache object per thread and per async context, and its Redis backend
builds a new client for each: a connection pool, a first TCP connection and a lookup of
redis-py's version in the installed packages' metadata (a few milliseconds of CPU). Every
websocket connect reads its snapshot on a fresh worker context, so it paid all of that. redis-py's client and pool are thread-safe: one per process serves
every thread (a forked worker gets fresh connections, the pool checks its pid)."""
from __future__ import annotations

import threading

from django.core.cache.backends.redis import RedisCache, RedisCacheClient

_clients: dict[tuple, object] = {}
_lock = threading.Lock()


class _OneClientPerPool(RedisCacheClient):
    """Django's client builds a redis-py client object (and its table of about 170 reply
    callbacks) for every cache call; one per pool is enough, it holds no state of a call."""

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        clients = self.__dict__.setdefault("_clients", {})
        client = clients.get(id(pool))
        if client is None:
            client = clients.setdefault(id(pool), self._client(connection_pool=pool))
        return client


class SharedRedisCache(RedisCache):
    @property
    def _cache(self):
        key = (tuple(self._servers), repr(sorted(self._options.items())))
        client = _clients.get(key)
        if client is None:
            with _lock:
                client = _clients.setdefault(key, _OneClientPerPool(self._servers, **self._options))
        return client
