"""The 26 kingdom cards of the base game (2nd edition), for mixed kingdoms: one function
per card whose text is more than its "+" row, registered like Rising Sun's in `SPECIALS`.
(Moat is only "+2 Cards" and a Reaction: see `reactions.py`.)"""

from __future__ import annotations

from .card_effects import (
    ask_gain,
    ask_hand,
    ask_yes_no,
    gain_costing_up_to,
    gain_picked,
    others_discard_down_to_3,
    special,
    trash_picked,
    victims,
)
from .cards import CARDS
from .costs import cost, is_, up_to, up_to_more_than
from .decisions import ask, take
from .gaining import costing, gain
from .log import CardsDiscarded, CardsPutOnDeck, CardsRevealed, CardsTrashed
from .playing import picked_card, play_number, play_picked_twice, playable_actions, start_play
from .state import Frame
from .table import Table
from .zones import discard_from_hand, draw, reveal, take_from_discard, top_card


def put_on_deck(t: Table, seat: int, card: str, source: str) -> None:
    """Put a card from `seat`'s hand (or, for Harbinger, discard pile) onto their deck;
    which card is told only to its owner (Bureaucrat's is revealed first)."""
    p = t.player(seat)
    if source == "discard pile":
        take_from_discard(p, p.discard.index(card))
        # Anyone else sees only that some card went: any one under the top may be it.
        p.discard_unseen = tuple(range(len(p.discard) - 1))
    else:
        p.hand.remove(card)
    p.deck.append(card)
    t.log.append(CardsPutOnDeck(seat=seat, count=1, cards=[card], source=source, private_to=[seat]))


def take_top(t: Table, seat: int, n: int) -> list[str]:
    """Take up to `n` cards off the top of the deck (shuffling if needed), top first."""
    p = t.player(seat)
    taken: list[str] = []
    while len(taken) < n and top_card(t, seat) is not None:
        taken.append(p.deck.pop())
    return taken


@special("Cellar")
def cellar(t: Table, f: Frame) -> bool:
    if f.sub == 0:
        hand = t.player(f.seat).hand
        return ask_hand(
            t, f, "discard", "discard any number of cards, then draw that many.", 0, len(hand)
        )
    picks = take(f, f.seat) or []
    discard_from_hand(t, f.seat, picks)
    draw(t, f.seat, len(picks))
    return True


@special("Chapel")
def chapel(t: Table, f: Frame) -> bool:
    if f.sub == 0:
        return ask_hand(t, f, "trash", "trash up to 4 cards from your hand.", 0, 4)
    trash_picked(t, f)
    return True


@special("Harbinger")
def harbinger(t: Table, f: Frame) -> bool:
    if f.sub == 0:
        f.sub = 1
        discard = t.player(f.seat).discard
        text = "Harbinger: you may put a card from your discard pile onto your deck."
        ask(f, f.seat, "topdeck", text, list(discard), 0, 1, from_hand=False, from_discard=True)
        return False
    picks = take(f, f.seat)
    if picks:
        put_on_deck(t, f.seat, picks[0], "discard pile")
    return True


@special("Merchant")
def merchant(t: Table, f: Frame) -> bool:
    """ "The first time you play a Silver this turn, +$1" — a Silver played before this
    Merchant was the first one already (see `playing.treasure_played`)."""
    t.s.turn.merchants += 1
    return True


@special("Vassal")
def vassal(t: Table, f: Frame) -> bool:
    """Playing the discarded Action uses no Action play; it is played from the discard pile
    only if it is still on top of it."""
    p = t.player(f.seat)
    if f.sub == 0:
        card = top_card(t, f.seat)
        if card is None:
            return True
        p.discard.append(p.deck.pop())
        t.log.append(CardsDiscarded(seat=f.seat, cards=[card]))
        if not is_(t, card, "Action"):
            return True
        f.vars["discarded"] = card
        return ask_yes_no(f, "play", f"play the discarded {card}?")
    card = str(f.vars["discarded"])
    if take(f, f.seat) == ["Yes"] and p.discard and p.discard[-1] == card:
        p.in_play.append(take_from_discard(p, len(p.discard) - 1))
        start_play(t, f.seat, str(card), "discard pile", "play")
    return True


special("Workshop")(gain_costing_up_to(4))


