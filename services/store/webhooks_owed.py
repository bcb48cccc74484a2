"""The index of the webhooks commits owe until they are handed over: a move's `move`, and
a resignation's `seat.left`, to a game that asked for them (and the `seat.left` of a
seat taken over, which commits nothing: see the end).

A sorted set, `<prefix>:webhooks:owed`: one member per commit, `<game id>:<version>:<print>`,
the print a short hash of the log entry the commit adds (`owed_member`), scored by the
unix ms of the commit. It is written with every commit of a game that asked for such
webhooks (by the store, in the commit's round trip, before the script:
`GameStore.noted_before`), and taken out by the notifier once it has handed the
commit's webhooks to the sender. A process that dies between its commit and its hooks
leaves the note behind, and the sweep (`Referee.send_owed_webhooks`) finds it once it is
older than the lease: if the game's log holds that very entry at that version, the
commit landed, and the sweep sends its webhooks as the notifier does (from the entry, by
the notifier's own code); if it does not (the compare-and-set lost, a retry replayed, the
game expired), nothing is owed and the note goes. So a webhook is sent at least once for
every commit that landed, and never for one that did not.

One note per commit rather than one per game with a mark of the last version handed
over: commits of one game are handed over out of order (the next step is handed to the
workers before the webhooks are, so a bot's move may be handed over before the human
move it answers), and a mark raised by the later one would skip the earlier one whose
committer died. The print tells two commits decided at one version apart: the loser of a
compare-and-set leaves a note that matches no entry of the log, not one the winner's
hooks may already have taken out (which would send the winner's webhooks twice).

The sweep claims a note with a compare-and-set on its score (`SWAP_SCORE`, as the
pending index), so concurrent sweeps send a commit's webhooks once; a sweeper that dies
mid-send leaves the note to be looked at again after the lease (a second send, which
receivers dedupe by event id). The key spans games: it is used by itself, one key per
command, so it works unchanged on Redis Cluster.

A seat that leaves under on_leave bot_takes_over commits nothing: a script marks it
abandoned since the game's version, and `seat.left` follows. Its note,
`<game id>:<version>:left-<seat>` (`left_member`), is written just before that script,
with the pending index's (`Referee.note_due`); the sweep sends `seat.left` if the seat's
record says it left at that version (the bot and the reason with it), and nothing if
not. Every attempt at one seat and version makes the same event, so they share a note.
"""

from __future__ import annotations

import hashlib
from typing import Any, cast

import orjson
from redis.asyncio import Redis

from .progress import SWAP_SCORE
from .records import LogEntry


def owed_key(prefix: str) -> str:
    """Sorted set: `<game id>:<version>:<print>` by the unix ms of the commit."""
    return f"{prefix}:webhooks:owed"


def owed_member(game_id: str, entry: LogEntry) -> str:
    """The note of the commit that adds `entry` to the game's log. The print is of what the
    entry says (who, what, when), read the same from the entry a commit makes and from
    the one the log gives back."""
    said = orjson.dumps(entry.said(), option=orjson.OPT_SORT_KEYS)
    return f"{game_id}:{entry.version}:{hashlib.blake2b(said, digest_size=8).hexdigest()}"


LEFT = "left-"


def left_member(game_id: str, version: int, seat: int) -> str:
    """The note of `seat` taken over at `version` (on_leave bot_takes_over: nothing is
    committed, the seat's record says it left), which owes `seat.left`."""
    return f"{game_id}:{version}:{LEFT}{seat}"


def owed_version(member: str) -> tuple[str, int]:
    """The game id and the version a note is of."""
    game_id, version, _ = member.rsplit(":", 2)
    return game_id, int(version)


def left_seat(member: str) -> int | None:
    """The seat a seat's note is of; None for a commit's."""
    last = member.rsplit(":", 1)[1]
    return int(last[len(LEFT) :]) if last.startswith(LEFT) else None


def note_owed(pipe: Any, prefix: str, member: str, at_ms: int) -> None:
    """Queue on a (sync or async) pipeline: the commit of note `member`, made at `at_ms`,
    owes webhooks."""
    pipe.zadd(owed_key(prefix), {member: at_ms})


class OwedWebhooks:
    def __init__(self, redis: Redis, prefix: str) -> None:
        self.redis = redis
        self.key = owed_key(prefix)
        self._swap = redis.register_script(SWAP_SCORE)

    async def handed_over(self, member: str) -> None:
        """The webhooks of that commit are with the sender (or nothing was owed)."""
        await self.redis.zrem(self.key, member)

    async def stalled(self, before_ms: int, limit: int) -> list[tuple[str, int]]:
        """Up to `limit` notes made (or last claimed) before `before_ms`, oldest first, each
        with the score read (to hand back to `claim`)."""
        rows = await self.redis.zrangebyscore(
            self.key, "-inf", before_ms, start=0, num=limit, withscores=True
        )
        return [(member, int(score)) for member, score in cast(list[tuple[str, float]], rows)]

    async def claim(self, member: str, seen: int, at_ms: int) -> bool:
        """True for exactly one of the sweeps that read score `seen`: the note is looked at
        again `at_ms` plus the lease, unless its webhooks are handed over by then."""
        return bool(await self._swap(keys=[self.key], args=[member, seen, at_ms]))

    async def size(self) -> int:
        return int(await self.redis.zcard(self.key))
