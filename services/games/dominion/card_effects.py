"""The rules each special kingdom card adds to its "+" row: one function per card, named
after it. A function is called again after each decision it opens (its progress is
`frame.sub`) and returns True once the card's text is done."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import cast

from .cards import Cost
from .costs import cost, is_, types_of, up_to, up_to_more_than
from .decisions import ask, take
from .gaining import costing, gain, take_debt
from .log import CardReturned
from .resolution import registry
from .state import Frame
from .table import Table
from .zones import cards_in_play, discard_from_hand, draw, reveal, top_card, trash_from_hand

Special = Callable[[Table, Frame], bool]
SPECIALS: dict[str, Special] = {}
special = registry(SPECIALS)


# --- small shared steps ---------------------------------------------------------------


def ask_hand(
    t: Table,
    f: Frame,
    kind: str,
    text: str,
    lo: int = 1,
    hi: int = 1,
    sizes: list[int] | None = None,
) -> bool:
    f.sub += 1
    ask(f, f.seat, kind, f"{f.card}: {text}", t.player(f.seat).hand, lo, hi, sizes=sizes)
    return False


def ask_gain(t: Table, f: Frame, text: str, test: Callable[[Cost], bool]) -> bool:
    f.sub += 1
    ask(f, f.seat, "gain", f"{f.card}: {text}", costing(t, test), from_hand=False)
    return False


def ask_yes_no(f: Frame, kind: str, question: str) -> bool:
    f.sub += 1
    ask(f, f.seat, kind, f"{f.card}: {question}", ["Yes", "No"], distinct=True, from_hand=False)
    return False


def trash_picked(t: Table, f: Frame) -> str | None:
    """Trash the cards picked (if any); the first one, for cards that trash one."""
    picks = take(f, f.seat) or []
    trash_from_hand(t, f.seat, picks)
    return picks[0] if picks else None


def gain_picked(t: Table, f: Frame, to: str = "discard") -> str | None:
    picks = take(f, f.seat)
    if picks:
        gain(t, f.seat, picks[0], to)
        return picks[0]
    return None


def victims(t: Table, f: Frame) -> list[int]:
    """The other players an Attack's play affects: all but those who revealed Moat."""
    immune = f.vars.get("immune")
    shielded = immune if isinstance(immune, list) else []
    return [other for other in t.others(f.seat) if str(other) not in shielded]


def ask_discard_down_to_3(t: Table, f: Frame) -> bool:
    """Every affected player decides at the same time; the card waits for them all."""
    f.sub += 1
    for other in victims(t, f):
        hand = t.player(other).hand
        extra = len(hand) - 3
        if extra > 0:
            ask(
                f,
                other,
                "discard",
                f"{f.card}: discard down to 3 cards in hand.",
                hand,
                extra,
                extra,
            )
    return False


def discard_down_to_3(t: Table, f: Frame) -> None:
    for other in victims(t, f):
        discard_from_hand(t, other, take(f, other) or [])


# --- the cards ------------------------------------------------------------------------


@special("Alley")
def alley(t: Table, f: Frame) -> bool:
    if f.sub == 0:
        return ask_hand(t, f, "discard", "discard a card.")
    discard_from_hand(t, f.seat, take(f, f.seat) or [])
    return True


ARISTOCRAT_GIFTS = {
    1: "actions",
    5: "actions",
    2: "cards",
    6: "cards",
    3: "coins",
    7: "coins",
    4: "buys",
    8: "buys",
}


@special("Aristocrat")
def aristocrat(t: Table, f: Frame) -> bool:
    """ "What matters is how many Aristocrats you have in play, not how many you played."""
    gift = ARISTOCRAT_GIFTS.get(cards_in_play(t.player(f.seat)).count("Aristocrat"))
    turn = t.s.turn
    if gift == "cards":
        draw(t, f.seat, 3)
    elif gift:
        setattr(turn, gift, getattr(turn, gift) + 3)
    return True


