"""Game clocks: a time bank per seat plus an increment per move (the tournament
convention). Pure arithmetic over plain data; the bank is saved with every commit (in the
same compare-and-set), and the earliest deadline of each game sits in a sorted set that
a periodic sweep reads.

A seat's clock runs while it is prompted; several seats may run at once (everybody
discarding to an attack). Bot seats have no clock.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Literal

import orjson

OnTimeout = Literal["forfeit", "bot"]


@dataclass(frozen=True)
class ClockRules:
    initial_seconds: float
    increment_seconds: float
    on_timeout: OnTimeout

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ClockRules:
        return cls(
            float(data["initial_seconds"]), float(data["increment_seconds"]), data["on_timeout"]
        )


@dataclass(frozen=True)
class Clock:
    """The banks as of `since_ms` (the last commit), and whose clocks run since then."""

    remaining_ms: list[int | None]
    """Per seat; None for bot seats (no clock)."""
    since_ms: int
    running: list[int] = field(default_factory=list)

    @classmethod
    def start(cls, rules: ClockRules, humans: list[bool], running: list[int], now_ms: int) -> Clock:
        bank = round(rules.initial_seconds * 1000)
        return cls(
            [bank if human else None for human in humans],
            now_ms,
            [seat for seat in running if humans[seat]],
        )

    def left_ms(self, seat: int, now_ms: int) -> int | None:
        """What `seat` has left now (never below 0); None without a clock."""
        bank = self.remaining_ms[seat]
        if bank is None:
            return None
        if seat in self.running:
            bank -= max(0, now_ms - self.since_ms)
        return max(0, bank)

    def overdue(self, now_ms: int) -> list[int]:
        """Running seats whose time is up."""
        return [seat for seat in self.running if self.left_ms(seat, now_ms) == 0]

    def deadline_ms(self) -> int | None:
        """When the first running clock runs out; None if none runs."""
        banks = [self.remaining_ms[seat] for seat in self.running]
        known = [bank for bank in banks if bank is not None]
        return self.since_ms + min(known) if known else None

    def after_commit(
        self,
        rules: ClockRules,
        mover: int,
        running: list[int],
        now_ms: int,
        *,
        increment: bool = True,
    ) -> Clock:
        """The clocks after `mover` committed at `now_ms`: every running clock is charged
        the time since the last commit, the mover gains the increment if `increment` (a
        move, not a resignation: a seat that forfeited on time keeps its 0), and the
        seats prompted now (`running`) start running."""
        banks = [self.left_ms(seat, now_ms) for seat in range(len(self.remaining_ms))]
        bank = banks[mover]
        if bank is not None and increment:
            banks[mover] = bank + round(rules.increment_seconds * 1000)
        return replace(
            self,
            remaining_ms=banks,
            since_ms=now_ms,
            running=[seat for seat in running if banks[seat] is not None],
        )

    def to_json(self) -> str:
        return orjson.dumps(
            {"remaining_ms": self.remaining_ms, "since_ms": self.since_ms, "running": self.running}
        ).decode()

    @classmethod
    def from_json(cls, text: str) -> Clock:
        data = orjson.loads(text)
        return cls(data["remaining_ms"], data["since_ms"], data["running"])
