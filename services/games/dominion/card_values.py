"""How much a card is worth to one player now, in $ per time it is drawn: the judgement
behind the expert bot's buys, gains, plays, trashes and discards.

Everything is computed from a seat's `Observation` (its own cards, the Supply's counts,
every seat's VP) and the cards' traits (`card_traits`), so it fits any kingdom.
"""

from __future__ import annotations

from dataclasses import dataclass

from .card_traits import TREASURES_ARE_ACTIONS, TREASURES_RETURN, junk, traits
from .cards import CARDS, PROPHECIES, Cost
from .observation import Observation

PROVINCES_AT_START = {2: 8, 3: 12, 4: 12, 5: 15, 6: 18}
DRAG_FROM = 40
"""Turns after which a game that has not ended greens anyway (`provinces_to_go`)."""
DEBT_WEIGHT = 0.8
"""$ of Debt taken when a card is played count this much against it (paid off later)."""


@dataclass(frozen=True)
class Weights:
    """The judgement's numbers, tuned by simulation (bench/dominion_bots.py) against Big
    Money and Big Money Ultimate over the recommended sets — the same for every kingdom."""

    debt_cost: float = 0.3
    """A card bought for Debt: the Debt paid off at once, from $ this turn would leave
    unspent, counts this much per point against its value..."""
    debt_carried: float = 0.5
    """...and the Debt carried into later turns this much: it eats their buys."""
    debt_green: float = 0.4
    """Share of the Provinces gone before a Victory card is worth gaining on Debt."""
    hand_actions: float = 1.0
    """How much of the Actions in hand's worth counts in the $ a turn expects."""
    curse_attack: float = 4.0
    hand_attack: float = 0.4
    every_turn: float = 2.0
    village: float = 0.7
    trasher: float = 1.0
    remodeler: float = 1.2
    gainer: float = 1.2
    gain_debt: float = 0.2
    """Per Debt a card's gain costs (Gold Mine's Gold), taken off the gainer's worth."""
    shadow: float = 1.0
    """A Shadow played from the deck is one more card in hand: this many cards' worth."""
    draw_floor: float = 0.8
    """A card drawn counts at least this many $."""
    terminals_per_card: int = 9
    """One more terminal is welcome per this many cards."""
    collision: float = 2.5
    variety: float = 0.25
    """Each copy already owned lowers a card's value by this much."""
    late_discount: float = 0.7
    duchy_extra: int = 0
    """Provinces left at which Duchies beat Gold: 4 in 2-player games, 5 with more, plus this."""
    estates_at: int = 2
    buy_at_least: float = 0.9
    """A card worth less is not bought (Copper and junk are not)."""
    coppers_kept: int = 7
    """Coppers are trashed only while the rest of the deck makes at least this much $."""


W = Weights()


@dataclass(frozen=True)
class Deck:
    """The make-up of a seat's cards, summed up."""

    size: int
    money: float
    """$ its Treasures make, and its Actions' +$."""
    terminals: int
    villages: int
    trashers: int
    junk: int
    coppers: int

    @property
    def density(self) -> float:
        """$ per card drawn."""
        return self.money / max(1, self.size)


def deck_of(seen: Observation) -> Deck:
    size = terminals = villages = trashers = junks = 0
    money = 0.0
    for name, n in seen.owned.items():
        t = traits(name)
        size += n
        money += n * t.coins
        terminals += n * t.terminal
        villages += n * t.village
        trashers += n * bool(t.trashes or t.remodels)
        junks += n * junk(name)
    return Deck(size, money, terminals, villages, trashers, junks, seen.owned.get("Copper", 0))


def provinces_left(seen: Observation) -> int:
    return seen.supply.get("Province", 0)


