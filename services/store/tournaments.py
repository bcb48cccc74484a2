"""Tournaments in Redis: one JSON document per tournament with a version, changed only
by compare-and-set (a Lua script), so two workers finishing the last two games of a
round at once cannot both start the next round: one swap lands, the other reads again.

Each tournament's keys carry its id as a hash tag (`{id}`), like a game's."""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from redis.asyncio import Redis

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

    async def swap(self, tournament_id: str, expected_version: int, document: str) -> bool:
        """Replace the document if it is still at `expected_version` (then at +1)."""
        verdict = await self._swap(
            keys=[self.key(tournament_id)], args=[expected_version, document, self.ttl_ms]
        )
        return bool(verdict == "ok")
