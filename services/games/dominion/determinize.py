"""Dealing a hidden state anew for searching bots, from one seat's point of view.

What a seat cannot see in Dominion: other players' hands, their Biding Time cards (set
aside face down), the cards of their discard piles that went there unseen (hands
discarded in Clean-up: `PlayerState.discard_unseen`) and every deck's order. What it can:
its own hand and discard pile, every card anyone owns (all gains are public), every card
that went to a discard pile in view (played, gained, discarded by a card, revealed), the
top card of each discard pile, and where its own Shadows lie in its deck. So: each deck
is shuffled (the seat's own Shadows keep their places), and each other player's hand,
Biding Time cards and unseen discards are dealt again from those and their deck together
(each unseen discard in its place in the pile) — also while they are choosing from their
whole hand right now (discarding to Militia or Ninja: their choice is then offered from
the hand dealt anew), from their discard pile (Harbinger: offered from the pile dealt
anew) or from something else (the cards Bandit revealed, a pile to gain from), though not
while they answer from part of their hand (Bureaucrat's Victory cards), whose options
tell the rest; then only the Biding Time cards, the unseen discards and the deck are
dealt again. Cards a player has already picked in an answer still waiting to be carried
out stay in their hand: the card takes them from there a moment later, in public.
"""

from __future__ import annotations

from collections import Counter

from services.engine import Rng, Seat, copy_state

from .cards import SHADOWS
from .state import Ask, DominionState, PlayerState


def shuffle_around_shadows(deck: list[str], rng: Rng) -> None:
    """Shuffle `deck` in place, leaving every Shadow card where it is."""
    free = [i for i, card in enumerate(deck) if card not in SHADOWS]
    cards = [deck[i] for i in free]
    rng.shuffle(cards)
    for i, card in zip(free, cards, strict=True):
        deck[i] = card


def redeal_hidden(player: PlayerState, rng: Rng, kept: list[str], hand_too: bool) -> None:
    """Deal the Biding Time cards, the discard pile's unseen cards (and the hand, if
    `hand_too`) anew from them and the deck together, in the same numbers and places;
    `kept` cards (known to be in the hand) stay in it."""
    discard, unseen = player.discard, player.discard_unseen
    pool = player.biding + player.deck + [discard[at] for at in unseen]
    if hand_too:
        pool += player.hand
    for card in kept:
        pool.remove(card)
    rng.shuffle(pool)
    dealt = len(player.hand) - len(kept) if hand_too else 0
    if hand_too:
        player.hand = sorted(kept + pool[:dealt])
    biding = dealt + len(player.biding)
    player.biding = pool[dealt:biding]
    deck = biding + len(unseen)
    for at, card in zip(unseen, pool[biding:deck], strict=True):
        discard[at] = card
    player.deck = pool[deck:]


def answered_from_hand(state: DominionState, seat: int) -> list[str]:
    """Cards of `seat`'s hand named in answers given but not yet carried out (the first of
    several players discarding to Ninja has answered; the card waits for the others).
    The card will take them from that hand, so a redealt hand must still hold them."""
    left = Counter(state.player_states[seat].hand)
    kept: list[str] = []
    for frame in state.stack:
        for card in frame.answers.get(str(seat), []):
            if left[card] > 0:
                left[card] -= 1
                kept.append(card)
    return kept


def open_asks(state: DominionState, seat: int) -> list[Ask]:
    return [ask for frame in state.stack for ask in frame.asks if ask.seat == seat]


def from_whole_hand(ask: Ask, hand: list[str]) -> bool:
    """Whether `ask` offers the whole hand (its picks so far taken out of it)."""
    return not ask.distinct and Counter(ask.options) + Counter(ask.picked) == Counter(hand)


def shows_part_of_hand(ask: Ask, hand: list[str]) -> bool:
    return ask.from_hand and not from_whole_hand(ask, hand)


def determinize(state: DominionState, seat: Seat, rng: Rng) -> DominionState:
    world = copy_state(state)
    for other, player in enumerate(world.player_states):
        if other == seat:
            shuffle_around_shadows(player.deck, rng)
            continue
        asks = open_asks(world, other)
        if any(shows_part_of_hand(ask, player.hand) for ask in asks):
            redeal_hidden(player, rng, [], hand_too=False)  # the options show the hand
        else:
            from_hand = [ask for ask in asks if ask.from_hand]
            kept = answered_from_hand(world, other) + [c for ask in from_hand for c in ask.picked]
            redeal_hidden(player, rng, kept, hand_too=True)
            for ask in from_hand:
                ask.options = list((Counter(player.hand) - Counter(ask.picked)).elements())
        for ask in asks:
            if ask.from_discard:
                ask.options = list(player.discard)
    world.rng = Rng.from_seed(rng.next64())
    return world
