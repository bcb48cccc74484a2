"""The 10 Events: what each does once bought, one function per Event named after it.

Like card specials, a function is called again after each decision it opens and returns
True when done. Buying (cost, Buys, Debt) is in `turn.py`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from .card_effects import ask_gain, ask_hand, gain_picked, trash_picked
from .costs import cost, exactly, is_, up_to, up_to_more_than
from .decisions import ask, take
from .gaining import gain, gainable, take_debt
from .playing import play_picked_twice, playable_actions, start_play
from .resolution import done, handles, registry
from .state import Frame
from .table import Table
from .zones import cards_in_play, draw, reveal, take_from_discard, top_card, trash_from_hand

EventEffect = Callable[[Table, Frame], bool]
EVENT_EFFECTS: dict[str, EventEffect] = {}
event = registry(EVENT_EFFECTS)


@handles("event")
def resolve_event(t: Table, f: Frame) -> None:
    if EVENT_EFFECTS[f.card](t, f):
        done(t, f)


def actions_in_play(t: Table, seat: int) -> int:
    return sum(1 for card in cards_in_play(t.player(seat)) if is_(t, card, "Action"))


def ask_gain_among(f: Frame, text: str, options: list[str], optional: bool = False) -> bool:
    f.sub += 1
    ask(f, f.seat, "gain", f"{f.card}: {text}", options, 0 if optional else 1, 1, from_hand=False)
    return False


@event("Amass")
def amass(t: Table, f: Frame) -> bool:
    """Durations from earlier turns still in play count as Action cards in play."""
    if f.sub == 0:
        if actions_in_play(t, f.seat):
            return True
        options = gainable(t, lambda n: is_(t, n, "Action") and up_to(cost(t, n), 5))
        return ask_gain_among(f, "gain an Action card costing up to $5.", options)
    gain_picked(t, f)
    return True


@event("Asceticism")
def asceticism(t: Table, f: Frame) -> bool:
    """The rulebook: "Pay any amount of $ to trash that many cards from your hand." """
    if f.sub == 0:
        most = min(t.s.turn.coins, len(t.player(f.seat).hand))
        return ask_hand(t, f, "trash", "pay $1 per card to trash that many cards.", 0, most)
    picks = take(f, f.seat) or []
    t.s.turn.coins -= len(picks)
    trash_from_hand(t, f.seat, picks)
    return True


@event("Continue")
def continue_(t: Table, f: Frame) -> bool:
    """Gain, "return to your Action phase and play it" — if it is still where it was gained
    (a card moved by Progress or Rapid Expansion is lost track of; cards put on top of it
    in the discard pile do not move it). Then +1 Action, +1 Buy.
    This play uses none of your Action plays."""
    if f.sub == 0:
        options = gainable(
            t, lambda n: is_(t, n, "Action") and not is_(t, n, "Attack") and up_to(cost(t, n), 4)
        )
        return ask_gain_among(f, "gain a non-Attack Action card costing up to $4.", options)
    if f.sub == 1:
        f.sub = 2
        picks = take(f, f.seat)
        f.vars["gained_at"] = len(t.player(f.seat).discard)  # where a gain there goes
        f.vars["gained"] = picks[0] if picks and gain(t, f.seat, picks[0]) == "discard" else None
        return False
    if f.sub == 2:
        f.sub = 3
        t.s.turn.phase = "action"
        play_gained(t, f)
        return False
    t.s.turn.actions += 1
    t.s.turn.buys += 1
    return True


def play_gained(t: Table, f: Frame) -> None:
    """The card is still where it was gained if it lies where it went in the discard pile,
    though a when-gain effect (Bureaucracy's Copper, another player's Blockade's Curse)
    may have put cards on top of it."""
    card, at, p = f.vars["gained"], f.vars["gained_at"], t.player(f.seat)
    if card and isinstance(at, int) and 0 <= at < len(p.discard) and p.discard[at] == card:
        take_from_discard(p, at)
        p.in_play.append(card)
        start_play(t, f.seat, card, "gained", "play")


@event("Credit")
def credit(t: Table, f: Frame) -> bool:
    """The rulebook: "This can't gain cards with Debt in the cost." """
    if f.sub == 0:
        options = gainable(
            t, lambda n: (is_(t, n, "Action") or is_(t, n, "Treasure")) and up_to(cost(t, n), 8)
        )
        return ask_gain_among(f, "gain an Action or Treasure costing up to $8.", options)
    picks = take(f, f.seat)
    if picks:
        price = cost(t, picks[0]).coins
        gain(t, f.seat, picks[0])
        take_debt(t, f.seat, price, "Credit")
    return True


@event("Foresight")
def foresight(t: Table, f: Frame) -> bool:
    p, revealed = t.player(f.seat), []
    while top_card(t, f.seat) is not None:
        revealed.append(p.deck.pop())
        if is_(t, revealed[-1], "Action"):
            break
    reveal(t, f.seat, revealed)
    if revealed and is_(t, revealed[-1], "Action"):
        p.foresight.append(revealed.pop())  # into your hand at end of turn
    p.discard += revealed
    return True


@event("Gather")
def gather(t: Table, f: Frame) -> bool:
    """The rulebook: "You gain the three cards in the order listed; none are optional." """
    amount = 3 + f.sub // 2
    if f.sub % 2 == 0:
        return ask_gain(
            t, f, f"gain a card costing exactly ${amount}.", lambda c: exactly(c, amount)
        )
    gain_picked(t, f)
    f.sub += 1
    return f.sub == 6


@event("Kintsugi")
def kintsugi(t: Table, f: Frame) -> bool:
    """ "If you have [gained a Gold this game], buying Kintsugi will both trash and gain a
    card, even if you no longer have the Gold."
    """
    if f.sub == 0:
        return ask_hand(t, f, "trash", "trash a card from your hand.")
    if f.sub == 1:
        trashed = trash_picked(t, f)
        if trashed is None or not t.player(f.seat).gained_gold:
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


@event("Practice")
def practice(t: Table, f: Frame) -> bool:
    """ "You may play an Action card from your hand twice" (or a Shadow from your deck)."""
    if f.sub == 0:
        f.sub = 1
        ask(
            f,
            f.seat,
            "play",
            "Practice: you may play an Action card twice.",
            playable_actions(t, f.seat),
            0,
            1,
        )
        return False
    picks = take(f, f.seat)
    if picks:
        play_picked_twice(t, f.seat, picks[0])
    return True


@event("Receive Tribute")
def receive_tribute(t: Table, f: Frame) -> bool:
    """Up to 3 differently named Actions you don't have in play, "one at a time"."""
    if f.sub == 0 and t.s.turn.gained < 3:
        return True
    if f.sub % 2 == 0:
        if f.sub == 6:
            return True
        got = cast(list[str], f.vars.setdefault("got", []))
        here = cards_in_play(t.player(f.seat))
        options = gainable(t, lambda n: is_(t, n, "Action") and n not in got and n not in here)
        return ask_gain_among(
            f, "you may gain an Action card you have no copy of in play.", options, optional=True
        )
    picks = take(f, f.seat)
    if not picks:
        return True
    cast(list[str], f.vars["got"]).append(picks[0])
    gain(t, f.seat, picks[0])
    f.sub += 1
    return False


@event("Sea Trade")
def sea_trade(t: Table, f: Frame) -> bool:
    """The rulebook: "Drawing cards is not optional, but trashing cards is." """
    if f.sub == 0:
        n = actions_in_play(t, f.seat)
        draw(t, f.seat, n)
        return ask_hand(t, f, "trash", f"you may trash up to {n} cards from your hand.", 0, n)
    trash_from_hand(t, f.seat, take(f, f.seat) or [])
    return True
