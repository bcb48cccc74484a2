"""The turn: start of turn, Action phase, Buy phase, Clean-up, the end of the game.

`advance` runs the game forward until a seat must decide: it resolves pending frames, and
moves through phases in which nothing can be done (an Action phase with no card to play,
a Buy phase with nothing left to do) so no one is asked a question with one answer.
"""

from __future__ import annotations

from typing import cast

from services.engine.state import unchecked

from .cards import ACTIONS, EVENTS, SHADOWS, TREASURES
from .costs import LOWERED_COINS, PRINTED_COINS, is_, up_to
from .decisions import ask, take
from .gaining import costing, gain
from .log import CardsSetAside, CardsToHand, FaceUpToHand, GameEnded, TurnStarted
from .playing import start_play
from .resolution import done, handles, push, resolve_stack
from .setup import PILES_TO_END
from .state import Frame, TurnState
from .table import Table
from .zones import draw


def advance(t: Table) -> None:
    s = t.s
    while not s.over:
        if (s.stack and resolve_stack(t)) or s.over or not step_phase(t):
            return


def step_phase(t: Table) -> bool:
    """Move the turn on when no frame is pending. False when the active seat must act."""
    s = t.s
    phase = s.turn.phase
    if phase == "start":
        begin_turn(t)
        if s.stack:
            return True
        phase = s.turn.phase  # "action": go on at once, as the next step would
    turn = s.turn
    if phase == "action":
        if can_play_an_action(t):
            return False
        turn.phase = phase = "buy"  # and on to the Buy phase, with nothing pending
    if phase == "buy":
        if buy_phase_open(t):
            return False
        start_cleanup(t)
        return True
    raise AssertionError(f"no frame pending in phase {turn.phase}")


# --- what the active player can still do ----------------------------------------------


def playable_action(t: Table, card: str) -> bool:
    """An Action card the player may play now (Treasures, under Enlightenment, only while
    Treasures may still be played this turn)."""
    return is_(t, card, "Action") and not (card in TREASURES and t.s.turn.treasures_locked)


def can_play_an_action(t: Table) -> bool:
    s = t.s
    if s.turn.actions <= 0:
        return False
    p = s.player_states[s.turn.seat]
    if not SHADOWS.isdisjoint(p.deck):
        return True
    if ACTIONS.isdisjoint(p.hand) and not (s.prophecy == "Enlightenment" and s.sun == 0):
        return False  # the common case, without asking card by card
    return any(playable_action(t, c) for c in p.hand)


def buys_left(t: Table) -> int:
    """Flourishing Trade: "You may use Action plays as Buys." """
    turn = t.s.turn
    return turn.buys + (turn.actions if t.prophecy("Flourishing Trade") else 0)


def playable_treasures(t: Table) -> list[str]:
    turn = t.s.turn
    if turn.treasures_locked:
        return []
    return [c for c in t.s.player_states[turn.seat].hand if c in TREASURES]


def buyable_cards(t: Table) -> list[str]:
    s = t.s
    turn = s.turn
    if turn.phase != "buy" or s.player_states[turn.seat].debt:
        return []
    lowered = s.prophecy == "Flourishing Trade" and s.sun == 0
    if turn.buys + (turn.actions if lowered else 0) <= 0:  # `buys_left`, written out
        return []
    costs, coins = LOWERED_COINS if lowered else PRINTED_COINS, turn.coins
    return [n for n, left in s.supply.items() if left > 0 and costs[n] <= coins]


def buyable_events(t: Table) -> list[str]:
    turn, p = t.s.turn, t.player(t.active)
    if turn.phase != "buy" or p.debt or buys_left(t) <= 0:
        return []
    return [
        e
        for e in t.s.events
        if EVENTS[e].cost.coins <= turn.coins and not (e == "Continue" and turn.continue_used)
    ]


