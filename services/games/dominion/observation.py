"""What one seat knows, for bots, without building the published view.

`DominionView` is the API's model: validated, every pile priced and typed, every player
described. A bot deciding a buy needs a handful of those facts, so `observe` copies just
them out of the state — the seat's own prompts, hand and Debt, the turn's counters and
the Supply's counts — and nothing the seat could not read in its own view, or count from
the public log (every gain and trash is public, so the make-up of each player's cards,
and so their VP, is known to all; the order of a deck is not).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from types import MappingProxyType
from typing import NamedTuple

from services.engine import Prompt

from .scoring import victory_points
from .state import DominionState
from .zones import all_cards


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
    owned: Mapping[str, int]
    """How many of each card this seat has, wherever they are (not their order)."""
    in_play: tuple[str, ...]
    deck_size: int
    vp: tuple[int, ...]
    """Every seat's VP so far, by seat."""
    turns: int
    """Turns this seat has had."""
    kingdom: tuple[str, ...]
    events: tuple[str, ...]
    prophecy: str | None
    """The Prophecy once active (its last Sun removed), else None."""
    trash: tuple[str, ...]
    upcoming_prophecy: str | None = None
    """The game's Prophecy, active or not yet: it is public from the setup on."""


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
        Counter(all_cards(me)),
        tuple(me.in_play),
        len(me.deck),
        tuple(victory_points(state, s) for s in range(state.players)),
        me.turns,
        tuple(state.kingdom),
        tuple(state.events),
        state.prophecy if state.prophecy and state.sun == 0 else None,
        tuple(state.trash),
        state.prophecy,
    )
