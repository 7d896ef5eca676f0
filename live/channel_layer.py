"""The channel layer (channels_redis), with a Redis connection pool that waits.

Each websocket holds one of the process's Redis connections for the instant of its
`group_add` (connect) and `group_discard` (close). channels_redis builds redis-py's plain
pool, which raises MaxConnectionsError once 100 connections are in use: 200 phones
connecting at once lost 21 to 89 of their handshakes (HTTP 500), and as many closing at
once left tracebacks and memberships behind. A blocking pool lets them queue for a free
connection; a group command takes well under a millisecond, so the queue empties at once
and the process never opens more than `max_connections` to Redis.
"""
from __future__ import annotations

from channels_redis.core import RedisChannelLayer
from redis.asyncio import BlockingConnectionPool


class RedisChannelLayerWaitingForConnections(RedisChannelLayer):
    """A host given as {"address": URL, ...} gets a BlockingConnectionPool: its
    `max_connections` bounds the pool, its `timeout` is how long a command may wait for a
    connection before failing. Other host forms (sentinels) keep channels_redis's pool."""

    def create_pool(self, index):
        host = dict(self.hosts[index])
        if "address" not in host:
            return super().create_pool(index)
        return BlockingConnectionPool.from_url(host.pop("address"), **host)
