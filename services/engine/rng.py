"""A tiny seeded random number generator whose whole state is one integer.

The generator lives inside every game state, so saving a game saves its dice too and
replaying seed + moves rebuilds the identical state. SplitMix64 is small, fast in pure
Python and statistically sound for shuffling decks and tiles.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_LIMITS_KEPT = 1024
_LIMITS = tuple(((1 << 64) // n) * n if n else 0 for n in range(_LIMITS_KEPT))
"""`below(n)`'s bound for rejection, for every n a shuffle of up to 1,023 items asks."""


@dataclass(slots=True)
class Rng:
    """SplitMix64. `state` is the only field, so the RNG serialises with the game."""

    state: int

    @classmethod
    def from_seed(cls, seed: int) -> Rng:
        return cls(state=seed & _MASK)

    def next64(self) -> int:
        self.state = (self.state + _GOLDEN) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), without modulo bias."""
        assert n > 0, "below() needs a positive bound"
        limit = ((1 << 64) // n) * n
        while True:
            r = self.next64()
            if r < limit:
                return r % n

    def choice(self, items: list[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: list[T]) -> None:
        """Fisher–Yates, in place: `j = self.below(i + 1)` for each i, with `below` and
        `next64` written out in the loop (a deck's shuffle is the hottest use of the RNG)."""
        state, limits = self.state, _LIMITS
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = limits[n] if n < _LIMITS_KEPT else ((1 << 64) // n) * n
            state = (state + _GOLDEN) & _MASK
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            r = z ^ (z >> 31)
            while r >= limit:  # rejected (a chance of under n in 2**64): draw again
                state = (state + _GOLDEN) & _MASK
                z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
                r = z ^ (z >> 31)
            j = r % n
            items[i], items[j] = items[j], items[i]
        self.state = state

    def sample(self, items: list[T], k: int) -> list[T]:
        pool = list(items)
        self.shuffle(pool)
        return pool[:k]
