"""The archive of finished games' records (`GET /v1/games/{id}/record`, `/v1/records`).

A game's record is written when the game is scored (and again, from the store, by the
first read that finds it missing) and kept for `SKYPORT_RECORD_TTL` seconds from then,
longer than the game itself. Next to the record the archive keeps what it takes to
decide who may read it once the game has expired: the creator's scope and the seats'
token hashes. Records are listed, newest first, by tag for the platform key that
created the game.

A record is kept as the JSON it is served as: a 2,000-move record takes about 16 ms to
parse and as long again to write out, so reads hand out the kept text untouched, and
whatever must build, parse or write a whole record does so in a worker thread, off the
event loop. Text kept by code whose `Record` had another shape is written anew (in a
thread) before it is served.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import cast

import orjson
from redis.asyncio import Redis

from services.engine import Game
from services.store import GameKeys, GameRecord, GameStore, LogEntry
from services.store.records import ARCHIVED_TOKEN_FIELD

from .clocks import now
from .payloads import RecordSummary
from .records import Record, record_from_store

LOG_PAGE = 1000

SHAPE = hashlib.sha256(
    orjson.dumps(Record.model_json_schema(), option=orjson.OPT_SORT_KEYS)
).hexdigest()[:16]
"""The shape of the `Record` kept text was written for."""


@dataclass(frozen=True)
class ArchivedRecord:
    """A finished game's record: its JSON as served, its listing entry, and who may read it."""

    record_json: str
    summary: RecordSummary
    creator: str
    token_hashes: list[str | None]

    @property
    def id(self) -> str:
        return self.summary.id

    @property
    def tags(self) -> list[str]:
        return self.summary.tags

    @property
    def finished_at(self) -> str:
        return self.summary.finished_at

    def parsed(self) -> Record:
        """The record as a model (CPU-heavy for long games: call it in a worker thread)."""
        return Record.model_validate_json(self.record_json)


def archived(
    record: Record, creator: str, token_hashes: list[str | None], finished_at: str
) -> ArchivedRecord:
    """A record as the archive keeps it (writes the whole record: not on the event loop)."""
    summary = RecordSummary(
        id=record.id,
        game=record.game,
        version=record.version,
        seats=[seat.name for seat in record.seats],
        winners=record.result.winners if record.result else [],
        tags=record.tags,
        finished_at=finished_at,
    )
    return ArchivedRecord(record.model_dump_json(), summary, creator, token_hashes)


