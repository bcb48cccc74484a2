"""Carrying moves out: each checks its rule (raising IllegalMove with a stable code)
and changes the state; then the game moves on until someone must decide."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from services.engine import IllegalMove, Move

from . import effects as fx
from . import moves as mv
from . import resolver, solo
from .asking import ANSWERS, TASKS, asked
from .components import CARDS, PLAYER_BOARDS, SOLO_CARDS, SPACES
from .offers import any_space_choices, core_problem, place_offers
from .resources import (
    amount_words,
    gain,
    give_from,
    parse_donor_key,
    pay,
    resource_name,
    richest_others,
)
from .resources import has as resources_have
from .rounds import carry_on
from .setup import next_setup_step
from .state import SETUP_STEPS, Die, Frame, KnownCards, SkyLanternsState


def carry_out(state: SkyLanternsState, seat: int, move: Move) -> None:
    if isinstance(move, mv.CoalTrade):
        if state.step in SETUP_STEPS:
            raise IllegalMove("not_now", "Coal Trade waits until the game has begun.")
        coal_trade(state, seat, move)
        carry_on(state)  # P-03's $2 may run the supply out and ask who gives
        return
    question = asked(state)
    assert question is not None
    _, kind, effect = question
    if move.kind not in ANSWERS[kind]:
        raise IllegalMove(
            "not_now",
            f"You cannot {move.kind.replace('_', ' ')} now: you must {TASKS[kind]}.",
            {"asked": kind},
        )
    DOERS[move.kind](state, seat, move, effect)
    carry_on(state)


def coal_trade(state: SkyLanternsState, seat: int, move: mv.CoalTrade) -> None:
    player = state.seats[seat]
    board = PLAYER_BOARDS[player.board]
    if board.coal_trade == "coins":
        if move.into != "coins":
            raise IllegalMove("wrong_coal_trade", "On P-03 Coal Trade is 2 Coal for $2.")
        if player.basics["coal"] < 2:
            raise IllegalMove("not_enough_coal", "Coal Trade on P-03 needs 2 Coal.")
        pay(state, seat, "coal", 2)
        gain(state, seat, "coins", 2)
        return
    if move.into == "coins":
        raise IllegalMove("wrong_coal_trade", "Coal trades for Indigo, Tea or Dyeing Yam.")
    if not player.basics["coal"]:
        raise IllegalMove("not_enough_coal", "You have no Coal to trade.")
    # Into a full track too: "Any resources gained beyond the track's maximum limit are
    # lost", so the Coal is spent and the gain lost (`trade_lost`; the label says so).
    pay(state, seat, "coal", 1)
    gain(state, seat, move.into, 1)


def _contract_chosen(state: SkyLanternsState, effect: Any) -> None:
    if effect is None:
        state.step = "take"
    else:
        resolver.done_with_choice(state)


def _payable(state: SkyLanternsState, seat: int, source: str, option: str | int, what: str) -> None:
    """Refuse a contract whose conversion `seat` cannot pay even after Coal Trades: "You
    cannot perform the conversion if you do not have enough resources"."""
    price = resolver.unpaid_price(state, seat, resolver.contract_key(state, seat, source, option))
    if price is None:
        return
    costs = " and ".join(amount_words(r, n) for r, n in price.items())
    to_coins = PLAYER_BOARDS[state.seats[seat].board].coal_trade == "coins"
    traded = {"coins"} if to_coins else set(fx.COAL_TRADES_INTO)
    trades = ", Coal Trades included" if traded & set(price) else ""
    raise IllegalMove(
        "cannot_afford",
        f"You cannot pay for {what}: it costs {costs}, more than you have{trades}.",
        {"price": price},
    )


def do_play_contract_card(state: SkyLanternsState, seat: int, move: Any, effect: Any) -> None:
    if move.card not in state.seats[seat].hand:
        raise IllegalMove("card_not_in_hand", f"You do not hold {move.card}.")
    _payable(state, seat, "hand", move.card, f"{move.card}'s contract")
    _contract_chosen(state, effect)
    resolver.contract(state, seat, "hand", move.card)