def buy_phase_open(t: Table) -> bool:
    """Whether the active player can still do something in their Buy phase: play a
    Treasure, pay off Debt, or buy a card or an Event. (Asked after every Buy phase move,
    so it stops at the first thing found instead of listing them all.)"""
    s = t.s
    turn = s.turn
    p = s.player_states[turn.seat]
    if not turn.treasures_locked and not TREASURES.isdisjoint(p.hand):
        return True
    if p.debt:
        return bool(turn.coins)  # nothing can be bought with Debt
    lowered = s.prophecy == "Flourishing Trade" and s.sun == 0
    if turn.buys + (turn.actions if lowered else 0) <= 0:  # `buys_left`, written out
        return False
    costs, coins = LOWERED_COINS if lowered else PRINTED_COINS, turn.coins
    for name, left in s.supply.items():
        if left > 0 and costs[name] <= coins:
            return True
    return bool(buyable_events(t))


# --- start of turn --------------------------------------------------------------------


_new_turn_started = unchecked(TurnStarted)


def begin_turn(t: Table) -> None:
    s = t.s
    seat = s.turn.seat
    s.turn = turn = TurnState(seat=seat, phase="start", extra=s.turn.extra)
    s.turn_count += 1
    p = s.player_states[seat]
    p.turns += 1
    t.log.append(_new_turn_started(seat=seat, turn=p.turns))
    items = start_items(t, seat)
    if not items:  # nothing to order: no frame needed
        turn.phase = "action"
        return
    f = push(t, "start_of_turn", seat)
    f.vars["items"] = items


def start_items(t: Table, seat: int) -> list[str]:
    """Everything that happens at the start of this turn; the player may order them.
    (Built with plain `if`s: this runs every turn, and usually finds nothing.)"""
    p = t.s.player_states[seat]
    items: list[str] = []
    if p.biding:
        items.append("Biding Time")
    if p.samurai:
        items.append("Samurai")
    if p.riverboats:
        items += ["Riverboat"] * p.riverboats
        p.riverboats = 0
    if p.corsairs:
        items += ["Corsair"] * len(p.corsairs)
    if p.blockades:
        items += [f"Blockade: {card}" for card in p.blockades]
    if p.rapid:
        items += [f"Rapid Expansion: {card}" for card in p.rapid]
    if t.s.prophecy in ("Kind Emperor", "Sickness") and t.s.sun == 0:
        items.append(t.s.prophecy)
    return items


@handles("start_of_turn")
def start_of_turn(t: Table, f: Frame) -> None:
    """ "You can order playing each card at the start of your next turn, relative to other
    such cards and also anything else that happens at the start of that turn."
    """
    items, picks = cast(list[str], f.vars["items"]), take(f, f.seat)
    if picks:
        items.remove(picks[0])
        start_item(t, f.seat, picks[0])
    elif not items:
        done(t, f)
        t.s.turn.phase = "action"
    elif len(set(items)) > 1:
        ask(
            f,
            f.seat,
            "start_of_turn",
            "Start of turn: choose what happens next.",
            sorted(set(items)),
            distinct=True,
            from_hand=False,
        )
    else:
        start_item(t, f.seat, items.pop(0))


def start_item(t: Table, seat: int, item: str) -> None:
    p = t.player(seat)
    if item == "Biding Time":
        cards, p.biding = p.biding, []
        p.hand += cards
        t.log.append(
            CardsToHand(seat=seat, count=len(cards), cards=cards, source=item, private_to=[seat])
        )
    elif item == "Samurai":
        t.s.turn.coins += p.samurai
    elif item == "Corsair":
        p.corsairs.pop(0)  # "+1 Card", and its Attack ends
        draw(t, seat, 1)
    elif item.startswith("Blockade: "):
        card = item.removeprefix("Blockade: ")
        index = p.blockades.index(card)
        del p.blockades[index], p.blockade_victims[index]
        p.hand.append(card)
        t.log.append(FaceUpToHand(seat=seat, count=1, cards=[card], source="Blockade"))
    elif item == "Riverboat":
        if t.s.riverboat_card:  # "play the set-aside card, leaving it there"
            start_play(t, seat, t.s.riverboat_card, "set aside", "aside")
    elif item.startswith("Rapid Expansion: "):
        card = item.removeprefix("Rapid Expansion: ")
        p.rapid.remove(card)
        p.in_play.append(card)
        start_play(t, seat, card, "set aside", "play")
    else:
        push(t, {"Kind Emperor": "kind_emperor", "Sickness": "sickness"}[item], seat)


