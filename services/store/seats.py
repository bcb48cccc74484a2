"""Filling a game's open seats: one Lua script, so that of any number of people claiming
one seat at once exactly one gets it, and the game starts (status `waiting` -> `active`)
in the same step that fills its last open seat. Another gives an open seat a new invite
(the creator's, when the first expired or went astray), only while the seat is open.
A third replaces a taken seat's token (lost or leaked) on the record as it was read."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from enum import StrEnum
from typing import cast

import orjson

from .records import (
    ARCHIVED_TOKEN_FIELD,
    INVITE_FIELD,
    REVISION_FIELD,
    SEAT_FIELD,
    START_FIELD,
    GameStart,
    SeatRecord,
)
from .store import DueNote, GameStore, KeptAnswer

FILL_SEAT = """
-- KEYS[1] game record, KEYS[2] idempotency answer (or a key never set)
-- ARGV[1] seat, ARGV[2] sha256 of the invite code ('' when the creator fills the seat),
-- ARGV[3] now (unix ms), ARGV[4] the seat's record (JSON), ARGV[5] number of seats,
-- ARGV[6] updated_at, ARGV[7] channel, ARGV[8] the clocks if this starts the game ('' none),
-- ARGV[9] the invite fields' prefix, ARGV[10] the filled seats' fields' prefix,
-- ARGV[11] the start's field, ARGV[12] the start if this starts the game (JSON),
-- ARGV[13] / ARGV[14] the answer to keep if the game still waits / starts ('' none),
-- ARGV[15] the answer's ttl ms
if redis.call('EXISTS', KEYS[1]) == 0 then return {'missing', ''} end
local status = redis.call('HGET', KEYS[1], 'status')
local invite = redis.call('HGET', KEYS[1], ARGV[9] .. ARGV[1])
if not invite then
  if redis.call('HEXISTS', KEYS[1], ARGV[10] .. ARGV[1]) == 1 then return {'taken', status} end
  return {'not_open', status}
end
if status ~= 'waiting' then return {'closed', status} end
local sep = string.find(invite, ':', 1, true)
if ARGV[2] ~= '' then
  if string.sub(invite, sep + 1) ~= ARGV[2] then return {'wrong_code', status} end
  if tonumber(ARGV[3]) > tonumber(string.sub(invite, 1, sep - 1)) then
    return {'expired', status}
  end
end
redis.call('HDEL', KEYS[1], ARGV[9] .. ARGV[1])
redis.call('HSET', KEYS[1], ARGV[10] .. ARGV[1], ARGV[4], 'updated_at', ARGV[6])
redis.call('HINCRBY', KEYS[1], 'rev', 1)
local version = redis.call('HGET', KEYS[1], 'version')
for seat = 0, tonumber(ARGV[5]) - 1 do
  if redis.call('HEXISTS', KEYS[1], ARGV[9] .. seat) == 1 then
    redis.call('PUBLISH', ARGV[7], version)
    if ARGV[13] ~= '' then redis.call('SET', KEYS[2], ARGV[13], 'PX', ARGV[15], 'NX') end
    return {'filled', 'waiting'}
  end
end
redis.call('HSET', KEYS[1], 'status', 'active', ARGV[11], ARGV[12])
if ARGV[8] ~= '' then redis.call('HSET', KEYS[1], 'clock', ARGV[8]) end
redis.call('PUBLISH', ARGV[7], version)
if ARGV[14] ~= '' then redis.call('SET', KEYS[2], ARGV[14], 'PX', ARGV[15], 'NX') end
return {'started', 'active'}
"""


REISSUE_INVITE = """
-- KEYS[1] game record, KEYS[2] idempotency answer (or a key never set)
-- ARGV[1] seat, ARGV[2] the new invite ("<expires ms>:<code hash>"), ARGV[3] the invite
-- fields' prefix, ARGV[4] the filled seats' fields' prefix, ARGV[5] updated_at,
-- ARGV[6] channel, ARGV[7] the answer to keep ('' none), ARGV[8] the answer's ttl ms
if redis.call('EXISTS', KEYS[1]) == 0 then return {'missing', ''} end
local status = redis.call('HGET', KEYS[1], 'status')
if redis.call('HEXISTS', KEYS[1], ARGV[3] .. ARGV[1]) == 0 then
  if redis.call('HEXISTS', KEYS[1], ARGV[4] .. ARGV[1]) == 1 then return {'taken', status} end
  return {'not_open', status}
