"""What one seat knows, for bots, without building the published view.

`DominionView` is the API's model: validated, every pile priced and typed, every player
described. A bot deciding a buy needs a handful of those facts, so `observe` copies just
them out of the state — the seat's own prompts, hand and Debt, the turn's counters and
the Supply's counts — and nothing the seat could not read in its own view.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import NamedTuple

from services.engine import Prompt

from .state import DominionState


class Observation(NamedTuple):
    """Immutable, and as cheap to build as a tuple."""

    seat: int
    prompts: list[Prompt]
    """This seat's open prompts (empty when it is not asked anything)."""
    hand: tuple[str, ...]
    debt: int
    active: int
    """The seat whose turn it is."""
    phase: str
    actions: int
    buys: int
    coins: int
    supply: Mapping[str, int]
    """Cards left in each Supply pile (public), read-only."""


def observe(state: DominionState, seat: int, prompts: list[Prompt]) -> Observation:
    me, turn = state.player_states[seat], state.turn
    return Observation(
        seat,
        [p for p in prompts if p.seat == seat],
        tuple(me.hand),
        me.debt,
        turn.seat,
        turn.phase,
        turn.actions,
        turn.buys,
        turn.coins,
        MappingProxyType(state.supply),
    )
