"""Helpers every format shares: table seeds, who met whom, and seat order at a table."""

from __future__ import annotations

import hashlib
import hmac
from collections import defaultdict
from collections.abc import Iterable, Sequence
from itertools import combinations

from .models import Round

Pair = frozenset[int]


def derive_seed(base: int, *parts: object, key: str | None = None) -> int:
    """A 63-bit seed from the tournament's seed and a table's coordinates.

    `key` is the tournament's secret (`StoredTournament.secret`, which never leaves the
    service): the seed is then an HMAC-SHA256 keyed by it, so a table's seed, published
    once the table is done, says nothing about the seeds of the tables still playing -
    not even when the tournament's seed is small enough to try every value (a platform
    picking 2026). Without a key it is the plain SHA-256 the first releases used, which
    anyone who guesses the tournament's seed can recompute: the service always passes
    the key (rounds made before it did keep the seeds they were dealt)."""
    text = ":".join(str(p) for p in (base, *parts))
    if key is None:
        digest = hashlib.sha256(text.encode()).digest()
    else:
        digest = hmac.new(key.encode(), f"table-seed:{text}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def meetings(rounds: Iterable[Round]) -> dict[Pair, int]:
    """How often each pair of participants has sat at one table."""
    met: dict[Pair, int] = defaultdict(int)
    for round_ in rounds:
        for table in round_.tables:
            for pair in combinations(table.seats, 2):
                met[frozenset(pair)] += 1
    return met


def bye_counts(rounds: Iterable[Round], participants: int) -> list[int]:
    counts = [0] * participants
    for round_ in rounds:
        for p in round_.byes:
            counts[p] += 1
    return counts


def seat_history(rounds: Iterable[Round]) -> dict[int, list[int]]:
    history: dict[int, list[int]] = defaultdict(list)
    for round_ in rounds:
        for table in round_.tables:
            for seat, p in enumerate(table.seats):
                history[p].append(seat)
    return history


def seat_order(members: Sequence[int], history: dict[int, list[int]]) -> list[int]:
    """Seats for a table's members: whoever has sat furthest from seat 0 on average goes
    first, so starting first (an advantage in most games) is shared out; ties keep the
    given order."""

    def lateness(p: int) -> float:
        seats = history.get(p, [])
        return sum(seats) / len(seats) if seats else 0.0

    return sorted(members, key=lambda p: -lateness(p))
