"""Value types every game shares: moves, prompts, events, outcomes and results."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field

Seat = int
"""Seats are numbered 0..n-1 in turn order of the setup (not of play)."""


class Move(BaseModel):
    """Base of every game's moves. Each game defines subclasses with a literal `kind`."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: str


class Prompt(BaseModel):
    """A seat that must act now, and what it is deciding.

    Several prompts may be open at once (every other player discarding to an attack).
    `options` names the things to pick from when the decision is a pick; `min_picks`
    and `max_picks` bound how many.
    """

    seat: Seat
    kind: str
    text: str
    options: list[str] = Field(default_factory=list)
    min_picks: int = 0
    max_picks: int = 0


class Event(BaseModel):
    """Something that happened. Subclasses add typed fields.

    Fields listed in `PRIVATE` are hidden from every viewer not in `private_to`
    (the owner of a drawn card, say); everything else is public.
    """

    PRIVATE: ClassVar[frozenset[str]] = frozenset()

    kind: str
    seat: Seat | None = None
    private_to: list[Seat] = Field(default_factory=list)

    def visible_to(self, viewer: Seat | None) -> dict[str, Any]:
        """This event as `viewer` (None: a spectator) may see it, as JSON-ready data."""
        hidden = {"private_to"}
        if viewer is None or viewer not in self.private_to:
            hidden |= self.PRIVATE
        return self.model_dump(mode="json", exclude=hidden)

    def full(self) -> dict[str, Any]:
        """Everything, for audits of finished games; never for a live viewer."""
        return self.model_dump(mode="json")


class Resigned(Event):
    kind: str = "resigned"


S = TypeVar("S")


@dataclass(slots=True)
class Outcome(Generic[S]):
    """What `apply` returns: the new state and the events the move produced."""

    state: S
    events: list[Event]


class Standing(BaseModel):
    seat: Seat
    score: int
    breakdown: dict[str, int]
    rank: int = Field(description="1 for the winner(s); tied seats share a rank")


class Result(BaseModel):
    standings: list[Standing]
    winners: list[Seat]

    @classmethod
    def rank(cls, scores: dict[Seat, tuple[dict[str, int], tuple]]) -> Result:
        """Build standings from each seat's breakdown and a sort key (higher is better).

        Seats whose keys are equal share a rank; everybody sharing rank 1 wins.
        """
        order = sorted(scores, key=lambda s: scores[s][1], reverse=True)
        standings: list[Standing] = []
        for position, seat in enumerate(order):
            breakdown, key = scores[seat]
            tied_with_previous = position > 0 and scores[order[position - 1]][1] == key
            rank = standings[-1].rank if tied_with_previous else position + 1
            standings.append(
                Standing(seat=seat, score=sum(breakdown.values()), breakdown=breakdown, rank=rank)
            )
        return cls(standings=standings, winners=[s.seat for s in standings if s.rank == 1])

    def demote(self, losers: list[Seat]) -> Result:
        """The same standings with `losers` (resigned or forfeited seats) ranked below
        everyone else; the best of the rest win."""
        kept = [s for s in self.standings if s.seat not in losers]
        dropped = [s for s in self.standings if s.seat in losers]
        standings: list[Standing] = []
        for position, standing in enumerate(kept + dropped):
            previous = standings[-1] if standings else None
            tied = (
                previous is not None
                and standing.seat not in losers
                and previous.seat not in losers
                and self._rank_of(standing.seat) == self._rank_of(previous.seat)
            )
            rank = previous.rank if tied and previous else position + 1
            standings.append(standing.model_copy(update={"rank": rank}))
        winners = [s.seat for s in standings if s.rank == 1 and s.seat not in losers]
        return Result(standings=standings, winners=winners)

    def _rank_of(self, seat: Seat) -> int:
        return next(s.rank for s in self.standings if s.seat == seat)
