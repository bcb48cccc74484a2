"""Omens' Sun tokens and the Prophecy: removing the last Sun makes it active "right then
and for the rest of the game", in the middle of resolving the Omen if need be.

Prophecies that change ongoing rules are checked where the rule applies (`t.prophecy`):
costs (Flourishing Trade), types (Enlightenment), gaining (Bureaucracy, Growth, Harsh
Winter, Progress, Rapid Expansion), playing (Approaching Army, Good Harvest, Great Leader,
Panic), the turn (Biding Time, Kind Emperor, Sickness). This module holds the rest.
"""

from __future__ import annotations

from .costs import is_
from .decisions import ask, take
from .gaining import gain, gainable
from .log import PilesReplaced, ProphecyActive, SunRemoved
from .resolution import done, handles, push
from .setup import deal_new_piles, pile_size
from .state import Frame
from .table import Table
from .zones import discard_from_hand

SICKNESS_CURSE = "Gain a Curse onto your deck"
SICKNESS_DISCARD = "Discard 3 cards"


def remove_sun(t: Table, seat: int) -> None:
    """ "+1 Sun" removes a token; "+1 Sun does nothing else once all the tokens are removed"."""
    s = t.s
    if s.sun == 0:
        return
    s.sun -= 1
    t.log.append(SunRemoved(seat=seat, left=s.sun))
    if s.sun == 0:
        activate(t, seat)


def activate(t: Table, seat: int) -> None:
    t.log.append(ProphecyActive(seat=seat, prophecy=t.s.prophecy or ""))
    if t.s.prophecy == "Divine Wind":
        divine_wind(t, seat)
    elif t.s.prophecy == "Kind Emperor":
        # "only the player who removed the Sun gains an Action then"
        push(t, "kind_emperor", seat)


def divine_wind(t: Table, seat: int) -> None:
    """Remove every kingdom pile (and an added 11th); deal 10 new ones. "The removed piles
    are gone; they no longer count as empty piles", and nothing can return to them."""
    s = t.s
    removed = list(s.kingdom)
    for name in removed:
        s.removed_piles[name] = s.supply.pop(name)
        s.pile_debt.pop(name, None)
    added = deal_new_piles(s, s.rng)
    for name in added:
        s.supply[name] = pile_size(name, s.players)
    s.kingdom = added
    s.dealt += added
    t.log.append(PilesReplaced(seat=seat, removed=removed, added=added))


@handles("kind_emperor")
def kind_emperor(t: Table, f: Frame) -> None:
    """ "Gain an Action to your hand" — any Action, "regardless of cost. This is not optional."""
    if f.sub == 0:
        f.sub = 1
        options = gainable(t, lambda name: is_(t, name, "Action"))
        ask(
            f,
            f.seat,
            "gain",
            "Kind Emperor: gain an Action card to your hand.",
            options,
            from_hand=False,
        )
        return
    picks = take(f, f.seat)
    done(t, f)
    if picks:
        gain(t, f.seat, picks[0], "hand")


@handles("sickness")
def sickness(t: Table, f: Frame) -> None:
    """ "You can choose to gain a Curse even if the Curse pile is empty, or to discard cards
    even if you have fewer than 3 cards in hand (in which case, discard as many as you can)."
    """
    if f.sub == 0:
        f.sub = 1
        ask(
            f,
            f.seat,
            "choose_options",
            "Sickness: choose one.",
            [SICKNESS_CURSE, SICKNESS_DISCARD],
            distinct=True,
            from_hand=False,
        )
        return
    if f.sub == 1:
        f.sub = 2
        if take(f, f.seat) == [SICKNESS_CURSE]:
            done(t, f)
            gain(t, f.seat, "Curse", "deck")
            return
        hand = t.player(f.seat).hand
        ask(f, f.seat, "discard", "Sickness: discard 3 cards.", hand, 3, 3)
        return
    discard_from_hand(t, f.seat, take(f, f.seat) or [])
    done(t, f)
