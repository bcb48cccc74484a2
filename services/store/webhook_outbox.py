"""The outbox of webhooks the broker could not take, kept in Redis to be sent later.

A webhook is handed to the workers as a Celery task. When the broker refuses it (down,
unreachable, a blip), the dispatcher keeps it here, and the periodic sweep hands it to
the broker again once the broker is back: at least once, with its event id unchanged,
so a receiver that dedupes by `Skyport-Event-Id` sees it once.

Three keys, one hash tag (`{webhooks}`), so the scripts below touch one slot and work on
Redis Cluster unchanged:

- `<prefix>:{webhooks}:outbox` hash: `<event id> <url>` -> the webhook as JSON (event
  id, type, url, payload and when it was kept). One event goes to each of its game's
  URLs, each kept and sent by itself.
- `<prefix>:{webhooks}:outbox:due` sorted set: the same members, by when the sweep may
  send them next (unix ms).
- `<prefix>:{webhooks}:outbox:kept` sorted set: the same members, by when they were kept,
  for the age limit and the size cap.

Bounded: an entry older than `max_age_ms` is dropped (by the next keep or sweep), and
keeping one more than `max_entries` drops the oldest; both are returned to be counted.
The keys expire `max_age_ms` after the last keep, so an outbox nobody adds to goes away.

The sweep claims due entries atomically (a script moves their due time a lease ahead),
so several sweepers never send the same entry at once; an entry is removed only once the
broker took it, and the entry of a sweeper that died mid-send is due again after the
lease (a second send the receiver dedupes).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

import orjson
from redis.asyncio import Redis

KEEP = """
-- KEYS: entries, due, kept. ARGV[1] member, ARGV[2] entry JSON, ARGV[3] now (ms),
-- ARGV[4] most entries, ARGV[5] longest age (ms), ARGV[6] most entries dropped per call.
-- Returns {kept (1, or 0 if it was kept already), {members dropped as too old},
-- {members dropped as over the cap}}.
local now, cap = tonumber(ARGV[3]), tonumber(ARGV[4])
local age, most = tonumber(ARGV[5]), tonumber(ARGV[6])
local function drop(members)
  for _, member in ipairs(members) do
    redis.call('HDEL', KEYS[1], member)
    redis.call('ZREM', KEYS[2], member)
    redis.call('ZREM', KEYS[3], member)
  end
  return members
end
local expired = drop(redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now - age, 'LIMIT', 0, most))
local kept = redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2])
if kept == 1 then
  redis.call('ZADD', KEYS[2], now, ARGV[1])
  redis.call('ZADD', KEYS[3], now, ARGV[1])
end
local over = redis.call('ZCARD', KEYS[3]) - cap
local dropped = {}
if over > 0 then
  dropped = drop(redis.call('ZRANGE', KEYS[3], 0, math.min(over, most) - 1))
end
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], age) end
return {kept, expired, dropped}
"""

CLAIM = """
-- KEYS: entries, due, kept. ARGV[1] now (ms), ARGV[2] most entries, ARGV[3] lease (ms),
-- ARGV[4] longest age (ms). Drops entries too old, then claims the due ones (oldest due
-- first): each is due again only after the lease. Returns {{members dropped as too
-- old}, {member, entry JSON, ...}}.
local now, most = tonumber(ARGV[1]), tonumber(ARGV[2])
local lease, age = tonumber(ARGV[3]), tonumber(ARGV[4])
local old = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now - age, 'LIMIT', 0, most)
for _, member in ipairs(old) do
  redis.call('HDEL', KEYS[1], member)
  redis.call('ZREM', KEYS[2], member)
  redis.call('ZREM', KEYS[3], member)
