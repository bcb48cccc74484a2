"""Opening the Redis client: a real server through a blocking pool, or embedded."""

from __future__ import annotations

from typing import Any, cast

import fakeredis
import redis.exceptions
from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.connection import (
    AbstractConnection,
    Connection,
    SSLConnection,
    UnixDomainSocketConnection,
)
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.connection import HiredisRespSerializer
from redis.exceptions import ReadOnlyError
from redis.maint_notifications import MaintNotificationsConfig
from redis.typing import EncodableT

AFTER_A_FAILOVER = Retry(NoBackoff(), 1, supported_errors=(ReadOnlyError,))
"""A command a replica refused (READONLY: a failover made the server this connection
reached a replica) is sent once more on a new connection, which looks the address up
again and so reaches the new primary once the address leads there. Without it, the
pool's connections stayed with the old primary and every change was refused until the
process restarted. A replica refuses a write before running any of it, scripts included,
so sending it again cannot apply it twice. Nothing else is retried: a timeout after a
commit was sent is settled from the game's log (`CommitPipeline`), not sent again;
only a read is (`StoreClient`)."""

SENT_AGAIN = frozenset(
    {
        "EXISTS", "GET", "HEXISTS", "HGET", "HGETALL", "HLEN", "HMGET", "LLEN", "LRANGE",
        "MGET", "PING", "PTTL", "SCAN", "SCARD", "SISMEMBER", "SMEMBERS", "STRLEN", "TTL",
        "TYPE", "XLEN", "XRANGE", "XREVRANGE", "ZCARD", "ZCOUNT", "ZMSCORE", "ZRANGE",
        "ZRANGEBYSCORE", "ZRANK", "ZREVRANGE", "ZREVRANGEBYSCORE", "ZSCORE",
    }
)  # fmt: skip
"""Commands that only read: sent twice, they answer as once."""
LOST = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)
"""A command's connection failed: refused, reset, closed, timed out."""


def open_redis(url: str | None, *, max_connections: int = 64, pool_timeout: float = 5.0) -> Redis:
    """A client for `url`, or with no URL an in-process Redis (fakeredis, Lua included)
    that behaves the same for everything the store does.

    Both pools block: a burst of commands beyond `max_connections` waits up to
    `pool_timeout` seconds for a free connection instead of failing at once (fakeredis's
    own default pool refuses the 101st at once with `MaxConnectionsError`, which a
    burst of bot games in embedded mode met)."""
    if not url:
        fake = fakeredis.FakeAsyncRedis(
            server=fakeredis.FakeServer(),
            decode_responses=True,
            connection_pool_class=BlockingConnectionPool,
            max_connections=max_connections,
        )
        # fakeredis hands the pool its connection's arguments only: the wait is set here.
        cast(BlockingConnectionPool, fake.connection_pool).timeout = pool_timeout
        return fake
    pool = StorePool.from_url(
        url,
        max_connections=max_connections,
        timeout=pool_timeout,
        decode_responses=True,
        health_check_interval=30,
        socket_keepalive=True,
        retry=AFTER_A_FAILOVER,
        # With them on ("auto", redis-py's default over RESP3) the pool skips its check
        # that an idle connection was not closed by the server before handing it out, so
        # after a Redis restart every pooled connection failed one command (a 503 each),
        # writes included. The notifications are a managed service's maintenance news.
        maint_notifications_config=MaintNotificationsConfig(enabled=False),
    )
    pool.connection_class = packed_by_hiredis(pool.connection_class)
    return StoreClient(connection_pool=pool)


class NoConnection(redis.exceptions.ConnectionError):
    """No connection to send a command on (none free in time, or none could be made):
    nothing was sent."""


class StorePool(BlockingConnectionPool):
    """Says when a command failed before it was sent (`NoConnection`)."""

    async def get_connection(self, *args: Any, **options: Any) -> AbstractConnection:
        try:
            connection: AbstractConnection = await super().get_connection(*args, **options)
        except LOST as error:
            raise NoConnection(str(error)) from error
        return connection


class StoreClient(Redis):
    """A read whose connection failed under it is sent once more, on a new connection:
    a connection the server dropped without the pool noticing (a reset, a failover)
    fails the first command sent on it, and a read is safe to send again. A change is
    not (it may have been applied before its answer was lost), nor is anything that
    found no connection at all (waiting again for a full pool doubles the wait)."""

    async def execute_command(self, *args: EncodableT, **options: Any) -> Any:
        try:
            return await super().execute_command(*args, **options)
        except NoConnection:
            raise
        except LOST:
            if str(args[0]).upper() not in SENT_AGAIN:
                raise
        # The failed connection was dropped: the pool makes it again before use.
        return await super().execute_command(*args, **options)


class HiredisPacking:
    """Commands packed by hiredis, as redis-py's own synchronous client packs them when
    hiredis is installed; its asyncio client always packs in Python. The bytes are the
    same; a move's commit (15 arguments, one of them the state) costs about 5 µs to pack
    instead of about 40."""

    _serializer = HiredisRespSerializer()

    def pack_command(self, *args: EncodableT) -> list[bytes]:
        # redis-py annotates each argument as a list; they are what `pack_command` takes.
        packed: list[bytes] = self._serializer.pack(*args)  # type: ignore[arg-type]
        return packed


class HiredisConnection(HiredisPacking, Connection):
    """Over TCP (`redis://`)."""


class HiredisSSLConnection(HiredisPacking, SSLConnection):
    """Over TLS (`rediss://`)."""


class HiredisUnixDomainSocketConnection(HiredisPacking, UnixDomainSocketConnection):
    """Over a Unix socket (`unix://`)."""


PACKED_BY_HIREDIS: dict[type[AbstractConnection], type[AbstractConnection]] = {
    Connection: HiredisConnection,
    SSLConnection: HiredisSSLConnection,
    UnixDomainSocketConnection: HiredisUnixDomainSocketConnection,
}


def packed_by_hiredis(connection_class: type[AbstractConnection]) -> type[AbstractConnection]:
    """The variant of the class the URL chose (TCP, TLS or a Unix socket) that packs
    with hiredis; a class it does not know stays as it is."""
    return PACKED_BY_HIREDIS.get(connection_class, connection_class)
