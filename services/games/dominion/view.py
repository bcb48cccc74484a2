"""What one seat may see. Built only from public facts plus the viewer's own hand, deck
size and Shadow positions: other hands, deck contents and order, and the RNG never leave.
"""

from __future__ import annotations

import functools

from pydantic import BaseModel, ConfigDict

from services.engine import Prompt

from .cards import EVENTS, PROPHECIES
from .costs import cost_when, types_when
from .state import DominionState, PlayerState
from .table import Table
from .zones import shadow_positions


class PileView(BaseModel):
    model_config = ConfigDict(frozen=True)  # views share it (`pile_view`)

    card: str
    left: int
    coins: int
    debt: int
    types: tuple[str, ...]
    debt_on_pile: int = 0


class EventView(BaseModel):
    event: str
    coins: int
    debt: int
    text: str


class PlayerView(BaseModel):
    seat: int
    hand: list[str] | None
    """Only in the owner's own view."""
    hand_size: int
    deck_size: int
    shadow_positions: list[int] | None
    shadow_order: list[str] | None
    """Your chosen order of Shadows at the bottom after a shuffle, bottom-most first."""
    """Owner only: where their Shadows are in their deck, 0 being the top card."""
    discard_size: int
    discard_top: str | None
    in_play: list[str]
    durations: list[str]
    debt: int
    turns: int
    foresight: list[str]
    rapid_expansion: list[str]
    biding_time: list[str] | None
    """Owner only (set aside face down); others see `biding_time_size`."""
    biding_time_size: int
    set_aside: list[str]
    """Cards set aside face up while a card resolves (Library, Bandit)."""
    looking: list[str] | None
    """Owner only: the cards Sentry is looking at; others see `looking_size`."""
    looking_size: int
    blockade: list[str]
    """Cards set aside on this player's Blockades (gained, so public)."""
    corsair_attacks: int
    """Corsair plays of this player still attacking the others until their next turn."""
    extra_turns: int


class TurnView(BaseModel):
    seat: int
    extra: bool = False
    """An extra turn (Outpost)."""
    phase: str
    actions: int
    buys: int
    coins: int


class DominionView(BaseModel):
    viewer: int | None
    players: list[PlayerView]
    turn: TurnView
    supply: list[PileView]
    trash: list[str]
    events: list[EventView]
    prophecy: str | None
    prophecy_text: str | None
    prophecy_active: bool
    sun_tokens: int
    riverboat_card: str | None
    removed_piles: list[str]
    prompts: list[Prompt]
    over: bool


def player_view(p: PlayerState, seat: int, viewer: int | None) -> PlayerView:
    mine = seat == viewer
    return PlayerView(
        seat=seat,
        hand=list(p.hand) if mine else None,
        hand_size=len(p.hand),
        deck_size=len(p.deck),
        shadow_positions=shadow_positions(p) if mine else None,
        shadow_order=list(p.shadow_order) if mine else None,
        discard_size=len(p.discard),
        discard_top=p.discard[-1] if p.discard else None,
        in_play=list(p.in_play),
        durations=[card for card, _ in p.durations],
        debt=p.debt,
        turns=p.turns,
        foresight=list(p.foresight),
        rapid_expansion=list(p.rapid),
        biding_time=list(p.biding) if mine else None,
        biding_time_size=len(p.biding),
        set_aside=list(p.aside),
        looking=list(p.looking) if mine else None,
        looking_size=len(p.looking),
        blockade=list(p.blockades),
        corsair_attacks=len(p.corsairs),
        extra_turns=p.extra_turns,
    )


def supply_view(t: Table) -> list[PileView]:
    lowered, enlightened = t.prophecy("Flourishing Trade"), t.prophecy("Enlightenment")
    debts = t.s.pile_debt
    return [
        pile_view(name, left, debts.get(name, 0), lowered, enlightened)
        for name, left in t.s.supply.items()
    ]


@functools.lru_cache(maxsize=4096)
def pile_view(
    name: str, left: int, debt_on_pile: int, lowered: bool, enlightened: bool
) -> PileView:
    """A pile's view depends on nothing but these (costs and types change only with the
    two Prophecies), so views share one object per combination (it is frozen)."""
    c = cost_when(name, lowered=lowered)
    return PileView(
        card=name,
        left=left,
        coins=c.coins,
        debt=c.debt,
        types=tuple(sorted(types_when(name, enlightened=enlightened))),
        debt_on_pile=debt_on_pile,
    )


def build_view(s: DominionState, viewer: int | None, prompts: list[Prompt]) -> DominionView:
    t = Table(s)
    turn = s.turn
    prophecy = s.prophecy
    return DominionView(
        viewer=viewer,
        players=[player_view(p, i, viewer) for i, p in enumerate(s.player_states)],
        turn=TurnView(
            seat=turn.seat,
            extra=turn.extra,
            phase=turn.phase,
            actions=turn.actions,
            buys=turn.buys,
            coins=turn.coins,
        ),
        supply=supply_view(t),
        trash=list(s.trash),
        events=[
            EventView(
                event=e, coins=EVENTS[e].cost.coins, debt=EVENTS[e].cost.debt, text=EVENTS[e].text
            )
            for e in s.events
        ],
        prophecy=prophecy,
        prophecy_text=PROPHECIES[prophecy].text if prophecy else None,
        prophecy_active=bool(prophecy) and s.sun == 0,
        sun_tokens=s.sun,
        riverboat_card=s.riverboat_card,
        removed_piles=list(s.removed_piles),
        prompts=[p for p in prompts if p.seat == viewer],
        over=s.over,
    )
