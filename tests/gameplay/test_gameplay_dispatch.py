"""The Celery dispatcher never holds up the event loop: it claims a turn on the async Redis
client and hands `send_task` (a blocking round trip to the broker) to its own threads, so
other requests go on while a task is being sent."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from services.gameplay.dispatch import ADVANCE_TASK, CeleryDispatcher
from services.store import open_redis
from services.store.progress import pending_key

pytestmark = pytest.mark.anyio

GAME = "a" * 24


class SlowBroker:
    """`send_task` that waits until a coroutine on the event loop lets it go: if the
    dispatcher sent from the event loop itself, that coroutine could never run."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self.released = threading.Event()
        self.sent: list[tuple[str, list[Any], str]] = []

    def send_task(self, name: str, args: list[Any], queue: str) -> None:
        self.started.set()
        if not self.released.wait(10):
            raise AssertionError("the event loop was blocked while the task was sent")
        self.sent.append((name, args, queue))


@pytest.fixture
async def dispatcher_and_broker(redis_url, key_prefix):
    claims = open_redis(redis_url)
    dispatcher = CeleryDispatcher("memory://", f"{key_prefix}.q", claims=claims, prefix=key_prefix)
    broker = SlowBroker()
    dispatcher._celery.send_task = broker.send_task  # type: ignore[method-assign]
    yield dispatcher, broker, claims
    await dispatcher.close()
    await claims.aclose()


async def test_a_turn_is_sent_while_the_event_loop_serves_others(dispatcher_and_broker) -> None:
    dispatcher, broker, _ = dispatcher_and_broker

    async def another_request() -> None:
        await asyncio.to_thread(broker.started.wait, 10)
        broker.released.set()  # runs only if the loop is free while send_task waits

    await asyncio.gather(dispatcher.after_commit(GAME, 3), another_request())
    assert broker.sent == [(ADVANCE_TASK, [GAME, 3], dispatcher._queue)]


async def test_a_claimed_turn_is_noted_and_sent_once(dispatcher_and_broker, key_prefix) -> None:
    dispatcher, broker, claims = dispatcher_and_broker
    broker.released.set()
    for _ in range(3):  # clients polling a game whose bot is thinking
        await dispatcher.after_commit(GAME, 5, moved=False)
    assert broker.sent == [(ADVANCE_TASK, [GAME, 5], dispatcher._queue)]
    assert await claims.zscore(pending_key(key_prefix), GAME) is not None
    await dispatcher.resend(GAME, 5)  # the sweep: past the claim
    assert len(broker.sent) == 2
