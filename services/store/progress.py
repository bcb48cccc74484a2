"""The index of games that may have work due between requests (a bot turn, scoring).

A sorted set, `<prefix>:pending`: game id scored by the unix ms of its last commit. It is
written with every commit that may leave a step due (by the store, in the commit's
round trip, before the script: `GameStore.noted_before`), again by the dispatcher with
the task it sends, and only taken out by the sweep, once the sweep has seen that
nothing is due at the game's current version. So a game whose task was lost (a worker
killed between its commit and its dispatch, a message lost in a Redis restart) stays in
the index with an old score, and the sweep sends its turn again; the sweep reads only
the games that have not moved for a while, never all of them.

The sweep changes an entry only if its score is still the one it read (a compare-and-set
in Lua), so concurrent sweeps on several workers send a stalled game's turn once, and a
commit that lands meanwhile keeps its fresh score. The key spans games: it is used by
itself, one key per script, so it works unchanged on Redis Cluster.
"""

from __future__ import annotations

from typing import Any, cast

from redis.asyncio import Redis

SWAP_SCORE = """
-- KEYS[1] the index; ARGV[1] game id, ARGV[2] the score read, ARGV[3] the new score
-- ('' removes the game). Applies only if the score is still the one read.
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score or tonumber(score) ~= tonumber(ARGV[2]) then return 0 end
if ARGV[3] == '' then
  redis.call('ZREM', KEYS[1], ARGV[1])
else
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
end
return 1
"""


SWEEP_BACKOFF_MAX_MS = 3600 * 1000
"""The longest a sweep waits before it looks again at a game it could not look at."""
SWEEP_FAILURES_TTL_MS = 24 * 3600 * 1000
"""How long the count of a game's failed looks is kept after its last failure."""


def failures_key(prefix: str) -> str:
    """Hash: `<index key>|<game id>` -> how many looks at the game failed lately."""
    return f"{prefix}:sweep:failures"


class SweepBackoff:
    """A game a sweep could not look at (its record unreadable, a bug) is put back in its
    index later, each time twice as late (up to an hour), instead of staying at the
    front and starving every game behind it once a sweep's worth of them pile up."""

    def __init__(self, redis: Redis, prefix: str) -> None:
        self.redis = redis
        self.key = failures_key(prefix)
        self._swap = redis.register_script(SWAP_SCORE)

    async def failed(self, index: str, game_id: str, seen: int, at_ms: int, base_ms: int) -> int:
        """Moves `game_id` in sorted set `index` from score `seen` (if still there) to
        `at_ms` plus the back-off; returns the back-off in ms."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hincrby(self.key, f"{index}|{game_id}", 1)
            pipe.pexpire(self.key, SWEEP_FAILURES_TTL_MS)
            failures, _ = await pipe.execute()
        delay: int = min(max(base_ms, 1000) * 2 ** min(int(failures) - 1, 20), SWEEP_BACKOFF_MAX_MS)
        await self._swap(keys=[index], args=[game_id, seen, at_ms + delay])
        return delay


def pending_key(prefix: str) -> str:
    """Sorted set: game id scored by the unix ms of its last commit (or last re-send)."""
    return f"{prefix}:pending"


def note_moved(pipe: Any, prefix: str, game_id: str, at_ms: int, *, moved: bool = True) -> None:
    """Queue on a (sync or async) pipeline: `game_id` committed at `at_ms` (`moved`), or
    only make sure it is indexed, keeping the time of its last commit (a re-send)."""
    if moved:
        pipe.zadd(pending_key(prefix), {game_id: at_ms})
    else:
        pipe.zadd(pending_key(prefix), {game_id: at_ms}, nx=True)


class PendingGames:
    """The sweep's side of the index."""

    def __init__(self, redis: Redis, prefix: str) -> None:
        self.redis = redis
        self.key = pending_key(prefix)
        self._swap = redis.register_script(SWAP_SCORE)

    async def stalled(self, before_ms: int, limit: int) -> list[tuple[str, int]]:
        """Up to `limit` games that have not moved since `before_ms`, oldest first, each
        with the score read (to hand back to `settle` or `retry_at`)."""
        rows = await self.redis.zrangebyscore(
            self.key, "-inf", before_ms, start=0, num=limit, withscores=True
        )
        return [(game_id, int(score)) for game_id, score in cast(list[tuple[str, float]], rows)]

    async def settle(self, game_id: str, seen: int) -> bool:
        """Nothing is due: take the game out, unless it moved since it was read."""
        return bool(await self._swap(keys=[self.key], args=[game_id, seen, ""]))

    async def retry_at(self, game_id: str, seen: int, at_ms: int) -> bool:
        """Claim the re-send of a stalled game: True for exactly one of the sweeps that
        read score `seen`; the game is looked at again `at_ms` plus the stall time."""
        return bool(await self._swap(keys=[self.key], args=[game_id, seen, at_ms]))