def do_era_contract(state: SkyLanternsState, seat: int, move: Any, effect: Any) -> None:
    era = resolver.current_era(state)
    if move.option >= len(resolver.era_contracts(era)):
        count = len(resolver.era_contracts(era))
        raise IllegalMove(
            "no_such_option", f"Era card {era} has no contract {move.option + 1}; it has {count}."
        )
    _payable(state, seat, "era", move.option, f"the Era card's contract {move.option + 1}")
    _contract_chosen(state, effect)
    resolver.contract(state, seat, "era", move.option)


def do_exclusive_contract(state: SkyLanternsState, seat: int, move: Any, effect: Any) -> None:
    board = PLAYER_BOARDS[state.seats[seat].board]
    if move.option >= len(board.exclusive_contracts):
        count = len(board.exclusive_contracts)
        raise IllegalMove(
            "no_such_option",
            f"Player board {board.id} has no exclusive contract {move.option + 1}; it has {count}.",
        )
    _payable(state, seat, "exclusive", move.option, f"the exclusive contract {move.option + 1}")
    _contract_chosen(state, effect)
    resolver.contract(state, seat, "exclusive", move.option)


def do_influence_contract(state: SkyLanternsState, seat: int, move: Any, effect: Any) -> None:
    problem = resolver.influence_problem(state, seat, list(move.tracks))
    if problem is not None:
        raise IllegalMove("influence_refused", problem, {"tracks": list(move.tracks)})
    _contract_chosen(state, effect)
    resolver.influence_contract(state, seat, list(move.tracks))


def do_answer_rival(state: SkyLanternsState, seat: int, move: Any, frame: Any) -> None:
    resource, amount, _ = solo.CHOICES[solo.demand_value(frame)]
    held = resources_have(state, seat, resource)
    if move.pay and held < amount:
        price = solo.demand(frame)[0]
        raise IllegalMove(
            f"not_enough_{resource}", f"Paying the ghost needs {price}; you have {held}."
        )
    solo.answer_choice(state, frame, move.pay)


def do_decline(state: SkyLanternsState, seat: int, move: Any, effect: Any) -> None:
    _contract_chosen(state, effect)


def do_take_die(state: SkyLanternsState, seat: int, move: Any, effect: Any) -> None:
    if move.space not in state.spaces:
        raise IllegalMove(
            "no_such_space", f"This side of the Main Board has no dice space {move.space!r}."
        )
    value = state.spaces[move.space]
    if value is None:
        raise IllegalMove("no_die_there", f"There is no die on {move.space}.")
    state.spaces[move.space] = None
    state.held = Die(colour=SPACES[move.space].colour, value=value)
    state.step = "place"
    if not move.forfeit:
        resolver.push(state, resolver.space_effects(state, move.space), seat)


def do_camphor_trade(state: SkyLanternsState, seat: int, move: Any, effect: Any) -> None:
    assert state.held is not None
    if not state.seats[seat].camphor:
        raise IllegalMove("not_enough_camphor", "Changing the die costs 1 Camphor; you have none.")
    value = state.held.value + move.delta
    if not 1 <= value <= 6:
        raise IllegalMove("die_out_of_range", f"A die cannot show {value}.")
    pay(state, seat, "camphor", 1)
    state.held = Die(colour=state.held.colour, value=value)


def do_place_core(state: SkyLanternsState, seat: int, move: Any, effect: Any) -> None:
    held = state.held
    assert held is not None
    problem = core_problem(state, seat, move.slot, held.value)
    if problem is not None:
        code, message = problem
        raise IllegalMove(code, message, {"slot": move.slot, "value": held.value})
    player = state.seats[seat]
    player.core[move.slot] = held
    state.held = None
    state.step = "end"
    slot = PLAYER_BOARDS[player.board].core_slots[move.slot]
    # Pushed first, resolved last: the slot's payment after the lantern rewards above it.
    resolver.push(state, f"board:{player.board}:core:{move.slot}", seat)
    matching = [
        card
        for zone in slot.zones
        for card in player.lantern_zones[zone]
        if held.value in CARDS[card].requirement
    ]
    for card in reversed(matching):  # top to bottom
        resolver.push(state, f"card:{card}:lantern", seat, card)


