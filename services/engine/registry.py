"""Which games exist. A game plugs in by being a package under `services/games/` that
exposes a module-level `game` (an instance of `services.engine.Game`).

Discovery imports those packages by name, so the engine never depends on any game.
Anything under `services/games/` that is not such a game stops discovery with a
`RegistrationError`: a service that silently starts without one of its games is worse
than one that does not start.
"""

from __future__ import annotations

import importlib
import pkgutil

from .errors import UnknownGame
from .game import Game

GAMES_PACKAGE = "services.games"

_games: dict[str, Game] = {}
_discovered = False


class RegistrationError(RuntimeError):
    """A game cannot be registered: a package without `game`, or two games with one id."""


def register(game: Game) -> Game:
    if not isinstance(game, Game):
        raise RegistrationError(f"{game!r} is not a services.engine.Game")
    known = _games.get(game.id)
    if known is not None and known is not game:
        raise RegistrationError(
            f"two games are called {game.id!r}: {_origin(known)} and {_origin(game)}"
        )
    _games[game.id] = game
    return game


def _discover() -> None:
    global _discovered
    package = importlib.import_module(GAMES_PACKAGE)
    for module in pkgutil.iter_modules(package.__path__):
        name = f"{GAMES_PACKAGE}.{module.name}"
        game = getattr(importlib.import_module(name), "game", None)
        if game is None:
            raise RegistrationError(
                f"{name} has no module-level `game`: everything under "
                f"{GAMES_PACKAGE.replace('.', '/')}/ is a game and must expose its "
                "services.engine.Game instance as `game`"
            )
        if not isinstance(game, Game):
            raise RegistrationError(
                f"{name}.game is a {type(game).__name__}, not a services.engine.Game"
            )
        register(game)
    _discovered = True


def _origin(game: Game) -> str:
    return f"{type(game).__module__}.{type(game).__qualname__}"


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
