"""The Redis client the service opens: commands packed by hiredis, byte for byte as
redis-py packs them, over whichever kind of connection the URL names."""

from __future__ import annotations

import asyncio

import pytest
from redis.asyncio.connection import Connection
from redis.exceptions import DataError

from services.store import open_redis
from services.store.connection import (
    HiredisConnection,
    HiredisSSLConnection,
    HiredisUnixDomainSocketConnection,
)

pytestmark = pytest.mark.anyio

COMMANDS = [
    ("GET", "skyport:{g1}:record"),
    ("HGETALL", "skyport:{g1}:record"),
    # A commit as the store sends it: a state longer than redis-py's chunking cutoff,
    # integers, empty strings and text beyond ASCII.
    ("EVALSHA", "a" * 40, 3, "k1", "k2", "k3", 7, "s" * 9000, "active", "é☃ entry", 60000, ""),
    ("SET", "k", 0.1, "PX", 1500),
    ("SET", "k", -5),
    ("SET", "k", 2**70),
    ("SET", "k", b"\xff\x00bytes"),
    ("SET", "k", bytearray(b"array")),
    ("SET", "k", memoryview(b"view")),
    ("CONFIG GET", "maxmemory"),
]


def python_packed(*args: object) -> bytes:
    return b"".join(bytes(chunk) for chunk in Connection().pack_command(*args))


@pytest.mark.parametrize("command", COMMANDS, ids=lambda command: str(command[0]))
def test_commands_are_packed_as_redis_py_packs_them(command: tuple) -> None:
    packed = HiredisConnection().pack_command(*command)
    assert b"".join(packed) == python_packed(*command)


@pytest.mark.parametrize("value", [None, True, object()], ids=["None", "True", "object"])
def test_a_value_redis_cannot_hold_is_refused_before_anything_is_sent(value: object) -> None:
    with pytest.raises(DataError):
        HiredisConnection().pack_command("SET", "k", value)


@pytest.mark.parametrize(
    ("url", "kind"),
    [
        ("redis://127.0.0.1:6379/0", HiredisConnection),
        ("rediss://127.0.0.1:6379/0", HiredisSSLConnection),
        ("unix:///run/redis.sock", HiredisUnixDomainSocketConnection),
    ],
)
async def test_every_kind_of_url_keeps_its_connection_kind(url: str, kind: type) -> None:
    client = open_redis(url)
    try:
        assert client.connection_pool.connection_class is kind
    finally:
        await client.aclose()


async def test_commands_round_trip_through_a_real_server(redis_url: str, key_prefix: str) -> None:
    client = open_redis(redis_url)
    key = f"{key_prefix}packed"
    try:
        value = "é☃" + "x" * 9000
        await client.set(key, value, px=60000)
        assert await client.get(key) == value
        async with client.pipeline(transaction=True) as pipe:
            pipe.incr(f"{key}:n").get(key)
            assert await pipe.execute() == [1, value]
    finally:
        await client.delete(key, f"{key}:n")
        await client.aclose()


async def test_the_embedded_redis_waits_for_a_free_connection_under_a_burst() -> None:
    """Embedded mode's pool blocks, as a real server's does: commands beyond
    `max_connections` at once wait for a free connection (up to `pool_timeout`) instead
    of failing at once (fakeredis's default pool refused the 101st with
    `MaxConnectionsError`, which a tournament's burst of bot games met)."""
    redis = open_redis(None, max_connections=20, pool_timeout=5.0)
    try:
        # each holds its connection for a tenth of a second, 120 at once
        waited = await asyncio.gather(
            *(redis.blpop([f"queue-{n}"], timeout=0.1) for n in range(120))
        )
        assert waited == [None] * 120
    finally:
        await redis.aclose()
