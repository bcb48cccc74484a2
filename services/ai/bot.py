"""What a bot is, and how one is made from its level name."""

from __future__ import annotations

from typing import Protocol

from services.engine import Game, GameState, Move, Seat


class Bot(Protocol):
    """Chooses a move for a prompted seat. A bot must use only what `seat` may know:
    its legal moves and `game.view(state, seat)` — never the hidden parts of `state`."""

    def choose(self, game: Game, state: GameState, seat: Seat) -> Move: ...


BOT_LEVELS = ("random",)


def make_bot(level: str, seed: int) -> Bot:
    from .random_bot import RandomBot

    if level == "random":
        return RandomBot(seed)
    raise ValueError(f"unknown bot level {level!r}; known levels: {', '.join(BOT_LEVELS)}")
