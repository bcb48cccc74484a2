"""Which tables' deals are in play, as the service asks before anyone but a table's own
seats reads it: held while another table of the same deal plays, free once none does,
and never remembered as free while the tournament has not noted the game yet."""

from __future__ import annotations

import pytest
from tournament_play import people, result_of

from services.gameplay.deals import DealsInPlay
from services.gameplay.tournament_payloads import StoredTournament
from services.gameplay.tournament_tags import table_tag
from services.gameplay.tournaments import (
    Duplicate,
    TournamentSpec,
    create_tournament,
    record_result,
    set_game_id,
    start_next_round,
)
from services.store.tournaments import StoredDocument

pytestmark = pytest.mark.anyio
TID = "a" * 24
TAGS = [table_tag(TID)]


class Documents:
    """A tournament store of one document, whose version goes up with each change."""

    def __init__(self, stored: StoredTournament) -> None:
        self.stored, self.version_now, self.loads = stored, 1, 0

    def change(self, stored: StoredTournament) -> None:
        self.stored, self.version_now = stored, self.version_now + 1

    async def version(self, tournament_id: str) -> int | None:
        return self.version_now if tournament_id == TID else None

    async def load(self, tournament_id: str) -> StoredDocument | None:
        self.loads += 1
        return StoredDocument(self.version_now, self.stored.model_dump_json())


def stored(tournament) -> StoredTournament:
    return StoredTournament(
        id=TID,
        tournament=tournament,
        creator="k",
        secret="00",
        token_hashes=[],
        webhooks=[],
        created_at="",
        updated_at="",
    )


def two_tables():
    spec = TournamentSpec(
        game="dominion", seats_per_table=2, participants=people(4), format=Duplicate(), seed=7
    )
    tournament, _ = start_next_round(create_tournament(spec))
    return tournament


async def test_a_table_is_held_while_another_plays_its_deal_and_free_after():
    tournament = set_game_id(two_tables(), 1, 1, "game-one")  # table 2 has no game yet
    store = Documents(stored(tournament))
    deals = DealsInPlay(store)  # type: ignore[arg-type]
    assert await deals.tournament_holding("game-one", TAGS) == TID
    assert await deals.tournament_holding("game-one", TAGS) == TID
    assert store.loads == 1, "read once per version of the document"

    # A game the tournament has not noted yet is not held now, and not remembered free.
    assert await deals.tournament_holding("game-two", TAGS) is None
    tournament = set_game_id(tournament, 1, 2, "game-two")
    store.change(stored(tournament))
    assert await deals.tournament_holding("game-two", TAGS) == TID

    tournament = record_result(tournament, 1, 2, result_of([3, 1]))
    store.change(stored(tournament))
    assert await deals.tournament_holding("game-two", TAGS) == TID, "table 1 still plays"
    assert await deals.tournament_holding("game-one", TAGS) is None, "nobody else plays it"
    tournament = record_result(tournament, 1, 1, result_of([2, 2]))
    store.change(stored(tournament))
    assert await deals.tournament_holding("game-two", TAGS) is None
    loads = store.loads
    assert await deals.tournament_holding("game-one", TAGS) is None
    assert store.loads == loads, "a deal out of play stays out: remembered"


async def test_a_game_of_no_tournament_is_never_held():
    deals = DealsInPlay(Documents(stored(two_tables())))  # type: ignore[arg-type]
    assert await deals.tournament_holding("game-x", ["league", "friendly"]) is None
