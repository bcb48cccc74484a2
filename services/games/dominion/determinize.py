"""Dealing a hidden state anew for searching bots, from one seat's point of view.

What a seat cannot see in Dominion: other players' hands and every deck's order. What
it can: its own hand, every card anyone owns (all gains are public), and where its own
Shadows lie in its deck. So: each deck is shuffled (the seat's own Shadows keep their
places), and each other player's hand is dealt again from their hand and deck together —
unless that player is answering a decision about their hand right now.
"""

from __future__ import annotations

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


def redeal_hand_and_deck(hand: list[str], deck: list[str], rng: Rng) -> tuple[list[str], list[str]]:
    pool = hand + deck
    rng.shuffle(pool)
    return sorted(pool[: len(hand)]), pool[len(hand) :]


def determinize(state: DominionState, seat: Seat, rng: Rng) -> DominionState:
    world = copy_state(state)
    deciding = {ask.seat for frame in world.stack for ask in frame.asks}
    for other, player in enumerate(world.player_states):
        if other == seat:
            shuffle_around_shadows(player.deck, rng)
        elif other in deciding:
            rng.shuffle(player.deck)
        else:
            player.hand, player.deck = redeal_hand_and_deck(player.hand, player.deck, rng)
    world.rng = Rng.from_seed(rng.next64())
    return world
