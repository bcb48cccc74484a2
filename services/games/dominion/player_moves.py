"""Checking and carrying out a seat's moves, and listing the legal ones.

Every refusal names the rule it breaks, with a stable code.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from services.engine import IllegalMove, Move
from services.engine.state import unchecked

from . import base_cards, intrigue_cards, seaside_cards  # noqa: F401  (register their cards)
from .cards import EVENTS, SHADOWS, TREASURES
from .costs import cost, is_
from .decisions import answers, problem_with, record
from .event_effects import resolve_event  # noqa: F401  (registers the "event" frame)
from .gaining import gain, take_debt
from .log import PUBLIC_DECISIONS, CardBought, Chose, DebtChanged, EventBought
from .moves import (
    BUY_CARD,
    BUY_EVENT,
    END_PHASE,
    END_TURN,
    ORDER_SHADOWS,
    PLAY_CARD,
    PLAY_TREASURE,
    PLAY_TREASURES,
    BuyCard,
    BuyEvent,
    Choose,
    EndPhase,
    EndTurn,
    OrderShadows,
    PayDebt,
    PlayCard,
    PlayShadow,
    PlayTreasure,
    PlayTreasures,
)
from .playing import (
    PLAIN_TREASURE_NAMES,
    play_from_deck,
    play_from_hand,
    play_plain_treasures,
    play_treasure_from_hand,
)
from .resolution import push, resolve_stack
from .state import Ask
from .table import Table
from .turn import (
    advance,
    buyable_cards,
    buyable_events,
    buys_left,
    playable_action,
    playable_treasures,
    start_cleanup,
)
from .zones import shadow_positions


def refuse(code: str, message: str, **details: object) -> IllegalMove:
    return IllegalMove(code, message, dict(details))


def open_ask(t: Table, seat: int) -> Ask | None:
    stack = t.s.stack
    if stack and stack[-1].asks:
        return next((a for a in stack[-1].asks if a.seat == seat), None)
    return None


# --- legal moves ----------------------------------------------------------------------


def legal_moves(t: Table, seat: int, buyable: list[str] | None = None) -> list[Move]:
    """`buyable`: the cards the Buy phase prompt offers, when the caller has it (they are
    exactly `buyable_cards`), to save listing them again."""
    a = open_ask(t, seat)
    if a is not None:
        return [unchecked(Choose)(picks=picks) for picks in answers(a)]
    if t.s.over or t.s.stack or seat != t.active:
        return []
    if t.s.turn.phase == "action":
        return action_phase_moves(t) + debt_moves(t) + shadow_order_moves(t) + [END_PHASE]
    if t.s.turn.phase == "buy":
        return buy_phase_legal_moves(t, buyable)
    return []


def buy_phase_legal_moves(t: Table, buyable: list[str] | None = None) -> list[Move]:
    """The active player's moves in their Buy phase, with no decision open: Treasures
    to play, cards and Events to buy, Debt to pay off, Shadows to order, ending the turn."""
    s = t.s
    turn = s.turn
    p = s.player_states[turn.seat]
    moves: list[Move] = []
    if not turn.treasures_locked and not TREASURES.isdisjoint(p.hand):  # `playable_treasures`
        moves.append(PLAY_TREASURES)
        moves += [PLAY_TREASURE[c] for c in dict.fromkeys(p.hand) if c in TREASURES]
    moves += map(BUY_CARD.__getitem__, buyable_cards(t) if buyable is None else buyable)
    if s.events:
        moves += [BUY_EVENT[e] for e in buyable_events(t)]
    if p.debt:
        moves += debt_moves(t)
    if not SHADOWS.isdisjoint(s.dealt):
        moves += shadow_order_moves(t)
    moves.append(END_TURN)
    return moves


def action_phase_moves(t: Table) -> list[Move]:
    if t.s.turn.actions <= 0:
        return []
    p = t.player(t.active)
    moves: list[Move] = [PLAY_CARD[c] for c in dict.fromkeys(p.hand) if playable_action(t, c)]
    top = len(p.deck) - 1
    return moves + [PlayShadow(card=p.deck[top - i], position=i) for i in shadow_positions(p)]


def debt_moves(t: Table) -> list[Move]:
    debt = t.s.player_states[t.s.turn.seat].debt
    if not debt:
        return []
    most = min(debt, t.s.turn.coins)
    return [PayDebt(amount=n) for n in range(1, most + 1)]


def shadows_in_game(t: Table) -> list[str]:
    return list(shadows_among(tuple(t.s.dealt))[0])


@functools.lru_cache(maxsize=64)
def shadows_among(dealt: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[Move, ...]]:
    """The Shadows among the piles dealt, and the moves ordering each of them: asked
    whenever an Action or Buy phase's moves are listed, so kept per kingdom."""
    shadows = tuple(card for card in dealt if card in SHADOWS)
    return shadows, tuple(ORDER_SHADOWS[card] for card in shadows)