end
if status ~= 'waiting' then return {'closed', status} end
redis.call('HSET', KEYS[1], ARGV[3] .. ARGV[1], ARGV[2], 'updated_at', ARGV[5])
redis.call('HINCRBY', KEYS[1], 'rev', 1)
redis.call('PUBLISH', ARGV[6], redis.call('HGET', KEYS[1], 'version'))
if ARGV[7] ~= '' then redis.call('SET', KEYS[2], ARGV[7], 'PX', ARGV[8], 'NX') end
return {'reissued', status}
"""


REPLACE_TOKEN = """
-- Compare-and-set of a seat's token: lands only on the record's revision it was decided
-- on (a fill, a seat leaving or stepping away, another replacement all change it; moves
-- do not, and need not: a move never changes a seat's token), while the status allows it.
-- KEYS[1] game record, KEYS[2] idempotency answer (or a key never set),
-- KEYS[3] the game's archived record
-- ARGV[1] expected revision, ARGV[2] allowed statuses (space-separated), ARGV[3] the
-- seat's field, ARGV[4] the seat's record (JSON), ARGV[5] channel, ARGV[6] the answer to
-- keep ('' none), ARGV[7] its ttl ms, ARGV[8] the archived record's token field ('' no
-- archive), ARGV[9] the new token's hash, ARGV[10] the archived record's ttl ms,
-- ARGV[11] the revision field
if redis.call('EXISTS', KEYS[1]) == 0 then return {'missing', ''} end
local status = redis.call('HGET', KEYS[1], 'status')
if (redis.call('HGET', KEYS[1], ARGV[11]) or '0') ~= ARGV[1] then return {'stale', status} end
if not string.find(' ' .. ARGV[2] .. ' ', ' ' .. status .. ' ', 1, true) then
  return {'closed', status}
end
redis.call('HSET', KEYS[1], ARGV[3], ARGV[4])
redis.call('HINCRBY', KEYS[1], ARGV[11], 1)
-- A game that ended has (or is about to have) its record archived with the seats'
-- token hashes as read when it was made: the replaced one overrides it there.
if ARGV[8] ~= '' and (status == 'scoring' or status == 'finished') then
  redis.call('HSET', KEYS[3], ARGV[8], ARGV[9])
  if redis.call('PTTL', KEYS[3]) < 0 then redis.call('PEXPIRE', KEYS[3], ARGV[10]) end
end
if ARGV[6] ~= '' then redis.call('SET', KEYS[2], ARGV[6], 'PX', ARGV[7], 'NX') end
redis.call('PUBLISH', ARGV[5], redis.call('HGET', KEYS[1], 'version'))
return {'replaced', status}
"""


class FillVerdict(StrEnum):
    FILLED = "filled"
    """The seat is taken; other seats are still open."""
    STARTED = "started"
    """The seat was the last open one: the game is active now."""
    MISSING = "missing"
    TAKEN = "taken"
    """The seat was open, and someone filled it first."""
    NOT_OPEN = "not_open"
    """The seat was never open (named or a bot at creation)."""
    CLOSED = "closed"
    """The game no longer waits for players (cancelled)."""
    WRONG_CODE = "wrong_code"
    EXPIRED = "expired"
    REISSUED = "reissued"
    """The open seat has a new invite (the creator's reissue)."""


@dataclass(frozen=True)
class FillAnswers:
    """The answer to keep under an Idempotency-Key (by its digest) if the fill lands:
    one for a game that still waits, one for a game it starts (JSON each)."""

    digest: str
    if_waiting: str
    if_started: str


@dataclass(frozen=True)
class FillOutcome:
    verdict: FillVerdict
    status: str
    """The game's status after the attempt ('' when it is missing)."""


class OpenSeats:
    """Writes open seats of the store's games as they are filled."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self._fill = store.redis.register_script(FILL_SEAT)
        self._reissue = store.redis.register_script(REISSUE_INVITE)

    async def fill(
        self,
        game_id: str,
        seat: int,
        taken_by: SeatRecord,
        *,
        code_hash: str | None,
        now_ms: int,
        players: int,
        updated_at: str,
        clock_if_started: str,
        turn_if_started: list[int],
        keep: FillAnswers | None = None,
        work_due: bool = False,
        owed: Sequence[str] = (),
    ) -> FillOutcome:
        """Give open `seat` to `taken_by` if `code_hash` is its invite's (and that has not
        expired), or unconditionally with no code (the creator fills it). If that starts
        the game, its start is kept: now (`updated_at`) and `turn_if_started`; if it
        lands, the answer to `keep` is kept with it. Noted in the same round trip, before
        the script: the game in the pending index if `work_due` (the fill may start it,
        and a bot may move first), and the notes of the webhooks it may owe (`owed`:
        `webhooks_owed.claimed_member`, `started_member`)."""
        keys = self.store.keys(game_id)
        notes = [DueNote(game_id, work_due, None)]
        notes += [DueNote(game_id, False, None, member) for member in owed]
        verdict, status = await self.store.noted_before(
            self._fill,
            [keys.record, keys.answer(keep.digest if keep else None)],
            [
                seat,
                code_hash or "",
                now_ms,
                orjson.dumps(asdict(taken_by)).decode(),
                players,
                updated_at,
                keys.channel,
                clock_if_started,
                INVITE_FIELD,
                SEAT_FIELD,
                START_FIELD,
                GameStart(updated_at, turn_if_started).to_json(),
                keep.if_waiting if keep else "",
                keep.if_started if keep else "",
                self.store.lifetimes.idempotency * 1000,
            ],
            notes,
        )
        return FillOutcome(FillVerdict(verdict), str(status))

    async def reissue(
        self,
        game_id: str,
        seat: int,
        invite: str,
        *,
        updated_at: str,
        keep: KeptAnswer | None = None,
    ) -> FillOutcome:
        """Replace open `seat`'s invite ("<expires ms>:<code hash>") while the game waits:
        REISSUED, or why not (MISSING, TAKEN, NOT_OPEN, CLOSED). If it lands, the answer
        to `keep` is kept with it."""
        keys = self.store.keys(game_id)
        verdict, status = await self._reissue(
            keys=[keys.record, keys.answer(keep.digest if keep else None)],
            args=[
                seat,
                invite,
                INVITE_FIELD,
                SEAT_FIELD,
                updated_at,
                keys.channel,
                keep.answer if keep else "",
                self.store.lifetimes.idempotency * 1000,
            ],
        )
        return FillOutcome(FillVerdict(verdict), str(status))

    async def start_of(self, game_id: str) -> GameStart | None:
        """The game's start, once the last of its open seats was filled."""
        key = self.store.keys(game_id).record
        started = cast(str | None, await self.store.redis.hget(key, START_FIELD))
        return GameStart.from_json(started) if started else None


