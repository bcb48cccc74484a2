"""A worker process keeps one event loop and one service (its Redis pool, its Celery
producer) from task to task, and builds its own after a fork."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from services.gameplay.auth import Credentials
from services.gameplay.payloads import CreateGameRequest
from services.gameplay.settings import Settings
from workers.tasks import WorkerRuntime, _close_runtime, runtime

ANYONE = Credentials(None, "127.0.0.1")
BOTS = [{"name": "A", "bot": "random"}, {"name": "B", "bot": "random"}]


@pytest.fixture
def settings(redis_url: str, key_prefix: str) -> Iterator[Settings]:
    # The in-memory broker: the tasks the service sends go nowhere near a shared queue.
    yield Settings(redis_url=redis_url, broker_url="memory://", key_prefix=key_prefix)
    _close_runtime()


def test_consecutive_tasks_share_one_service_and_its_connections(settings: Settings) -> None:
    here = runtime(settings)
    gameplay, pool = here.gameplay, here.gameplay.redis.connection_pool
    request = CreateGameRequest(game="sky-islands", seats=BOTS, seed=3)
    created, _ = here.run(lambda g: g.service.create_game(ANYONE, request, None))
    for version in (0, 1):  # two tasks: each plays one bot move
        assert runtime(settings) is here
        here.run(lambda g, v=version: g.referee.advance(created.id, v))
    record = here.run(lambda g: g.store.load(created.id))
    assert record is not None and record.version == 2
    assert here.gameplay is gameplay and here.gameplay.redis.connection_pool is pool


def test_a_forked_child_builds_its_own_runtime(settings: Settings) -> None:
    parent = runtime(settings)
    parent.pid = -1  # as the child of a fork sees its parent's runtime
    child = runtime(settings)
    assert isinstance(child, WorkerRuntime) and child is not parent
    assert child.gameplay.redis is not parent.gameplay.redis
    parent.pid = child.pid
    parent.close()