def shadow_order_moves(t: Table) -> list[Move]:
    """Ordering only matters with two or more kinds of Shadow in the game."""
    s = t.s
    if SHADOWS.isdisjoint(s.dealt):
        return []
    shadows, moves = shadows_among(tuple(s.dealt))
    if len(shadows) < 2:
        return []
    order = s.player_states[s.turn.seat].shadow_order
    done = s.turn.shadows_ordered
    if not order and not done:
        return list(moves)  # the usual case: no Shadow ordered yet
    bottom = order[0] if order else None
    return [ORDER_SHADOWS[card] for card in shadows if card != bottom and card not in done]


# --- carrying out a move --------------------------------------------------------------


def apply_move(t: Table, seat: int, move: Move) -> None:
    if isinstance(move, Choose):
        choose(t, seat, move)
    else:
        check_turn(t, seat, move)
        PHASE_MOVES[type(move)](t, move)
    advance(t)


def check_turn(t: Table, seat: int, move: Move) -> None:
    if t.s.stack and t.s.stack[-1].asks:
        waiting = t.s.stack[-1].asks[0]
        raise refuse(
            "decision_pending", f"First answer the open decision: {waiting.text}", seat=waiting.seat
        )
    if seat != t.active:
        raise refuse("not_your_turn", "Only the player whose turn it is can do that.")


def choose(t: Table, seat: int, move: Choose) -> None:
    a = open_ask(t, seat)
    if a is None:
        raise refuse(
            "not_a_legal_choice",
            "There is no decision for you to answer now; play, buy or end your phase instead.",
        )
    problem = problem_with(a, move.picks)
    if problem:
        raise refuse("not_a_legal_choice", f"{a.text} — {problem}.", options=a.options)
    if a.kind in PUBLIC_DECISIONS:
        t.log.append(unchecked(Chose)(seat=seat, decision=a.kind, picks=list(move.picks)))
    record(t.s.stack[-1], a, list(move.picks))


def need_phase(t: Table, phase: str, what: str) -> None:
    if t.s.turn.phase != phase:
        raise refuse(
            "wrong_phase",
            f"{what} only in your {phase.title()} phase; it is your "
            f"{t.s.turn.phase.title()} phase.",
            phase=t.s.turn.phase,
        )


def play_card(t: Table, move: PlayCard) -> None:
    need_phase(t, "action", "You can play Action cards")
    p = t.player(t.active)
    if move.card not in p.hand:
        raise refuse("card_not_in_hand", f"You have no {move.card} in your hand.")
    if not is_(t, move.card, "Action"):
        raise refuse("not_an_action", f"{move.card} is not an Action card.")
    if not playable_action(t, move.card):
        raise refuse("treasures_locked", "You cannot play Treasures after buying this turn.")
    spend_action(t)
    play_from_hand(t, t.active, move.card)


def spend_action(t: Table) -> None:
    if t.s.turn.actions <= 0:
        raise refuse("no_actions_left", "You have no Actions left to play an Action card.")
    t.s.turn.actions -= 1


def play_shadow(t: Table, move: PlayShadow) -> None:
    need_phase(t, "action", "You can play Shadows from your deck")
    p = t.player(t.active)
    index = len(p.deck) - 1 - move.position
    if not 0 <= index < len(p.deck) or p.deck[index] != move.card or move.card not in SHADOWS:
        raise refuse(
            "shadow_not_in_deck",
            f"There is no Shadow {move.card} at position {move.position} of your deck.",
            shadows=shadow_positions(p),
        )
    spend_action(t)
    play_from_deck(t, t.active, move.position)


def play_treasure(t: Table, move: PlayTreasure) -> None:
    need_phase(t, "buy", "You can play Treasures")
    check_treasure(t, move.card)
    play_treasure_from_hand(t, t.active, move.card)


def check_treasure(t: Table, card: str) -> None:
    if card not in t.player(t.active).hand:
        raise refuse("card_not_in_hand", f"You have no {card} in your hand.")
    if not is_(t, card, "Treasure"):
        raise refuse("not_a_treasure", f"{card} is not a Treasure.")
    if t.s.turn.treasures_locked:
        raise refuse(
            "treasures_locked",
            "You cannot play further Treasures this turn after buying a card or an Event.",
        )


def play_treasures(t: Table, move: PlayTreasures) -> None:
    need_phase(t, "buy", "You can play Treasures")
    treasures = playable_treasures(t)
    if not treasures:
        raise refuse("no_treasures", "You have no Treasures in your hand to play.")
    s = t.s
    if PLAIN_TREASURE_NAMES.issuperset(treasures) and not (
        s.prophecy == "Enlightenment" and s.sun == 0
    ):
        play_plain_treasures(t, s.turn.seat, treasures)  # no frame: nothing to resolve
        return
    if "Rice" in treasures:
        treasures.sort(key=lambda c: c == "Rice")
    seat, stack = t.active, t.s.stack
    for card in treasures:
        play_treasure_from_hand(t, seat, card)
        if stack and resolve_stack(t):
            return


