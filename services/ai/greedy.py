"""The greedy bot: one ply deep, with the game's own evaluation.

It deals the hidden information anew from its own point of view first (the game's
`determinize`), so it judges moves without peeking at other hands or the deck order.
"""

from __future__ import annotations

from services.engine import Game, GameState, Move, Rng, Seat


class GreedyBot:
    def __init__(self, seed: int) -> None:
        self.rng = Rng.from_seed(seed)

    def choose(self, game: Game, state: GameState, seat: Seat) -> Move:
        moves = game.legal_moves(state, seat)
        if len(moves) == 1:
            return moves[0]
        world = game.determinize(state, seat, self.rng)
        scored = [(self.score(game, world, seat, move), i) for i, move in enumerate(moves)]
        best = max(score for score, _ in scored)
        return moves[self.rng.choice([i for score, i in scored if score == best])]

    @staticmethod
    def score(game: Game, world: GameState, seat: Seat, move: Move) -> float:
        after = game.apply(world, seat, move).state
        if after.over:
            standings = game.standings(after)
            return standings.returns()[seat] if standings else 0.0
        return game.evaluate(after, seat)
