"""The `expert` bot level: plays any kingdom from the cards' data, with no per-kingdom
tuning.

Its plan follows from what the kingdom offers (`card_values`): it opens and builds with
whichever cards are worth more than Silver and Gold to its deck right now (drawing cards
at its deck's money density, villages once it has terminals to feed, a trasher while it
has junk, Curses for its opponents), greens by the Provinces left (Duchies from 4 left in
a 2-player game, Estates from 2; in a game still going after 40 turns, as if one more were
gone every 3 turns), never ends the game on a loss nor buys the penultimate Province when
behind, pays off Debt as soon as it has the $, and buys Events when what they do beats
the card it would buy. Shadows are played from the deck like cards in hand. When played
Treasures leave the deck (Panic), it plays only those a worthwhile buy needs.

It sees the game only through `legal_moves` and its seat's `observation`.
"""

from __future__ import annotations

import re

from services.engine import Game, GameState, Move, Seat

from .card_traits import TRASH_FROM_HAND, traits
from .card_values import (
    Deck,
    buy_phase_play_value,
    cost_of,
    deck_of,
    gain_value,
    play_value,
    trash_score,
    treasures_leave_when_played,
)
from .cards import CARDS, EVENTS
from .expert_buys import best_buy
from .expert_choices import answer
from .moves import (
    BUY_CARD,
    BUY_EVENT,
    END_PHASE,
    END_TURN,
    PLAY_TREASURE,
    PLAY_TREASURES,
    BuyCard,
    BuyEvent,
    Choose,
    PayDebt,
    PlayCard,
    PlayShadow,
)
from .observation import Observation

SPENT_TREASURE = 0.3
"""What $1 of a Treasure that is gone once played (Panic) is worth kept for a later turn."""
PLAY_TWICE = re.compile(r"play an action card from your hand twice", re.I)
GAIN_UP_TO = re.compile(r"gain an action card costing up to \$(\d+)", re.I)
NO_ACTIONS_IN_PLAY = re.compile(r"if you have no action cards in play", re.I)
GAIN_EXACTLY = re.compile(r"costing exactly \$(\d+)", re.I)
TRASH_MANY = re.compile(r"trash (up to )?that many cards", re.I)
PER_ACTION_IN_PLAY = re.compile(r"per action card you have in play", re.I)


class ExpertBot:
    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, game: Game, state: GameState, seat: Seat) -> Move:
        moves = game.legal_moves(state, seat)
        if len(moves) == 1:
            return moves[0]
        seen: Observation = game.observation(state, seat)
        return expert_move(moves, seen)


def expert_move(moves: list[Move], seen: Observation) -> Move:
    prompt = seen.prompts[0]
    deck = deck_of(seen)
    if prompt.kind == "action_phase":
        return action_phase(moves, seen, deck)
    if prompt.kind == "buy_phase":
        return buy_phase(moves, seen, deck)
    choices = [m for m in moves if isinstance(m, Choose)]
    return answer(prompt, choices, seen, deck) if choices else moves[-1]


# --- the Action phase -------------------------------------------------------------------


def action_phase(moves: list[Move], seen: Observation, deck: Deck) -> Move:
    plays = [m for m in moves if isinstance(m, PlayCard | PlayShadow)]
    plays = [m for m in plays if not CARDS[m.card].is_("Treasure")]
    if not plays:
        return END_PHASE if any(m is END_PHASE for m in moves) else moves[-1]
    plays = [m for m in plays if not traits(m.card).must_trash or has_fodder(m.card, seen, deck)]
    if not plays:
        return END_PHASE if any(m is END_PHASE for m in moves) else moves[-1]
    terminals_in_hand = sum(traits(c).terminal for c in seen.hand)
    return max(plays, key=lambda m: play_order(m, seen, deck, terminals_in_hand))


def has_fodder(card: str, seen: Observation, deck: Deck) -> bool:
    """A card that makes you trash one is worth playing only with a card to spare."""
    hand = list(seen.hand)
    if card in hand:
        hand.remove(card)
    remodel = traits(card).remodels
    return any(trash_score(c, deck, seen, remodel) > -1.5 for c in hand)


def play_order(move: PlayCard | PlayShadow, seen: Observation, deck: Deck, terminals: int) -> float:
    """Non-terminals first (villages first when terminals wait for Actions), then the
    best terminal; a Shadow from the deck before the same card from hand."""
    t = traits(move.card)
    value = play_value(move.card, deck, seen) + (0.05 if isinstance(move, PlayShadow) else 0.0)
    if t.actions >= 1:
        value += 20.0
        if t.village and terminals >= seen.actions:
            value += 10.0
    elif t.optional_actions >= 2 and terminals - 1 >= seen.actions:
        value += 20.0  # its +Actions choice lets the terminals waiting in hand be played
    return value


# --- the Buy phase ----------------------------------------------------------------------


