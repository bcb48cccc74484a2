"""Swiss: paired by score, no rematch while one can be avoided, a bye for odd counts
(at most once each, scored as a win)."""

from __future__ import annotations

import os
from collections import Counter
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st
from tournament_play import (
    check_round_is_a_partition,
    pairs_of,
    people,
    result_of,
)

from services.gameplay.tournaments import (
    Swiss,
    TournamentSpec,
    create_tournament,
    record_result,
    standings,
    start_next_round,
)
from services.gameplay.tournaments import swiss as swiss_pairing

EXAMPLES = int(os.environ.get("SKYPORT_TOURNAMENT_EXAMPLES", "80"))


def spec(n: int, rounds: int, k: int = 2) -> TournamentSpec:
    return TournamentSpec(
        game="dominion", seats_per_table=k, participants=people(n), format=Swiss(rounds=rounds)
    )


def can_seat_without_rematch(players: list[int], k: int, met: set[frozenset[int]]) -> bool:
    """Brute force: can `players` sit at tables of `k` with no pair that met before?"""
    if not players:
        return True
    first, rest = players[0], players[1:]
    for companions in combinations(rest, k - 1):
        members = (first, *companions)
        if any(frozenset(pair) in met for pair in combinations(members, 2)):
            continue
        if can_seat_without_rematch([p for p in rest if p not in companions], k, met):
            return True
    return False


def rematch_avoidable(n: int, k: int, met: set, byes: Counter) -> bool:
    """With the byes going to those with the fewest byes so far (as the rule says)."""
    count = n % k
    order = sorted(range(n), key=lambda p: byes[p])
    ceiling = byes[order[count - 1]] if count else 0
    must = [p for p in range(n) if count and byes[p] < ceiling]
    may = [p for p in range(n) if count and byes[p] == ceiling]
    for extra in combinations(may, count - len(must)):
        out = {*must, *extra}
        if can_seat_without_rematch([p for p in range(n) if p not in out], k, met):
            return True
    return False


@settings(max_examples=EXAMPLES, deadline=None)
@given(
    n=st.integers(2, 10),
    k=st.sampled_from([2, 2, 3]),
    rounds=st.integers(1, 10),
    data=st.data(),
)
def test_rounds_avoid_rematches_and_share_byes(n, k, rounds, data):
    if n < k:
        n = k
    tournament = create_tournament(spec(n, rounds, k))
    met: set[frozenset[int]] = set()
    byes: Counter = Counter()
    for _ in range(rounds):
        avoidable = rematch_avoidable(n, k, met, byes)
        tournament, new_round = start_next_round(tournament)
        check_round_is_a_partition(new_round, n, k)
        pairs = pairs_of(new_round)
        if avoidable:
            assert not met.intersection(pairs), (new_round, met)
        playing = [p for table in new_round.tables for p in table.seats]
        # Nobody sits out who has had more byes than someone who plays.
        assert all(byes[out] <= byes[p] for out in new_round.byes for p in playing)
        byes.update(new_round.byes)
        met.update(pairs)
        for table in new_round.tables:
            scores = data.draw(st.lists(st.integers(0, 3), min_size=k, max_size=k))
            tournament = record_result(
                tournament, new_round.number, table.number, result_of(scores)
            )
    # While there are byes enough for everyone to have one, nobody gets a second.
    if (n % k) * rounds <= n:
        assert all(count <= 1 for count in byes.values())


def test_winners_meet_winners_and_losers_meet_losers():
    tournament = create_tournament(spec(4, 2))
    tournament, first = start_next_round(tournament)
    assert [sorted(t.seats) for t in first.tables] == [[0, 1], [2, 3]]
    for table in first.tables:
        winner_seat = table.seats.index(min(table.seats))  # 0 beats 1, 2 beats 3
        scores = [1 if seat == winner_seat else 0 for seat in range(2)]
        tournament = record_result(tournament, 1, table.number, result_of(scores))
    tournament, second = start_next_round(tournament)
    assert [sorted(t.seats) for t in second.tables] == [[0, 2], [1, 3]]


def test_a_bye_goes_to_the_lowest_placed_and_counts_as_a_win():
    tournament = create_tournament(spec(3, 2))
    tournament, first = start_next_round(tournament)
    assert first.byes == [2]
    (table,) = first.tables
    tournament = record_result(tournament, 1, 1, result_of([3, 1]))
    rows = {row.participant: row for row in standings(tournament)}
    assert rows[2].points == 1 and rows[2].byes == 1 and rows[2].played == 0
    tournament, second = start_next_round(tournament)
    loser = table.seats[1]
    assert second.byes == [loser]  # the lowest placed who has not had a bye
    assert sorted(second.tables[0].seats) == sorted({0, 1, 2} - {loser})


def test_seat_zero_goes_to_whoever_sat_second_last_time():
    tournament = create_tournament(spec(2, 3))
    tournament, first = start_next_round(tournament)
    tournament = record_result(tournament, 1, 1, result_of([1, 1]))
    tournament, second = start_next_round(tournament)
    assert second.tables[0].seats == list(reversed(first.tables[0].seats))


def test_past_the_search_budget_swaps_between_tables_undo_greedy_rematches():
    # Seated greedily from the top, 0-1 and 2-3 would leave 4, 5, 6 and 7, who have all
    # met, for the bottom boards.
    met = {frozenset(pair) for pair in combinations(range(4, 8), 2)}
    groups = swiss_pairing._fewest_repeats(list(range(8)), 2, met)
    assert sorted(p for group in groups for p in group) == list(range(8))
    assert not met.intersection(frozenset(group) for group in groups)


def test_a_big_field_is_seated_without_rematches():
    n, k = 64, 4
    tournament = create_tournament(spec(n, 6, k))
    met: set[frozenset[int]] = set()
    for number in range(1, 7):
        tournament, new_round = start_next_round(tournament)
        check_round_is_a_partition(new_round, n, k)
        assert not met.intersection(pairs_of(new_round))
        met.update(pairs_of(new_round))
        for table in new_round.tables:
            scores = [(p * 7 + number) % 5 for p in table.seats]
            tournament = record_result(tournament, number, table.number, result_of(scores))


def test_a_round_searches_within_one_budget_however_many_byes_and_repeats_it_tries(monkeypatch):
    """14 players at tables of 3 (2 byes a round): late in the event every grouping
    repeats a pair. A budget per bye choice and per number of repeats let one round try
    millions of tables (13 CPU-seconds, on the pool every tournament's steps share)."""
    searched = [0]
    group = swiss_pairing._group

    def counted(*args, **kwargs):
        searched[0] += 1
        return group(*args, **kwargs)

    monkeypatch.setattr(swiss_pairing, "_group", counted)
    n, k = 14, 3
    tournament = create_tournament(spec(n, 16, k))
    most = 0
    for number in range(1, 17):
        searched[0] = 0
        tournament, new_round = start_next_round(tournament)
        check_round_is_a_partition(new_round, n, k)
        most = max(most, searched[0])
        for table in new_round.tables:
            scores = [(p * 5 + number) % 4 for p in table.seats]
            tournament = record_result(tournament, number, table.number, result_of(scores))
    assert most <= swiss_pairing.SEARCH_BUDGET + 1
