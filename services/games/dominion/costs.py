"""Costs and types as they are right now (Flourishing Trade lowers costs; Enlightenment
makes Treasures Actions), and the rulebook's ways of comparing costs."""

from __future__ import annotations

from .cards import CARDS, TYPES, Cost
from .table import Table

PRINTED: dict[str, Cost] = {name: card.cost for name, card in CARDS.items()}
LOWERED: dict[str, Cost] = {
    name: Cost(coins=max(0, c.coins - 1), debt=c.debt) for name, c in PRINTED.items()
}


def cost(t: Table, card: str) -> Cost:
    """The rulebook: "Flourishing Trade lowers coin costs, but has no effect on the cost of
    Daimyo."
    """
    s = t.s
    return (LOWERED if s.prophecy == "Flourishing Trade" and s.sun == 0 else PRINTED)[card]


def cost_when(card: str, *, lowered: bool) -> Cost:
    """`card`'s cost with Flourishing Trade active (`lowered`) or not."""
    return (LOWERED if lowered else PRINTED)[card]


PRINTED_COINS: dict[str, int] = {name: c.coins for name, c in PRINTED.items()}
LOWERED_COINS: dict[str, int] = {name: c.coins for name, c in LOWERED.items()}
"""Every card's coin cost as plain numbers, printed and with Flourishing Trade active, for
checks over the whole Supply (`turn.buyable_cards`, `turn.buy_phase_open`)."""


def types_of(t: Table, card: str) -> frozenset[str]:
    return types_when(card, enlightened=t.prophecy("Enlightenment"))


def types_when(card: str, *, enlightened: bool) -> frozenset[str]:
    """`card`'s types with Enlightenment active or not (it makes Treasures Actions too)."""
    types = TYPES[card]
    if enlightened and "Treasure" in types:
        return types | {"Action"}
    return types


def is_(t: Table, card: str, kind: str) -> bool:
    """Enlightenment only ever adds Action (to Treasures), so the printed types decide
    every other question without looking at the Prophecy."""
    types = TYPES[card]
    if kind in types:
        return True
    return kind == "Action" and "Treasure" in types and t.prophecy("Enlightenment")


def up_to(c: Cost, coins: int) -> bool:
    """ "Up to 4 coins" means 0 to 4 coins; "it does not include costs with Debt in them."""
    return c.debt == 0 and c.coins <= coins


def exactly(c: Cost, coins: int) -> bool:
    return c.debt == 0 and c.coins == coins


def up_to_more_than(c: Cost, base: Cost, more: int) -> bool:
    """Tanuki, Kintsugi: "up to $2 more" — Tanuki trashing an Artist (8 Debt) "can gain a
    Daimyo, because Daimyo does cost up to 2 coins and 8 Debt"."""
    return c.coins <= base.coins + more and c.debt <= base.debt


def cheaper(c: Cost, than: Cost) -> bool:
    """Growth: strictly less, with coins and Debt compared separately (neither may be more)."""
    return c.coins <= than.coins and c.debt <= than.debt and c != than


def costs_zero(c: Cost) -> bool:
    """Bureaucracy: "Cards with Debt costs don't cost exactly 0 coins"."""
    return c.coins == 0 and c.debt == 0
