"""The standings of a finished game, as stored when it was scored or computed now."""

from __future__ import annotations

from collections.abc import Mapping

from services.engine import Game, GameState
from services.store import GameRecord

from .archive import left_reasons
from .payloads import GameResult, OpponentInfo, StandingInfo
from .problems import Problem
from .records.document import known_reason


def result_of(
    game: Game,
    record: GameRecord,
    state: GameState,
    resign_reasons: Mapping[int, str | None] | None = None,
) -> GameResult:
    """The stored result, or the standings computed now from the final `state`.
    `resign_reasons`: why each seat in `state.resigned` did, from its log entry (the
    reasons of seats that left under bot_takes_over are in the record)."""
    if record.standings is not None:
        return GameResult.model_validate(record.standings)
    left = abandoned_seats(record)
    reasons = {**(resign_reasons or {}), **left_reasons(record)}
    result = game.standings(state, left=left)
    if result is None:
        raise Problem(409, "not_finished", "The game has no result yet.")
    return GameResult(
        id=record.id,
        game=record.game,
        version=record.version,
        winners=result.winners,
        standings=[
            StandingInfo(
                seat=standing.seat,
                name=record.seats[standing.seat].name,
                rank=standing.rank,
                score=standing.score,
                breakdown=standing.breakdown,
                resigned=standing.seat in state.resigned,
                abandoned=standing.seat in left,
                left_reason=known_reason(reasons.get(standing.seat)),
            )
            for standing in result.standings
        ],
        opponent=OpponentInfo.model_validate(result.opponent, from_attributes=True)
        if result.opponent
        else None,
        summary=result.summary,
    )


def abandoned_seats(record: GameRecord) -> set[int]:
    """Seats that left under bot_takes_over: a bot played them to the end."""
    return {seat for seat, away in record.away.items() if away.get("why") == "abandoned"}
