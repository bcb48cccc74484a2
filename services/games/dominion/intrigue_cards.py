"""The Intrigue cards (2nd edition) of Rising Sun's recommended sets: "Solving the
Puzzle" and "Cold Calculation", and Upgrade (Riverboat's card there). Duke is scored in
`scoring.py`; Diplomat's Reaction is in `reactions.py`."""

from __future__ import annotations

from .card_effects import ask_gain, ask_hand, ask_yes_no, special, trash_picked
from .cards import Cost
from .costs import cost, is_, types_of, up_to
from .decisions import ask, take
from .gaining import gain, gain_from_trash, gainable
from .log import CardsPutOnDeck, CardsTrashedFromSupply
from .state import Frame
from .table import Table
from .zones import discard_from_hand, draw, reveal, top_card


@special("Baron")
def baron(t: Table, f: Frame) -> bool:
    """Discarding an Estate is optional; if you don't, you gain one (if any are left)."""
    if f.sub == 0:
        if "Estate" not in t.player(f.seat).hand:
            gain(t, f.seat, "Estate")
            return True
        return ask_yes_no(f, "discard", "discard an Estate for +$4? (If not, gain an Estate.)")
    if take(f, f.seat) == ["Yes"]:
        discard_from_hand(t, f.seat, ["Estate"])
        t.s.turn.coins += 4
    else:
        gain(t, f.seat, "Estate")
    return True


@special("Conspirator")
def conspirator(t: Table, f: Frame) -> bool:
    """Every Action play this turn counts, this one and replays included (checked once)."""
    if t.s.turn.actions_played >= 3:
        draw(t, f.seat, 1)
        t.s.turn.actions += 1
    return True


COURTIER_OPTIONS = ["+1 Action", "+1 Buy", "+$3", "Gain a Gold"]


@special("Courtier")
def courtier(t: Table, f: Frame) -> bool:
    """One choice per type of the revealed card, all different (so at most 4)."""
    if f.sub == 0:
        return ask_hand(t, f, "reveal", "reveal a card from your hand.")
    if f.sub == 1:
        picks = take(f, f.seat)
        if not picks:
            return True  # no card in hand: no bonus
        reveal(t, f.seat, picks)
        count = len(types_of(t, picks[0]))
        f.sub = 2
        text = f"Courtier: {picks[0]} has {count} type(s); choose {count} different options."
        ask(
            f,
            f.seat,
            "choose_options",
            text,
            COURTIER_OPTIONS,
            count,
            count,
            distinct=True,
            from_hand=False,
        )
        return False
    chosen = take(f, f.seat) or []
    turn = t.s.turn
    turn.actions += "+1 Action" in chosen
    turn.buys += "+1 Buy" in chosen
    turn.coins += 3 * ("+$3" in chosen)
    if "Gain a Gold" in chosen:
        gain(t, f.seat, "Gold")
    return True


@special("Diplomat")
def diplomat(t: Table, f: Frame) -> bool:
    """Counted after drawing, Diplomat itself having left the hand."""
    if len(t.player(f.seat).hand) <= 5:
        t.s.turn.actions += 2
    return True


@special("Ironworks")
def ironworks(t: Table, f: Frame) -> bool:
    """Every type of the gained card gives its bonus (Action–Victory: +1 Action, +1 Card)."""
    if f.sub == 0:
        return ask_gain(t, f, "gain a card costing up to $4.", lambda c: up_to(c, 4))
    picks = take(f, f.seat)
    if not picks or gain(t, f.seat, picks[0]) is None:
        return True
    card = picks[0]
    if is_(t, card, "Action"):
        t.s.turn.actions += 1
    if is_(t, card, "Treasure"):
        t.s.turn.coins += 1
    if is_(t, card, "Victory"):
        draw(t, f.seat, 1)
    return True


LURKER_TRASH = "Trash an Action card from the Supply"
LURKER_GAIN = "Gain an Action card from the trash"


