"""Opening the Redis client: a real server through a blocking pool, or embedded."""

from __future__ import annotations

import fakeredis
from redis.asyncio import BlockingConnectionPool, Redis


def open_redis(url: str | None, *, max_connections: int = 64, pool_timeout: float = 5.0) -> Redis:
    """A client for `url`, or with no URL an in-process Redis (fakeredis, Lua included)
    that behaves the same for everything the store does."""
    if not url:
        return fakeredis.FakeAsyncRedis(server=fakeredis.FakeServer(), decode_responses=True)
    pool = BlockingConnectionPool.from_url(
        url,
        max_connections=max_connections,
        timeout=pool_timeout,
        decode_responses=True,
        health_check_interval=30,
        socket_keepalive=True,
    )
    return Redis(connection_pool=pool)
