"""Dealing a hidden state anew for searching bots, from one seat's point of view.

What a seat cannot see in Dominion: other players' hands and every deck's order. What
it can: its own hand, every card anyone owns (all gains are public), and where its own
Shadows lie in its deck. So: each deck is shuffled (the seat's own Shadows keep their
places), and each other player's hand is dealt again from their hand and deck together —
unless that player is answering a decision about their hand right now; cards a player
has already picked in an answer still waiting to be carried out stay in their hand.
"""

from __future__ import annotations

from collections import Counter

from services.engine import Rng, Seat, copy_state

from .cards import SHADOWS
from .state import DominionState


def shuffle_around_shadows(deck: list[str], rng: Rng) -> None:
    """Shuffle `deck` in place, leaving every Shadow card where it is."""
    free = [i for i, card in enumerate(deck) if card not in SHADOWS]
    cards = [deck[i] for i in free]
    rng.shuffle(cards)
    for i, card in zip(free, cards, strict=True):
        deck[i] = card


def redeal_hand_and_deck(
    hand: list[str], deck: list[str], rng: Rng, kept: list[str] | tuple[str, ...] = ()
) -> tuple[list[str], list[str]]:
    """Deal a hand of the same size from hand and deck together; `kept` cards (already
    known to be in the hand) stay in it."""
    pool = hand + deck
    for card in kept:
        pool.remove(card)
    rng.shuffle(pool)
    dealt = len(hand) - len(kept)
    return sorted(list(kept) + pool[:dealt]), pool[dealt:]


def answered_from_hand(state: DominionState, seat: int) -> list[str]:
    """Cards of `seat`'s hand named in answers given but not yet carried out (the first of
    several players discarding to Ninja has answered; the card waits for the others).
    Those picks are public (a `chose` event), and the card will take them from that hand,
    so a redealt hand must still hold them."""
    left = Counter(state.player_states[seat].hand)
    kept: list[str] = []
    for frame in state.stack:
        for card in frame.answers.get(str(seat), []):
            if left[card] > 0:
                left[card] -= 1
                kept.append(card)
    return kept


def determinize(state: DominionState, seat: Seat, rng: Rng) -> DominionState:
    world = copy_state(state)
    deciding = {ask.seat for frame in world.stack for ask in frame.asks}
    for other, player in enumerate(world.player_states):
        if other == seat:
            shuffle_around_shadows(player.deck, rng)
        elif other in deciding:
            rng.shuffle(player.deck)
        else:
            kept = answered_from_hand(world, other)
            player.hand, player.deck = redeal_hand_and_deck(player.hand, player.deck, rng, kept)
    world.rng = Rng.from_seed(rng.next64())
    return world
