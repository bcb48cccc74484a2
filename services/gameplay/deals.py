"""Whether a tournament table's deal may be shown.

A duplicate round deals one seed at every table; a seed reveals its game's hidden
information, and so does what one table shows (the tiles it played) to another table
playing the same deal. So a table is watched by nobody but its own seats, and once it
has finished its full read (every seat's view, unredacted events and moves: what
platform API keys get of a finished game) and its record wait, until every table dealt
the same seed has finished too. A table's deal, once out of play, stays out (tables only
ever finish), so that answer is remembered. Which tables' deals are in play is worked
out once per version of a tournament's document, off the event loop (a big tournament's
document is megabytes); asking again costs one read of its version.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from services.store.tournaments import TournamentStore

from .tournament_payloads import StoredTournament
from .tournament_tags import tournaments_tagged
from .tournaments import games_held

REMEMBERED = 4096
"""Games whose deal is known to be out of play, at most (the oldest forgotten first)."""
TOURNAMENTS_KEPT = 64
"""Tournaments whose held games are kept (the least recently read forgotten first)."""

_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="deals-in-play")
"""Reading tournaments for this, on a thread of its own: neither the event loop nor the
default executor (bot turns) waits behind a big tournament's document."""


class DealsInPlay:
    def __init__(self, store: TournamentStore) -> None:
        self.store = store
        self._out_of_play: OrderedDict[str, None] = OrderedDict()
        self._known: OrderedDict[str, tuple[int, _Tables]] = OrderedDict()
        """Per tournament: its document's version, and its tables' games at that version."""

    async def tournament_holding(self, game_id: str, tags: Sequence[str]) -> str | None:
        """The tournament in which another table still plays game `game_id`'s deal, if
        any (None for a game of no tournament)."""
        if game_id in self._out_of_play:
            return None
        settled = True
        for tournament_id in tournaments_tagged(tags):
            tables = await self._tables(tournament_id)
            if tables is None:
                continue
            if game_id in tables.held:
                return tournament_id
            # A game its tournament has not noted yet (its table's game is being created)
            # is not in play elsewhere now, but may be once noted: not remembered.
            settled = settled and game_id in tables.games
        if settled:
            self._remember(game_id)
        return None

    async def _tables(self, tournament_id: str) -> _Tables | None:
        """What the tournament's document says of its tables' games now (None: gone)."""
        version = await self.store.version(tournament_id)
        if version is None:
            return None
        known = self._known.get(tournament_id)
        if known is None or known[0] != version:
            found = await self.store.load(tournament_id)
            if found is None:
                return None
            loop = asyncio.get_running_loop()
            known = (found.version, await loop.run_in_executor(_pool, _tables_of, found.document))
            self._known[tournament_id] = known
            self._known.move_to_end(tournament_id)
            while len(self._known) > TOURNAMENTS_KEPT:
                self._known.popitem(last=False)
        return known[1]

    def _remember(self, game_id: str) -> None:
        self._out_of_play[game_id] = None
        while len(self._out_of_play) > REMEMBERED:
            self._out_of_play.popitem(last=False)


@dataclass(frozen=True)
class _Tables:
    games: frozenset[str]
    """Every game the document notes at a table."""
    held: frozenset[str]
    """The games whose deal another table still plays."""


def _tables_of(document: str) -> _Tables:
    """A tournament's table games, and those whose deal another table still plays."""
    tournament = StoredTournament.model_validate_json(document).tournament
    games = (table.game_id for round_ in tournament.rounds for table in round_.tables)
    return _Tables(
        games=frozenset(game for game in games if game is not None),
        held=games_held(tournament),
    )
