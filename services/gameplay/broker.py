"""Kombu's Redis transport, sending through one Redis client per channel.

Kombu (5.7) builds a new `redis.Redis` client around the channel's connection pool for
every command a channel sends (`Channel.conn_or_acquire`): about 0.1 ms of CPU each with
redis-py 8, which sets up its response callbacks anew per client, a quarter of what a
`send_task` costs. A channel is used by one thread at a time and a client only borrows
connections from the pool, so this channel keeps the client it made for as long as it
keeps that pool (kombu drops the pool after a fork or a connection failure, and the
next command makes a new client around the new one).

Only plain `redis://` brokers use it: `rediss://` and sentinel URLs keep kombu's own
transport, which reads the URL's scheme.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit

from kombu.transport import redis as kombu_redis

TRANSPORT = "services.gameplay.broker:Transport"


class Channel(kombu_redis.Channel):
    _kept_client: Any = None

    @contextmanager
    def conn_or_acquire(self, client: Any = None) -> Iterator[Any]:
        if client:
            yield client
            return
        pool = self.pool
        if self._kept_client is None or self._kept_client.connection_pool is not pool:
            self._kept_client = self._create_client()
        yield self._kept_client


class Transport(kombu_redis.Transport):
    Channel = Channel


def transport_for(broker_url: str) -> str | None:
    """The transport to configure for `broker_url` (None: Celery's choice by scheme)."""
    return TRANSPORT if urlsplit(broker_url).scheme == "redis" else None
