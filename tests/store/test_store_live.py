"""The live-update listener and Redis outages: while Redis is down, readers are not rung
(each would only fail its read, and a feed that failed ended its stream); once the
subscription is back, every reader is rung to look again."""

from __future__ import annotations

import asyncio

import pytest
from own_redis import OwnRedis

from services.store import LiveUpdates, open_redis

pytestmark = [pytest.mark.anyio, pytest.mark.timeout(60)]


async def test_readers_are_rung_once_the_subscription_is_back_not_while_redis_is_down(
    own_redis: OwnRedis,
) -> None:
    client = open_redis(own_redis.url)
    live = LiveUpdates(client, "skyport-live-outage")
    await live.start()
    try:
        async with live.watch("g1") as bell:
            assert await bell.wait(0, 5), "rung once the subscription is up"
            rings = bell.rings
            own_redis.stop()
            await asyncio.sleep(2.5)  # the listener loses its connection, tries again
            assert bell.rings == rings, "rung while Redis was down"
            own_redis.start()
            assert await bell.wait(rings, 5), "rung once the subscription is back"
    finally:
        await live.stop()
        await client.aclose()
