"""A worker serves Prometheus metrics for the work its child processes do."""

from __future__ import annotations

import socket

import httpx
import pytest
from test_workers_tasks import api, create, wait_final
from worker_harness import wait_for

from services.store.webhook_outbox import outbox_keys
from workers.metrics import OutboxSize

pytestmark = pytest.mark.timeout(120)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def sample(text: str, name: str) -> float:
    values = [
        float(line.rsplit(" ", 1)[1])
        for line in text.splitlines()
        if line.startswith(name) and not line.startswith("#")
    ]
    return sum(values)


def test_a_worker_reports_bot_turn_time_scoring_time_and_queue_depth(worker_setup) -> None:
    setup = worker_setup()
    port = free_port()
    setup.start_worker(worker_metrics_port=port)
    with api(setup) as client:
        seats = [{"name": "one", "bot": "greedy"}, {"name": "two", "bot": "random"}]
        created = create(client, "sky-islands", seats)
        assert wait_final(client, created["id"], 90)["status"] == "finished"
    url = f"http://127.0.0.1:{port}/metrics"
    text = wait_for(
        lambda: (body := httpx.get(url).text) and "skyport_scoring_seconds_count" in body and body,
        10,
        "the worker's metrics",
    )
    assert sample(text, 'skyport_bot_turn_seconds_count{game="sky-islands",level="greedy"') > 0
    assert sample(text, 'skyport_bot_turn_seconds_count{game="sky-islands",level="random"') > 0
    assert sample(text, 'skyport_scoring_seconds_count{game="sky-islands"') == 1
    assert f'skyport_task_queue_depth{{queue="{setup.settings.task_queue}"}}' in text
    assert "skyport_webhooks_outbox_size 0.0" in text


def test_the_outbox_size_counts_the_webhooks_kept_for_the_sweep(redis_url, key_prefix) -> None:
    """What an operator watches while the broker is down: the outbox grows, then drains."""
    outbox = OutboxSize(redis_url, key_prefix)
    kept_key = outbox_keys(key_prefix)[2]
    assert [sample.value for sample in outbox.collect()[0].samples] == [0]
    outbox.redis.zadd(kept_key, {"evt-1 https://a.example/hook": 1, "evt-1 https://b.example": 2})
    try:
        assert [sample.value for sample in outbox.collect()[0].samples] == [2]
    finally:
        outbox.redis.delete(kept_key)
        outbox.redis.close()
