"""`Table`: the state being changed by one move, plus the log of what happened.

Every rule function takes a Table. It is never stored: only `state` is.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from services.engine import Event

from .state import DominionState, PlayerState


@dataclass(slots=True)
class Table:
    s: DominionState
    log: list[Event] = field(default_factory=list)

    def player(self, seat: int) -> PlayerState:
        return self.s.player_states[seat]

    @property
    def active(self) -> int:
        return self.s.turn.seat

    def others(self, seat: int) -> list[int]:
        """The other players, in turn order starting to `seat`'s left."""
        n = self.s.players
        return [(seat + i) % n for i in range(1, n)]

    def prophecy(self, name: str) -> bool:
        """Is `name` the Prophecy, and active (its last Sun token gone)?"""
        s = self.s
        return s.prophecy == name and s.sun == 0
