"""The Seaside cards (2nd edition) of "Invasion Fleet", and Bazaar (Riverboat's card
there). Durations keep their future work on the player (`corsairs`, `blockades`) or the
turn (`outposts`); `turn.py` carries it out at the start of the next turn / Clean-up."""

from __future__ import annotations

from .card_effects import ask_gain, ask_hand, special, trash_picked, victims
from .costs import cost, up_to
from .decisions import take
from .gaining import gain
from .playing import play_number
from .state import Frame, seats_mask
from .table import Table
from .zones import cards_in_play, reveal, top_card, trash_from_hand, trash_from_play


@special("Blockade")
def blockade(t: Table, f: Frame) -> bool:
    """The gain is set aside on Blockade. If it does not get there (nothing to gain, or
    Progress/Rapid Expansion sent it elsewhere), Blockade has nothing left to do and is
    discarded this turn (`turn.durations_with_work`)."""
    if f.sub == 0:
        return ask_gain(
            t, f, "gain a card costing up to $4, setting it aside.", lambda c: up_to(c, 4)
        )
    picks = take(f, f.seat)
    if picks and gain(t, f.seat, picks[0], "blockade") == "blockade":
        t.player(f.seat).blockade_victims[-1] = seats_mask(victims(t, f))
        if not f.vars.get("holding"):  # a replay runs the same frame: one card, counted once
            f.vars["holding"] = True
            t.s.turn.blockades_holding_plays.append(play_number(f))
    return True


@special("Corsair")
def corsair(t: Table, f: Frame) -> bool:
    """ "Until then, each other player trashes the first Silver or Gold they play each
    turn" — see `playing.treasure_played`."""
    t.player(f.seat).corsairs.append(seats_mask(victims(t, f)))
    return True


@special("Outpost")
def outpost(t: Table, f: Frame) -> bool:
    t.s.turn.outposts += 1
    return True


@special("Salvager")
def salvager(t: Table, f: Frame) -> bool:
    """+$ equal to the trashed card's $ cost (Debt is not $)."""
    if f.sub == 0:
        return ask_hand(t, f, "trash", "trash a card from your hand; +$ equal to its cost.")
    trashed = trash_picked(t, f)
    if trashed:
        t.s.turn.coins += cost(t, trashed).coins
    return True


@special("Sea Chart")
def sea_chart(t: Table, f: Frame) -> bool:
    """A copy in play counts Sea Chart itself and Durations from earlier turns."""
    card = top_card(t, f.seat)
    if card is None:
        return True
    reveal(t, f.seat, [card])
    p = t.player(f.seat)
    if card in cards_in_play(p):
        p.hand.append(p.deck.pop())
    return True


@special("Treasure Map")
def treasure_map(t: Table, f: Frame) -> bool:
    """Trash this (if it is still in play) and a Treasure Map from hand; 4 Golds only if two
    were trashed, so a replayed Map, already gone, gives nothing."""
    p, trashed = t.player(f.seat), 0
    if f.vars["where"] == "play" and f.card in p.in_play:
        trash_from_play(t, f.seat, f.card)
        f.vars["where"] = "gone"
        trashed += 1
    if "Treasure Map" in p.hand:
        trash_from_hand(t, f.seat, ["Treasure Map"])
        trashed += 1
    if trashed == 2:
        for _ in range(4):
            gain(t, f.seat, "Gold", "deck")
    return True