class RecordArchive:
    def __init__(self, redis: Redis, prefix: str, ttl_seconds: int) -> None:
        self.redis = redis
        self.prefix = prefix
        self.ttl_ms = ttl_seconds * 1000

    def _key(self, game_id: str) -> str:
        return GameKeys(self.prefix, game_id).archived

    def _index(self, creator: str, tag: str | None) -> str:
        """One sorted set per (creator, tag), and one per creator for every record."""
        return f"{self.prefix}:records:{creator}:" + (f"tag:{tag}" if tag else "all")

    async def has(self, game_id: str) -> bool:
        """Whether the game's record is kept (whole: `load` would give it)."""
        return bool(await self.redis.hexists(self._key(game_id), "summary"))

    async def keep(self, archived: ArchivedRecord) -> None:
        """Writes the record; keeping it again (the referee and a reader may both do so)
        keeps the first archiving's `finished_at`, so the listing holds it once."""
        key = self._key(archived.id)
        async with self.redis.pipeline(transaction=True) as claim:
            claim.hsetnx(key, "finished_at", archived.finished_at)
            # With it, in its MULTI: a keeper that dies before the rest leaves no key
            # without an expiry (a key without `record` is kept again when read).
            claim.pexpire(key, self.ttl_ms)
            claim.hget(key, "finished_at")
            _, _, first = await claim.execute()
        summary = archived.summary.model_copy(update={"finished_at": cast(str, first)})
        member = f"{_ms(summary.finished_at):015d}:{archived.id}"
        indexes = [self._index(archived.creator, None)]
        indexes += [self._index(archived.creator, tag) for tag in archived.tags]
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hset(
                key,
                mapping={
                    "record": archived.record_json,
                    "shape": SHAPE,
                    "summary": summary.model_dump_json(),
                    "creator": archived.creator,
                    "tokens": orjson.dumps(archived.token_hashes).decode(),
                    "finished_at": summary.finished_at,
                },
            )
            pipe.pexpire(key, self.ttl_ms)
            for index in indexes:
                pipe.zadd(index, {member: 0})
                pipe.pexpire(index, self.ttl_ms)
            await pipe.execute()

    async def load(self, game_id: str) -> ArchivedRecord | None:
        fields = cast(dict[str, str], await self.redis.hgetall(self._key(game_id)))
        if "record" not in fields or "summary" not in fields:
            return None  # never kept, or a keeping cut short: kept again from the store
        record_json = fields["record"]
        if fields.get("shape") != SHAPE:
            record_json = await asyncio.to_thread(_in_current_shape, record_json)
        return ArchivedRecord(
            record_json=record_json,
            summary=RecordSummary.model_validate_json(fields["summary"]),
            creator=fields["creator"],
            token_hashes=_token_hashes(fields),
        )

    async def listing(
        self, creator: str, tag: str | None, limit: int, cursor: str | None
    ) -> tuple[list[RecordSummary], list[str]]:
        """Newest first, at most `limit`, each with the cursor that resumes the listing
        right after it (the last one's is the `cursor` of the next page)."""
        index = self._index(creator, tag)
        found: list[RecordSummary] = []
        cursors: list[str] = []
        upper = f"({cursor}" if cursor else "+"
        while True:
            members = cast(
                list[str],
                await self.redis.zrange(
                    index, upper, "-", bylex=True, desc=True, offset=0, num=max(limit, 10)
                ),
            )
            if not members:
                return found, cursors
            async with self.redis.pipeline(transaction=False) as pipe:
                for member in members:
                    pipe.hget(self._key(member.split(":", 1)[1]), "summary")
                rows = cast(list[str | None], await pipe.execute())
            expired = [member for member, row in zip(members, rows, strict=True) if row is None]
            if expired:
                await self.redis.zrem(index, *expired)  # records that expired: prune lazily
            for member, row in zip(members, rows, strict=True):
                if row is not None:
                    found.append(RecordSummary.model_validate_json(row))
                    cursors.append(member)
                    if len(found) == limit:
                        return found, cursors
            upper = f"({members[-1]}"


async def full_log(store: GameStore, game_id: str, version: int) -> list[LogEntry]:
    """Every log entry of a game, versions 1 to `version`."""
    entries: list[LogEntry] = []
    while len(entries) < version:
        page = await store.log(game_id, after=len(entries), count=LOG_PAGE)
        if not page:
            break
        entries.extend(page)
    return entries


def left_at(record: GameRecord) -> dict[int, int]:
    """The seats that left, and the version after which a bot played each of them."""
    return {
        seat: int(away["since"])
        for seat, away in record.away.items()
        if away.get("why") == "abandoned"
    }


def left_reasons(record: GameRecord) -> dict[int, str | None]:
    """Why each seat that left did: "resigned" or "timeout" (None for seats that left
    before the reason was kept with them)."""
    return {
        seat: away.get("reason")
        for seat, away in record.away.items()
        if away.get("why") == "abandoned"
    }


async def archived_from_store(
    record: GameRecord, log: Sequence[LogEntry], game: Game
) -> ArchivedRecord:
    """The record of a finished game in the store, built and written in a worker thread."""

    def build() -> ArchivedRecord:
        return archived(
            record_from_store(
                record,
                log,
                game,
                left_at=left_at(record),
                left_reasons=left_reasons(record),
            ),
            record.creator,
            [seat.token_hash for seat in record.seats],
            now(),
        )

    return await asyncio.to_thread(build)


def _token_hashes(fields: dict[str, str]) -> list[str | None]:
    """The seats' token hashes as kept, each replaced token's overriding its seat's
    (`token:<seat>`, written with the replacement, which may land after the record was
    made from the game as it was read)."""
    hashes: list[str | None] = orjson.loads(fields["tokens"])
    for name, value in fields.items():
        if name.startswith(ARCHIVED_TOKEN_FIELD):
            seat = int(name[len(ARCHIVED_TOKEN_FIELD) :])
            if 0 <= seat < len(hashes):
                hashes[seat] = value
    return hashes


def _in_current_shape(record_json: str) -> str:
    return Record.model_validate_json(record_json).model_dump_json()


def _ms(at: str) -> int:
    return int(datetime.fromisoformat(at).timestamp() * 1000)
