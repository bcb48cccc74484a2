"""What happened, as typed `services.engine.Event`s. Drawn cards are private to their owner."""

from __future__ import annotations

from typing import ClassVar

from services.engine import Event


class TurnStarted(Event):
    kind: str = "turn_started"
    turn: int


class CardsDrawn(Event):
    PRIVATE: ClassVar[frozenset[str]] = frozenset({"cards"})
    kind: str = "cards_drawn"
    count: int
    cards: list[str]


class CardsToHand(Event):
    """Cards put into a hand from a set-aside area (Biding Time's are face down)."""

    PRIVATE: ClassVar[frozenset[str]] = frozenset({"cards"})
    kind: str = "cards_to_hand"
    count: int
    cards: list[str]
    source: str


class FaceUpToHand(CardsToHand):
    """Face-up set-aside cards put into a hand (Blockade's): public, as the gain that set
    them aside was."""

    PRIVATE: ClassVar[frozenset[str]] = frozenset()


class Shuffled(Event):
    kind: str = "shuffled"
    count: int


class CardPlayed(Event):
    kind: str = "card_played"
    card: str
    source: str
    replay: bool = False


class CardBought(Event):
    kind: str = "card_bought"
    card: str


class EventBought(Event):
    kind: str = "event_bought"
    event: str


class CardGained(Event):
    kind: str = "card_gained"
    card: str
    to: str


class CardsTrashed(Event):
    kind: str = "cards_trashed"
    cards: list[str]


class CardsDiscarded(Event):
    kind: str = "cards_discarded"
    cards: list[str]


class CardsRevealed(Event):
    kind: str = "cards_revealed"
    cards: list[str]


class CardsSetAside(Event):
    PRIVATE: ClassVar[frozenset[str]] = frozenset({"cards"})
    kind: str = "cards_set_aside"
    count: int
    cards: list[str]
    reason: str


class CardReturned(Event):
    kind: str = "card_returned"
    card: str


class DebtChanged(Event):
    kind: str = "debt_changed"
    change: int
    debt: int
    reason: str


class SunRemoved(Event):
    kind: str = "sun_removed"
    left: int


class ProphecyActive(Event):
    kind: str = "prophecy_active"
    prophecy: str


class PilesReplaced(Event):
    kind: str = "piles_replaced"
    removed: list[str]
    added: list[str]


class Chose(Event):
    """An answer announced at the table (see `PUBLIC_DECISIONS`)."""

    kind: str = "chose"
    decision: str
    picks: list[str]


PUBLIC_DECISIONS = frozenset({"choose_options", "name_card"})
"""Decisions whose answer is announced at the table and shows nowhere else: the options
taken (Courtier, Lurker, Kitsune, Gold Mine) and the card named (Wishing Well), asked of
anyone who plays the card. Any other answer is logged by what it does (a card gained,
trashed, discarded, played, put on the deck) and no more: its picks may be hidden (a card
put on the deck, the order of cards put back), and even being asked may tell a secret
(Baron asks only a player holding an Estate)."""


class GameEnded(Event):
    kind: str = "game_ended"
    reason: str


class CardsPutOnDeck(Event):
    """Cards put onto (or into) a deck from a hand or discard pile. Which cards is private
    when they came from a hidden place; where they went (`position`, 0 = top) is public."""

    PRIVATE: ClassVar[frozenset[str]] = frozenset({"cards"})
    kind: str = "cards_put_on_deck"
    count: int
    cards: list[str]
    source: str
    position: int = 0


class CardsTrashedFromSupply(Event):
    kind: str = "cards_trashed_from_supply"
    cards: list[str]
