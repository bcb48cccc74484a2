"""The game store: snapshots, versions, the move log and idempotency records in Redis.

One class over any redis.asyncio client — a real server, or the embedded in-process
one — so both modes run the very same code, Lua scripts included.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from enum import StrEnum
from typing import Any, cast

import orjson
from redis.asyncio import Redis

from . import scripts
from .clocks import Clock
from .keys import KEY_SCOPE_PREFIX, GameKeys, IndexKeys
from .progress import note_moved
from .records import (
    AWAY_FIELD,
    INVITE_FIELD,
    SEAT_FIELD,
    SUMMARY_FIELDS,
    GameRecord,
    GameStatus,
    LogEntry,
)
from .webhooks_owed import note_owed, owed_member

CLOCK_TTL_MARGIN_MS = 3600 * 1000
"""How much longer than its largest time bank a timed game is kept at least."""


@dataclass(frozen=True)
class Lifetimes:
    """How long things are kept, in seconds."""

    finished_game: int = 7 * 24 * 3600
    abandoned_game: int = 30 * 24 * 3600
    idempotency: int = 24 * 3600


@dataclass(frozen=True)
class KeptAnswer:
    """The answer to a request with an Idempotency-Key, kept by the script that makes
    the change it answers: a retry finds it even if whoever asked died right after."""

    digest: str
    answer: str
    """JSON, as `idempotent_answer` gives it back."""


@dataclass(frozen=True)
class LiveStatus:
    """What a live reader needs of a game's record between entries of its log."""

    version: int
    status: GameStatus
    away: dict[int, dict[str, Any]]
    """The seats a bot plays for now (`GameRecord.away`): left, or on autopilot."""


class CommitVerdict(StrEnum):
    COMMITTED = "committed"
    CONFLICT = "conflict"
    """Someone else committed first: the game is no longer at the expected version."""
    REPLAYED = "replayed"
    """The idempotency key was used before; `answer` holds the first answer."""
    MISSING = "missing"
    CLOSED = "closed"
    """The game takes no more moves (scoring, finished or aborted)."""
    STALE = "stale"
    """The version is as expected but the record changed otherwise (a seat was filled,
    left or stepped away): the move must be judged again on the stored record."""


@dataclass(frozen=True)
class CommitOutcome:
    verdict: CommitVerdict
    version: int | None = None
    """The new version when committed; the current one on a conflict."""
    answer: str | None = None
    status: str | None = None


@dataclass(frozen=True)
class Commit:
    """One move, ready to be compare-and-set onto `expected_version`."""

    game_id: str
    expected_version: int
    state: str
    status: GameStatus
    entry: LogEntry
    idempotency_digest: str | None = None
    idempotency_answer: str | None = None
    clock: str | None = None
    """The clocks after this move (`Clock.to_json()`), for timed games."""
    expected_revision: int | None = None
    """When set, the commit lands only if the record's revision is still this one."""
    work_due: bool = False
    """Whether the game may owe the workers a step once this lands (a bot's turn, the
    scoring): it is put in the pending index in the same round trip, before the commit."""
    webhooks_due: bool = False
    """Whether webhooks are owed once this lands (`move`, a resignation's `seat.left`):
    noted in the owed index (`webhooks_owed`) in the same round trip, before the commit."""

    def applied_to(self, record: GameRecord) -> GameRecord | None:
        """`record` as the COMMIT script leaves it once this commit lands on it; None
        for a resignation (the script also lists the seat, which the record here does
        not know how to spell)."""
        if self.entry.action != "move":
            return None
        return replace(
            record,
            version=self.entry.version,
            state=self.state,
            status=self.status,
            updated_at=self.entry.at,
            clock=self.clock or record.clock,
        )


@dataclass(frozen=True)
class DueNote:
    """What a change about to be stored may make due: a step of the workers, a clock,
    webhooks."""

    game_id: str
    work_due: bool
    deadline_ms: int | None
    owed_webhooks: str | None = None
    """The note of a change that owes webhooks (`webhooks_owed`: a commit's `owed_member`,
    a claim's `claimed_member`...)."""

    @classmethod
    def of_new(cls, record: GameRecord, work_due: bool) -> DueNote:
        """A new game's: its first step, if `work_due`, and its first running clock."""
        active = record.status is GameStatus.ACTIVE
        return cls(record.id, work_due and active, _deadline(record.clock) if active else None)


@dataclass(frozen=True)
class GameSummary:
    id: str
    game: str
    version: int
    status: GameStatus
    seats: list[dict]
    tags: list[str]
    created_at: str
    updated_at: str
    lobby: bool = False


