"""Playing a card: into play, +1 Sun, the card's "+" row, its special text, what happens
"after you play" it (Great Leader, Approaching Army), then any replays (Daimyo, Practice).

One `play` frame per play. `where` says where the played card is now: "play", "aside"
(Riverboat's set-aside card, which never moves) or "gone" (Snake Witch returned itself):
"Daimyo replays it even if the card trashed itself" — but a replayed Snake Witch that is no
longer in play cannot return to its pile again.
"""

from __future__ import annotations

from typing import cast

from services.engine.state import unchecked

from .card_effects import SPECIALS
from .cards import ATTACKS, CARDS
from .costs import is_
from .gaining import take_debt
from .log import CardPlayed
from .prophecies import remove_sun
from .reactions import start_reactions
from .resolution import done, handles, push
from .state import Frame
from .table import Table
from .zones import draw, shadow_positions, trash_from_play

SILVER_OR_GOLD = ("Silver", "Gold")


def corsaired(t: Table, seat: int) -> bool:
    """Is a Corsair of another player attacking `seat` (until that player's next turn)?"""
    for other, p in enumerate(t.s.player_states):
        if p.corsairs and other != seat and any(hit >> seat & 1 for hit in p.corsairs):
            return True
    return False


def play_from_hand(t: Table, seat: int, card: str, replays: int = 0) -> Frame:
    p = t.player(seat)
    p.hand.remove(card)
    p.in_play.append(card)
    return start_play(t, seat, card, "hand", "play", replays)


PLAIN_TREASURES: dict[str, tuple[int, int]] = {
    name: (card.coins, card.buys)
    for name, card in CARDS.items()
    if "Treasure" in card.types and "Action" not in card.types and not card.special
}
"""Treasures with no text beyond "+$" and "+Buy" (and no +Sun), printed: their $ and Buys."""

_new_card_played = unchecked(CardPlayed)


def play_treasure_from_hand(t: Table, seat: int, card: str) -> None:
    """A plain Treasure (no special text, not an Action now) resolves at once: it has no
    +Sun, no decision, no Daimyo, no "after you play an Action/Attack". Anything else is
    played through a frame like every card."""
    plain = PLAIN_TREASURES.get(card)
    if plain is None or t.prophecy("Enlightenment"):  # Enlightenment: Treasures are Actions
        play_from_hand(t, seat, card)
        return
    p = t.s.player_states[seat]
    p.hand.remove(card)
    p.in_play.append(card)
    t.log.append(_new_card_played(seat=seat, card=card, source="hand"))
    treasure_played(t, card)
    turn = t.s.turn
    turn.coins += plain[0]
    turn.buys += plain[1]


PLAIN_TREASURE_NAMES = frozenset(PLAIN_TREASURES)


def play_plain_treasures(t: Table, seat: int, cards: list[str]) -> None:
    """`play_treasure_from_hand` for each of `cards` in turn, when every one is a plain
    Treasure and Enlightenment is not active, so that none needs a frame: one loop, which
    skips `treasure_played` where it has nothing to do (a Treasure played before this
    turn, not the turn's first Silver or Gold, and no Prophecy active)."""
    s = t.s
    turn, log = s.turn, t.log
    p = s.player_states[seat]
    hand, in_play, played = p.hand, p.in_play, turn.treasures_played
    prophecy = s.prophecy is not None and not s.sun
    coins = buys = 0  # only added to: nothing below reads the turn's $ or Buys
    for card in cards:
        plus = PLAIN_TREASURES[card]
        hand.remove(card)
        in_play.append(card)
        log.append(_new_card_played(seat=seat, card=card, source="hand"))
        if (
            prophecy
            or card not in played
            or (card in SILVER_OR_GOLD and not turn.silver_or_gold_played)
        ):
            treasure_played(t, card)
        coins += plus[0]
        buys += plus[1]
    turn.coins += coins
    turn.buys += buys


DECK_POSITION = " (deck position "


def shadow_label(card: str, position: int) -> str:
    return f"{card}{DECK_POSITION}{position})"


def playable_actions(t: Table, seat: int) -> list[str]:
    """Action cards in hand, and Shadows in the deck labelled by their position: "When a
    card like Throne Room tells you to play a card from your hand, you can use that
    opportunity to play a Shadow card from your deck." """
    p = t.player(seat)
    in_hand = [c for c in p.hand if is_(t, c, "Action")]
    return in_hand + [shadow_label(p.deck[len(p.deck) - 1 - i], i) for i in shadow_positions(p)]


def picked_card(pick: str) -> str:
    """The card a pick of `playable_actions` names."""
    return pick.split(DECK_POSITION, 1)[0]


def play_picked_twice(t: Table, seat: int, pick: str) -> Frame:
    """Play a pick of `playable_actions` twice: from the hand, or a Shadow from its place
    in the deck."""
    if DECK_POSITION not in pick:
        return play_from_hand(t, seat, pick, replays=1)
    position = int(pick.split(DECK_POSITION, 1)[1].rstrip(")"))
    return play_from_deck(t, seat, position, replays=1)