class TokenVerdict(StrEnum):
    REPLACED = "replaced"
    MISSING = "missing"
    STALE = "stale"
    """The record changed otherwise since it was read: decide again on the stored one."""
    CLOSED = "closed"
    """The game's status is not one the replacement was allowed in."""


@dataclass(frozen=True)
class TokenOutcome:
    verdict: TokenVerdict
    status: str
    """The game's status when the script ran ('' when it is missing)."""


class SeatTokens:
    """Replaces the tokens of the store's games' taken seats."""

    def __init__(self, store: GameStore, archived_ttl_ms: int | None) -> None:
        self.store = store
        self.archived_ttl_ms = archived_ttl_ms
        """How long an archived record is kept (None: records are not archived)."""
        self._replace = store.redis.register_script(REPLACE_TOKEN)

    async def replace(
        self,
        game_id: str,
        seat: int,
        taken_by: SeatRecord,
        *,
        revision: int,
        statuses: Sequence[str],
        keep: KeptAnswer | None = None,
        owed: Sequence[str] = (),
    ) -> TokenOutcome:
        """Give `seat` the record `taken_by` (its new token's hash) if the game's record is
        still at `revision` and its status one of `statuses`; if the game has ended, its
        archived record reads the new hash too. If it lands, the answer to `keep` is
        kept with it. Noted in the same round trip, before the script: the webhooks it
        owes (`owed`: `webhooks_owed.replaced_member`)."""
        keys = self.store.keys(game_id)
        archived = self.archived_ttl_ms is not None
        verdict, status = await self.store.noted_before(
            self._replace,
            [keys.record, keys.answer(keep.digest if keep else None), keys.archived],
            [
                revision,
                " ".join(statuses),
                f"{SEAT_FIELD}{seat}",
                orjson.dumps(asdict(taken_by)).decode(),
                keys.channel,
                keep.answer if keep else "",
                self.store.lifetimes.idempotency * 1000,
                f"{ARCHIVED_TOKEN_FIELD}{seat}" if archived else "",
                taken_by.token_hash or "",
                self.archived_ttl_ms or 0,
                REVISION_FIELD,
            ],
            [DueNote(game_id, False, None, member) for member in owed],
        )
        return TokenOutcome(TokenVerdict(verdict), str(status))

    async def taken_seat(self, game_id: str, seat: int) -> SeatRecord | None:
        """The seat's record if it was filled or its token replaced since the game was
        created (its field `seat:<n>`); None: it is as created."""
        key = self.store.keys(game_id).record
        stored = cast(str | None, await self.store.redis.hget(key, f"{SEAT_FIELD}{seat}"))
        return SeatRecord(**orjson.loads(stored)) if stored else None
