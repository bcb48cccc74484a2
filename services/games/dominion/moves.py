"""The moves of Dominion: Rising Sun, as the API and the bots send them."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from services.engine import Move

from .cards import CARDS, EVENTS, SHADOWS


class PlayCard(Move):
    """Action phase: play an Action card from your hand (uses an Action)."""

    kind: Literal["play_card"] = "play_card"
    card: str


class PlayShadow(Move):
    """Action phase: play a Shadow from your deck; `position` 0 is the top card."""

    kind: Literal["play_shadow"] = "play_shadow"
    card: str
    position: int


class PlayTreasure(Move):
    kind: Literal["play_treasure"] = "play_treasure"
    card: str


class PlayTreasures(Move):
    """Buy phase: play every Treasure in your hand (Rice last, to count the most types)."""

    kind: Literal["play_treasures"] = "play_treasures"


class BuyCard(Move):
    kind: Literal["buy_card"] = "buy_card"
    card: str


class BuyEvent(Move):
    kind: Literal["buy_event"] = "buy_event"
    event: str


class PayDebt(Move):
    """Pay off Debt at $1 each, any time in your turn (uses no Buy or Action)."""

    kind: Literal["pay_debt"] = "pay_debt"
    amount: int


class OrderShadows(Move):
    """Put Shadows of this name bottom-most whenever your deck is shuffled (the rulebook
    lets the player order their Shadows at the bottom; this sets that order ahead)."""

    kind: Literal["order_shadows"] = "order_shadows"
    bottom: str


class EndPhase(Move):
    """End your Action phase and go to your Buy phase."""

    kind: Literal["end_phase"] = "end_phase"


class EndTurn(Move):
    """End your Buy phase; Clean-up follows."""

    kind: Literal["end_turn"] = "end_turn"


class Choose(Move):
    """Answer the decision you are prompted for: the card names or options you pick."""

    kind: Literal["choose"] = "choose"
    picks: list[str] = Field(default_factory=list)


DominionMove = Annotated[
    PlayCard
    | PlayShadow
    | PlayTreasure
    | PlayTreasures
    | BuyCard
    | BuyEvent
    | PayDebt
    | OrderShadows
    | EndPhase
    | EndTurn
    | Choose,
    Field(discriminator="kind"),
]


def describe(move: Move) -> str:
    match move:
        case PlayCard(card=card) | PlayTreasure(card=card):
            return f"Play {card}"
        case PlayShadow(card=card, position=position):
            return f"Play {card} from your deck (position {position})"
        case PlayTreasures():
            return "Play all your Treasures"
        case BuyCard(card=card):
            return f"Buy {card}"
        case BuyEvent(event=event):
            return f"Buy the Event {event}"
        case PayDebt(amount=amount):
            return f"Pay off {amount} Debt"
        case OrderShadows(bottom=card):
            return f"Shuffle your {card} Shadows to the very bottom"
        case EndPhase():
            return "End your Action phase"
        case EndTurn():
            return "End your turn"
        case Choose(picks=picks):
            return f"Choose {', '.join(picks)}" if picks else "Choose nothing"
    return move.kind


# --- the moves the engine lists, built once --------------------------------------------
# Moves are frozen, so `legal_moves` hands out these shared instances instead of building
# and validating a dozen models for every state.

END_PHASE = EndPhase()
END_TURN = EndTurn()
PLAY_TREASURES = PlayTreasures()
PLAY_CARD = {name: PlayCard(card=name) for name in CARDS}
PLAY_TREASURE = {name: PlayTreasure(card=name) for name in CARDS}
BUY_CARD = {name: BuyCard(card=name) for name in CARDS}
BUY_EVENT = {name: BuyEvent(event=name) for name in EVENTS}
ORDER_SHADOWS = {name: OrderShadows(bottom=name) for name in SHADOWS}
