"""Sending tasks through a `redis://` broker: every task arrives, and a channel keeps its
Redis client instead of building one per message (kombu's own transport does that, at
about a quarter of a send's CPU)."""

from __future__ import annotations

import base64

import orjson
import pytest
import redis
from celery import Celery
from kombu.transport import redis as kombu_redis

from services.gameplay import broker
from services.gameplay.broker import TRANSPORT, transport_for


def test_only_plain_redis_brokers_use_the_kept_client_transport() -> None:
    assert transport_for("redis://127.0.0.1:6379/0") == TRANSPORT
    assert transport_for("rediss://example.org:6380/0") is None
    assert transport_for("sentinel://127.0.0.1:26379") is None
    assert transport_for("memory://") is None
    assert transport_for("amqp://guest@127.0.0.1//") is None


@pytest.fixture
def queue(redis_url: str, key_prefix: str):
    name = f"{key_prefix}:broker-test"
    yield name
    client = redis.Redis.from_url(redis_url)
    client.delete(name, f"_kombu.binding.{name}")
    client.close()


def test_every_task_arrives_and_clients_do_not_grow_with_messages(redis_url, queue, monkeypatch):
    built = []
    create = kombu_redis.Channel._create_client

    def counted(self, *args, **kwargs):
        built.append(args)
        return create(self, *args, **kwargs)

    monkeypatch.setattr(kombu_redis.Channel, "_create_client", counted)
    app = Celery("broker-test", broker=redis_url, set_as_current=False)
    app.conf.update(broker_transport=transport_for(redis_url), task_serializer="json")
    for version in range(10):
        app.send_task("skyport.advance", args=["g1", version], queue=queue)
    clients_at_first = len(built)
    for version in range(10, 30):
        app.send_task("skyport.advance", args=["g1", version], queue=queue)

    client = redis.Redis.from_url(redis_url)
    messages = [orjson.loads(raw) for raw in client.lrange(queue, 0, -1)]
    client.close()
    assert len(messages) == 30
    assert {m["headers"]["task"] for m in messages} == {"skyport.advance"}
    sent = sorted(orjson.loads(base64.b64decode(m["body"]))[0][1] for m in messages)
    assert sent == list(range(30))
    assert len(built) == clients_at_first <= 2  # kombu's own: one more per message


def test_a_channel_whose_pool_was_dropped_sends_through_a_new_client(redis_url, queue):
    app = Celery("broker-test", broker=redis_url, set_as_current=False)
    app.conf.update(broker_transport=transport_for(redis_url), task_serializer="json")
    with app.connection_for_write() as connection:
        channel = connection.default_channel
        assert isinstance(channel, broker.Channel)
        with channel.conn_or_acquire() as first:
            first.lpush(queue, "a")
        channel._disconnect_pools()  # as kombu does after a fork or a connection error
        with channel.conn_or_acquire() as second:
            second.lpush(queue, "b")
        assert second is not first
        assert second.connection_pool is channel.pool
    client = redis.Redis.from_url(redis_url)
    assert client.lrange(queue, 0, -1) == [b"b", b"a"]
    client.close()
