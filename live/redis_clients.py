"""The Redis clients live's own calls share (passes, ready snapshots, broadcasts): one
synchronous client per Redis URL for the process (redis-py's client and pool are
thread-safe), one asyncio client per event loop. A subscription (broadcast.py) and the
watch on Redis's data (watch.py) keep connections of their own: they hold them open."""
from __future__ import annotations

import asyncio

import redis
import redis.asyncio as aioredis
from django.conf import settings

_clients: dict[str, redis.Redis] = {}
_async_clients: dict[asyncio.AbstractEventLoop, aioredis.Redis] = {}


def sync_client() -> redis.Redis:
    client = _clients.get(settings.REDIS_URL)
    if client is None:
        client = _clients.setdefault(settings.REDIS_URL, redis.Redis.from_url(settings.REDIS_URL))
    return client


def async_client() -> aioredis.Redis:
    loop = asyncio.get_running_loop()
    client = _async_clients.get(loop)
    if client is None:
        for closed in [other for other in _async_clients if other.is_closed()]:
            del _async_clients[closed]      # a test's finished loop; a server has one
        client = _async_clients[loop] = aioredis.Redis.from_url(settings.REDIS_URL)
    return client
