"""The expert's judgement of buys: the best card for the $ it has, never one that ends
the game on a loss, nor the penultimate Province when behind, and, in a game dragging on,
the shortest piles for the leader to end it. Used for its Buy phase and for what a
Treasure that is gone once played (Panic) should be spent on.
"""

from __future__ import annotations

from . import card_values
from .card_values import (
    DRAG_FROM,
    Deck,
    cost_of,
    debt_penalty,
    gain_value,
    lead,
    provinces_left,
    vp_of,
)
from .cards import CARDS
from .observation import Observation
from .setup import PILES_TO_END


def best_buy(
    buyable: list[str], seen: Observation, deck: Deck, coins: int
) -> tuple[str | None, float]:
    best, best_value = None, card_values.W.buy_at_least
    for name in buyable:
        if cost_of(seen, name).coins > coins or CARDS[name].is_("Curse"):
            continue
        value = buy_value(name, seen, deck)
        if value > best_value:
            best, best_value = name, value
    return best, (best_value if best else 0.0)


def buy_value(name: str, seen: Observation, deck: Deck) -> float:
    value = gain_value(name, deck, seen) - debt_penalty(cost_of(seen, name), seen)
    vp = vp_of(name)
    if ends_game(name, seen) and lead(seen) + vp <= 0:
        return -5.0  # never end the game on a loss
    if name == "Province" and provinces_left(seen) == 2 and lead(seen) < 0:
        return 4.0  # the penultimate Province would let the leader end it
    return value + pile_out_bonus(name, seen)


def pile_out_bonus(name: str, seen: Observation) -> float:
    """A game dragging on (no Province in reach) that one more empty pile would end: the
    leader runs the shortest piles out to end it on its win."""
    if seen.turns <= DRAG_FROM or lead(seen) <= 0:
        return 0.0
    empty = sum(1 for n in seen.supply.values() if n == 0)
    if empty + 1 < PILES_TO_END.get(len(seen.vp), 3):
        return 0.0
    return 4.0 / max(1, seen.supply.get(name, 0))


def ends_game(name: str, seen: Observation) -> bool:
    left = seen.supply.get(name, 0)
    if left != 1:
        return False
    if name == "Province":
        return True
    empty = sum(1 for n in seen.supply.values() if n == 0)
    return empty + 1 >= PILES_TO_END.get(len(seen.vp), 3)
