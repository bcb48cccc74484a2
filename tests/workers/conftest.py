"""Fixtures for the worker tests: see worker_harness.py."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest
import redis as sync_redis
from private_redis import PrivateRedis
from worker_harness import BROKER_DB, PLATFORM_KEY, WorkerSetup, kill_hard

from services.gameplay.settings import Settings


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "chaos: workers SIGKILLed and Redis restarted under running games"
    )


@pytest.fixture
def worker_setup(
    redis_url: str, run_prefix: str, tmp_path: Path
) -> Iterator[Callable[..., WorkerSetup]]:
    """make(**settings) -> a WorkerSetup with a key prefix and queue of its own; its
    workers are killed and its queue deleted afterwards."""
    yield from _worker_setups(redis_url, run_prefix, tmp_path)


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[PrivateRedis]:
    """A redis-server of this test's own (append-only), which it may restart."""
    workdir = tmp_path / "redis"
    workdir.mkdir()
    server = PrivateRedis(workdir)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def private_worker_setup(
    private_redis: PrivateRedis, run_prefix: str, tmp_path: Path
) -> Iterator[Callable[..., WorkerSetup]]:
    """As `worker_setup`, over the test's own Redis (`private_redis`)."""
    yield from _worker_setups(private_redis.url(), run_prefix, tmp_path)


def _worker_setups(
    redis_url: str, run_prefix: str, tmp_path: Path
) -> Iterator[Callable[..., WorkerSetup]]:
    made: list[WorkerSetup] = []
    broker_url = urlunsplit(urlsplit(redis_url)._replace(path=f"/{BROKER_DB}"))

    def make(**overrides: Any) -> WorkerSetup:
        prefix = f"{run_prefix}-w{uuid.uuid4().hex[:8]}"
        values: dict[str, Any] = {
            "redis_url": redis_url,
            "broker_url": broker_url,
            "key_prefix": prefix,
            "task_queue": f"{prefix}.tasks",
            "tasks": "celery",
            "task_visibility_timeout": 10,
            "bot_mcts_seconds": 0.1,
            "bot_mcts_iterations": 20,
            "api_keys": PLATFORM_KEY,
            "rate_limit_per_ip": 0,
            "create_limit_per_ip": 0,
            "rate_limit_per_token": 0,
            "stream_keepalive": 0.5,
            "log_level": "warning",
            **overrides,
        }
        logs = tmp_path / f"logs-{prefix}"
        logs.mkdir()
        setup = WorkerSetup(Settings(**values), logs)
        made.append(setup)
        return setup

    yield make
    for setup in made:
        for process in setup.workers:
            if process.poll() is None:
                kill_hard(process)
    for setup in made:
        broker = setup.broker()
        try:
            queue = setup.settings.task_queue
            keys = list(broker.scan_iter(match=f"*{queue}*", count=1000))
            if keys:
                broker.delete(*keys)
        except sync_redis.ConnectionError:
            pass  # a test's own Redis that it stopped: nothing to clean
        finally:
            broker.close()
