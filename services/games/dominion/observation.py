"""What one seat knows, for bots, without building the published view.

`DominionView` is the API's model: validated, every pile priced and typed, every player
described. A bot deciding a buy needs a handful of those facts, so `observe` reads just
them out of the state — the seat's own prompts, hand and Debt, the turn's counters and
the Supply's counts — and nothing the seat could not read in its own view, or count from
the public log (every gain and trash is public, so the make-up of each player's cards,
and so their VP, is known to all; the order of a deck is not).

Each fact is read when a bot first asks for it, and kept: Big Money asks for three of
them per decision, and counting every seat's cards for their VP cost more than the rest
of its decision together. States never change once made (`apply` copies), so reading
late reads the same as reading at once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from types import MappingProxyType

from services.engine import Prompt

from .scoring import victory_points
from .state import DominionState
from .zones import all_cards


class Observation:
    """Read-only: every attribute is a property over the state, the costly ones computed
    at most once. It keeps the state itself only privately (every bot is handed the
    state anyway) and exposes nothing the seat could not see in its own view."""

    __slots__ = ("_state", "_seat", "_prompts", "_owned", "_vp", "_supply")

    def __init__(self, state: DominionState, seat: int, prompts: list[Prompt]) -> None:
        self._state = state
        self._seat = seat
        self._prompts = prompts
        self._owned: Mapping[str, int] | None = None
        self._vp: tuple[int, ...] | None = None
        self._supply: Mapping[str, int] | None = None

    @property
    def seat(self) -> int:
        return self._seat

    @property
    def prompts(self) -> list[Prompt]:
        """This seat's open prompts (empty when it is not asked anything)."""
        return self._prompts

    @property
    def hand(self) -> tuple[str, ...]:
        return tuple(self._state.player_states[self._seat].hand)

    @property
    def debt(self) -> int:
        return self._state.player_states[self._seat].debt

    @property
    def active(self) -> int:
        """The seat whose turn it is."""
        return self._state.turn.seat

    @property
    def phase(self) -> str:
        return self._state.turn.phase

    @property
    def actions(self) -> int:
        return self._state.turn.actions

    @property
    def buys(self) -> int:
        return self._state.turn.buys

    @property
    def coins(self) -> int:
        return self._state.turn.coins

    @property
    def supply(self) -> Mapping[str, int]:
        """Cards left in each Supply pile (public), read-only."""
        if self._supply is None:
            self._supply = MappingProxyType(self._state.supply)
        return self._supply

    @property
    def owned(self) -> Mapping[str, int]:
        """How many of each card this seat has, wherever they are (not their order)."""
        if self._owned is None:
            self._owned = Counter(all_cards(self._state.player_states[self._seat]))
        return self._owned

    @property
    def in_play(self) -> tuple[str, ...]:
        return tuple(self._state.player_states[self._seat].in_play)

    @property
    def deck_size(self) -> int:
        return len(self._state.player_states[self._seat].deck)

    @property
    def vp(self) -> tuple[int, ...]:
        """Every seat's VP so far, by seat."""
        if self._vp is None:
            state = self._state
            self._vp = tuple(victory_points(state, s) for s in range(state.players))
        return self._vp

    @property
    def turns(self) -> int:
        """Turns this seat has had."""
        return self._state.player_states[self._seat].turns

    @property
    def kingdom(self) -> tuple[str, ...]:
        return tuple(self._state.kingdom)

    @property
    def events(self) -> tuple[str, ...]:
        return tuple(self._state.events)

    @property
    def prophecy(self) -> str | None:
        """The Prophecy once active (its last Sun removed), else None."""
        state = self._state
        return state.prophecy if state.prophecy and state.sun == 0 else None

    @property
    def trash(self) -> tuple[str, ...]:
        return tuple(self._state.trash)

    @property
    def upcoming_prophecy(self) -> str | None:
        """The game's Prophecy, active or not yet: it is public from the setup on."""
        return self._state.prophecy

    def facts(self) -> dict[str, object]:
        """Every fact by name: what equality and `repr` compare and show."""
        return {name: getattr(self, name) for name in FACTS}

    def __eq__(self, other: object) -> bool:
        """Equal when every fact is: two states that differ only in what this seat cannot
        see (another hand, the order of a deck) give equal observations."""
        if not isinstance(other, Observation):
            return NotImplemented
        return self.facts() == other.facts()

    __hash__ = None  # type: ignore[assignment]  # equal by value, and not immutable inside

    def __repr__(self) -> str:
        return "Observation(" + ", ".join(f"{k}={v!r}" for k, v in self.facts().items()) + ")"


FACTS = tuple(name for name, value in vars(Observation).items() if isinstance(value, property))
"""The names of the facts an Observation holds, in the order they are declared."""


def observe(state: DominionState, seat: int, prompts: list[Prompt]) -> Observation:
    if len(prompts) == 1 and prompts[0].seat == seat:
        return Observation(state, seat, prompts)  # the usual case: a turn's one prompt
    return Observation(state, seat, [p for p in prompts if p.seat == seat])