def check_can_buy(t: Table, price_coins: int, what: str) -> None:
    need_phase(t, "buy", f"You can buy {what}")
    s = t.s
    turn = s.turn
    debt = s.player_states[turn.seat].debt
    if debt:
        raise refuse(
            "cannot_buy_with_debt",
            f"You have {debt} Debt: pay it off before buying cards or Events.",
            debt=debt,
        )
    if turn.buys <= 0 and buys_left(t) <= 0:  # Flourishing Trade: Action plays as Buys
        raise refuse("no_buys_left", "You have no Buys left this turn.")
    if price_coins > turn.coins:
        raise refuse(
            "not_enough_coins",
            f"{what} costs ${price_coins}; you have ${t.s.turn.coins}.",
            coins=t.s.turn.coins,
        )


def use_buy(t: Table) -> None:
    turn = t.s.turn
    if turn.buys:
        turn.buys -= 1
    else:
        turn.actions -= 1  # Flourishing Trade: an Action play used as a Buy
    turn.treasures_locked = True


_new_card_bought = unchecked(CardBought)


def buy_card(t: Table, move: BuyCard) -> None:
    need_phase(t, "buy", "You can buy cards")
    s, card = t.s, move.card
    left = s.supply.get(card)
    if left is None:
        raise refuse("not_in_supply", f"{card} is not a pile in the Supply.")
    if left <= 0:
        raise refuse("pile_empty", f"The {card} pile is empty.")
    price = cost(t, card)
    check_can_buy(t, price.coins, card)
    turn = s.turn
    turn.coins -= price.coins
    use_buy(t)
    seat = turn.seat
    t.log.append(_new_card_bought(seat=seat, card=card))
    if price.debt:
        take_debt(t, seat, price.debt, f"bought {card}")
    gain(t, seat, card)


def buy_event(t: Table, move: BuyEvent) -> None:
    need_phase(t, "buy", "You can buy Events")
    if move.event not in t.s.events:
        raise refuse("event_not_in_game", f"{move.event} is not an Event in this game.")
    if move.event == "Continue" and t.s.turn.continue_used:
        raise refuse("once_per_turn", "You can only buy Continue once per turn.")
    price = EVENTS[move.event].cost  # "Costs of Events are not affected by Flourishing Trade."
    check_can_buy(t, price.coins, move.event)
    t.s.turn.coins -= price.coins
    use_buy(t)
    t.s.turn.continue_used |= move.event == "Continue"
    t.log.append(EventBought(seat=t.active, event=move.event))
    take_debt(t, t.active, price.debt, f"bought {move.event}")
    push(t, "event", t.active, move.event)


def pay_debt(t: Table, move: PayDebt) -> None:
    p, turn = t.player(t.active), t.s.turn
    if move.amount <= 0:
        raise refuse(
            "cannot_take_debt", "Players cannot take Debt for no reason: pay off a positive amount."
        )
    if move.amount > p.debt:
        raise refuse(
            "debt_payment_exceeds_debt", f"You have only {p.debt} Debt to pay off.", debt=p.debt
        )
    if move.amount > turn.coins:
        raise refuse(
            "not_enough_coins",
            f"Paying off {move.amount} Debt takes ${move.amount}; you have ${turn.coins}.",
            coins=turn.coins,
        )
    turn.coins -= move.amount
    p.debt -= move.amount
    t.log.append(DebtChanged(seat=t.active, change=-move.amount, debt=p.debt, reason="paid"))


def order_shadows(t: Table, move: OrderShadows) -> None:
    if move.bottom not in shadows_in_game(t):
        raise refuse(
            "not_a_shadow_in_this_game",
            f"{move.bottom} is not a Shadow card in this game's Supply.",
            shadows=shadows_in_game(t),
        )
    if len(shadows_in_game(t)) < 2:
        raise refuse(
            "nothing_to_order",
            "With one kind of Shadow in the game there is nothing to order.",
        )
    p = t.player(t.active)
    if p.shadow_order and p.shadow_order[0] == move.bottom:
        raise refuse(
            "shadow_already_bottom_most",
            f"{move.bottom} is already bottom-most among your Shadows.",
        )
    if move.bottom in t.s.turn.shadows_ordered:
        raise refuse(
            "shadow_already_ordered",
            f"You have already put {move.bottom} bottom-most this turn; each kind of Shadow "
            "can be ordered once a turn, which is enough for any order.",
        )
    p.shadow_order = [move.bottom] + [c for c in p.shadow_order if c != move.bottom]
    t.s.turn.shadows_ordered.append(move.bottom)


def end_phase(t: Table, move: EndPhase) -> None:
    need_phase(t, "action", "You can end your Action phase")
    t.s.turn.phase = "buy"


def end_turn(t: Table, move: EndTurn) -> None:
    need_phase(t, "buy", "You can end your turn (your Buy phase)")
    start_cleanup(t)


PHASE_MOVES: dict[type[Move], Callable[[Table, Any], None]] = {
    PlayCard: play_card,
    PlayShadow: play_shadow,
    PlayTreasure: play_treasure,
    PlayTreasures: play_treasures,
    BuyCard: buy_card,
    BuyEvent: buy_event,
    PayDebt: pay_debt,
    OrderShadows: order_shadows,
    EndPhase: end_phase,
    EndTurn: end_turn,
}
