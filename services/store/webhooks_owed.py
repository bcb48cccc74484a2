"""The index of the webhooks changes owe until they are handed over: a move's `move`,
a resignation's `seat.left`, to a game that asked for them; and those of the changes that
commit nothing (see the end): a seat taken over's `seat.left`, the open seats'
`game.seat_claimed`, `game.started` and `game.cancelled`, `game.aborted`, and a seat's
token replaced, `seat.token_replaced`.

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
pending index), so concurrent sweeps send a change's webhooks once; a sweeper that dies
mid-send leaves the note to be looked at again after the lease (a second send, which
receivers dedupe by event id). A note whose change did not land is taken out only if its
score is still the one the sweep claimed it with (`settle`): a note that several attempts
share (below) may have been written again meanwhile by one whose script had not run yet
when the sweep read the store. The key spans games: it is used by itself, one key per
command, so it works unchanged on Redis Cluster.

Changes that commit nothing leave the version as it was (a waiting game is at version 0
until it starts), so their events are of that version, and so are their notes, each
written with the change (in its script's round trip, `noted_before`, or just before it)
and checked by the sweep against what the record holds, which names the change:

- `<game id>:<version>:left-<seat>` (`left_member`): a seat that leaves under on_leave
  bot_takes_over (a script marks it abandoned since the game's version), written just
  before that script with the pending index's note (`Referee.note_due`); `seat.left` is
  owed if the seat's record says it left at that version (the bot and the reason with it).
  Every attempt at one seat and version makes the same event, so they share a note.
- `<game id>:<version>:claimed-<seat>-<print>` (`claimed_member`): an open seat claimed or
  filled with a bot, the print of who took it (name, bot); with the fill's script.
  `game.seat_claimed` is owed if the seat is held by that name and bot: a claim that lost
  the seat to another's owes nothing. Not the token's hash, which a replacement of the
  seat's token changes before the sweep may look: a claim that lost to one of the same
  name and bot is sent the winner's webhook again (its event id and body), which
  receivers dedupe, rather than the winner's lost.
- `<game id>:<version>:replaced-<seat>-<by>-<print>` (`replaced_member`): a taken seat's
  token replaced, by the seat or by the game's creator (`by`), the print of the new
  token's hash; with the replacement's script. `seat.token_replaced` is owed if the seat
  holds that very hash: a replacement that lost its compare-and-set owes nothing (so
  does one replaced again before the sweep looked: only the last is then told).
- `<game id>:<version>:started` (`started_member`): with every fill of a waiting game,
  since only the script knows which fill is the last (two fills at once each read the
  other's seat open). `game.started` is owed once the record has its start; a note of a
  fill that did not start the game is taken out by the hooks of the one that did (the
  same note), or by the sweep while the game still waits.
- `<game id>:<version>:cancelled-<print>` and `...:aborted-<print>` (`cancelled_member`,
  `aborted_member`): a waiting game called off, a game aborted; with the transition's
  script, the print of the reason. `game.cancelled` / `game.aborted` are owed if the game
  is aborted at that version with that reason: of two aborts decided at one version, the
  one that lost owes nothing.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, cast

import orjson
from redis.asyncio import Redis

from .progress import SWAP_SCORE
from .records import LogEntry, SeatRecord


def owed_key(prefix: str) -> str:
    """Sorted set: `<game id>:<version>:<print or kind>` by the unix ms of the change (or
    of the sweep's last claim)."""
    return f"{prefix}:webhooks:owed"


def _print(said: Any) -> str:
    """A short hash of what a change says, the same wherever it is read from."""
    text = orjson.dumps(said, option=orjson.OPT_SORT_KEYS)
    return hashlib.blake2b(text, digest_size=8).hexdigest()


def owed_member(game_id: str, entry: LogEntry) -> str:
    """The note of the commit that adds `entry` to the game's log. The print is of what the
    entry says (who, what, when), read the same from the entry a commit makes and from
    the one the log gives back."""
    return f"{game_id}:{entry.version}:{_print(entry.said())}"


class OwedKind(StrEnum):
    """What change a note is of, and so which webhooks it owes."""

    COMMIT = "commit"
    """A commit: its `move`, and a resignation's `seat.left`."""
    LEFT = "left-"
    """A seat taken over (on_leave bot_takes_over): `seat.left`."""
    CLAIMED = "claimed-"
    """An open seat claimed, or filled with a bot: `game.seat_claimed`."""
    REPLACED = "replaced-"
    """A taken seat's token replaced: `seat.token_replaced`."""
    STARTED = "started"
    """The last open seat filled: `game.started`."""
    CANCELLED = "cancelled-"
    """A waiting game called off by its creator: `game.cancelled`."""
    ABORTED = "aborted-"
    """A game ended without standings: `game.aborted`."""


def left_member(game_id: str, version: int, seat: int) -> str:
    """The note of `seat` taken over at `version` (on_leave bot_takes_over: nothing is
    committed, the seat's record says it left), which owes `seat.left`."""
    return f"{game_id}:{version}:{OwedKind.LEFT}{seat}"


def claimed_member(game_id: str, version: int, seat: int, taken_by: SeatRecord) -> str:
    """The note of open `seat` given to `taken_by` at `version`, which owes
    `game.seat_claimed`. The print is of what the webhook says of the seat (name and
    bot), so a claim that lost the seat to another of another name matches nothing."""
    said = [taken_by.name, taken_by.bot]
    return f"{game_id}:{version}:{OwedKind.CLAIMED}{seat}-{_print(said)}"


REPLACED_BY = ("seat", "creator")
"""Who may replace a seat's token: the seat itself, or the API key that created the game."""


def replaced_member(game_id: str, version: int, seat: int, by: str, token_hash: str) -> str:
    """The note of `seat`'s token replaced at `version` by `by` ("seat" or "creator"),
    which owes `seat.token_replaced`. The print is of the new token's hash."""
    return f"{game_id}:{version}:{OwedKind.REPLACED}{seat}-{by}-{token_print(token_hash)}"


def token_print(token_hash: str) -> str:
    """A short print of a seat token's hash: what tells two replacements apart."""
    return _print(token_hash)


def started_member(game_id: str, version: int) -> str:
    """The note of a game that may start at `version` (a waiting game's: nothing moves
    while it waits), which owes `game.started`. Every fill that may start the game notes
    it: only the script knows which one does, and they all make the one event."""
    return f"{game_id}:{version}:{OwedKind.STARTED}"


def cancelled_member(game_id: str, version: int, reason: str) -> str:
    """The note of a waiting game called off at `version` with `reason`, which owes
    `game.cancelled`."""
    return f"{game_id}:{version}:{OwedKind.CANCELLED}{_print(reason)}"


def aborted_member(game_id: str, version: int, reason: str) -> str:
    """The note of a game aborted at `version` with `reason`, which owes `game.aborted`.
    The print is of the reason, so of two aborts decided at one version, the one that
    lost matches nothing the record holds."""
    return f"{game_id}:{version}:{OwedKind.ABORTED}{_print(reason)}"


@dataclass(frozen=True)
class OwedNote:
    """What a note says: the game, the version and the kind of its change."""

    game_id: str
    version: int
    kind: OwedKind
    seat: int | None = None
    """The seat of a seat's note (LEFT, CLAIMED, REPLACED)."""


def note_of(member: str) -> OwedNote:
    game_id, version, last = member.rsplit(":", 2)
    for kind in (OwedKind.LEFT, OwedKind.CLAIMED, OwedKind.REPLACED):
        if last.startswith(kind):
            seat = last[len(kind) :].split("-", 1)[0]
            return OwedNote(game_id, int(version), kind, int(seat))
    for kind in (OwedKind.STARTED, OwedKind.CANCELLED, OwedKind.ABORTED):
        if last.startswith(kind):
            return OwedNote(game_id, int(version), kind)
    return OwedNote(game_id, int(version), OwedKind.COMMIT)


def note_owed(pipe: Any, prefix: str, member: str, at_ms: int) -> None:
    """Queue on a (sync or async) pipeline: the change of note `member`, made at `at_ms`,
    owes webhooks."""
    pipe.zadd(owed_key(prefix), {member: at_ms})


class OwedWebhooks:
    def __init__(self, redis: Redis, prefix: str) -> None:
        self.redis = redis
        self.key = owed_key(prefix)
        self._swap = redis.register_script(SWAP_SCORE)

    async def handed_over(self, member: str) -> None:
        """The webhooks of that change are with the sender (or nothing was owed)."""
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

    async def settle(self, member: str, claimed_at: int) -> bool:
        """Nothing is owed (the change did not land): take the note out, unless it was
        noted again since the sweep claimed it at `claimed_at` - a change noted just now,
        under a note more than one attempt shares (a start, a take-over), whose script
        may not have run yet when the sweep looked."""
        return bool(await self._swap(keys=[self.key], args=[member, claimed_at, ""]))

    async def size(self) -> int:
        return int(await self.redis.zcard(self.key))
