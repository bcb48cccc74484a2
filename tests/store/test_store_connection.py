"""The Redis client the service opens: commands packed by hiredis, byte for byte as
redis-py packs them, over whichever kind of connection the URL names."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import hiredis
import pytest
from own_redis import OwnRedis
from redis.asyncio.connection import Connection
from redis.exceptions import ConnectionError, DataError

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


async def test_connections_the_server_closed_are_made_again_before_a_command_is_sent(
    own_redis: OwnRedis,
) -> None:
    """After a Redis restart, each pooled connection made before it failed its next
    command (a 503), writes included: redis-py's maintenance notifications, on by default,
    turned off the pool's check that the server had not closed a connection."""
    client = open_redis(own_redis.url, max_connections=8)
    try:
        await asyncio.gather(*(client.blpop([f"warm-{n}"], timeout=0.1) for n in range(8)))
        own_redis.stop()
        own_redis.start()
        await asyncio.sleep(0.2)  # the closed connections' ends reach the client
        written = await asyncio.gather(*(client.set(f"k{n}", n) for n in range(8)))
        assert written == [True] * 8
    finally:
        await client.aclose()


class AnswerLost:
    """A Redis server that takes a connection's greeting, then closes the connection on
    its first command without answering: the command may or may not have run."""

    def __init__(self) -> None:
        self.received: list[str] = []
        self.port = 0

    async def __aenter__(self) -> AnswerLost:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc: object) -> None:
        self._server.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        parser = hiredis.Reader()
        try:
            async for command in _commands(reader, parser):
                name = command[0].decode().upper()
                if name == "HELLO":
                    writer.write(b"%1\r\n$5\r\nproto\r\n:3\r\n")
                elif name == "CLIENT":
                    writer.write(b"+OK\r\n")
                elif name == "PING":  # the pool's health check
                    writer.write(b"+PONG\r\n")
                else:
                    self.received.append(name)
                    return
                await writer.drain()
        finally:
            writer.close()


async def _commands(reader: asyncio.StreamReader, parser: hiredis.Reader) -> AsyncIterator[list]:
    while chunk := await reader.read(65536):
        parser.feed(chunk)
        while (command := parser.gets()) is not False:
            yield command


async def test_a_read_whose_answer_was_lost_is_sent_once_more_and_a_change_never() -> None:
    """A connection that fails under a command (the server reset it, a failover) costs a
    read nothing: it is sent again on a new connection. A change is not: it may have run
    before its answer was lost (a commit's lost answer is settled from the game's log)."""
    async with AnswerLost() as server:
        client = open_redis(f"redis://127.0.0.1:{server.port}/0")
        try:
            for read in (client.hgetall("g"), client.xrange("log", "(0", "+", count=5)):
                with pytest.raises(ConnectionError):
                    await read
            for change in (client.evalsha("a" * 40, 1, "g", "state"), client.incr("n")):
                with pytest.raises(ConnectionError):
                    await change
        finally:
            await client.aclose()
    assert server.received == ["HGETALL", "HGETALL", "XRANGE", "XRANGE", "EVALSHA", "INCRBY"]
