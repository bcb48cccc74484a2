"""What a bot is, and how one is made from its level name."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from services.engine import Game, GameState, Move, Seat


class Bot(Protocol):
    """Chooses a move for a prompted seat. A bot must use only what `seat` may know:
    its legal moves and `game.view(state, seat)` — never the hidden parts of `state`."""

    def choose(self, game: Game, state: GameState, seat: Seat) -> Move: ...


BOT_LEVELS = ("random", "greedy", "mcts")


def make_bot(level: str, seed: int) -> Bot:
    """A bot of `level` ("random", "greedy" or "mcts"), seeded for reproducible play."""
    from .greedy import GreedyBot
    from .mcts import MctsBot
    from .random_bot import RandomBot

    makers: dict[str, Callable[[int], Bot]] = {
        "random": RandomBot,
        "greedy": GreedyBot,
        "mcts": MctsBot,
    }
    if level not in makers:
        raise ValueError(f"unknown bot level {level!r}; known levels: {', '.join(BOT_LEVELS)}")
    return makers[level](seed)


def levels_for(game: Game) -> list[str]:
    """The bot levels that can play `game`: searching bots need its determinize/evaluate."""
    return list(BOT_LEVELS) if game.supports_search() else ["random"]