@special("Artist")
def artist(t: Table, f: Frame) -> bool:
    """ "+1 Card per card you have exactly one copy of in play" (itself included)."""
    copies = Counter(cards_in_play(t.player(f.seat)))
    draw(t, f.seat, sum(1 for n in copies.values() if n == 1))
    return True


@special("Change")
def change(t: Table, f: Frame) -> bool:
    if f.sub == 0 and t.player(f.seat).debt:
        t.s.turn.coins += 3
        return True
    if f.sub == 0:
        return ask_hand(t, f, "trash", "trash a card from your hand.")
    if f.sub == 1:
        trashed = trash_picked(t, f)
        if trashed is None:
            return True
        base = f.vars["base"] = cost(t, trashed).coins
        return ask_gain(
            t, f, f"gain a card costing more $ than {trashed} (${base}).", lambda c: c.coins > base
        )
    picks = take(f, f.seat)
    if picks:
        difference = cost(t, picks[0]).coins - cast(int, f.vars["base"])
        gain(t, f.seat, picks[0])
        take_debt(t, f.seat, difference, "Change")
    return True


def gain_costing_up_to(coins: int) -> Callable[[Table, Frame], bool]:
    """ "Gain a card costing up to $N" (Workshop, Craftsman)."""

    def effect(t: Table, f: Frame) -> bool:
        if f.sub == 0:
            text = f"gain a card costing up to ${coins}."
            return ask_gain(t, f, text, lambda c: up_to(c, coins))
        gain_picked(t, f)
        return True

    return effect


special("Craftsman")(gain_costing_up_to(5))


@special("Daimyo")
def daimyo(t: Table, f: Frame) -> bool:
    t.s.turn.daimyo += 1
    return True


@special("Gold Mine")
def gold_mine(t: Table, f: Frame) -> bool:
    """ "You can't gain a Gold without taking 4 Debt" — nor take the Debt without a Gold."""
    if f.sub == 0:
        if not t.s.supply.get("Gold"):
            return True
        return ask_yes_no(f, "choose_options", "gain a Gold and get +4 Debt?")
    if take(f, f.seat) == ["Yes"]:
        gain(t, f.seat, "Gold")
        take_debt(t, f.seat, 4, "Gold Mine")
    return True


KITSUNE_OPTIONS = ["+2 Actions", "+$2", "Each other player gains a Curse", "Gain a Silver"]


@special("Kitsune")
def kitsune(t: Table, f: Frame) -> bool:
    """The rulebook: "Choose two different options, and do them in the order listed." """
    if f.sub == 0:
        f.sub = 1
        ask(
            f,
            f.seat,
            "choose_options",
            "Kitsune: choose two different options.",
            KITSUNE_OPTIONS,
            2,
            2,
            distinct=True,
            from_hand=False,
        )
        return False
    chosen = take(f, f.seat) or []
    if "+2 Actions" in chosen:
        t.s.turn.actions += 2
    if "+$2" in chosen:
        t.s.turn.coins += 2
    if "Each other player gains a Curse" in chosen:
        for other in victims(t, f):
            gain(t, other, "Curse")
    if "Gain a Silver" in chosen:
        gain(t, f.seat, "Silver")
    return True


@special("Mountain Shrine")
def mountain_shrine(t: Table, f: Frame) -> bool:
    """The rulebook: "It doesn't matter who trashed an Action or when, just that there is
    one in the trash."
    """
    if f.sub == 0:
        return ask_hand(t, f, "trash", "you may trash a card from your hand.", 0, 1)
    trash_picked(t, f)
    if any(is_(t, card, "Action") for card in t.s.trash):
        draw(t, f.seat, 2)
    return True


def others_discard_down_to_3(t: Table, f: Frame) -> bool:
    """ "Each other player discards down to 3 cards in hand" (Ninja, Militia)."""
    if f.sub == 0:
        return ask_discard_down_to_3(t, f)
    discard_down_to_3(t, f)
    return True


special("Ninja")(others_discard_down_to_3)


@special("Poet")
def poet(t: Table, f: Frame) -> bool:
    """Debt costs are not "$3 or less"; otherwise the card stays on top of the deck."""
    card = top_card(t, f.seat)
    if card is None:
        return True
    reveal(t, f.seat, [card])
    if up_to(cost(t, card), 3):
        p = t.player(f.seat)
        p.hand.append(p.deck.pop())
    return True