end
local claimed = {}
for _, member in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now, 'LIMIT', 0, most)) do
  local entry = redis.call('HGET', KEYS[1], member)
  if entry then
    redis.call('ZADD', KEYS[2], now + lease, member)
    claimed[#claimed + 1] = member
    claimed[#claimed + 1] = entry
  else
    redis.call('ZREM', KEYS[2], member)
    redis.call('ZREM', KEYS[3], member)
  end
end
return {old, claimed}
"""

DROP_BATCH = 100
"""Most entries one keep or one claim drops (as too old or over the cap): a lowered cap
is reached over a few calls, never by one long script."""


def outbox_keys(prefix: str) -> list[str]:
    """The outbox's keys: entries (hash), due (sorted set), kept (sorted set)."""
    base = f"{prefix}:{{webhooks}}:outbox"
    return [base, f"{base}:due", f"{base}:kept"]


@dataclass(frozen=True)
class KeptWebhook:
    """One webhook of the outbox, as the broker is to be given it."""

    event_id: str
    event_type: str
    url: str
    payload: dict[str, Any]
    kept_at_ms: int

    @property
    def member(self) -> str:
        return member_of(self.event_id, self.url)


@dataclass(frozen=True)
class Kept:
    """What one keep did: whether it added the webhook (not if it was there already), and
    the entries it dropped as too old and as over the cap (`<event id> <url>` each)."""

    added: bool
    expired: list[str]
    dropped: list[str]


def member_of(event_id: str, url: str) -> str:
    """An entry's name: its event id and URL (an event goes to each URL of its game)."""
    return f"{event_id} {url}"


class WebhookOutbox:
    def __init__(self, redis: Redis, prefix: str, *, max_entries: int, max_age_ms: int) -> None:
        self.redis = redis
        self.keys = outbox_keys(prefix)
        self.max_entries = max_entries
        self.max_age_ms = max_age_ms
        self._keep = redis.register_script(KEEP)
        self._claim = redis.register_script(CLAIM)

    async def keep(
        self, event_id: str, event_type: str, url: str, payload: dict[str, Any], now_ms: int
    ) -> Kept:
        """Keeps the webhook, due at once (the next sweep sends it)."""
        entry = orjson.dumps(
            {
                "event_id": event_id,
                "event_type": event_type,
                "url": url,
                "payload": payload,
                "kept_at_ms": now_ms,
            }
        )
        added, expired, dropped = await self._keep(
            keys=self.keys,
            args=[
                member_of(event_id, url),
                entry,
                now_ms,
                self.max_entries,
                self.max_age_ms,
                DROP_BATCH,
            ],
        )
        return Kept(bool(added), list(expired), list(dropped))

    async def claim(
        self, now_ms: int, limit: int, lease_ms: int
    ) -> tuple[list[KeptWebhook], list[str]]:
        """Up to `limit` due webhooks, oldest due first, each claimed for `lease_ms` (no
        other claim gets it meanwhile); and the entries it dropped as too old."""
        expired, flat = await self._claim(
            keys=self.keys, args=[now_ms, limit, lease_ms, self.max_age_ms]
        )
        rows = cast(list[str], flat)
        claimed = []
        for entry in rows[1::2]:
            data = orjson.loads(entry)
            claimed.append(
                KeptWebhook(
                    data["event_id"],
                    data["event_type"],
                    data["url"],
                    data["payload"],
                    int(data["kept_at_ms"]),
                )
            )
        return claimed, list(expired)

    async def sent(self, webhook: KeptWebhook) -> None:
        """The broker took it: out of the outbox."""
        entries, due, kept = self.keys
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hdel(entries, webhook.member)
            pipe.zrem(due, webhook.member)
            pipe.zrem(kept, webhook.member)
            await pipe.execute()

    async def later(self, webhooks: list[tuple[KeptWebhook, int]]) -> None:
        """Each (webhook, at ms): not sent now, due again at `at` (if still kept)."""
        if not webhooks:
            return
        async with self.redis.pipeline(transaction=False) as pipe:
            for webhook, at_ms in webhooks:
                pipe.zadd(self.keys[1], {webhook.member: at_ms}, xx=True)
            await pipe.execute()

    async def size(self) -> int:
        return int(await self.redis.zcard(self.keys[2]))