@special("Bureaucrat")
def bureaucrat(t: Table, f: Frame) -> bool:
    """Each affected player decides at the same time which Victory card goes back."""
    if f.sub == 0:
        f.sub = 1
        gain(t, f.seat, "Silver", "deck")
        for other in victims(t, f):
            hand = t.player(other).hand
            greens = [c for c in hand if is_(t, c, "Victory")]
            if greens:
                text = "Bureaucrat: put a Victory card from your hand onto your deck."
                ask(f, other, "topdeck", text, greens)
            else:
                reveal(t, other, hand)  # "reveals a hand with no Victory cards"
        return False
    for other in victims(t, f):
        picks = take(f, other)
        if picks:
            reveal(t, other, picks)
            put_on_deck(t, other, picks[0], "hand")
    return True


special("Militia")(others_discard_down_to_3)


@special("Moneylender")
def moneylender(t: Table, f: Frame) -> bool:
    if f.sub == 0:
        if "Copper" not in t.player(f.seat).hand:
            return True
        f.sub = 1
        ask(f, f.seat, "trash", "Moneylender: you may trash a Copper for +$3.", ["Copper"], 0, 1)
        return False
    if trash_picked(t, f):
        t.s.turn.coins += 3
    return True


@special("Poacher")
def poacher(t: Table, f: Frame) -> bool:
    """Empty piles are counted now; piles Divine Wind removed are not Supply piles."""
    if f.sub == 0:
        empty = sum(1 for left in t.s.supply.values() if left == 0)
        if not empty:
            return True
        text = f"discard a card per empty Supply pile ({empty})."
        return ask_hand(t, f, "discard", text, empty, empty)
    discard_from_hand(t, f.seat, take(f, f.seat) or [])
    return True


@special("Remodel")
def remodel(t: Table, f: Frame) -> bool:
    if f.sub == 0:
        return ask_hand(t, f, "trash", "trash a card from your hand.")
    if f.sub == 1:
        trashed = trash_picked(t, f)
        if trashed is None:
            return True
        base = cost(t, trashed)
        text = f"gain a card costing up to $2 more than {trashed}."
        return ask_gain(t, f, text, lambda c: up_to_more_than(c, base, 2))
    gain_picked(t, f)
    return True


@special("Throne Room")
def throne_room(t: Table, f: Frame) -> bool:
    """ "You may play an Action card from your hand twice" (or a Shadow from your deck). A
    Throne Room that plays a Duration stays in play as long as that Duration does — also
    when only the second play of a replayed Throne Room picks one, and as long as the
    longest of them when both do (`f.vars["stays"]`: its entry in `turn.staying`)."""
    if f.sub == 0:
        f.sub = 1
        actions = playable_actions(t, f.seat)
        ask(f, f.seat, "play", "Throne Room: you may play an Action card twice.", actions, 0, 1)
        return False
    picks = take(f, f.seat)
    if not picks:
        return True
    card = picked_card(picks[0])
    lasting = CARDS[card].lasting
    played = play_picked_twice(t, f.seat, picks[0])
    if lasting and f.vars["where"] == "play":
        stay_with(t, f, lasting, card, play_number(played))
    return True


def stay_with(t: Table, f: Frame, lasting: str, card: str, play: str) -> None:
    """Keep the Throne Room of `f` in play with the Duration `card` it plays (`play`)."""
    staying = t.s.turn.staying
    at = f.vars.get("stays")
    if not isinstance(at, int):
        f.vars["stays"] = len(staying)
        staying.append([f.card, lasting, card, play])
        return
    entry = staying[at]
    entry[3] += f" {play}"
    if lasting == "game":
        entry[1], entry[2] = lasting, card


@special("Bandit")
def bandit(t: Table, f: Frame) -> bool:
    """The revealed cards wait face up (`aside`) while their owners choose."""
    if f.sub == 0:
        f.sub = 1
        gain(t, f.seat, "Gold")
        for other in victims(t, f):
            revealed = take_top(t, other, 2)
            t.player(other).aside += revealed
            reveal(t, other, revealed)
            options = [c for c in revealed if is_(t, c, "Treasure") and c != "Copper"]
            if options:
                text = "Bandit: trash a revealed Treasure other than Copper."
                ask(f, other, "trash", text, options, from_hand=False)  # revealed
        return False
    for other in victims(t, f):
        p = t.player(other)
        picks = take(f, other)
        if picks:
            p.aside.remove(picks[0])
            t.s.trash.append(picks[0])
            t.log.append(CardsTrashed(seat=other, cards=[picks[0]]))
        rest, p.aside = p.aside, []
        p.discard += rest
        if rest:
            t.log.append(CardsDiscarded(seat=other, cards=rest))
    return True


