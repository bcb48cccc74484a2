"""Whether a finished tournament table's deal may be shown in full.

A duplicate round deals one seed at every table; a seed reveals its game's hidden
information. So once a table has finished, its full read (every seat's view, unredacted
events and moves: what platform API keys get of a finished game) and its record wait
until every table dealt the same seed has finished too. A table's deal, once out of
play, stays out (tables only ever finish), so that answer is remembered; a deal still in
play is asked again each time, off the event loop (a big tournament's document is
megabytes).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

from services.store.tournaments import TournamentStore

from .tournament_payloads import StoredTournament
from .tournament_tags import tournaments_tagged
from .tournaments import seeds_in_play, table_of_game

REMEMBERED = 4096
"""Games whose deal is known to be out of play, at most (the oldest forgotten first)."""

_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="deals-in-play")
"""Reading tournaments for this, on a thread of its own: neither the event loop nor the
default executor (bot turns) waits behind a big tournament's document."""


class DealsInPlay:
    def __init__(self, store: TournamentStore) -> None:
        self.store = store
        self._out_of_play: OrderedDict[str, None] = OrderedDict()

    async def tournament_holding(self, game_id: str, tags: Sequence[str]) -> str | None:
        """The tournament in which another table still plays finished game `game_id`'s
        deal, if any (None for a game of no tournament)."""
        if game_id in self._out_of_play:
            return None
        for tournament_id in tournaments_tagged(tags):
            if await self._held(tournament_id, game_id):
                return tournament_id
        self._remember(game_id)
        return None

    async def _held(self, tournament_id: str, game_id: str) -> bool:
        found = await self.store.load(tournament_id)
        if found is None:
            return False
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(_pool, _held_in, found.document, game_id)

    def _remember(self, game_id: str) -> None:
        self._out_of_play[game_id] = None
        while len(self._out_of_play) > REMEMBERED:
            self._out_of_play.popitem(last=False)


def _held_in(document: str, game_id: str) -> bool:
    tournament = StoredTournament.model_validate_json(document).tournament
    table = table_of_game(tournament, game_id)
    return table is not None and table.seed in seeds_in_play(tournament, besides=game_id)