@special("Rice")
def rice(t: Table, f: Frame) -> bool:
    kinds: set[str] = set()
    for card in cards_in_play(t.player(f.seat)):
        kinds |= types_of(t, card)
    t.s.turn.coins += len(kinds)
    return True


@special("Rice Broker")
def rice_broker(t: Table, f: Frame) -> bool:
    """A Treasure-Action gives "+2 Cards and then +5 Cards"."""
    if f.sub == 0:
        return ask_hand(t, f, "trash", "trash a card from your hand.")
    trashed = trash_picked(t, f)
    if trashed and is_(t, trashed, "Treasure"):
        draw(t, f.seat, 2)
    if trashed and is_(t, trashed, "Action"):
        draw(t, f.seat, 5)
    return True


@special("River Shrine")
def river_shrine(t: Table, f: Frame) -> bool:
    if f.sub == 0:
        return ask_hand(t, f, "trash", "trash up to 2 cards from your hand.", 0, 2)
    trash_picked(t, f)
    t.s.turn.river_shrines += 1  # each play gains at the start of Clean-up
    return True


@special("Riverboat")
def riverboat(t: Table, f: Frame) -> bool:
    t.player(f.seat).riverboats += 1
    return True


@special("Ronin")
def ronin(t: Table, f: Frame) -> bool:
    draw(t, f.seat, 7 - len(t.player(f.seat).hand))
    return True


@special("Rustic Village")
def rustic_village(t: Table, f: Frame) -> bool:
    if f.sub == 0:
        return ask_hand(t, f, "discard", "you may discard 2 cards for +1 Card.", 0, 2, [0, 2])
    picks = take(f, f.seat) or []
    if len(picks) == 2:
        discard_from_hand(t, f.seat, picks)
        draw(t, f.seat, 1)
    return True


@special("Samurai")
def samurai(t: Table, f: Frame) -> bool:
    if f.sub == 0:
        return ask_discard_down_to_3(t, f)
    discard_down_to_3(t, f)
    t.player(f.seat).samurai += 1  # +$1 at the start of each of your turns this game
    return True


@special("Snake Witch")
def snake_witch(t: Table, f: Frame) -> bool:
    """ "If you can't return Snake Witch to its pile for some reason, the other players do
    not gain a Curse." No cards in hand means no duplicates."""
    if f.sub == 0:
        hand = t.player(f.seat).hand
        if len(set(hand)) != len(hand):
            return True
        return ask_yes_no(
            f,
            "reveal",
            "reveal your hand (no duplicates) and return Snake "
            "Witch to its pile, to have each other player gain a Curse?",
        )
    if take(f, f.seat) == ["Yes"]:
        reveal(t, f.seat, t.player(f.seat).hand)
        if return_to_pile(t, f):
            for other in victims(t, f):
                gain(t, other, "Curse")
    return True


def return_to_pile(t: Table, f: Frame) -> bool:
    p = t.player(f.seat)
    if f.vars["where"] != "play" or f.card not in p.in_play or f.card not in t.s.supply:
        return False
    p.in_play.reverse()
    p.in_play.remove(f.card)
    p.in_play.reverse()
    t.s.supply[f.card] += 1
    f.vars["where"] = "gone"
    t.log.append(CardReturned(seat=f.seat, card=f.card))
    return True


@special("Tanuki")
def tanuki(t: Table, f: Frame) -> bool:
    """Like Remodel: "up to $2 more" keeps the trashed card's Debt (Artist → Daimyo)."""
    if f.sub == 0:
        return ask_hand(t, f, "trash", "trash a card from your hand.")
    if f.sub == 1:
        trashed = trash_picked(t, f)
        if trashed is None:
            return True
        base = cost(t, trashed)
        return ask_gain(
            t,
            f,
            f"gain a card costing up to $2 more than {trashed}.",
            lambda c: up_to_more_than(c, base, 2),
        )
    gain_picked(t, f)
    return True