@dataclass(frozen=True)
class GamePage:
    games: list[GameSummary]
    next_cursor: str | None
    cursors: list[str]
    """One per game: the cursor that resumes the listing right after that game."""
    resume: str | None = None
    """Set when the page ended short because the scan's budget ran out (a filter passed
    over the games looked at): the listing goes on right after this one."""


SCAN_LIMIT = 1000
"""Games a listing looks at per page at most. A filter that few games match (a status,
or a game type within a tag) ends a page early, with a cursor to go on from, rather than
reading a whole index in one request."""


READINESS_TTL_MS = 10_000
"""The readiness probe's key lives this long: it is written, never read."""


class GameStore:
    def __init__(self, redis: Redis, prefix: str, lifetimes: Lifetimes | None = None) -> None:
        self.redis = redis
        self.prefix = prefix
        self.lifetimes = lifetimes or Lifetimes()
        self.index = IndexKeys(prefix)
        self._create = redis.register_script(scripts.CREATE)
        self._commit = redis.register_script(scripts.COMMIT)
        self._transition = redis.register_script(scripts.TRANSITION)
        self._release = redis.register_script(scripts.RELEASE)

    def keys(self, game_id: str) -> GameKeys:
        return GameKeys(self.prefix, game_id)

    async def take_changes(self) -> None:
        """Raises unless Redis takes a write now: one that answers PING may still refuse
        every change (full, a read-only replica, failing snapshots)."""
        await self.redis.set(f"{self.prefix}:readiness", b"1", px=READINESS_TTL_MS)

    # --- creating ----------------------------------------------------------------

    async def create(self, record: GameRecord, *, work_due: bool = False) -> str | None:
        """Store a new game. Returns None when created, else the creation fingerprint of
        the game already stored under that id (an idempotent retry, or a clash).
        `work_due`: a bot may be prompted first (noted with it, as for `commit`)."""
        keys = self.keys(record.id)
        fields = [item for pair in record.to_fields().items() for item in pair]
        verdict, fingerprint = await self.noted_before(
            self._create,
            [keys.record],
            [self.ttl_of_new(record), keys.channel, *fields],
            [DueNote.of_new(record, work_due)],
        )
        if verdict == "exists":
            return str(fingerprint)
        await self.add_to_indexes(record)
        return None

    def ttl_of_new(self, record: GameRecord) -> int:
        """How long a new game is kept (ms) if nothing happens to it."""
        return self._ttl_ms(record.status, record.clock)

    async def add_to_indexes(self, record: GameRecord) -> None:
        """List the game for the API key that created it (itself, or by a tournament of
        its): in that key's own indexes. A game created without a key is listed by
        nobody, so it is in none of those; and in the public lobby if it asked to be
        and still waits for players."""
        creator = record.creator
        indexes = []
        if creator.startswith(KEY_SCOPE_PREFIX):
            indexes = [self.index.all(creator), self.index.by_game(creator, record.game)]
            indexes += [self.index.by_tag(creator, tag) for tag in record.tags]
        if record.lobby and record.status is GameStatus.WAITING:
            indexes.append(self.index.lobby(record.game))
        if not indexes:
            return
        member = listing_member(record)
        async with self.redis.pipeline(transaction=False) as pipe:
            for index in indexes:
                pipe.zadd(index, {member: 0})
            await pipe.execute()

    async def unlist(self, game: str, members: list[str]) -> None:
        """Take games (their `listing_member`s) out of `game`'s lobby: started, cancelled
        or gone."""
        if members:
            await self.redis.zrem(self.index.lobby(game), *members)

    async def in_lobby(self, game: str, after: str | None, count: int) -> list[str]:
        """Up to `count` members of `game`'s lobby, oldest first, after member `after`."""
        lower = f"({after}" if after else "-"
        found = await self.redis.zrange(
            self.index.lobby(game), lower, "+", bylex=True, offset=0, num=count
        )
        return cast(list[str], found)

    async def note_lobby_join(self, game: str, digest: str, note: str) -> None:
        """Note the seat a lobby join under an Idempotency-Key is about to claim, for as
        long as idempotency answers are kept."""
        await self.redis.set(
            self.index.lobby_join(game, digest), note, ex=self.lifetimes.idempotency
        )

    async def lobby_join(self, game: str, digest: str) -> str | None:
        """What `note_lobby_join` noted last under that digest, if anything."""
        return cast(str | None, await self.redis.get(self.index.lobby_join(game, digest)))

    async def hold_lobby_creation(self, game: str, players: int, holder: str, ms: int) -> bool:
        """Take the hold on creating `game` games of `players` seats for `ms` at most;
        False while another holder has it."""
        key = self.index.lobby_creation(game, players)
        return bool(await self.redis.set(key, holder, nx=True, px=ms))

    async def release_lobby_creation(self, game: str, players: int, holder: str) -> None:
        """Give the hold back, if `holder` still has it (it may have run out and been
        taken by another)."""
        key = self.index.lobby_creation(game, players)
        await self._release(keys=[key], args=[holder])

    # --- reading ---------------------------------------------------------------

    async def load(self, game_id: str) -> GameRecord | None:
        fields = cast(dict[str, str], await self.redis.hgetall(self.keys(game_id).record))
        return GameRecord.from_fields(fields) if fields else None

    async def load_listed(self, game_ids: list[str]) -> list[GameRecord | None]:
        """Several games as a listing shows them, read in one round trip (None for each
        one that is gone): their seats, invites, status and settings, but not their state
        snapshot (up to 16 KB each) or the creation's answer, which are left empty."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for game_id in game_ids:
                pipe.hmget(self.keys(game_id).record, *SUMMARY_FIELDS)
            rows = cast(list[list[str | None]], await pipe.execute())
        records: list[GameRecord | None] = []
        for row in rows:
            fields = {name: value for name, value in zip(SUMMARY_FIELDS, row, strict=True) if value}
            if "meta" not in fields:
                records.append(None)
                continue
            records.append(GameRecord.from_fields({**fields, "state": ""}))
        return records

    async def version_and_status(self, game_id: str) -> tuple[int, GameStatus] | None:
        found = await self.redis.hmget(self.keys(game_id).record, "version", "status")
        version, status = cast(list[str | None], found)
        if version is None or status is None:
            return None
        return int(version), GameStatus(status)

    async def live_status(self, game_id: str, players: int) -> LiveStatus | None:
        """The version, status and seats away of a game, read at once: what a live
        reader checks after it has sent every entry (one HMGET, however many seats)."""
        away_fields = [f"{AWAY_FIELD}{seat}" for seat in range(players)]
        found = cast(
            list[str | None],
            await self.redis.hmget(self.keys(game_id).record, "version", "status", *away_fields),
        )
        version, status, *away = found
        if version is None or status is None:
            return None
        return LiveStatus(
            version=int(version),
            status=GameStatus(status),
            away={seat: orjson.loads(value) for seat, value in enumerate(away) if value},
        )

    async def log(self, game_id: str, after: int, count: int) -> list[LogEntry]:
        """Up to `count` log entries with versions after `after`, oldest first."""
        raw = cast(
            list[tuple[str, dict[str, str]]],
            await self.redis.xrange(
                self.keys(game_id).log, min=f"({after}-0", max="+", count=count
            ),
        )
        return [LogEntry.from_json(fields["entry"]) for _, fields in raw]

    async def logged(self, game_id: str, version: int) -> LogEntry | None:
        """The log entry of `version`, if the game's log holds it."""
        raw = cast(
            list[tuple[str, dict[str, str]]],
            await self.redis.xrange(
                self.keys(game_id).log, min=f"{version}-0", max=f"{version}-0", count=1
            ),
        )
        return LogEntry.from_json(raw[0][1]["entry"]) if raw else None

    async def idempotent_answer(self, game_id: str, digest: str) -> str | None:
        return cast(str | None, await self.redis.get(self.keys(game_id).idempotency(digest)))

    # --- changing ----------------------------------------------------------------

    async def commit(self, commit: Commit) -> CommitOutcome:
        """Compare-and-set one move. What the commit makes due is noted first, in the same
        round trip (`_noted_before`), so a process that dies right after the commit
        leaves the game where the sweeps find it."""
        keys = self.keys(commit.game_id)
        deadline = _deadline(commit.clock) if commit.status is GameStatus.ACTIVE else None
        script_keys = [keys.record, keys.log, keys.answer(commit.idempotency_digest)]
        script_args = [
            commit.expected_version,
            commit.state,
            commit.status.value,
            commit.entry.to_json(),
            commit.entry.at,
            self._ttl_ms(commit.status, commit.clock),
            (commit.idempotency_answer or "") if commit.idempotency_digest else "",
            self.lifetimes.idempotency * 1000,
            keys.channel,
            commit.clock or "",
            str(commit.entry.seat) if commit.entry.action == "resign" else "",
            "" if commit.expected_revision is None else str(commit.expected_revision),
        ]
        owed = owed_member(commit.game_id, commit.entry) if commit.webhooks_due else None
        verdict, value = await self.noted_before(
            self._commit,
            script_keys,
            script_args,
            [DueNote(commit.game_id, commit.work_due, deadline, owed)],
        )
        verdict = CommitVerdict(verdict)
        if verdict in (CommitVerdict.COMMITTED, CommitVerdict.CONFLICT, CommitVerdict.STALE):
            return CommitOutcome(verdict, version=int(value))
        if verdict is CommitVerdict.REPLAYED:
            return CommitOutcome(verdict, answer=value)
        return CommitOutcome(verdict, status=value or None)

    async def noted_before(
        self, script: Any, keys: list[str], args: list[Any], notes: Sequence[DueNote]
    ) -> Any:
        """Runs `script` after noting, in the same pipeline (one round trip, applied in
        order), which games may have work due (the pending index), when their first
        running clock may run out (the clocks index, only ever brought earlier: `LT`) and
        which changes owe webhooks (the owed index).

        The indexes span games, so they cannot be written by the script itself on Redis
        Cluster (a script's keys share one slot); written before it, they are there
        whenever its change is. A note for a change that did not land costs a look: the
        sweep takes a game with nothing due out of the pending index, a deadline that
        has not come re-notes the stored one, and a commit not in the log owes nothing."""
        notes = [
            note
            for note in notes
            if note.work_due or note.deadline_ms is not None or note.owed_webhooks
        ]
        if not notes:
            return await script(keys=keys, args=args)
        at_ms = _now_ms()
        async with self.redis.pipeline(transaction=False) as pipe:
            for note in notes:
                if note.work_due:
                    note_moved(pipe, self.prefix, note.game_id, at_ms)
                if note.deadline_ms is not None:
                    pipe.zadd(self.index.clocks, {note.game_id: note.deadline_ms}, lt=True)
                if note.owed_webhooks:
                    note_owed(pipe, self.prefix, note.owed_webhooks, at_ms)
            await script(keys=keys, args=args, client=pipe)
            results = await pipe.execute()
        return results[-1]

    async def transition(
        self,
        game_id: str,
        version: int,
        allowed: Iterable[GameStatus],
        to: GameStatus,
        at: str,
        extra: dict[str, str] | None = None,
        keep: KeptAnswer | None = None,
        owed: str | None = None,
    ) -> bool:
        """Change the status at `version` if the game is in one of `allowed` (and `keep`
        the answer to the request that asked for it, if it does). `owed`: the note of the
        webhook the change owes (`webhooks_owed`), noted in the same round trip, before."""
        keys = self.keys(game_id)
        extra_args = [item for pair in (extra or {}).items() for item in pair]
        done = await self.noted_before(
            self._transition,
            [keys.record, keys.log, keys.answer(keep.digest if keep else None)],
            [
                version,
                " ".join(status.value for status in allowed),
                to.value,
                at,
                self._ttl_ms(to),
                keys.channel,
                keep.answer if keep is not None else "",
                self.lifetimes.idempotency * 1000,
                *extra_args,
            ],
            [DueNote(game_id, False, None, owed)],
        )
        return bool(done == "done")

    # --- clocks ---------------------------------------------------------------------

    async def schedule_clock(self, game_id: str, deadline_ms: int | None) -> None:
        """Note when the game's first running clock runs out (None: no clock runs)."""
        if deadline_ms is None:
            await self.redis.zrem(self.index.clocks, game_id)
        else:
            await self.redis.zadd(self.index.clocks, {game_id: deadline_ms})

    async def due_clocks(self, now_ms: int, limit: int = 100) -> list[str]:
        """Games whose noted deadline has passed."""
        due = await self.redis.zrangebyscore(self.index.clocks, "-inf", now_ms, start=0, num=limit)
        return cast(list[str], due)

    def _ttl_ms(self, status: GameStatus, clock: str | None = None) -> int:
        """How long a game is kept after a change leaves it in `status` with `clock`: a
        game still on is kept while any seat's clock has time left (plus a margin for
        the sweep to apply the time-out), even past SKYPORT_ABANDONED_GAME_TTL."""
        if status in (GameStatus.FINISHED, GameStatus.ABORTED):
            return self.lifetimes.finished_game * 1000
        ttl = self.lifetimes.abandoned_game * 1000
        if clock:
            banks = [bank for bank in Clock.from_json(clock).remaining_ms if bank is not None]
            if banks:
                ttl = max(ttl, max(banks) + CLOCK_TTL_MARGIN_MS)
        return ttl

    # --- listing -------------------------------------------------------------------

    async def list_games(
        self,
        *,
        creator: str,
        game: str | None = None,
        tag: str | None = None,
        status: GameStatus | None = None,
        limit: int = 20,
        cursor: str | None = None,
        scan_limit: int | None = None,
    ) -> GamePage:
        """The games `creator` (an API key's scope) created, newest first. `cursor` is
        the `next_cursor` of the previous page (or any one of its `cursors`: a listing
        resumes right after that game). At most about
        `scan_limit` games (`SCAN_LIMIT`) are looked at: a page the filter left short
        then says where to go on (`resume`)."""
        budget = SCAN_LIMIT if scan_limit is None else scan_limit
        index = self._pick_index(creator, game, tag)
        filtered = status is not None or bool(game and tag)
        chunk = max(limit, 100) if filtered else max(limit, 10)
        found: list[GameSummary] = []
        cursors: list[str] = []
        upper = f"({cursor}" if cursor else "+"
        scanned = 0
        while True:
            members = cast(
                list[str],
                await self.redis.zrange(
                    index, upper, "-", bylex=True, desc=True, offset=0, num=chunk
                ),
            )
            if not members:
                return GamePage(found, None, cursors)
            summaries = await self._summaries(index, members)
            for member, summary in zip(members, summaries, strict=True):
                if summary and _matches(summary, game, tag, status):
                    found.append(summary)
                    cursors.append(member)
                    if len(found) == limit:
                        return GamePage(found, member, cursors)
            scanned += len(members)
            if scanned >= budget:
                return GamePage(found, members[-1], cursors, resume=members[-1])
            upper = f"({members[-1]}"

    def _pick_index(self, creator: str, game: str | None, tag: str | None) -> str:
        if tag:
            return self.index.by_tag(creator, tag)
        if game:
            return self.index.by_game(creator, game)
        return self.index.all(creator)

    async def _summaries(self, index: str, members: list[str]) -> list[GameSummary | None]:
        async with self.redis.pipeline(transaction=False) as pipe:
            for member in members:
                pipe.hmget(self.keys(member.split(":", 1)[1]).record, *SUMMARY_FIELDS)
            rows = await pipe.execute()
        expired = [member for member, row in zip(members, rows, strict=True) if row[2] is None]
        if expired:
            await self.redis.zrem(index, *expired)  # games that expired: prune them lazily
        return [_summary(row) if row[2] is not None else None for row in rows]