def provinces_to_go(seen: Observation) -> int:
    """The Provinces left, as far as greening goes: a game still going after `DRAG_FROM`
    turns (decks that cannot reach a Province — under Panic, say, Treasures are gone once
    played) greens as if one more were gone every 3 turns, so that it ends on the other
    piles instead of running into the service's turn limit."""
    return provinces_left(seen) - max(0, (seen.turns - DRAG_FROM) // 3)


def greening(seen: Observation) -> float:
    """0 while building, rising to 1 as the Provinces run out (a third gone: 0.4)."""
    start = PROVINCES_AT_START.get(len(seen.vp), 8)
    return min(1.0, 1 - provinces_to_go(seen) / start)


def cost_of(seen: Observation, name: str) -> Cost:
    """The cost right now (Flourishing Trade lowers coin costs once active)."""
    printed = CARDS[name].cost
    if seen.prophecy == "Flourishing Trade" and printed.coins:
        return Cost(coins=printed.coins - 1, debt=printed.debt)
    return printed


def lead(seen: Observation) -> int:
    """This seat's VP minus the best other seat's."""
    others = [vp for seat, vp in enumerate(seen.vp) if seat != seen.seat]
    return seen.vp[seen.seat] - max(others, default=0)


def draw_worth(deck: Deck) -> float:
    """$ a drawn card is worth: the deck's density, but no less than a floor, as the
    deck's money grows while the card stays."""
    return max(deck.density, W.draw_floor)


def treasures_leave_when_played(seen: Observation) -> bool:
    """The active Prophecy returns Treasures discarded from play to their piles (Panic):
    each Treasure makes its $ once, then is gone."""
    prophecy = PROPHECIES.get(seen.prophecy or "")
    return prophecy is not None and bool(TREASURES_RETURN.search(prophecy.text))


def treasures_are_actions(seen: Observation) -> bool:
    """The game's Prophecy (even before it is active) makes Treasures Actions."""
    prophecy = PROPHECIES.get(seen.upcoming_prophecy or "")
    return prophecy is not None and bool(TREASURES_ARE_ACTIONS.search(prophecy.text))


def action_in_trash(seen: Observation, trashes_itself: bool) -> bool:
    """The trash holds an Action card, or the card can put one there (a Treasure, once
    Treasures are Actions)."""
    if any(CARDS[c].is_("Action") for c in seen.trash):
        return True
    return trashes_itself and treasures_are_actions(seen)


def play_value(name: str, deck: Deck, seen: Observation) -> float:
    """What playing the card gives now, in $ (draws count at the deck's density)."""
    t = traits(name)
    draws = t.draws
    if t.draws_if_action_trashed:
        draws = t.draws_if_action_trashed if action_in_trash(seen, bool(t.trashes)) else 0.0
    value = t.coins + draws * draw_worth(deck) + 0.3 * t.buys - DEBT_WEIGHT * t.debt
    if t.curses_others and seen.supply.get("Curse", 0):
        value += W.curse_attack * t.curse_chance
    if t.hand_attack:
        value += W.hand_attack
    if t.every_turn_coins:
        value += W.every_turn * (1 - greening(seen))
    return value


def buy_phase_play_value(name: str, seen: Observation, deck: Deck) -> float:
    """Playing an Action in the Buy phase (an Event's doing): the Treasures are played, so
    cards it draws are no use, and its +$ only with a Buy left."""
    t = traits(name)
    value = play_value(name, deck, seen) - t.draws * draw_worth(deck)
    if seen.buys <= 1:
        value -= t.coins
    return value


def action_value(name: str, deck: Deck, seen: Observation) -> float:
    """An Action card's worth in the deck: its play, how it fits the deck's Actions, and
    what its trashing or gaining adds while the game is young."""
    t = traits(name)
    early = 1 - greening(seen)
    value = play_value(name, deck, seen)
    if CARDS[name].is_("Shadow"):
        value += W.shadow * draw_worth(deck)  # played from the deck, it leaves a hand slot
    if t.village:
        value += W.village * max(0, min(deck.terminals - deck.villages - 1, 3))
    if t.trashes and deck.trashers == 0 and deck.junk + deck.coppers > 4:
        # A trasher that makes nothing itself slows a money deck more than it thins it.
        value += W.trasher * early * min(1.0, max(0.0, value) / 2)
    if t.remodels:
        value += W.remodeler if deck.trashers == 0 else W.remodeler / 3
    if t.gains:
        value += W.gainer * (early + 0.5) - W.gain_debt * t.gain_debt
    if t.terminal:
        allowed = 1 + deck.size // W.terminals_per_card + deck.villages
        if deck.terminals >= allowed:
            value -= W.collision + deck.terminals - allowed
    value -= W.variety * seen.owned.get(name, 0)
    return value


def vp_of(name: str) -> int:
    return CARDS[name].vp


def gain_value(name: str, deck: Deck, seen: Observation) -> float:
    """How good gaining `name` is now (negative: better not). Gaining a card costs no
    Debt; buying one does (`debt_penalty`)."""
    card = CARDS[name]
    if card.is_("Curse"):
        return -10.0
    if card.is_("Victory") and not card.is_("Action") and not card.is_("Treasure"):
        return victory_value(name, seen)
    if card.is_("Action"):
        value = action_value(name, deck, seen)
    else:
        t = traits(name)
        value = t.coins + 0.3 * t.buys
        if name == "Copper":
            value = 0.8 - deck.density if deck.density < 0.9 else -0.5
        if treasures_leave_when_played(seen):
            value *= 0.25  # a Treasure discarded from play goes back to its pile
    return value * (1 - W.late_discount * greening(seen) ** 2)


def debt_penalty(cost: Cost, seen: Observation) -> float:
    """What buying a card for Debt takes from its value: little while this turn's spare
    $ pays it off, much once it is carried into the next turns' Buy phases."""
    spare = max(0, seen.coins - cost.coins)
    paid_now = min(cost.debt, spare)
    return W.debt_cost * paid_now + W.debt_carried * (cost.debt - paid_now)


def victory_value(name: str, seen: Observation) -> float:
    """Victory cards are worth buying once the game nears its end: the more so the
    fewer Provinces are left."""
    vp = vp_of(name)
    left = provinces_to_go(seen)
    if name == "Province":
        return 100.0
    if vp >= 3:
        return (
            5.0 if left <= duchy_point(seen) else (1.5 if left <= duchy_point(seen) + 2 else -1.0)
        )
    return 2.5 if left <= W.estates_at else (0.8 if left <= W.estates_at + 1 else -2.0)


def duchy_point(seen: Observation) -> int:
    """Provinces left at which Duchies beat Gold (more with more players)."""
    return (4 if len(seen.vp) <= 2 else 5) + W.duchy_extra


def discard_score(name: str, deck: Deck, seen: Observation) -> float:
    """Above 0: glad to discard it; the higher, the gladder."""
    if junk(name):
        return 2.0
    t = traits(name)
    if t.action and seen.phase == "action" and seen.actions == 0 and seen.active == seen.seat:
        return 0.5 if t.terminal else -0.5
    if name == "Copper":
        return -1.2
    return -1.5 - max(t.coins, play_value(name, deck, seen))


def trash_score(name: str, deck: Deck, seen: Observation, remodel: bool) -> float:
    """Above 0: glad to trash it (to remodel it into something better when `remodel`)."""
    late = greening(seen)
    if CARDS[name].is_("Curse"):
        return 6.0
    if name == "Estate":
        return 3.0 if late < 0.5 or remodel else -3.0
    if junk(name):
        return -4.0 - 2 * vp_of(name)
    if name == "Copper":
        money_without = deck.money - 1
        return 1.0 if money_without >= W.coppers_kept and late < 0.6 else -1.0
    if remodel and name == "Gold" and late > 0.4:
        return 2.0
    value = traits(name).coins if not traits(name).action else play_value(name, deck, seen)
    return -2.0 - value
