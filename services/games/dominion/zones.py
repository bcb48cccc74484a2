"""Moving cards between a player's deck, hand, discard pile, play area and the trash."""

from __future__ import annotations

from services.engine.state import unchecked

from .cards import SHADOWS
from .log import CardsDiscarded, CardsDrawn, CardsRevealed, CardsTrashed, Shuffled
from .state import PlayerState
from .table import Table


def shuffle_discard_into_deck(t: Table, seat: int) -> None:
    """ "When shuffling Shadow cards, put them on the bottom." (Top of deck = end of list.)"""
    p = t.s.player_states[seat]
    cards, p.discard = p.discard, []
    if p.discard_unseen:
        p.discard_unseen = ()  # in the deck now, as unseen as the rest of it
    t.s.rng.shuffle(cards)
    if not SHADOWS.isdisjoint(cards):
        shadows = ordered_shadows([c for c in cards if c in SHADOWS], p.shadow_order)
        cards = shadows + [c for c in cards if c not in SHADOWS]
    p.deck = cards + p.deck
    t.log.append(unchecked(Shuffled)(seat=seat, count=len(cards)))


def ordered_shadows(shadows: list[str], order: list[str]) -> list[str]:
    """Shadows bottom-most first, in the player's chosen order; Shadows the player has
    not ordered keep the shuffle's order, above the ordered ones."""
    rank = {card: i for i, card in enumerate(order)}
    return sorted(shadows, key=lambda card: rank.get(card, len(order)))


def top_card(t: Table, seat: int) -> str | None:
    """The top card of the deck, shuffling the discard pile in if the deck is empty."""
    p = t.player(seat)
    if not p.deck and p.discard:
        shuffle_discard_into_deck(t, seat)
    return p.deck[-1] if p.deck else None


def draw(t: Table, seat: int, n: int) -> list[str]:
    """Draw `n` cards one after another from the top (the end of the deck list),
    shuffling the discard pile in when the deck runs out."""
    p = t.s.player_states[seat]
    deck = p.deck
    if len(deck) >= n > 0:  # the common case: no shuffle
        drawn = deck[-n:]
        drawn.reverse()
        del deck[-n:]
    else:
        drawn = []
        while len(drawn) < n:
            if not p.deck:
                if not p.discard:
                    break
                shuffle_discard_into_deck(t, seat)
            count = min(n - len(drawn), len(p.deck))
            drawn += reversed(p.deck[-count:])
            del p.deck[-count:]
    p.hand += drawn
    if drawn:
        t.log.append(_new_cards_drawn(seat=seat, count=len(drawn), cards=drawn, private_to=[seat]))
    return drawn


_new_cards_drawn = unchecked(CardsDrawn)


def take_from_discard(p: PlayerState, at: int) -> str:
    """Take the card at `at` (0 = bottom) out of the discard pile; `discard_unseen` goes
    on naming the same cards."""
    card = p.discard.pop(at)
    if p.discard_unseen:
        unseen = tuple(i - (i > at) for i in p.discard_unseen if i != at)
        if unseen and unseen[-1] == len(p.discard) - 1:
            unseen = unseen[:-1]  # uncovered: the top card is public
        p.discard_unseen = unseen
    return card


def take_from(cards: list[str], taken: list[str]) -> None:
    for card in taken:
        cards.remove(card)


def discard_from_hand(t: Table, seat: int, cards: list[str]) -> None:
    p = t.player(seat)
    take_from(p.hand, cards)
    p.discard += cards
    if cards:
        t.log.append(CardsDiscarded(seat=seat, cards=list(cards)))


def trash_from_hand(t: Table, seat: int, cards: list[str]) -> None:
    take_from(t.player(seat).hand, cards)
    t.s.trash += cards
    if cards:
        t.log.append(CardsTrashed(seat=seat, cards=list(cards)))


def trash_from_play(t: Table, seat: int, card: str) -> None:
    """Trash the last-played copy of `card` from play."""
    in_play = t.player(seat).in_play
    in_play.reverse()
    in_play.remove(card)
    in_play.reverse()
    t.s.trash.append(card)
    t.log.append(CardsTrashed(seat=seat, cards=[card]))


def reveal(t: Table, seat: int, cards: list[str]) -> None:
    if cards:
        t.log.append(CardsRevealed(seat=seat, cards=list(cards)))


def cards_in_play(p: PlayerState) -> list[str]:
    """This turn's cards in play and Durations still in play from earlier turns."""
    return p.in_play + [card for card, _ in p.durations]


def shadow_positions(p: PlayerState) -> list[int]:
    """Where the Shadows are in the deck, counted from the top (0 is the top card)."""
    top = len(p.deck) - 1
    return [top - i for i, card in enumerate(p.deck) if card in SHADOWS][::-1]


def all_cards(p: PlayerState) -> list[str]:
    """Every card a player has (for scoring): deck, hand, discard, play, set-aside areas."""
    return (
        p.deck
        + p.hand
        + p.discard
        + cards_in_play(p)
        + p.foresight
        + p.biding
        + p.rapid
        + p.aside
        + p.looking
        + p.blockades
    )
