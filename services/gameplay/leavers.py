"""Seats that leave or step away, and the bot that plays them meanwhile.

A game's leave policy is set at creation: `bot_takes_over` (the default with 3 or more
seats) marks a seat that resigns, or whose clock runs out, as abandoned, and a bot of
level `leave_bot` plays it to the end; `end_game` (the default with fewer) lets the
engine's resignation end the game, the others scored. Separately, a seat may switch
autopilot on (a bot plays its turns) and off again.

Which seats a bot plays for now is a field of the game's record hash per seat
(`away:<seat>`), so it shares the game's lifetime and is read with every load. Each
change is one Lua script that checks the game is still active (and, for a time-out, at
the version it was checked at), never turns an abandoned seat back, and rings the game's
live channel: nothing is committed, so live readers (`GameService.follow`) read the
seats' status from the record and send it as a seat frame.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

import orjson

from services.ai.bot import levels_for, stand_in_level
from services.engine import Game
from services.store import AWAY_FIELD, GameRecord, GameStore, KeptAnswer

from .payloads import CreateGameRequest
from .problems import Problem, conflict, unprocessable
from .tournament_tags import tournaments_tagged

BOT_TAKES_OVER = "bot_takes_over"
END_GAME = "end_game"
ABANDONED = "abandoned"
AUTOPILOT = "autopilot"

SET_AWAY = """
-- KEYS[1] game record, KEYS[2] idempotency answer (or a key never set)
-- ARGV[1] the version it must be at ('' any), ARGV[2] the seat's away field,
-- ARGV[3] its value ('' back in), ARGV[4] the answer to keep ('' none), ARGV[5] its ttl ms,
-- ARGV[6] the game's live channel: rung (with the version), as a commit rings it, so live
-- readers learn of the change without waiting for the next commit,
-- ARGV[7] the record's revision it must be at ('' any)
if redis.call('EXISTS', KEYS[1]) == 0 then return 'missing' end
if redis.call('HGET', KEYS[1], 'status') ~= 'active' then return 'closed' end
if ARGV[1] ~= '' and redis.call('HGET', KEYS[1], 'version') ~= ARGV[1] then return 'moved' end
if ARGV[7] ~= '' and (redis.call('HGET', KEYS[1], 'rev') or '0') ~= ARGV[7] then
  return 'moved'
end
local current = redis.call('HGET', KEYS[1], ARGV[2])
if current and string.find(current, '"why":"abandoned"', 1, true) then return 'abandoned' end
if ARGV[3] == '' then
  redis.call('HDEL', KEYS[1], ARGV[2])
else
  redis.call('HSET', KEYS[1], ARGV[2], ARGV[3])