def _summary(row: list[Any]) -> GameSummary:
    fields = dict(zip(SUMMARY_FIELDS, row, strict=True))
    meta = orjson.loads(fields["meta"])
    resigned = {int(seat) for seat in (fields["resigned"] or "").split()}
    return GameSummary(
        id=meta["id"],
        game=meta["game"],
        version=int(fields["version"]),
        status=GameStatus(fields["status"]),
        seats=[
            _seat_summary(index, seat, fields, resigned) for index, seat in enumerate(meta["seats"])
        ],
        tags=meta["tags"],
        created_at=meta["created_at"],
        updated_at=fields["updated_at"],
        lobby=meta.get("lobby", False),
    )


def _seat_summary(
    index: int, created: dict[str, Any], fields: dict[str, Any], resigned: set[int]
) -> dict[str, Any]:
    """A seat as listed: as created, or as filled since (an open seat), with whether a
    bot plays it now (it left, or stepped away) and an open seat's invite as stored."""
    filled = fields.get(f"{SEAT_FIELD}{index}")
    seat = orjson.loads(filled) if filled else created
    away = fields.get(f"{AWAY_FIELD}{index}")
    why = orjson.loads(away).get("why") if away else None
    return {
        "name": seat["name"],
        "bot": seat["bot"],
        "open": bool(seat.get("open", False)),
        "resigned": index in resigned,
        "abandoned": why == "abandoned",
        "autopilot": why == "autopilot",
        "invite": fields.get(f"{INVITE_FIELD}{index}"),
    }


def _matches(
    summary: GameSummary, game: str | None, tag: str | None, status: GameStatus | None
) -> bool:
    return (
        (game is None or summary.game == game)
        and (tag is None or tag in summary.tags)
        and (status is None or summary.status is status)
    )


def _deadline(clock: str | None) -> int | None:
    """When the first running clock of `clock` (JSON; None or '' untimed) runs out."""
    return Clock.from_json(clock).deadline_ms() if clock else None


def _now_ms() -> int:
    return int(time.time() * 1000)


def listing_member(record: GameRecord) -> str:
    """The game as the listing indexes hold it: `<created ms>:<id>`, so that they sort
    by creation."""
    return f"{_created_ms(record.created_at):015d}:{record.id}"


def _created_ms(created_at: str) -> int:
    return int(datetime.fromisoformat(created_at).timestamp() * 1000)
