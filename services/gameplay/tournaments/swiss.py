"""Swiss pairing: each round, tables of players on similar scores who have not met.

Participants are ordered by the standings so far (entry order before the first round).
When the count does not divide into tables, the n mod k lowest-placed of those with the
fewest byes sit out — so nobody has a second bye while someone has had none — and a bye
is scored as a win at tables of two, as the participant's average per game at bigger
ones (see `standings`). The rest are seated from the top down: the best-placed unseated
player takes the next best-placed players they have not met (Monrad-style adjacent
pairing), backtracking when that leaves the lower boards unpairable. Rematches are
avoided whenever a choice of byes (among those with the fewest) and tables allows it
(the byes then go to the lowest placed of those that do); when none does, the fewest
repeated pairs are accepted. The search for that is exhaustive within a budget of
`SEARCH_BUDGET` tables tried for the whole round (every bye choice and every number of
repeats it tries), which covers small fields whole; beyond it (dozens of players late in
an event, or a mid-sized field at tables of three where every grouping repeats) the
tables are seated greedily by the fewest repeats and then improved by swapping players
between tables, which keeps repeats few but cannot prove them unavoidable. A budget per
search instead let one round try 64 bye choices times every number of repeats, some 13
CPU-seconds for 14 players at tables of three.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from .models import Round, Table, Tournament
from .seating import Pair, bye_counts, derive_seed, meetings, seat_history, seat_order
from .standings import standings

SEARCH_BUDGET = 50_000
"""Tables tried in one round's search, over every bye choice and rematch allowance."""
MAX_BYE_CHOICES = 64


def next_round(tournament: Tournament, key: str | None = None) -> Round:
    """The next round, its tables' seeds derived from the tournament's seed and its
    secret `key` (see `derive_seed`)."""
    spec = tournament.spec
    k = spec.seats_per_table
    order = [row.participant for row in standings(tournament)]
    met = {pair for pair, times in meetings(tournament.rounds).items() if times}
    byes = bye_counts(tournament.rounds, len(order))
    number = len(tournament.rounds) + 1
    history = seat_history(tournament.rounds)
    max_repeats = len(order) * (k - 1) // 2
    groups: list[list[int]] | None = None
    budget = [SEARCH_BUDGET]
    for allowed in range(max_repeats + 1):
        for sitting_out in _bye_choices(order, byes, len(order) % k):
            playing = [p for p in order if p not in sitting_out]
            groups = _group(playing, k, met, allowed, budget)
            if groups is None and budget[0] < 0:
                # Too many groupings to search exhaustively: seat them greedily instead.
                groups = _fewest_repeats(playing, k, met)
            if groups is not None:
                break
        if groups is not None:
            break
    assert groups is not None, "with every repeat allowed the first grouping fits"
    tables = [
        Table(
            number=i,
            seats=seat_order(members, history),
            seed=derive_seed(spec.seed, number, i, key=key),
        )
        for i, members in enumerate(groups, start=1)
    ]
    return Round(number=number, tables=tables, byes=sorted(sitting_out))


def _bye_choices(order: list[int], byes: list[int], count: int) -> Iterator[tuple[int, ...]]:
    """Sets of `count` participants to sit out, most preferred first: only from those with
    the fewest byes (as many as needed), lowest-placed first."""
    if count == 0:
        yield ()
        return
    bottom_up = sorted(reversed(order), key=lambda p: byes[p])  # stable: lowest placed first
    ceiling = byes[bottom_up[count - 1]]
    pool = [p for p in bottom_up if byes[p] <= ceiling]
    fewest = [p for p in pool if byes[p] < ceiling]  # must all sit out
    rest = [p for p in pool if byes[p] == ceiling]
    for i, extra in enumerate(combinations(rest, count - len(fewest))):
        if i >= MAX_BYE_CHOICES:
            return
        yield (*fewest, *extra)


def _group(
    order: list[int], k: int, met: set[Pair], allowed: int, budget: list[int]
) -> list[list[int]] | None:
    """Tables of `k` from `order` (best first) with at most `allowed` pairs who met
    before, or None (also when the budget runs out)."""
    if not order:
        return []
    first, rest = order[0], order[1:]
    for companions in combinations(rest, k - 1):
        budget[0] -= 1
        if budget[0] < 0:
            return None
        members = [first, *companions]
        repeats = sum(1 for pair in combinations(members, 2) if frozenset(pair) in met)
        if repeats > allowed:
            continue
        remaining = [p for p in rest if p not in companions]
        below = _group(remaining, k, met, allowed - repeats, budget)
        if below is not None:
            return [members, *below]
    return None


def _repeats(members: list[int], met: set[Pair]) -> int:
    return sum(1 for pair in combinations(members, 2) if frozenset(pair) in met)


def _fewest_repeats(order: list[int], k: int, met: set[Pair]) -> list[list[int]]:
    """Tables from the top down, each taking the best-placed players who add the fewest
    repeated pairs; then swaps between tables while they reduce the repeats."""
    unseated = list(order)
    groups: list[list[int]] = []
    while unseated:
        members = [unseated.pop(0)]
        while len(members) < k:
            chosen = min(unseated, key=lambda q: _repeats([*members, q], met))
            members.append(chosen)
            unseated.remove(chosen)
        groups.append(members)
    improved = True
    while improved:
        improved = False
        for a, b in combinations(range(len(groups)), 2):
            before = _repeats(groups[a], met) + _repeats(groups[b], met)
            if before == 0:
                continue
            for i in range(k):
                for j in range(k):
                    left, right = list(groups[a]), list(groups[b])
                    left[i], right[j] = right[j], left[i]
                    if _repeats(left, met) + _repeats(right, met) < before:
                        groups[a], groups[b] = left, right
                        before = _repeats(left, met) + _repeats(right, met)
                        improved = True
    return groups
