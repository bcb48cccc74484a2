"""The games this process serves, looked up by a request's or a stored game's id."""

from __future__ import annotations

from collections.abc import Mapping

from services.ai.bot import levels_for
from services.engine import Game, UnknownGame
from services.store import GameRecord

from .payloads import Catalog, CatalogGame
from .problems import Problem, from_game_error


class ServedGames:
    def __init__(self, games: Mapping[str, Game]) -> None:
        self.games = dict(games)
        self._catalog: Catalog | None = None

    def named(self, game_id: str) -> Game:
        """The game a request names; an unknown one is the caller's mistake (422)."""
        game = self.games.get(game_id)
        if game is None:
            raise from_game_error(UnknownGame(game_id, sorted(self.games)))
        return game

    def of(self, record: GameRecord) -> Game:
        """The game of a stored record; one this replica lacks is its own fault (503)."""
        game = self.games.get(record.game)
        if game is None:
            raise Problem(503, "game_unavailable", f"This replica does not serve {record.game}.")
        return game

    def catalog(self) -> Catalog:
        if self._catalog is None:
            self._catalog = Catalog(
                games=[
                    CatalogGame(
                        id=game.id,
                        title=game.title,
                        min_players=game.min_players,
                        max_players=game.max_players,
                        options_schema=game.options_schema(),
                        components=game.catalog(),
                        bot_levels=levels_for(game),
                    )
                    for game in sorted(self.games.values(), key=lambda g: g.id)
                ]
            )
        return self._catalog
