"""What a position is worth to each seat, for searching bots: the returns of a finished
game, else the game's evaluation."""

from __future__ import annotations

from services.engine import Game, GameState, Seat


def rewards(game: Game, world: GameState, only: Seat | None = None) -> list[float]:
    """Per seat, the returns of a finished game (Result.returns), else the evaluation
    (computed for `only` when given; the other seats then get 0). A game may score
    every seat at once with `evaluations(state)`, a list like `evaluate`'s values."""
    if world.over:
        standings = game.standings(world)
        return standings.returns() if standings else [0.0] * world.players
    evaluations = getattr(game, "evaluations", None)
    if only is None and evaluations is not None:
        return evaluations(world)  # type: ignore[no-any-return]
    seats = range(world.players) if only is None else [only]
    values = [0.0] * world.players
    for s in seats:
        values[s] = game.evaluate(world, s)
    return values


def seat_reward(game: Game, world: GameState, seat: Seat) -> float:
    return rewards(game, world, only=seat)[seat]
