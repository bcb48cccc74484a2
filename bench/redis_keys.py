"""A bench run's keys in Redis: found by their patterns, and deleted in batches, so a
run leaves nothing behind and touches nothing else."""

from __future__ import annotations

import redis

BATCH = 500
"""Keys per DEL: large enough to be quick, small enough not to stall the server."""


def keys_matching(client: redis.Redis, *patterns: str) -> list[bytes]:
    return [key for pattern in patterns for key in client.scan_iter(match=pattern, count=1000)]


def delete_keys(client: redis.Redis, keys: list[bytes]) -> None:
    for start in range(0, len(keys), BATCH):
        client.delete(*keys[start : start + BATCH])


def delete_matching(redis_url: str, *patterns: str) -> int:
    """Delete every key matching one of `patterns`; how many there were."""
    with redis.Redis.from_url(redis_url) as client:
        keys = keys_matching(client, *patterns)
        delete_keys(client, keys)
    return len(keys)
