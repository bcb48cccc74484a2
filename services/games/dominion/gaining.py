"""Gaining a card, and everything that happens when one is gained (Prophecies' triggers)."""

from __future__ import annotations

from collections.abc import Callable

from services.engine.state import unchecked

from .cards import Cost
from .costs import cheaper, cost, costs_zero, is_
from .decisions import ask, take
from .log import CardGained, DebtChanged
from .resolution import done, handles, push
from .state import Frame
from .table import Table


def gainable(t: Table, test: Callable[[str], bool]) -> list[str]:
    """Supply piles that still have a card and pass `test`, in Supply order."""
    return [name for name, left in t.s.supply.items() if left > 0 and test(name)]


def costing(t: Table, test: Callable[[Cost], bool]) -> list[str]:
    return gainable(t, lambda name: test(cost(t, name)))


def gain(
    t: Table, seat: int, card: str, to: str = "discard", *, by_blockade: bool = False
) -> str | None:
    """Gain `card` from its pile. Returns where it went, or None if the pile is empty."""
    if t.s.supply.get(card, 0) <= 0:
        return None
    t.s.supply[card] -= 1
    return gained(t, seat, card, to, by_blockade)


def gain_from_trash(t: Table, seat: int, card: str) -> str | None:
    """Lurker: gain a card from the trash (to the discard pile, like a gain from the Supply)."""
    if card not in t.s.trash:
        return None
    t.s.trash.reverse()
    t.s.trash.remove(card)
    t.s.trash.reverse()
    return gained(t, seat, card, "discard")


_new_card_gained = unchecked(CardGained)


def gained(t: Table, seat: int, card: str, to: str, by_blockade: bool = False) -> str:
    s = t.s
    if s.prophecy is not None and not s.sun:
        to = destination(t, card, to)
    p = s.player_states[seat]
    if to == "discard":
        p.discard.append(card)
    elif to == "blockade":
        p.blockades.append(card)
        p.blockade_victims.append(0)  # Blockade fills in who its Attack hits
    else:
        {"hand": p.hand, "deck": p.deck, "rapid": p.rapid}[to].append(card)
    t.log.append(_new_card_gained(seat=seat, card=card, to=to))
    note_gain(t, seat, card)
    when_gain(t, seat, card, by_blockade)
    return to


def destination(t: Table, card: str, to: str) -> str:
    if t.s.prophecy is None or t.s.sun:
        return to  # no Prophecy active: the common case, without asking by name
    if t.prophecy("Progress"):
        return "deck"  # "This is not optional; all gained cards go onto your deck."
    if t.prophecy("Rapid Expansion") and (is_(t, card, "Action") or is_(t, card, "Treasure")):
        return "rapid"
    return to


def note_gain(t: Table, seat: int, card: str) -> None:
    s = t.s
    if card == "Gold":
        s.player_states[seat].gained_gold = True  # Kintsugi remembers this all game
    turn = s.turn
    if seat == turn.seat:
        turn.gained += 1
        if turn.phase == "buy":
            turn.gained_in_buy = True


def when_gain(t: Table, seat: int, card: str, by_blockade: bool = False) -> None:
    s = t.s
    if seat == s.turn.seat and not by_blockade:
        for _ in range(blockade_curses(t, seat, card)):
            gain(t, seat, "Curse", by_blockade=True)
    if s.prophecy is None or s.sun:
        return  # no Prophecy active
    if t.prophecy("Harsh Winter") and seat == t.active:
        harsh_winter(t, seat, card)
    if t.prophecy("Bureaucracy") and not costs_zero(cost(t, card)):
        gain(t, seat, "Copper")
    if t.prophecy("Growth") and is_(t, card, "Treasure"):
        push(t, "growth", seat, card)


def blockade_curses(t: Table, seat: int, card: str) -> int:
    """Blockade: "while it's set aside, when another player gains a copy of it on their
    turn, they gain a Curse" — a Curse for each copy set aside (each Blockade play's own
    lasting attack, whoever's it is); the Curses this gives do not themselves trigger
    Blockade (RULES-NOTES.md)."""
    curses = 0
    for other, p in enumerate(t.s.player_states):
        if p.blockades and other != seat and card in p.blockades:
            for held, hit in zip(p.blockades, p.blockade_victims, strict=True):
                if held == card and hit >> seat & 1:
                    curses += 1
    return curses


def harsh_winter(t: Table, seat: int, card: str) -> None:
    """The rulebook: "If there's Debt on its pile, take it; otherwise put 2 Debt on its pile." """
    on_pile = t.s.pile_debt.pop(card, 0)
    if on_pile:
        take_debt(t, seat, on_pile, "Harsh Winter")
    else:
        t.s.pile_debt[card] = 2


def take_debt(t: Table, seat: int, amount: int, reason: str) -> None:
    if amount <= 0:
        return
    p = t.player(seat)
    p.debt += amount
    t.log.append(DebtChanged(seat=seat, change=amount, debt=p.debt, reason=reason))


@handles("growth")
def growth(t: Table, f: Frame) -> None:
    """ "If you gain a Treasure, you have to gain a cheaper card if you can." It chains."""
    if f.sub == 0:
        f.sub = 1
        price = cost(t, f.card)
        options = costing(t, lambda c: cheaper(c, price))
        ask(
            f,
            f.seat,
            "gain",
            f"Growth: gain a card cheaper than {f.card}.",
            options,
            from_hand=False,
        )
        return
    picks = take(f, f.seat)
    done(t, f)
    if picks:
        gain(t, f.seat, picks[0])