# --- Clean-up -------------------------------------------------------------------------


def start_cleanup(t: Table) -> None:
    """Clean-up needs a frame only while River Shrines may put a gain to the player."""
    turn = t.s.turn
    turn.phase = "cleanup"
    if turn.river_shrines and not turn.gained_in_buy:
        push(t, "cleanup", turn.seat)
    else:
        finish_cleanup(t, turn.seat)


def finish_cleanup(t: Table, seat: int) -> None:
    if t.s.prophecy == "Biding Time":
        biding_time(t, seat)
    clean_up_cards(t, seat)
    end_turn(t)


@handles("cleanup")
def cleanup(t: Table, f: Frame) -> None:
    turn = t.s.turn
    if f.sub == 0:
        f.sub = 1
        f.vars["shrines"] = 0 if turn.gained_in_buy else turn.river_shrines
    if f.sub == 1 and river_shrine_gain(t, f):
        return
    done(t, f)
    finish_cleanup(t, f.seat)


def river_shrine_gain(t: Table, f: Frame) -> bool:
    """ "At the start of Clean-up, if you didn't gain any cards in your Buy phase this turn,
    gain a card costing up to $4" — once per River Shrine played. True while busy."""
    picks = take(f, f.seat)
    if picks:
        gain(t, f.seat, picks[0])
        return True
    shrines = cast(int, f.vars["shrines"])
    if shrines <= 0:
        return False
    f.vars["shrines"] = shrines - 1
    ask(
        f,
        f.seat,
        "gain",
        "River Shrine: gain a card costing up to $4.",
        costing(t, lambda c: up_to(c, 4)),
        from_hand=False,
    )
    return True


def biding_time(t: Table, seat: int) -> None:
    if t.prophecy("Biding Time") and t.player(seat).hand:
        p = t.player(seat)
        cards, p.hand = p.hand, []
        p.biding += cards
        t.log.append(
            CardsSetAside(
                seat=seat, count=len(cards), cards=cards, reason="Biding Time", private_to=[seat]
            )
        )


def clean_up_cards(t: Table, seat: int) -> None:
    """Discard hand and play (Durations with work left stay), draw 5 (3 after Outpost);
    then Foresight."""
    p, turn = t.s.player_states[seat], t.s.turn
    if turn.staying and (turn.outposts or "Blockade" in p.in_play):
        turn.staying = durations_with_work(t, turn.staying)
    leaving: list[str] = []
    if p.durations:
        leaving = [card for card, lasting in p.durations if lasting == "next_turn"]
        p.durations = [entry for entry in p.durations if entry[1] == "game"]
    for card, lasting, *_ in turn.staying:
        if card in p.in_play:
            p.in_play.remove(card)
            p.durations.append([card, lasting])
    # The hand first, face down, then the cards in play on top: the discard pile's top card
    # is public, and a careful player shows a card everyone saw played, not one of the hand.
    # No one else sees the hand go (`discard_unseen`), but for its last card when it is
    # left on top.
    if p.hand:
        under = len(p.discard)
        p.discard_unseen += tuple(range(under, under + len(p.hand)))
        p.discard += p.hand
        p.hand = []
    discard_from_play(t, seat, leaving + p.in_play if leaving else p.in_play)
    p.in_play = []
    unseen = p.discard_unseen
    if unseen and unseen[-1] == len(p.discard) - 1:
        p.discard_unseen = unseen[:-1]
    draw(t, seat, 3 if turn.outposts else 5)  # Outpost: "you only draw 3 cards"
    if p.foresight:
        cards, p.foresight = p.foresight, []
        p.hand += cards
        t.log.append(
            CardsToHand(
                seat=seat, count=len(cards), cards=cards, source="Foresight", private_to=[seat]
            )
        )


