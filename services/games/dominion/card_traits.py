"""What a card does for its owner, read from its data: the numbers printed first on it
(+Cards, +Actions, +Buys, +$, +Debt) and the common phrases of its text ("Draw until you
have 7 cards", "each other player gains a Curse", "trash a card from your hand"...).

The reference and expert bots judge cards only through these traits, so a new card is
understood as soon as its data row exists — no bot knows any card by name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from .cards import CARDS

DRAW_UNTIL = re.compile(r"draw until you have (\d+) cards", re.I)
CARD_PER = re.compile(r"\+1 card per", re.I)
COINS_PER = re.compile(r"\+\$1 per", re.I)
CURSES_OTHERS = re.compile(r"(other players?|each other player)[^.]*gains? a curse", re.I)
TRASH_FROM_HAND = re.compile(
    r"trash (up to (\d+) cards|a card|\d+ cards?)[^.]*from your hand", re.I
)
GAIN_COSTING = re.compile(r"gain an? [a-z ]*card costing", re.I)
GAIN_BETTER = re.compile(r"gain an? [a-z ]*card costing (up to \$\d+ )?more", re.I)
HAND_ATTACK = re.compile(r"discards? down to \d", re.I)
COINS_IN_TEXT = re.compile(r"\+\$(\d+)")
CARDS_IN_TEXT = re.compile(r"\+(\d+) cards?", re.I)
ACTIONS_IN_TEXT = re.compile(r"\+(\d+) actions?", re.I)
GAIN_GOLD = re.compile(r"gain a gold", re.I)
MUST_TRASH = re.compile(r"(?<!may )\btrash a card from your hand", re.I)
CONDITIONAL = re.compile(r"\bif\b", re.I)
DRAWS_IF_ACTION_TRASHED = re.compile(
    r"if there are any action cards in the trash, \+(\d+) cards", re.I
)
TREASURES_ARE_ACTIONS = re.compile(r"treasures are also actions", re.I)
GAIN_FOR_DEBT = re.compile(r"gain an? [\w ]+? and get \+(\d+) debt", re.I)
TREASURES_RETURN = re.compile(r"discard one from play, return it to its pile", re.I)
EVERY_TURN = re.compile(r"at the start of each of your turns", re.I)


@dataclass(frozen=True)
class Traits:
    name: str
    action: bool
    treasure: bool
    victory: bool
    coins: float
    """$ it makes when played (a guess for cards whose amount varies)."""
    draws: float
    """Cards it draws when played, net of nothing (a guess for "draw until")."""
    actions: int
    buys: int
    debt: int
    """Debt it gives its owner when played."""
    curses_others: bool
    curse_chance: float
    """How surely a play curses the others: 1, or 0.25 when only under a condition
    ("If your hand has no duplicate cards...")."""
    trashes: int
    """How many cards from hand it can trash (0 if none)."""
    remodels: bool
    """Trashes a card to gain a better one."""
    gains: bool
    """Gains a card (other than by trashing one for it)."""
    hand_attack: bool
    every_turn_coins: bool
    """Gives $ at the start of each of your turns for the rest of the game."""
    must_trash: bool
    """Makes its player trash a card from hand (not "may")."""
    draws_if_action_trashed: float
    """+Cards it gives only once the trash holds an Action card (0 if none)."""
    optional_actions: int = 0
    """The most +Actions one of its choices offers ("choose two: +2 Actions; +$2...")."""
    gain_debt: int = 0
    """Debt its gain costs ("You may gain a Gold and get +4 Debt"), beside any printed."""

    @property
    def terminal(self) -> bool:
        """An Action that gives no +Action: a second one in hand may be dead."""
        return self.action and self.actions == 0

    @property
    def village(self) -> bool:
        return self.action and self.actions >= 2


@cache
def traits(name: str) -> Traits:
    card = CARDS[name]
    text = card.text
    coins = float(card.coins)
    draws = float(card.cards)
    actions = card.actions
    if card.special:
        # Amounts that depend on a condition ("If it's an Action, +5 Cards") count half.
        sure = 0.5 if CONDITIONAL.search(text) else 1.0
        if sure < 1 and ";" in text:
            sure = 0.25  # one of several exclusive gifts ("1: +3 Actions; 2: +3 Cards...")
        coins = max(coins, optional_amount(COINS_IN_TEXT, text) * sure)
        draws = max(draws, smallest_amount(CARDS_IN_TEXT, text) * min(sure, 0.5 if coins else 1))
        if not coins and sure == 1.0:
            actions = max(actions, int(optional_amount(ACTIONS_IN_TEXT, text)))
        until = DRAW_UNTIL.search(text)
        if until:
            draws = max(draws, int(until.group(1)) - 4.5)
        if CARD_PER.search(text):
            draws = max(draws, 1.5)
        if COINS_PER.search(text):
            coins = max(coins, 2.5)
    trash = TRASH_FROM_HAND.search(text)
    trashes = 0
    if trash:
        trashes = int(trash.group(2)) if trash.group(2) else 1
    remodels = bool(trash) and bool(GAIN_BETTER.search(text))
    return Traits(
        name=name,
        action=card.is_("Action"),
        treasure=card.is_("Treasure"),
        victory=card.is_("Victory"),
        coins=coins,
        draws=draws,
        actions=actions,
        buys=card.buys,
        debt=card.debt,
        curses_others=bool(CURSES_OTHERS.search(text)),
        curse_chance=0.25 if CONDITIONAL.search(text) else 1.0,
        trashes=0 if remodels else trashes,
        remodels=remodels,
        gains=bool(GAIN_COSTING.search(text) or GAIN_GOLD.search(text)) and not remodels,
        hand_attack=bool(HAND_ATTACK.search(text)),
        every_turn_coins=card.lasting == "game" and bool(EVERY_TURN.search(text)),
        must_trash=bool(MUST_TRASH.search(text)),
        draws_if_action_trashed=float(m.group(1))
        if (m := DRAWS_IF_ACTION_TRASHED.search(text))
        else 0.0,
        optional_actions=max(actions, int(optional_amount(ACTIONS_IN_TEXT, text))),
        gain_debt=int(m.group(1)) if (m := GAIN_FOR_DEBT.search(text)) else 0,
    )


def optional_amount(pattern: re.Pattern[str], text: str) -> float:
    """The largest amount the text offers (e.g. one of a choice's options)."""
    found = [int(n) for n in pattern.findall(text)]
    return float(max(found)) if found else 0.0


def smallest_amount(pattern: re.Pattern[str], text: str) -> float:
    """The smallest amount the text gives (conditional amounts: the likely one)."""
    found = [int(n) for n in pattern.findall(text)]
    return float(min(found)) if found else 0.0


def junk(name: str) -> bool:
    """Cards that do nothing in hand: Curses and pure Victory cards."""
    card = CARDS[name]
    return card.is_("Curse") or (card.is_("Victory") and not card.is_("Action"))
