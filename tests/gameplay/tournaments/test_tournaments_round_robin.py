"""Round robin: every pair meets (exactly once at two seats), everyone plays or sits out
each round, and byes and first seats are shared out."""

from __future__ import annotations

import os
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tournament_play import check_round_is_a_partition, pairs_of, people, play_out

from services.gameplay.tournaments import (
    Round,
    RoundRobin,
    Table,
    TournamentSpec,
    create_tournament,
    round_robin,
)
from services.gameplay.tournaments.seating import derive_seed, seat_history, seat_order

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


# --- the schedule is the one the first release made ---------------------------------------
# Tournaments stored before schedules were kept with them make theirs again when read, and
# have played rounds from it: the schedule must stay the same, table for table and seed
# for seed. Below is that release's code, as it was (it took 21 CPU-seconds for 256
# participants at tables of 6), to compare with.


def reference_schedule(n: int, k: int, seed: int) -> list[Round]:
    if k == 2:
        return reference_circle(n, seed)
    return reference_covering(n, k, seed)


def reference_circle(n: int, seed: int) -> list[Round]:
    players: list[int | None] = list(range(n))
    if n % 2:
        players.append(None)
    m = len(players)
    rounds = []
    rotating = players[1:]
    for r in range(m - 1):
        line = [players[0], *rotating[r:], *rotating[:r]]
        tables: list[Table] = []
        byes: list[int | None] = []
        for i in range(m // 2):
            a, b = line[i], line[m - 1 - i]
            if a is None or b is None:
                byes.append(a if b is None else b)
                continue
            if (a < b) != ((a + b) % 2 == 1):  # not `_starts(a, b)`
                a, b = b, a
            number = len(tables) + 1
            tables.append(Table(number=number, seats=[a, b], seed=derive_seed(seed, r + 1, number)))
        rounds.append(Round(number=r + 1, tables=tables, byes=[p for p in byes if p is not None]))
    return rounds


def reference_covering(n: int, k: int, seed: int) -> list[Round]:
    unmet: set[frozenset[int]] = {frozenset(p) for p in combinations(range(n), 2)}
    met_count: dict[frozenset[int], int] = {}
    byes = [0] * n
    rounds: list[Round] = []
    while unmet:

        def still_to_meet(p: int, among: list[int] | range = range(n)) -> int:
            return sum(1 for q in among if q != p and frozenset((p, q)) in unmet)

        sitting_out = sorted(range(n), key=lambda p: (byes[p], still_to_meet(p), p))[: n % k]
        playing = [p for p in range(n) if p not in sitting_out]
        history = seat_history(rounds)
        tables: list[Table] = []
        while playing:
            first = max(playing, key=lambda p: (still_to_meet(p, playing), -p))
            members = [first]
            playing.remove(first)
            while len(members) < k:

                def fit(q: int, members: list[int] = members) -> tuple[int, int, int]:
                    pairs = [frozenset((q, m)) for m in members]
                    seen = sum(1 for pair in pairs if pair not in unmet)
                    return (seen, sum(met_count.get(pair, 0) for pair in pairs), q)

                chosen = min(playing, key=fit)
                members.append(chosen)
                playing.remove(chosen)
            for pair in combinations(members, 2):
                key = frozenset(pair)
                unmet.discard(key)
                met_count[key] = met_count.get(key, 0) + 1
            number = len(tables) + 1
            tables.append(
                Table(
                    number=number,
                    seats=seat_order(members, history),
                    seed=derive_seed(seed, len(rounds) + 1, number),
                )
            )
        for p in sitting_out:
            byes[p] += 1
        rounds.append(Round(number=len(rounds) + 1, tables=tables, byes=sorted(sitting_out)))
    return rounds


SIZES = [(n, 2) for n in range(2, 21)] + [(n, k) for k in range(3, 7) for n in range(k, 41)]
SIZES += [(64, 3), (64, 4), (90, 5), (90, 6)]


@pytest.mark.parametrize(("n", "k"), SIZES)
def test_the_schedule_is_the_one_tournaments_stored_before_it_was_kept_have_played(n, k):
    seed = 1000 * n + k
    stored = create_tournament(spec(n, k, seed=seed)).schedule
    assert stored is not None
    made = [round_robin.round_of(r, i, seed) for i, r in enumerate(stored)]
    assert made == reference_schedule(n, k, seed)
