"""Building Dominion positions for tests, in a few readable lines.

Decks are written top card first. `start` puts a seat at the start of its Action (or Buy)
phase with the hand, deck and discard a test needs.
"""

from __future__ import annotations

from typing import Any

from services.engine import Prompt
from services.games.dominion import game
from services.games.dominion.cards import KINGDOM_CARDS, OMENS
from services.games.dominion.state import DominionState, TurnState

NO_OMENS = [card for card in KINGDOM_CARDS if card not in OMENS]


def kingdom_with(*cards: str) -> list[str]:
    """`cards` plus fillers without Omens (so no Prophecy unless a test asks for one)."""
    fill = [c for c in NO_OMENS if c not in cards and c != "Riverboat"]
    return list(cards) + fill[: 10 - len(cards)]


def new_game(*cards: str, players: int = 2, seed: int = 7, **config: Any) -> DominionState:
    config.setdefault("kingdom", kingdom_with(*cards))
    return game.setup(config, players, seed)


def with_prophecy(prophecy: str, *cards: str, active: bool = True, **config: Any) -> DominionState:
    """A game using `prophecy` (with Poet as its Omen), already active unless asked not."""
    state = new_game(*(("Poet",) + cards), prophecy=prophecy, **config)
    if active:
        state.sun = 0
    return state


def start(
    state: DominionState,
    seat: int = 0,
    *,
    hand: list[str] | None = None,
    deck: list[str] | None = None,
    discard: list[str] | None = None,
    phase: str = "action",
    **turn: Any,
) -> DominionState:
    p = state.player_states[seat]
    if hand is not None:
        p.hand = list(hand)
    if deck is not None:
        p.deck = list(reversed(deck))
    if discard is not None:
        p.discard = list(discard)
    state.stack = []
    state.turn = TurnState(seat=seat, phase=phase, **turn)
    return state


def deck_top_first(state: DominionState, seat: int = 0) -> list[str]:
    return list(reversed(state.player_states[seat].deck))


def act(state: DominionState, seat: int = 0, **move: Any) -> DominionState:
    return game.apply(state, seat, move).state


def play(state: DominionState, card: str, seat: int = 0) -> DominionState:
    return act(state, seat, kind="play_card", card=card)


def choose(state: DominionState, *picks: str, seat: int | None = None) -> DominionState:
    if seat is None:
        seat = prompts(state)[0].seat
    return act(state, seat, kind="choose", picks=list(picks))


def buy(state: DominionState, card: str, seat: int = 0) -> DominionState:
    return act(state, seat, kind="buy_card", card=card)


def buy_event(state: DominionState, event: str, seat: int = 0) -> DominionState:
    return act(state, seat, kind="buy_event", event=event)


def prompts(state: DominionState) -> list[Prompt]:
    return game.prompts(state)


def prompt(state: DominionState) -> Prompt:
    return prompts(state)[0]


def me(state: DominionState, seat: int = 0):
    return state.player_states[seat]
