"""What a bot is, and how one is made from its level name.

The game-agnostic levels work on every game that supports search; a game may offer more
levels of its own (`Game.own_bots`, e.g. Dominion's `big-money` and `expert`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, cast

from services.engine import Game, GameState, Move, Seat, all_games


class Bot(Protocol):
    """Chooses a move for a prompted seat. A bot must use only what `seat` may know:
    its legal moves and `game.view(state, seat)` — never the hidden parts of `state`."""

    def choose(self, game: Game, state: GameState, seat: Seat) -> Move: ...


BOT_LEVELS = ("random", "greedy", "mcts")
"""The game-agnostic levels."""


def make_bot(level: str, seed: int, game: Game | None = None) -> Bot:
    """A bot of `level`, seeded for reproducible play. A game's own level is made for
    `game` when given; without it, for whichever game the bot is then asked to play."""
    from .greedy import GreedyBot
    from .mcts import MctsBot
    from .random_bot import RandomBot

    makers: dict[str, Callable[[int], Bot]] = {
        "random": RandomBot,
        "greedy": GreedyBot,
        "mcts": MctsBot,
    }
    if level in makers:
        return makers[level](seed)
    if game is not None:
        own = game.own_bots()
        if level not in own:
            known = ", ".join(levels_for(game))
            raise ValueError(f"{game.title} has no bot level {level!r}; known levels: {known}")
        return cast(Bot, own[level](seed))
    if level not in every_level():
        known = ", ".join(every_level())
        raise ValueError(f"unknown bot level {level!r}; known levels: {known}")
    return OwnLevelBot(level, seed)


def levels_for(game: Game) -> list[str]:
    """The bot levels that can play `game`: searching bots need its determinize/evaluate;
    then come the game's own levels."""
    generic = list(BOT_LEVELS) if game.supports_search() else ["random"]
    return generic + [level for level in game.own_bots() if level not in generic]


STAND_IN_LEVELS = ("expert", "greedy", "random")
"""The levels that may stand in for a seat whose player left, stepped away or ran out of
time, best first: a stand-in must answer within a turn, so the strongest cheap level a
game offers, never MCTS. Every game offers random."""

STAND_IN_DEFAULT = ", else ".join(
    [f"{level} where the game offers it" for level in STAND_IN_LEVELS[:-1]] + [STAND_IN_LEVELS[-1]]
)
"""`stand_in_level` in words, for the API's descriptions of the default."""


def stand_in_level(game: Game) -> str:
    """The bot that plays a seat that left, stepped away or ran out of time, unless the
    game was created with another: Dominion's expert, greedy elsewhere, else random."""
    levels = levels_for(game)
    return next((level for level in STAND_IN_LEVELS if level in levels), levels[0])


def every_level() -> list[str]:
    """Every level some registered game offers."""
    levels = list(BOT_LEVELS)
    for game in all_games():
        levels += [level for level in game.own_bots() if level not in levels]
    return levels


class OwnLevelBot:
    """A game's own level, made when it first meets a game (callers such as the service
    make bots by level and seed alone)."""

    def __init__(self, level: str, seed: int) -> None:
        self.level = level
        self.seed = seed
        self.made: dict[str, Bot] = {}

    def choose(self, game: Game, state: GameState, seat: Seat) -> Move:
        if game.id not in self.made:
            self.made[game.id] = make_bot(self.level, self.seed, game)
        return self.made[game.id].choose(game, state, seat)