def play_from_deck(t: Table, seat: int, position: int, replays: int = 0) -> Frame:
    """A Shadow "can be anywhere in your deck"; `position` counts from the top (0)."""
    p = t.player(seat)
    card = p.deck.pop(len(p.deck) - 1 - position)
    p.in_play.append(card)
    return start_play(t, seat, card, "deck", "play", replays)


def start_play(t: Table, seat: int, card: str, source: str, where: str, replays: int = 0) -> Frame:
    t.log.append(unchecked(CardPlayed)(seat=seat, card=card, source=source))
    turn = t.s.turn
    turn.plays += 1
    return push(t, "play", seat, card, where=where, replays=replays, replay=False, play=turn.plays)


def play_number(f: Frame) -> str:
    """The number of the play `f` resolves, as `TurnState.staying` names it."""
    return str(f.vars["play"])


@handles("play")
def resolve_play(t: Table, f: Frame) -> None:
    STAGES[f.pc](t, f)


def begin(t: Table, f: Frame) -> None:
    f.pc = 1
    if f.vars.pop("sun_after_reactions", None):
        remove_sun(t, f.seat)
        return
    if is_(t, f.card, "Treasure"):
        treasure_played(t, f.card)
    if is_(t, f.card, "Action"):
        t.s.turn.actions_played += 1
    claim_daimyos(t, f)
    lasting = CARDS[f.card].lasting
    if lasting and not f.vars["replay"] and f.vars["where"] == "play":
        t.s.turn.staying.append([f.card, lasting, "", play_number(f)])
    if enlightened(t, f.card):
        f.vars["enlightened"] = True
    elif f.card in ATTACKS:
        f.vars["immune"] = []
        if CARDS[f.card].sun:
            # Reactions come "when another player plays an Attack", before its first
            # instruction, "+1 Sun": this stage runs again after them for that.
            f.pc = 0
            f.vars["sun_after_reactions"] = True
        start_reactions(t, f)
    elif CARDS[f.card].sun:
        remove_sun(t, f.seat)  # "+1 Sun always appears first on Omens"


def treasure_played(t: Table, card: str) -> None:
    s = t.s
    turn = s.turn
    first = card not in turn.treasures_played
    if first:
        turn.treasures_played.append(card)
        if card == "Silver":
            turn.coins += turn.merchants  # Merchant: "the first time you play a Silver"
    if card in SILVER_OR_GOLD and not turn.silver_or_gold_played:
        turn.silver_or_gold_played = True
        if corsaired(t, turn.seat):
            trash_from_play(t, turn.seat, card)
    if s.prophecy is None or s.sun:
        return  # no Prophecy active: the common case, without asking by name
    if first and t.prophecy("Good Harvest"):
        turn.buys += 1
        turn.coins += 1
    if t.prophecy("Panic"):
        turn.buys += 2


def claim_daimyos(t: Table, f: Frame) -> None:
    """Every Daimyo waiting replays this card, if it is a non-Command Action. A Daimyo that
    replays a Duration "also stays in play until the Duration card is discarded"."""
    turn = t.s.turn
    if not turn.daimyo or not is_(t, f.card, "Action") or is_(t, f.card, "Command"):
        return
    waiting, turn.daimyo = turn.daimyo, 0
    f.vars["replays"] = cast(int, f.vars["replays"]) + waiting
    lasting = CARDS[f.card].lasting
    if lasting:
        turn.staying += [["Daimyo", lasting, f.card, play_number(f)] for _ in range(waiting)]


def enlightened(t: Table, card: str) -> bool:
    """ "When you play a Treasure in an Action phase, instead of following its
    instructions, +1 Card and +1 Action."
    """
    return t.s.turn.phase == "action" and t.prophecy("Enlightenment") and is_(t, card, "Treasure")


def bonuses(t: Table, f: Frame) -> None:
    f.pc = 2
    turn = t.s.turn
    if f.vars.get("enlightened"):
        draw(t, f.seat, 1)
        turn.actions += 1
        f.pc = 3
        return
    card = CARDS[f.card]
    if card.cards:
        draw(t, f.seat, card.cards)
    turn.actions += card.actions
    turn.buys += card.buys
    turn.coins += card.coins
    take_debt(t, f.seat, card.debt, f.card)


def special(t: Table, f: Frame) -> None:
    if not CARDS[f.card].special or SPECIALS[f.card](t, f):
        f.pc = 3


def after(t: Table, f: Frame) -> None:
    f.pc = 4
    if t.prophecy("Great Leader") and is_(t, f.card, "Action"):
        t.s.turn.actions += 1
    if t.prophecy("Approaching Army") and is_(t, f.card, "Attack"):
        t.s.turn.coins += 1  # the printed card: "+$1" (see RULES-NOTES.md)


def replays(t: Table, f: Frame) -> None:
    """A replay runs the same frame again, so it knows where the card went."""
    if not f.vars["replays"]:
        done(t, f)
        return
    f.vars["replays"] = cast(int, f.vars["replays"]) - 1
    f.vars["replay"] = True
    f.vars.pop("enlightened", None)
    f.pc = f.sub = 0
    t.log.append(unchecked(CardPlayed)(seat=f.seat, card=f.card, source="replay", replay=True))


STAGES = (begin, bonuses, special, after, replays)
