"""Round robin: everyone meets everyone.

Two seats per table: the circle method (Berger tables). Participant 0 stays put while
the others turn one place a round; with an odd count a phantom is added and whoever
meets it has a bye. n participants play n-1 rounds (n rounds when n is odd), every pair
exactly once, and seat 0 is shared so that nobody starts more than one game more than
they follow (see `_starts`).

More seats per table (k > 2): no general schedule seats every pair together exactly
once, so rounds are built greedily until every pair has met at least once. In each round
the n mod k participants with the fewest byes so far sit out (among those, the ones
with the fewest opponents still to meet); the rest are seated table by table: a table
starts with whoever has the most players still to meet, and takes in turn whoever has
met the fewest of the people already at it (ties: fewer meetings in all, then the lower
index). Every round seats at least one new pair, so the schedule ends. It is greedy,
not optimal: with ⌊n/k⌋ tables a round covers at most ⌊n/k⌋·k(k-1)/2 new pairs, and the
schedule can take up to about twice the rounds that bound implies (8 participants at
tables of 3: 9 rounds against a bound of 5; 16 at tables of 4: 5, the bound itself).
Some pairs meet more than once.
"""

from __future__ import annotations

import functools
from itertools import combinations

from .models import Round, Table
from .seating import Pair, derive_seed, seat_history, seat_order

MAX_COVERING_ROUNDS = 1000


def schedule(participants: int, seats: int, seed: int) -> list[Round]:
    """Every round of the round robin, which results cannot change (a fresh copy)."""
    return [r.model_copy(deep=True) for r in _schedule(participants, seats, seed)]


def round_at(participants: int, seats: int, seed: int, index: int) -> Round:
    """Round `index` (from 0) of the schedule (a fresh copy)."""
    return _schedule(participants, seats, seed)[index].model_copy(deep=True)


def rounds_in(participants: int, seats: int, seed: int) -> int:
    return len(_schedule(participants, seats, seed))


@functools.lru_cache(maxsize=64)
def _schedule(participants: int, seats: int, seed: int) -> tuple[Round, ...]:
    """Kept per process: the greedy schedule of 64 at tables of 4 takes a few tenths of a
    second, and every new round and every "is it over?" asks for it."""
    if seats == 2:
        return tuple(_circle(participants, seed))
    return tuple(_covering(participants, seats, seed))


def _circle(n: int, seed: int) -> list[Round]:
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
            if not _starts(a, b):
                a, b = b, a
            number = len(tables) + 1
            tables.append(Table(number=number, seats=[a, b], seed=derive_seed(seed, r + 1, number)))
        rounds.append(Round(number=r + 1, tables=tables, byes=[p for p in byes if p is not None]))
    return rounds


def _starts(a: int, b: int) -> bool:
    """Whether `a` takes seat 0 against `b`: the lower number when the two differ in
    parity, else the higher. Each participant then starts against about half of the
    others (the lower-numbered of their own parity and the higher of the other)."""
    return (a < b) == ((a + b) % 2 == 1)


def _covering(n: int, k: int, seed: int) -> list[Round]:
    unmet: set[Pair] = {frozenset(p) for p in combinations(range(n), 2)}
    met_count: dict[Pair, int] = {}
    byes = [0] * n
    rounds: list[Round] = []
    while unmet:
        if len(rounds) >= MAX_COVERING_ROUNDS:
            raise RuntimeError(f"round robin of {n} at tables of {k} did not close")

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
