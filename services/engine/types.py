"""Value types every game shares: moves, prompts, events, outcomes and results."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from .state import unchecked

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
    and `max_picks` bound how many (at least one may be picked). With no options the
    decision is among the legal moves alone, and both are 0. Options are strings
    whatever the moves hold (a tile number is "12"): the legal moves are the exact data.
    """

    seat: Seat
    kind: str
    text: str
    options: list[str] = Field(default_factory=list)
    min_picks: int = 0
    max_picks: int = 0


def seats_to_act(prompts: Iterable[Prompt]) -> list[Seat]:
    """The seats the prompts ask to act, each once, in seat order (a game's turn)."""
    return sorted({prompt.seat for prompt in prompts})


_ALWAYS_HIDDEN = frozenset({"private_to"})


class Event(BaseModel):
    """Something that happened. Subclasses add typed fields.

    Fields listed in `PRIVATE` are hidden from every viewer not in `private_to`
    (the owner of a drawn card, say); everything else is public. `hidden_from` is the one
    place that rule lives: the service redacts stored events with it too.
    """

    PRIVATE: ClassVar[frozenset[str]] = frozenset()

    kind: str
    seat: Seat | None = None
    private_to: list[Seat] = Field(default_factory=list)

    def visible_to(self, viewer: Seat | None) -> dict[str, Any]:
        """This event as `viewer` (None: a spectator) may see it, as JSON-ready data."""
        return self.model_dump(mode="json", exclude=set(self.hidden_from(viewer)))

    def hidden_from(self, viewer: Seat | None) -> frozenset[str]:
        """The keys `viewer` may not see (what `visible_to` leaves out)."""
        if viewer is not None and viewer in self.private_to:
            return _ALWAYS_HIDDEN
        return _ALWAYS_HIDDEN | self.PRIVATE

    def full(self) -> dict[str, Any]:
        """Everything, for audits of finished games; never for a live viewer."""
        # As `model_dump` would, without its keyword handling: every commit dumps
        # every event it made.
        return self.__pydantic_serializer__.to_python(self, mode="json")  # type: ignore[no-any-return]


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
    rank: int = Field(
        description="1 for the winner(s); tied seats share a rank. A virtual opponent "
        "(see Result.opponent) is ranked among the seats: a solo player it beat is 2nd."
    )


class Opponent(BaseModel):
    """The virtual opponent of a solo game (an automa, a ghost player) or the target of
    a scenario: scored and ranked beside the seats, never a seat itself."""

    name: str
    score: int
    breakdown: dict[str, int]
    rank: int


class Result(BaseModel):
    standings: list[Standing]
    winners: list[Seat] = Field(
        description="Seats that won; empty when nobody did (a solo player who lost)."
    )
    opponent: Opponent | None = None
    summary: str | None = Field(
        default=None,
        description="Why the game ended as it did, in the rulebook's words "
        '("the ghost\'s Coal and Indigo are both full").',
    )

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
                unchecked(Standing)(
                    seat=seat, score=sum(breakdown.values()), breakdown=breakdown, rank=rank
                )
            )
        winners = [s.seat for s in standings if s.rank == 1]
        return unchecked(cls)(standings=standings, winners=winners)

    @classmethod
    def solo(
        cls,
        breakdown: dict[str, int],
        *,
        won: bool,
        summary: str,
        opponent: str | None = None,
        opponent_breakdown: dict[str, int] | None = None,
    ) -> Result:
        """The result of a one-seat game that the player `won` or lost against a scenario
        or a virtual opponent, and why. The rules decide who won (a tie may be a loss);
        the winner is ranked 1st and the other 2nd."""
        player_rank, opponent_rank = (1, 2) if won else (2, 1)
        if opponent is None:
            player_rank = 1
        standing = Standing(
            seat=0, score=sum(breakdown.values()), breakdown=breakdown, rank=player_rank
        )
        rival = None
        if opponent is not None:
            rival_breakdown = opponent_breakdown or {}
            rival = Opponent(
                name=opponent,
                score=sum(rival_breakdown.values()),
                breakdown=rival_breakdown,
                rank=opponent_rank,
            )
        return cls(
            standings=[standing], winners=[0] if won else [], opponent=rival, summary=summary
        )

    def returns(self) -> list[float]:
        """Each seat's payoff in [0, 1], indexed by seat (like OpenSpiel's `returns()`):
        the share of the other participants — the other seats and the virtual opponent —
        it finished ahead of, a tie counting half. So a lone winner gets 1, the last 0,
        and two players who draw ½ each. A solo seat with no opponent to rank against
        gets 1 if it won and 0 if it lost."""
        ranks = {s.seat: s.rank for s in self.standings}
        rival = [self.opponent.rank] if self.opponent is not None else []
        payoffs: list[float] = []
        for seat in sorted(ranks):
            others = [rank for other, rank in ranks.items() if other != seat] + rival
            if not others:
                payoffs.append(1.0 if seat in self.winners else 0.0)
                continue
            mine = ranks[seat]
            ahead = sum(1.0 if mine < rank else 0.5 if mine == rank else 0.0 for rank in others)
            payoffs.append(ahead / len(others))
        return payoffs

    def demote(self, losers: list[Seat]) -> Result:
        """The same standings with `losers` (resigned or forfeited seats) ranked below
        everyone else, the virtual opponent included; the best of the rest win."""
        kept = [s for s in self.standings if s.seat not in losers]
        dropped = [s for s in self.standings if s.seat in losers]
        entries: list[Standing | Opponent] = [*kept, *dropped]
        if self.opponent is not None:
            entries.insert(self._opponent_position(kept), self.opponent)
        ranked: list[Standing | Opponent] = []
        for position, entry in enumerate(entries):
            previous = ranked[-1] if ranked else None
            tied = (
                previous is not None
                and not self._lost(entry, losers)
                and not self._lost(previous, losers)
                and entry.rank == self._original_rank(previous)
            )
            rank = previous.rank if tied and previous else position + 1
            ranked.append(entry.model_copy(update={"rank": rank}))
        standings = [e for e in ranked if isinstance(e, Standing)]
        opponent = next((e for e in ranked if isinstance(e, Opponent)), None)
        winners = [s.seat for s in standings if s.rank == 1 and s.seat not in losers]
        if not self.winners:
            winners = []
        return Result(standings=standings, winners=winners, opponent=opponent, summary=self.summary)

    def _opponent_position(self, kept: list[Standing]) -> int:
        assert self.opponent is not None
        return sum(1 for s in kept if s.rank <= self.opponent.rank)

    def _original_rank(self, entry: Standing | Opponent) -> int:
        if isinstance(entry, Opponent):
            return entry.rank
        return self._rank_of(entry.seat)

    @staticmethod
    def _lost(entry: Standing | Opponent, losers: list[Seat]) -> bool:
        return isinstance(entry, Standing) and entry.seat in losers

    def _rank_of(self, seat: Seat) -> int:
        return next(s.rank for s in self.standings if s.seat == seat)
