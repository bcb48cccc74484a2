"""Which games exist. A game plugs in by being a package under `services/games/` that
exposes a module-level `game` (an instance of `services.engine.Game`).

Discovery imports those packages by name, so the engine never depends on any game.
"""

from __future__ import annotations

import importlib
import pkgutil

from .errors import UnknownGame
from .game import Game

GAMES_PACKAGE = "services.games"

_games: dict[str, Game] = {}
_discovered = False


def register(game: Game) -> Game:
    assert game.id not in _games or _games[game.id] is game, f"two games called {game.id}"
    _games[game.id] = game
    return game


def _discover() -> None:
    global _discovered
    _discovered = True
    package = importlib.import_module(GAMES_PACKAGE)
    for module in pkgutil.iter_modules(package.__path__):
        loaded = importlib.import_module(f"{GAMES_PACKAGE}.{module.name}")
        game = getattr(loaded, "game", None)
        if isinstance(game, Game):
            register(game)


def all_games() -> list[Game]:
    if not _discovered:
        _discover()
    return sorted(_games.values(), key=lambda g: g.id)


def get_game(game_id: str) -> Game:
    if not _discovered:
        _discover()
    if game_id not in _games:
        raise UnknownGame(game_id, sorted(_games))
    return _games[game_id]
