"""Duplicate: every table of a round plays the same seed, seats rotate over the rounds."""

from __future__ import annotations

import os
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tournament_play import check_round_is_a_partition, people, play_out

from services.gameplay.tournaments import (
    Duplicate,
    InvalidTournament,
    TournamentSpec,
    create_tournament,
    standings,
)

EXAMPLES = int(os.environ.get("SKYPORT_TOURNAMENT_EXAMPLES", "40"))


def spec(tables: int, k: int, rounds: int | None = None, game: str = "dominion") -> TournamentSpec:
    return TournamentSpec(
        game=game,
        seats_per_table=k,
        participants=people(tables * k),
        format=Duplicate(rounds=rounds),
        seed=42,
    )


@settings(max_examples=EXAMPLES, deadline=None)
@given(tables=st.integers(1, 6), k=st.integers(2, 6), rounds=st.none() | st.integers(1, 12))
def test_one_seed_per_round_and_every_seat_in_turn(tables, k, rounds):
    n = tables * k
    tournament = play_out(spec(tables, k, rounds), lambda table: [0] * k)
    assert len(tournament.rounds) == (rounds or k)
    seeds = []
    for round_ in tournament.rounds:
        check_round_is_a_partition(round_, n, k)
        assert len({table.seed for table in round_.tables}) == 1
        seeds.append(round_.tables[0].seed)
    assert len(set(seeds)) == len(seeds)
    seats = {p: Counter() for p in range(n)}
    for round_ in tournament.rounds:
        for table in round_.tables:
            for seat, p in enumerate(table.seats):
                seats[p][seat] += 1
    for p in range(n):
        held = [seats[p][s] for s in range(k)]
        assert max(held) - min(held) <= 1, (p, held)
        if len(tournament.rounds) == k:
            assert held == [1] * k


def test_on_each_deal_each_seat_is_held_by_different_participants_at_every_table():
    tournament = play_out(spec(3, 4), lambda table: [0] * 4)
    for round_ in tournament.rounds:
        for seat in range(4):
            holders = [table.seats[seat] for table in round_.tables]
            assert len(set(holders)) == 3


def test_opponents_change_when_there_are_several_tables():
    tournament = play_out(spec(3, 3), lambda table: [0] * 3)
    first, second = ({frozenset(t.seats) for t in r.tables} for r in tournament.rounds[:2])
    assert first != second


def test_solo_games_are_a_duplicate_of_one_seat_tables():
    tournament = play_out(spec(4, 1, rounds=2, game="sky-lanterns"), lambda table: [table.seats[0]])
    assert all(len(r.tables) == 4 for r in tournament.rounds)
    rows = standings(tournament)
    assert [row.participant for row in rows] == [3, 2, 1, 0]
    assert [row.tiebreak for row in rows] == [6, 4, 2, 0]  # matchpoints: 3, 2, 1, 0 a deal


def test_a_count_that_does_not_fill_the_tables_is_refused():
    with pytest.raises(InvalidTournament, match="7 participants do not fill tables of 3"):
        create_tournament(
            TournamentSpec(
                game="dominion", seats_per_table=3, participants=people(7), format=Duplicate()
            )
        )