def durations_with_work(t: Table, staying: list[list[str]]) -> list[list[str]]:
    """Durations played this turn that turn out to have nothing left to do leave in this
    Clean-up: Outposts when no extra turn follows, Blockades that set nothing aside; and
    so does a Throne Room or Daimyo when every play it stays with leaves."""
    idle_outposts = not extra_turn_follows(t)
    holding = set(t.s.turn.blockades_holding_plays)
    kept = [
        entry
        for entry in staying
        if staying_with(entry)
        or not (
            (entry[0] == "Outpost" and idle_outposts)
            or (entry[0] == "Blockade" and holding.isdisjoint(plays_of(entry)))
        )
    ]
    plays = {play for entry in kept if not staying_with(entry) for play in plays_of(entry)}
    return [
        entry for entry in kept if not staying_with(entry) or not plays.isdisjoint(plays_of(entry))
    ]


def staying_with(entry: list[str]) -> bool:
    """Whether a `TurnState.staying` entry is a Throne Room's or Daimyo's."""
    return len(entry) > 2 and entry[2] != ""


def plays_of(entry: list[str]) -> list[str]:
    # A state saved before plays were numbered has shorter entries, and no numbers.
    return entry[3].split() if len(entry) > 3 else []


def discard_from_play(t: Table, seat: int, cards: list[str]) -> None:
    """Panic: "when you discard [a Treasure] from play, return it to its pile." """
    p = t.s.player_states[seat]
    if not t.prophecy("Panic"):
        p.discard += cards
        return
    for card in cards:
        if card in TREASURES and card in t.s.supply:
            t.s.supply[card] += 1
        else:
            p.discard.append(card)


def end_turn(t: Table) -> None:
    s = t.s
    reason = game_end_reason(t)
    if reason:
        s.over = True
        s.end_reason = reason
        s.turn.phase = "over"
        t.log.append(GameEnded(reason=reason))
        return
    # The next turn's seat, in phase "start": `begin_turn` comes next, in this same move,
    # and deals the fresh TurnState (one per turn, not two).
    turn = s.turn
    if extra_turn_follows(t):
        s.player_states[turn.seat].extra_turns += 1
        turn.extra = True
    else:
        turn.seat = (turn.seat + 1) % s.players
        turn.extra = False
    turn.phase = "start"


def extra_turn_follows(t: Table) -> bool:
    """Outpost: "Take an extra turn after this one (but not a 3rd turn in a row)" — so
    never after a turn that is itself an extra turn."""
    return bool(t.s.turn.outposts) and not t.s.turn.extra


def game_end_reason(t: Table) -> str | None:
    """Checked at the end of a turn: the Province pile is empty, or 3 Supply piles are
    (4 with 5–6 players). Piles removed by Divine Wind no longer count. The service also
    ends the game once every player has had `turn_limit` turns (turns go round the table
    and extra turns (Outpost) are not counted, so everyone has had the same number)."""
    s = t.s
    supply = s.supply
    if supply.get("Province", 1) == 0:
        return "The Province pile is empty."
    if 0 in supply.values():
        empty = [name for name, left in supply.items() if left == 0]
        if len(empty) >= PILES_TO_END[s.players]:
            return f"{len(empty)} Supply piles are empty: {', '.join(empty)}."
    for p in s.player_states:  # a plain loop: every turn asks
        if p.turns - p.extra_turns < s.turn_limit:
            return None
    return (
        f"The turn limit is reached: every player has had {s.turn_limit} turns "
        "(a service rule, not the rulebook's)."
    )