def buy_phase(moves: list[Move], seen: Observation, deck: Deck) -> Move:
    if any(m is PLAY_TREASURES for m in moves):
        if not treasures_leave_when_played(seen):
            return PLAY_TREASURES
        spend = treasure_to_spend(moves, seen, deck)
        if spend is not None:
            return spend
    if seen.debt:
        payments = [m for m in moves if isinstance(m, PayDebt)]
        if payments:
            return max(payments, key=lambda m: m.amount)
    buyable = [m.card for m in moves if isinstance(m, BuyCard)]
    card, value = best_buy(buyable, seen, deck, seen.coins)
    event = best_event(moves, buyable, seen, deck, value)
    if event is not None:
        return event
    if card is not None:
        return BUY_CARD[card]
    return END_TURN if any(m is END_TURN for m in moves) else moves[-1]


def treasure_to_spend(moves: list[Move], seen: Observation, deck: Deck) -> Move | None:
    """When played Treasures go back to their piles (Panic), each is $ to be spent once:
    play them only for a buy worth what they cost (a Province, a Duchy when greening, a
    good Action), the cheapest that cover it, and keep the rest for a later turn.
    Spending them on nothing leaves a deck with no $ at all and a game nobody can end."""
    hand = [
        c for c in seen.hand if traits(c).treasure and any(m is PLAY_TREASURE[c] for m in moves)
    ]
    if not hand or seen.buys <= 0:
        return None
    supply = [name for name, left in seen.supply.items() if left > 0]
    have = seen.coins - seen.debt
    target, value = best_buy(supply, seen, deck, have + int(sum(traits(c).coins for c in hand)))
    if target is None:
        return None
    need = cost_of(seen, target).coins - have
    if need <= 0:
        return None
    _, value_now = best_buy(supply, seen, deck, have)
    if value - value_now < SPENT_TREASURE * need:
        return None
    covering = [c for c in hand if traits(c).coins >= need]
    card = (
        min(covering, key=lambda c: traits(c).coins)
        if covering
        else max(hand, key=lambda c: traits(c).coins)
    )
    return PLAY_TREASURE[card]


# --- Events -----------------------------------------------------------------------------


def best_event(
    moves: list[Move], buyable: list[str], seen: Observation, deck: Deck, card_value: float
) -> BuyEvent | None:
    """The Event worth more than the card the $ would buy instead (with one Buy left,
    an Event replaces the card; with more, it costs the $ it takes)."""
    best, best_gain = None, 0.0
    for move in moves:
        if not isinstance(move, BuyEvent):
            continue
        price = EVENTS[move.event].cost
        if price.debt or price.coins > seen.coins:
            continue
        worth = event_value(move.event, seen, deck, seen.coins - price.coins)
        if seen.buys > 1:
            rest, rest_value = best_buy(buyable, seen, deck, seen.coins - price.coins)
            gain = worth + rest_value - card_value
        else:
            gain = worth - card_value
        if gain > best_gain:
            best, best_gain = BUY_EVENT[move.event], gain
    return best


def event_value(name: str, seen: Observation, deck: Deck, spare: int) -> float:
    """What an Event does for this seat now, in the same $ as cards, read from its text.
    It is bought in the Buy phase, after the Treasures: cards it draws are no use."""
    text = EVENTS[name].text
    if TRASH_FROM_HAND.search(text) or TRASH_MANY.search(text):
        most = trash_count(text, seen, spare)
        scores = sorted((trash_score(c, deck, seen, False) for c in seen.hand), reverse=True)
        return sum(s for s in scores[: max(0, most)] if s > 0)
    if PLAY_TWICE.search(text):
        return max((twice_value(c, seen, deck) for c in seen.hand if traits(c).action), default=0.0)
    buyable = [n for n, left in seen.supply.items() if left > 0]
    up_to = GAIN_UP_TO.search(text)
    if up_to:
        if NO_ACTIONS_IN_PLAY.search(text) and any(traits(c).action for c in seen.in_play):
            return 0.0
        limit = int(up_to.group(1))
        options = [c for c in buyable if CARDS[c].is_("Action") and cost_of(seen, c).coins <= limit]
        return max((gain_value(c, deck, seen) for c in options), default=0.0)
    exact = [int(n) for n in GAIN_EXACTLY.findall(text)] or exactly_costs(text)
    if exact:
        return sum(best_costing(buyable, seen, deck, n) for n in exact)
    return 0.0


def trash_count(text: str, seen: Observation, spare: int) -> int:
    if PER_ACTION_IN_PLAY.search(text):
        return sum(traits(c).action for c in seen.in_play)
    if "that many" in text:
        return spare
    return 1


def twice_value(name: str, seen: Observation, deck: Deck) -> float:
    return 2 * buy_phase_play_value(name, seen, deck)


def exactly_costs(text: str) -> list[int]:
    """ "a card costing exactly $3, a card costing exactly $4..." """
    return [int(n) for n in re.findall(r"exactly \$(\d+)", text)]


def best_costing(buyable: list[str], seen: Observation, deck: Deck, coins: int) -> float:
    values = [
        gain_value(c, deck, seen)
        for c in buyable
        if cost_of(seen, c).coins == coins and not cost_of(seen, c).debt
    ]
    return max([v for v in values if v > 0], default=0.0)