def do_place_compensation(state: SkyLanternsState, seat: int, move: Any, effect: Any) -> None:
    player = state.seats[seat]
    count, number = len(player.compensation), move.slot + 1
    if move.slot >= count:
        raise IllegalMove(
            "slot_unavailable", f"There is no Compensation Slot {number}; your board has {count}."
        )
    if player.compensation[move.slot] is not None:
        raise IllegalMove("slot_unavailable", f"Compensation Slot {number} already holds a die.")
    player.compensation[move.slot] = state.held
    state.held = None
    state.step = "end"
    resolver.push(state, f"board:{player.board}:comp:{move.slot}", seat)


def do_return_die(state: SkyLanternsState, seat: int, move: Any, effect: Any) -> None:
    held = state.held
    assert held is not None
    if place_offers(state, seat, None)[0].kind != "return_die":
        raise IllegalMove(
            "die_fits", "Your die fits a Core or Compensation Slot: it must be placed."
        )
    state.bag[held.colour] += 1
    state.held = None
    state.step = "end"


def do_develop(state: SkyLanternsState, seat: int, move: Any, effect: fx.Develop) -> None:
    if move.card not in state.seats[seat].hand:
        raise IllegalMove("card_not_in_hand", f"You do not hold {move.card}.")
    if move.card not in resolver.develop_options(state, seat, effect.track):
        cost = getattr(CARDS[move.card], f"{effect.track}_cost")
        raise IllegalMove("cannot_afford", f"Developing {move.card} costs ${cost}.")
    resolver.done_with_choice(state)
    resolver.develop(state, seat, move.card, effect.track, move.zone)


def do_convert(state: SkyLanternsState, seat: int, move: Any, effect: fx.Convert) -> None:
    most = resolver.most_conversions(state, seat, effect)
    if move.times > most:
        raise IllegalMove(
            "cannot_afford",
            f"You can convert at most {most} time{'' if most == 1 else 's'} here, "
            f"not {move.times}.",
        )
    frame = resolver.done_with_choice(state)
    for _ in range(move.times):
        for resource, value in effect.pay.items():
            pay(state, seat, resource, resolver.amount(state, seat, value))
    for _ in range(move.times):
        resolver.push(state, f"{frame.key}/{frame.index}", seat, frame.card)


def do_choose_resource(state: SkyLanternsState, seat: int, move: Any, effect: fx.OneOf) -> None:
    if move.resource not in effect.res:
        names = " or ".join(resource_name(r) for r in effect.res)
        raise IllegalMove("no_such_option", f"This gives {names} only.")
    resolver.done_with_choice(state)
    gain(state, seat, move.resource, effect.amount)


def do_change_die(state: SkyLanternsState, seat: int, move: Any, effect: Any) -> None:
    assert state.held is not None
    value = state.held.value + move.delta
    if not 1 <= value <= 6:
        raise IllegalMove("die_out_of_range", f"A die cannot show {value}.")
    resolver.done_with_choice(state)
    state.held = Die(colour=state.held.colour, value=value)


def do_choose_space(state: SkyLanternsState, seat: int, move: Any, effect: Any) -> None:
    if move.space not in any_space_choices(state):
        raise IllegalMove("no_such_option", not_a_space_choice(state, move.space))
    frame = resolver.done_with_choice(state)
    resolver.push(state, resolver.space_effects(state, move.space), seat, frame.card)


def not_a_space_choice(state: SkyLanternsState, space: str) -> str:
    """Why `space` may not be chosen to resolve ("any dice space ... except for black")."""
    board = {s.id: s for s in resolver.side_spaces(state)}
    if space not in board:
        return f"{space!r} is no dice space on this side of the Main Board."
    if board[space].colour == "black":
        return "Black dice spaces cannot be chosen: resolve a red, blue or green one."
    return (
        f"{space} is not in play with {state.players} players: a four-dot space, its die "
        "and Upgrade Tile were removed."
    )


def do_upgrade(state: SkyLanternsState, seat: int, move: Any, effect: Any) -> None:
    if state.seats[seat].upgrades[move.position] is None:
        raise IllegalMove(
            "tile_flipped", f"The Upgrade Tile on space {move.position + 1} was flipped already."
        )
    resolver.done_with_choice(state)
    resolver.upgrade(state, seat, move.position)