@special("Lurker")
def lurker(t: Table, f: Frame) -> bool:
    """Either option may be chosen even with nothing to trash or gain."""
    if f.sub == 0:
        f.sub = 1
        options = [LURKER_TRASH, LURKER_GAIN]
        ask(
            f,
            f.seat,
            "choose_options",
            "Lurker: choose one.",
            options,
            distinct=True,
            from_hand=False,
        )
        return False
    if f.sub == 1:
        f.sub = 2
        if take(f, f.seat) == [LURKER_TRASH]:
            f.vars["trash"] = True
            piles = gainable(t, lambda n: is_(t, n, "Action"))
            text = "Lurker: trash the top card of an Action Supply pile."
            ask(f, f.seat, "trash_from_supply", text, piles, distinct=True, from_hand=False)
        else:
            f.vars["trash"] = False
            actions = list(dict.fromkeys(c for c in t.s.trash if is_(t, c, "Action")))
            text = "Lurker: gain an Action card from the trash."
            ask(f, f.seat, "gain_from_trash", text, actions, distinct=True, from_hand=False)
        return False
    picks = take(f, f.seat)
    if not picks:
        return True
    if f.vars["trash"]:
        t.s.supply[picks[0]] -= 1
        t.s.trash.append(picks[0])
        t.log.append(CardsTrashedFromSupply(seat=f.seat, cards=[picks[0]]))
    else:
        gain_from_trash(t, f.seat, picks[0])
    return True


@special("Secret Passage")
def secret_passage(t: Table, f: Frame) -> bool:
    """Any card of the hand (one just drawn too) goes to any depth of the deck: position 0
    is the top, the deck's size the bottom. The position is public, the card is not."""
    p = t.player(f.seat)
    if f.sub == 0:
        return ask_hand(t, f, "choose_card", "take a card from your hand to put into your deck.")
    if f.sub == 1:
        picks = take(f, f.seat)
        if not picks:
            return True
        f.vars["card"] = picks[0]
        f.sub = 2
        positions = [str(i) for i in range(len(p.deck) + 1)]
        text = f"Secret Passage: where in your deck does {picks[0]} go? (0 is the top.)"
        ask(f, f.seat, "deck_position", text, positions, distinct=True)  # the card is in hand
        return False
    card, position = str(f.vars["card"]), int((take(f, f.seat) or ["0"])[0])
    p.hand.remove(card)
    p.deck.insert(len(p.deck) - position, card)
    t.log.append(
        CardsPutOnDeck(
            seat=f.seat,
            count=1,
            cards=[card],
            source="Secret Passage",
            position=position,
            private_to=[f.seat],
        )
    )
    return True


@special("Shanty Town")
def shanty_town(t: Table, f: Frame) -> bool:
    hand = t.player(f.seat).hand
    reveal(t, f.seat, hand)
    if not any(is_(t, card, "Action") for card in hand):
        draw(t, f.seat, 2)
    return True


def exactly_one_more(c: Cost, base: Cost) -> bool:
    """Upgrade: "exactly $1 more" — and the same Debt, if any."""
    return c.coins == base.coins + 1 and c.debt == base.debt


@special("Upgrade")
def upgrade(t: Table, f: Frame) -> bool:
    if f.sub == 0:
        return ask_hand(t, f, "trash", "trash a card from your hand.")
    if f.sub == 1:
        trashed = trash_picked(t, f)
        if trashed is None:
            return True
        base = cost(t, trashed)
        text = f"gain a card costing exactly $1 more than {trashed}."
        return ask_gain(t, f, text, lambda c: exactly_one_more(c, base))
    picks = take(f, f.seat)
    if picks:
        gain(t, f.seat, picks[0])
    return True


def nameable_cards(t: Table) -> list[str]:
    """Wishing Well names a card: any card of this game's Supply (the only cards a deck can
    hold), including piles that are empty or were removed."""
    return list(t.s.supply) + [n for n in t.s.removed_piles if n not in t.s.supply]


@special("Wishing Well")
def wishing_well(t: Table, f: Frame) -> bool:
    """Draw first (the "+" row), then name a card, then reveal; a wrong guess stays on top."""
    if f.sub == 0:
        f.sub = 1
        text = "Wishing Well: name a card, then reveal the top card of your deck."
        ask(f, f.seat, "name_card", text, nameable_cards(t), distinct=True, from_hand=False)
        return False
    named = (take(f, f.seat) or [""])[0]
    card = top_card(t, f.seat)
    if card is None:
        return True
    reveal(t, f.seat, [card])
    if card == named:
        p = t.player(f.seat)
        p.hand.append(p.deck.pop())
    return True
