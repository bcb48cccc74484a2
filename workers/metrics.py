"""The workers' Prometheus endpoint.

Bot turns and scoring run in the worker's child processes, so the metrics are collected
in prometheus_client's multiprocess mode (PROMETHEUS_MULTIPROC_DIR, which must be set
before prometheus_client is first imported) and served by the parent process, together
with the depth of the task queue read from the broker and the size of the webhook outbox
read from Redis, both at scrape time.
"""

from __future__ import annotations

import os
import tempfile

METRICS_DIR_VARIABLE = "PROMETHEUS_MULTIPROC_DIR"


def prepare_multiprocess_dir() -> str:
    """A fresh directory for this worker's metric files; call before importing metrics."""
    directory = tempfile.mkdtemp(prefix="skyport-metrics-")
    os.environ[METRICS_DIR_VARIABLE] = directory
    return directory


class QueueDepth:
    """`skyport_task_queue_depth`: tasks waiting in the queue (Redis brokers only)."""

    def __init__(self, broker_url: str, queue: str) -> None:
        import redis

        self.queue = queue
        self.redis = redis.Redis.from_url(broker_url, socket_timeout=2)

    def collect(self):
        from prometheus_client.core import GaugeMetricFamily

        depth = GaugeMetricFamily(
            "skyport_task_queue_depth", "Tasks waiting in the worker queue.", labels=["queue"]
        )
        try:
            depth.add_metric([self.queue], self.redis.llen(self.queue))
        except Exception:  # a scrape must not fail because Redis blinked
            return []
        return [depth]


class OutboxSize:
    """`skyport_webhooks_outbox_size`: webhooks kept while the broker could not take them,
    waiting for the sweep to hand them over (`services.store.webhook_outbox`). It grows
    while the broker is down and empties once it is back; one that only grows means the
    sweep is not running."""

    def __init__(self, redis_url: str, key_prefix: str) -> None:
        import redis

        from services.store.webhook_outbox import outbox_keys

        self.kept_key = outbox_keys(key_prefix)[2]
        self.redis = redis.Redis.from_url(redis_url, socket_timeout=2)

    def collect(self):
        from prometheus_client.core import GaugeMetricFamily

        size = GaugeMetricFamily(
            "skyport_webhooks_outbox_size",
            "Webhooks kept in Redis while the broker could not take them, not yet resent.",
        )
        try:
            size.add_metric([], self.redis.zcard(self.kept_key))
        except Exception:  # a scrape must not fail because Redis blinked
            return []
        return [size]


def serve_metrics(
    port: int,
    broker_url: str | None,
    queue: str,
    redis_url: str | None = None,
    key_prefix: str = "skyport",
) -> None:
    """Serve every child's metrics (the queue depth and the webhook outbox's size too) on
    `port`, in a thread."""
    from prometheus_client import CollectorRegistry, multiprocess, start_http_server

    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry)
    if broker_url and broker_url.startswith(("redis://", "rediss://", "unix://")):
        registry.register(QueueDepth(broker_url, queue))
    if redis_url:
        registry.register(OutboxSize(redis_url, key_prefix))
    start_http_server(port, registry=registry)
