"""Round robin: every pair meets (exactly once at two seats), everyone plays or sits out
each round, and byes and first seats are shared out."""

from __future__ import annotations

import os
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tournament_play import check_round_is_a_partition, pairs_of, people, play_out

from services.gameplay.tournaments import RoundRobin, TournamentSpec

EXAMPLES = int(os.environ.get("SKYPORT_TOURNAMENT_EXAMPLES", "60"))


def spec(n: int, k: int, game: str = "dominion", seed: int = 0) -> TournamentSpec:
    return TournamentSpec(
        game=game, seats_per_table=k, participants=people(n), format=RoundRobin(), seed=seed
    )


@pytest.mark.parametrize("n", range(2, 17))
def test_at_two_seats_every_pair_meets_exactly_once(n):
    tournament = play_out(spec(n, 2), lambda table: [1, 0])
    rounds = tournament.rounds
    assert len(rounds) == (n if n % 2 else n - 1)
    for round_ in rounds:
        check_round_is_a_partition(round_, n, 2)
    meetings = Counter(pair for round_ in rounds for pair in pairs_of(round_))
    assert set(meetings.values()) == {1}
    assert len(meetings) == n * (n - 1) // 2
    byes = Counter(p for round_ in rounds for p in round_.byes)
    assert byes == (Counter(range(n)) if n % 2 else Counter())


@pytest.mark.parametrize("n", range(2, 17))
def test_at_two_seats_nobody_starts_more_than_one_game_more_than_they_follow(n):
    tournament = play_out(spec(n, 2), lambda table: [0, 0])
    first = Counter(t.seats[0] for r in tournament.rounds for t in r.tables)
    second = Counter(t.seats[1] for r in tournament.rounds for t in r.tables)
    assert all(abs(first[p] - second[p]) <= 1 for p in range(n)), (first, second)


@settings(max_examples=EXAMPLES, deadline=None)
@given(k=st.integers(3, 6), extra=st.integers(0, 10), seed=st.integers(0, 2**32))
def test_at_bigger_tables_every_pair_meets_at_least_once(k, extra, seed):
    n = k + extra
    tournament = play_out(spec(n, k, seed=seed), lambda table: list(range(len(table.seats))))
    met = set()
    for round_ in tournament.rounds:
        check_round_is_a_partition(round_, n, k)
        met.update(pairs_of(round_))
    assert len(met) == n * (n - 1) // 2
    byes = Counter({p: 0 for p in range(n)})
    byes.update(p for round_ in tournament.rounds for p in round_.byes)
    assert max(byes.values()) - min(byes.values()) <= 1


def test_the_schedule_does_not_depend_on_results():
    wins_for_seat_0 = play_out(spec(6, 3), lambda table: [2, 1, 0])
    wins_for_seat_2 = play_out(spec(6, 3), lambda table: [0, 1, 2])
    assert [[t.seats for t in r.tables] for r in wins_for_seat_0.rounds] == [
        [t.seats for t in r.tables] for r in wins_for_seat_2.rounds
    ]