@special("Council Room")
def council_room(t: Table, f: Frame) -> bool:
    for other in t.others(f.seat):
        draw(t, other, 1)
    return True


@special("Library")
def library(t: Table, f: Frame) -> bool:
    """Draw one card at a time to 7; each Action drawn may be set aside (face up) instead,
    and the set-aside cards are discarded once the drawing is done."""
    p = t.player(f.seat)
    if f.sub == 1:
        f.sub = 0
        card = str(f.vars["drawn"])
        if take(f, f.seat) == ["Yes"]:
            p.hand.remove(card)
            p.aside.append(card)
            t.log.append(CardsRevealed(seat=f.seat, cards=[card]))
    while len(p.hand) < 7:
        drawn = draw(t, f.seat, 1)
        if not drawn:
            break
        if is_(t, drawn[0], "Action"):
            f.vars["drawn"] = drawn[0]
            return ask_yes_no(f, "set_aside", f"set {drawn[0]} aside, skipping it?")
    skipped, p.aside = p.aside, []
    p.discard += skipped
    if skipped:
        t.log.append(CardsDiscarded(seat=f.seat, cards=skipped))
    return True


@special("Mine")
def mine(t: Table, f: Frame) -> bool:
    if f.sub == 0:
        f.sub = 1
        treasures = [c for c in t.player(f.seat).hand if is_(t, c, "Treasure")]
        ask(f, f.seat, "trash", "Mine: you may trash a Treasure from your hand.", treasures, 0, 1)
        return False
    if f.sub == 1:
        trashed = trash_picked(t, f)
        if trashed is None:
            return True
        base = cost(t, trashed)
        f.sub = 2
        options = [
            n for n in costing(t, lambda c: up_to_more_than(c, base, 3)) if is_(t, n, "Treasure")
        ]
        text = f"Mine: gain a Treasure to your hand costing up to $3 more than {trashed}."
        ask(f, f.seat, "gain", text, options, from_hand=False)
        return False
    gain_picked(t, f, "hand")
    return True


@special("Sentry")
def sentry(t: Table, f: Frame) -> bool:
    """The two cards looked at wait in `looking` (seen by their owner only): trash any,
    then discard any, then put the rest back in the order chosen."""
    p = t.player(f.seat)
    if f.sub == 0:
        p.looking = take_top(t, f.seat, 2)
        if not p.looking:
            return True
        f.sub = 1
        text = "Sentry: trash any of the top cards of your deck."
        ask(f, f.seat, "trash", text, list(p.looking), 0, len(p.looking), from_hand=False)
        return False
    if f.sub == 1:
        picks = take(f, f.seat) or []
        for card in picks:
            p.looking.remove(card)
        t.s.trash += picks
        if picks:
            t.log.append(CardsTrashed(seat=f.seat, cards=picks))
        f.sub = 2
        text = "Sentry: discard any of the rest."
        ask(f, f.seat, "discard", text, list(p.looking), 0, len(p.looking), from_hand=False)
        return False
    if f.sub == 2:
        picks = take(f, f.seat) or []
        for card in picks:
            p.looking.remove(card)
        p.discard += picks
        if picks:
            t.log.append(CardsDiscarded(seat=f.seat, cards=picks))
        if len(set(p.looking)) < 2:
            p.deck += p.looking
            p.looking = []
            return True
        f.sub = 3
        text = "Sentry: which card goes back on top?"
        ask(f, f.seat, "order", text, list(p.looking), distinct=True, from_hand=False)
        return False
    on_top = (take(f, f.seat) or p.looking[:1])[0]
    p.looking.remove(on_top)
    p.deck += p.looking + [on_top]
    p.looking = []
    return True


@special("Witch")
def witch(t: Table, f: Frame) -> bool:
    for other in victims(t, f):
        gain(t, other, "Curse")
    return True


@special("Artisan")
def artisan(t: Table, f: Frame) -> bool:
    if f.sub == 0:
        return ask_gain(t, f, "gain a card to your hand costing up to $5.", lambda c: up_to(c, 5))
    if f.sub == 1:
        gain_picked(t, f, "hand")
        return ask_hand(t, f, "topdeck", "put a card from your hand onto your deck.")
    picks = take(f, f.seat)
    if picks:
        put_on_deck(t, f.seat, picks[0], "hand")
    return True
