"""Tournaments in Redis: one JSON document per tournament with a version, changed only
by compare-and-set (a Lua script), so two workers finishing the last two games of a
round at once cannot both start the next round: one swap lands, the other reads again.

Each tournament's keys carry its id as a hash tag (`{id}`), like a game's.

`RunningTournaments` is the index of tournaments not yet over: a sorted set,
`<prefix>:tournaments:running`, tournament id scored by the unix ms of its last step. The
sweep steps the ones whose score is old (the report of a round's last game was lost), so a
tournament never rests on one worker's survival. Like the games' pending index it is used
by itself, one key per command, so it works unchanged on Redis Cluster."""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from redis.asyncio import Redis

from .progress import SWAP_SCORE

CREATE = """
-- KEYS[1] tournament hash; ARGV[1] document, ARGV[2] ttl ms
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'version', '1', 'doc', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
"""

SWAP = """
-- KEYS[1] tournament hash; ARGV[1] expected version, ARGV[2] document, ARGV[3] ttl ms
local current = redis.call('HGET', KEYS[1], 'version')
if current ~= ARGV[1] then return current or '' end
local version = tostring(tonumber(current) + 1)
redis.call('HSET', KEYS[1], 'version', version, 'doc', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 'ok'
"""


@dataclass(frozen=True)
class StoredDocument:
    version: int
    document: str


class TournamentStore:
    def __init__(self, redis: Redis, prefix: str, ttl_seconds: int) -> None:
        self.redis = redis
        self.prefix = prefix
        self.ttl_ms = ttl_seconds * 1000
        self._create = redis.register_script(CREATE)
        self._swap = redis.register_script(SWAP)

    def key(self, tournament_id: str) -> str:
        return f"{self.prefix}:{{t-{tournament_id}}}:tournament"

    async def create(self, tournament_id: str, document: str) -> bool:
        """Store a new tournament at version 1; False if the id is taken."""
        created = await self._create(keys=[self.key(tournament_id)], args=[document, self.ttl_ms])
        return bool(created)

    async def load(self, tournament_id: str) -> StoredDocument | None:
        found = cast(
            list[str | None], await self.redis.hmget(self.key(tournament_id), "version", "doc")
        )
        version, document = found
        if version is None or document is None:
            return None
        return StoredDocument(int(version), document)

    async def version(self, tournament_id: str) -> int | None:
        """The document's version alone (None: no such tournament), to tell whether what
        was read of it before still holds without reading it again."""
        found = await self.redis.hget(self.key(tournament_id), "version")
        return None if found is None else int(found)

    async def keep(self, tournament_id: str) -> None:
        """Keep the tournament for its whole lifetime from now (as a swap does): a running
        one that is not swapped - a round waiting on a table - must not expire."""
        await self.redis.pexpire(self.key(tournament_id), self.ttl_ms)

    async def swap(self, tournament_id: str, expected_version: int, document: str) -> bool:
        """Replace the document if it is still at `expected_version` (then at +1)."""
        verdict = await self._swap(
            keys=[self.key(tournament_id)], args=[expected_version, document, self.ttl_ms]
        )
        return bool(verdict == "ok")


def running_key(prefix: str) -> str:
    """Sorted set: running tournament id scored by the unix ms of its last step."""
    return f"{prefix}:tournaments:running"


class RunningTournaments:
    """The index of running tournaments, for the sweep."""

    def __init__(self, redis: Redis, prefix: str) -> None:
        self.redis = redis
        self.key = running_key(prefix)
        self._swap = redis.register_script(SWAP_SCORE)

    async def stepped(self, tournament_id: str, at_ms: int) -> None:
        """The tournament runs on and was stepped at `at_ms`."""
        await self.redis.zadd(self.key, {tournament_id: at_ms})

    async def ended(self, tournament_id: str) -> None:
        """The tournament is over (or gone): out of the index."""
        await self.redis.zrem(self.key, tournament_id)

    async def stalled(self, before_ms: int, limit: int) -> list[tuple[str, int]]:
        """Up to `limit` tournaments not stepped since `before_ms`, oldest first, each
        with the score read (to hand to `claim`)."""
        rows = await self.redis.zrangebyscore(
            self.key, "-inf", before_ms, start=0, num=limit, withscores=True
        )
        return [(tid, int(score)) for tid, score in cast(list[tuple[str, float]], rows)]

    async def claim(self, tournament_id: str, seen: int, at_ms: int) -> bool:
        """True for exactly one of the sweeps that read score `seen` (its score becomes
        `at_ms`); False if another sweep claimed it or it was stepped meanwhile."""
        return bool(await self._swap(keys=[self.key], args=[tournament_id, seen, at_ms]))
