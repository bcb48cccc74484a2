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
tables of 3: 9 rounds against a bound of 5; 16 at tables of 4: 5, the bound itself;
2.4 times the bound's games at most, over every size up to 256 at tables of 3 to 8).
Some pairs meet more than once.

The schedule depends on the participant and seat counts only (the tournament's seed
and secret give the tables' seeds), and results cannot change it: it is made once, when the
tournament is created, and kept with it (`Tournament.schedule`). Who has met whom is
kept as bit sets, so the greedy choices are a few integer operations per participant:
a schedule of 256 participants takes a few tenths of a CPU-second at most (it took 21
at tables of 6 when the choices counted pairs one by one).
"""

from __future__ import annotations

import functools

from .models import Round, ScheduledRound, Table
from .seating import derive_seed, seat_order

MAX_COVERING_ROUNDS = 1000


def pairings(participants: int, seats: int) -> list[ScheduledRound]:
    """Every round of the round robin: who sits at each table, in seat order, and who
    sits out (a fresh copy)."""
    return [r.model_copy(deep=True) for r in _pairings(participants, seats)]


def round_of(scheduled: ScheduledRound, index: int, seed: int, key: str | None = None) -> Round:
    """Round `index` (from 0) of a schedule, its tables' seeds derived from `seed` and
    the tournament's secret `key` (see `derive_seed`)."""
    return Round(
        number=index + 1,
        tables=[
            Table(
                number=number,
                seats=list(seats),
                seed=derive_seed(seed, index + 1, number, key=key),
            )
            for number, seats in enumerate(scheduled.tables, start=1)
        ],
        byes=list(scheduled.byes),
    )


@functools.lru_cache(maxsize=8)
def _pairings(participants: int, seats: int) -> tuple[ScheduledRound, ...]:
    """Kept per process for tournaments stored before their schedule was (they make it
    again when first read)."""
    if seats == 2:
        return tuple(_circle(participants))
    return tuple(_covering(participants, seats))


def _circle(n: int) -> list[ScheduledRound]:
    players: list[int | None] = list(range(n))
    if n % 2:
        players.append(None)
    m = len(players)
    rounds = []
    rotating = players[1:]
    for r in range(m - 1):
        line = [players[0], *rotating[r:], *rotating[:r]]
        tables: list[list[int]] = []
        byes: list[int] = []
        for i in range(m // 2):
            a, b = line[i], line[m - 1 - i]
            if a is None or b is None:
                bye = a if b is None else b
                if bye is not None:
                    byes.append(bye)
                continue
            tables.append([a, b] if _starts(a, b) else [b, a])
        rounds.append(ScheduledRound(tables=tables, byes=byes))
    return rounds


def _starts(a: int, b: int) -> bool:
    """Whether `a` takes seat 0 against `b`: the lower number when the two differ in
    parity, else the higher. Each participant then starts against about half of the
    others (the lower-numbered of their own parity and the higher of the other)."""
    return (a < b) == ((a + b) % 2 == 1)


def _covering(n: int, k: int) -> list[ScheduledRound]:
    """The greedy schedule of the module's docstring. Bit q of `unmet[p]` says that p
    and q have not met, bit q of `again[p]` that they met twice or more; `met[p][q]` is
    how often they met."""
    everyone = (1 << n) - 1
    unmet = [everyone & ~(1 << p) for p in range(n)]
    again = [0] * n
    met = [[0] * n for _ in range(n)]
    pairs_left = n * (n - 1) // 2
    byes = [0] * n
    history: dict[int, list[int]] = {}
    width = (k - 1).bit_length()
    rounds: list[ScheduledRound] = []
    while pairs_left:
        if len(rounds) >= MAX_COVERING_ROUNDS:
            raise RuntimeError(f"round robin of {n} at tables of {k} did not close")
        # the fewest byes sit out; among them, the fewest still to meet (then the lowest)
        sitting_out = sorted(range(n), key=lambda p: (byes[p], unmet[p].bit_count(), p))[: n % k]
        playing = [p for p in range(n) if p not in sitting_out]
        playing_mask = everyone
        for p in sitting_out:
            playing_mask &= ~(1 << p)
        tables: list[list[int]] = []
        while playing:
            # first: the most still to meet among those playing (ties: the lowest index)
            counts = [(unmet[p] & playing_mask).bit_count() for p in playing]
            first = playing[counts.index(max(counts))]
            members = [first]
            playing.remove(first)
            playing_mask &= ~(1 << first)
            # planes[i]: bit i of how many members each one playing has met (bit-sliced)
            planes = [0] * width
            repeated = again[first]
            carry = ~unmet[first] & playing_mask
            for i in range(width):
                planes[i], carry = planes[i] ^ carry, planes[i] & carry
            while len(members) < k:
                # those who met the fewest members...
                for seen in range(len(members) + 1):
                    fewest = playing_mask
                    for i in range(width):
                        fewest &= planes[i] if seen >> i & 1 else ~planes[i]
                    if fewest:
                        break
                # ...then the fewest meetings with them in all: met each once is fewest
                once = fewest & ~repeated
                if once:
                    fewest = once
                chosen = (fewest & -fewest).bit_length() - 1
                if seen and not once:
                    best = sum(met[chosen][m] for m in members)
                    rest = fewest & ~(1 << chosen)
                    while rest:
                        low = rest & -rest
                        rest ^= low
                        q = low.bit_length() - 1
                        total = sum(met[q][m] for m in members)
                        if total < best:
                            best, chosen = total, q
                members.append(chosen)
                playing.remove(chosen)
                playing_mask &= ~(1 << chosen)
                repeated |= again[chosen]
                carry = ~unmet[chosen] & playing_mask
                for i in range(width):
                    planes[i], carry = planes[i] ^ carry, planes[i] & carry
            for i, a in enumerate(members):
                for b in members[i + 1 :]:
                    if unmet[a] >> b & 1:
                        unmet[a] &= ~(1 << b)
                        unmet[b] &= ~(1 << a)
                        pairs_left -= 1
                    met[a][b] += 1
                    met[b][a] += 1
                    if met[a][b] == 2:
                        again[a] |= 1 << b
                        again[b] |= 1 << a
            tables.append(seat_order(members, history))
        for table in tables:
            for seat, p in enumerate(table):
                history.setdefault(p, []).append(seat)
        for p in sitting_out:
            byes[p] += 1
        rounds.append(ScheduledRound(tables=tables, byes=sorted(sitting_out)))
    return rounds