end
redis.call('HINCRBY', KEYS[1], 'rev', 1)
if ARGV[4] ~= '' then redis.call('SET', KEYS[2], ARGV[4], 'PX', ARGV[5], 'NX') end
redis.call('PUBLISH', ARGV[6], redis.call('HGET', KEYS[1], 'version'))
return 'done'
"""


class AwayVerdict(StrEnum):
    DONE = "done"
    MISSING = "missing"
    CLOSED = "closed"
    """The game is no longer active."""
    MOVED = "moved"
    """The game is no longer at the version (or, when asked, the record's revision) the
    change was decided on."""
    ABANDONED = "abandoned"
    """The seat has left for good; it cannot step back in or away."""


@dataclass(frozen=True)
class LeavePolicy:
    on_leave: str
    leave_bot: str

    @property
    def bot_takes_over(self) -> bool:
        return self.on_leave == BOT_TAKES_OVER


def default_leave_bot(game: Game) -> str:
    """The bot that plays a seat that left, stepped away or ran out of time, when the
    game was created without `leave_bot` (`STAND_IN_LEVELS`, which the API's
    descriptions of the default are made from)."""
    return stand_in_level(game)


def leave_policy_of_request(request: CreateGameRequest, game: Game) -> dict[str, Any]:
    """The policy to store with a new game: what was asked, or the defaults."""
    levels = levels_for(game)
    if request.leave_bot is not None and request.leave_bot not in levels:
        raise unprocessable(
            "unknown_bot_level",
            f"{game.title} has no bot level {request.leave_bot!r} for leave_bot; known: "
            f"{', '.join(levels)}.",
            known=levels,
        )
    on_leave = request.on_leave or (BOT_TAKES_OVER if len(request.seats) >= 3 else END_GAME)
    return {"on_leave": on_leave, "leave_bot": request.leave_bot or default_leave_bot(game)}


def check_autopilot_allowed(record: GameRecord, seat: int) -> None:
    """Refuse autopilot at a tournament table (409 autopilot_not_allowed): the service's
    bot would play a participant's whole game and the tournament would credit them with
    its result. A seat that must go resigns instead (the game's leave policy applies)."""
    if tournaments_tagged(record.tags):
        raise autopilot_not_allowed(seat)


def autopilot_not_allowed(seat: int) -> Problem:
    return conflict(
        "autopilot_not_allowed",
        f"Seat {seat} plays at a tournament table: a participant plays their own games, "
        "so autopilot is not allowed here. Resign to leave the game.",
    )


def leave_policy(record: GameRecord, game: Game) -> LeavePolicy:
    """The game's policy; games created before there was one end on a resignation."""
    stored = record.leave_policy or {}
    return LeavePolicy(
        on_leave=stored.get("on_leave", END_GAME),
        leave_bot=stored.get("leave_bot") or default_leave_bot(game),
    )


def bot_of(record: GameRecord, seat: int) -> str | None:
    """The bot level that plays `seat` now: its own, or the one playing it while away."""
    own = record.seats[seat].bot
    if own is not None:
        return own
    away = record.away.get(seat)
    return str(away["bot"]) if away else None


def is_abandoned(record: GameRecord, seat: int) -> bool:
    away = record.away.get(seat)
    return away is not None and away.get("why") == ABANDONED


def on_autopilot(record: GameRecord, seat: int) -> bool:
    away = record.away.get(seat)
    return away is not None and away.get("why") == AUTOPILOT


class SeatsAway:
    """Writes which seats a bot plays for now."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self._set = store.redis.register_script(SET_AWAY)

    async def abandon(
        self,
        record: GameRecord,
        seat: int,
        bot: str,
        reason: str,
        *,
        at_version: bool = False,
        keep: KeptAnswer | None = None,
        at_revision: bool = False,
    ) -> AwayVerdict:
        """Mark `seat` abandoned from the record's version on, and why it left (`reason`:
        "resigned" or "timeout"; absent in what seats that left before there were reasons
        hold). `at_version`: only if the game is still at that version (a time-out decided
        on it); `at_revision`: only if the record's revision is still the one read (a
        seat's resignation, decided on the token that seat had then). `keep`: the answer
        to the request that asked for it, kept if it is done."""
        value = {
            "why": ABANDONED,
            "bot": bot,
            "since": record.version,
            "reason": reason,
            "at": _now(),
        }
        return await self._write(record, seat, value, at_version, keep, at_revision)

    async def autopilot(
        self, record: GameRecord, seat: int, bot: str | None, *, at_revision: bool = False
    ) -> AwayVerdict:
        """Autopilot on with `bot`, or off (None); `at_revision` as for `abandon`."""
        value = (
            {"why": AUTOPILOT, "bot": bot, "since": record.version, "at": _now()} if bot else None
        )
        return await self._write(record, seat, value, False, at_revision=at_revision)

    async def _write(
        self,
        record: GameRecord,
        seat: int,
        value: dict[str, Any] | None,
        at_version: bool,
        keep: KeptAnswer | None = None,
        at_revision: bool = False,
    ) -> AwayVerdict:
        keys = self.store.keys(record.id)
        verdict = await self._set(
            keys=[keys.record, keys.answer(keep.digest if keep else None)],
            args=[
                str(record.version) if at_version else "",
                f"{AWAY_FIELD}{seat}",
                orjson.dumps(value).decode() if value is not None else "",
                keep.answer if keep else "",
                self.store.lifetimes.idempotency * 1000,
                keys.channel,
                str(record.revision) if at_revision else "",
            ],
        )
        return AwayVerdict(verdict)


def _now() -> str:
    """As `clocks.now` (which imports this module)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")