def do_draw_card(state: SkyLanternsState, seat: int, move: Any, frame: Frame) -> None:
    market = state.market or []
    if move.card is not None and move.card not in market:
        raise IllegalMove("not_in_market", f"{move.card} is not in the Teapot market.")
    if move.card is None and not (state.deck or state.discard):
        raise IllegalMove("deck_empty", "The deck and the discard pile are empty.")
    state.stack.pop()
    if move.card is None:
        resolver.draw(state, seat, 1)
    else:
        market.remove(move.card)
        state.seats[seat].hand.append(move.card)
        if state.players > 1:  # the market is face up: everyone saw where it went
            everyone = tuple(range(state.players))
            state.known_cards.append(KnownCards(cards=(move.card,), knowers=everyone))
    if frame.card in SOLO_CARDS:  # a draw the solo opponent's die 4 made
        solo.drawn(state, state.seats[seat].hand[-1])


def do_draft_card(state: SkyLanternsState, seat: int, move: Any, effect: Any) -> None:
    if move.card not in state.draft_packets[seat]:
        raise IllegalMove("not_offered", f"{move.card} is not among the cards offered to you.")
    state.draft_picks[seat] = move.card
    if None in state.draft_picks:
        return
    for picker, pick in enumerate(state.draft_picks):
        state.seats[picker].hand.append(pick)  # type: ignore[arg-type]
        state.draft_packets[picker].remove(pick)  # type: ignore[arg-type]
        if state.players > 1:  # the picker knows what it passes on, and to whom
            passed = tuple(state.draft_packets[picker])
            state.known_cards.append(KnownCards(cards=passed, knowers=(picker,)))
    # "pass the remaining cards to the player on their left"
    state.draft_packets = state.draft_packets[-1:] + state.draft_packets[:-1]
    state.draft_picks = [None] * state.players
    if len(state.draft_packets[0]) == 1:  # the last card passed is kept
        for player, packet in zip(state.seats, state.draft_packets, strict=True):
            player.hand += packet
        state.draft_packets, state.draft_picks = [], []
        state.step = next_setup_step(state, "arrange")


def do_arrange_tiles(state: SkyLanternsState, seat: int, move: Any, effect: Any) -> None:
    mine = sorted(t for t in state.seats[seat].upgrades if t is not None)
    if sorted(move.tiles) != mine:
        raise IllegalMove(
            "not_your_tiles", f"Arrange exactly your own Upgrade Tiles: {', '.join(mine)}."
        )
    state.seats[seat].upgrades = list(move.tiles)
    state.arranged[seat] = True
    state.step = next_setup_step(state, "arrange")


def do_choose_donor(state: SkyLanternsState, seat: int, move: Any, frame: Frame) -> None:
    resource, _, gainer = parse_donor_key(frame.key)
    if move.seat not in richest_others(state, gainer, resource):
        raise IllegalMove(
            "not_the_richest",
            f"Seat {move.seat} does not have the most {resource} of the other players.",
        )
    state.stack.pop()
    give_from(state, frame.key, move.seat)


DOERS: dict[str, Callable[[SkyLanternsState, int, Any, Any], None]] = {
    "play_contract_card": do_play_contract_card,
    "era_contract": do_era_contract,
    "exclusive_contract": do_exclusive_contract,
    "influence_contract": do_influence_contract,
    "decline": do_decline,
    "take_die": do_take_die,
    "camphor_trade": do_camphor_trade,
    "place_core": do_place_core,
    "place_compensation": do_place_compensation,
    "return_die": do_return_die,
    "develop": do_develop,
    "convert": do_convert,
    "choose_resource": do_choose_resource,
    "change_die": do_change_die,
    "choose_space": do_choose_space,
    "upgrade": do_upgrade,
    "choose_donor": do_choose_donor,
    "draw_card": do_draw_card,
    "draft_card": do_draft_card,
    "answer_rival": do_answer_rival,
    "arrange_tiles": do_arrange_tiles,
}
