"""The standings of a finished game, as stored when it was scored or computed now."""

from __future__ import annotations

from services.engine import Game, GameState
from services.store import GameRecord

from .payloads import GameResult, OpponentInfo, StandingInfo
from .problems import Problem


def result_of(game: Game, record: GameRecord, state: GameState) -> GameResult:
    if record.standings is not None:
        return GameResult.model_validate(record.standings)
    result = game.standings(state, left=abandoned_seats(record))
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
                abandoned=standing.seat in abandoned_seats(record),
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
