"""The random bot: a uniformly random legal move. The baseline every other bot must beat."""

from __future__ import annotations

from services.engine import Game, GameState, Move, Rng, Seat


class RandomBot:
    def __init__(self, seed: int) -> None:
        self.rng = Rng.from_seed(seed)

    def choose(self, game: Game, state: GameState, seat: Seat) -> Move:
        moves = game.legal_moves(state, seat)
        assert moves, f"{game.id}: seat {seat} is prompted but has no legal move"
        return self.rng.choice(moves)
