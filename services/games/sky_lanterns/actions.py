"""What is asked now, which moves answer it, and carrying those moves out."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from services.engine import IllegalMove, Move

from . import effects as fx
from . import moves as mv
from . import resolver
from .components import BOARD, CARDS, PLAYER_BOARDS, SPACES
from .resources import DONOR, gain, give_from, parse_donor_key, pay, richest_others
from .rounds import carry_on
from .setup import next_setup_step
from .state import SETUP_STEPS, Die, Frame, SkyLanternsState

ANSWERS: dict[str, frozenset[str]] = {
    "contract": frozenset({"play_contract_card", "era_contract", "exclusive_contract", "decline"}),
    "take": frozenset({"take_die"}),
    "place": frozenset({"place_core", "place_compensation", "camphor_trade", "return_die"}),
    "develop": frozenset({"develop", "decline"}),
    "convert": frozenset({"convert"}),
    "one_of": frozenset({"choose_resource"}),
    "change_die": frozenset({"change_die"}),
    "any_space": frozenset({"choose_space"}),
    "upgrade": frozenset({"upgrade"}),
    "donor": frozenset({"choose_donor"}),
    "draw": frozenset({"draw_card"}),
    "draft": frozenset({"draft_card"}),
    "arrange": frozenset({"arrange_tiles"}),
}
"""The moves that answer each question (besides Coal Trade, a free action at any time)."""

TASKS: dict[str, str] = {
    "contract": "resolve one contract or decline",
    "take": "take a die from the Main Board",
    "place": "place your die in a Core or Compensation Slot",
    "develop": "choose a card and a zone to develop, or decline",
    "convert": "choose how many times to convert",
    "one_of": "choose which resource to gain",
    "change_die": "change your die by -1, 0 or +1",
    "any_space": "choose a non-black dice space to resolve",
    "upgrade": "choose an Upgrade Tile to flip",
    "donor": "choose which of the richest players gives the missing token",
    "draw": "draw a market card or the deck's top card",
    "draft": "keep one of the Starting cards offered to you",
    "arrange": "arrange your face-up Upgrade Tiles",
}


def setup_seats(state: SkyLanternsState) -> list[int]:
    """The seats still to choose in a simultaneous setup step (drafting, arranging)."""
    if state.step == "draft":
        return [s for s, pick in enumerate(state.draft_picks) if pick is None]
    if state.step == "arrange":
        return [s for s, done in enumerate(state.arranged) if not done]
    return []


def asked(state: SkyLanternsState) -> tuple[int, str, Any] | None:
    """(seat, question, the effect asking or None) — or None once the game is over. In a
    simultaneous setup step, the first seat still choosing (see `setup_seats`)."""
    if state.over:
        return None
    if state.step in SETUP_STEPS:
        return setup_seats(state)[0], state.step, None
    if state.stack:
        frame = state.stack[-1]
        if frame.key.startswith(DONOR):
            return frame.seat, "donor", frame
        if frame.key == resolver.DRAW:
            return frame.seat, "draw", frame
        effect = resolver.EFFECTS[frame.key][frame.index]
        return frame.seat, effect.kind, effect
    return state.active, state.step, None


# --- legal moves ---------------------------------------------------------------------------


def legal_moves(state: SkyLanternsState, seat: int) -> list[Move]:
    if state.step in SETUP_STEPS:
        return OFFERS[state.step](state, seat, None) if seat in setup_seats(state) else []
    question = asked(state)
    if question is None or question[0] != seat:
        return []
    _, kind, effect = question
    return [*OFFERS[kind](state, seat, effect), *coal_trades(state, seat)]


def _contracts(state: SkyLanternsState, seat: int, _: Any) -> list[Move]:
    offered: list[Move] = []
    for source, option in resolver.contract_options(state, seat):
        if source == "hand":
            offered.append(mv.PlayContractCard(card=str(option)))
        elif source == "era":
            offered.append(mv.EraContract(option=int(option)))
        else:
            offered.append(mv.ExclusiveContract(option=int(option)))
    return [*offered, mv.Decline()]


def _takes(state: SkyLanternsState, seat: int, _: Any) -> list[Move]:
    spaces = [s for s, value in state.spaces.items() if value is not None]
    return [mv.TakeDie(space=s, forfeit=f) for s in spaces for f in (False, True)]


def _places(state: SkyLanternsState, seat: int, _: Any) -> list[Move]:
    player = state.seats[seat]
    assert state.held is not None
    offered: list[Move] = [
        mv.PlaceCore(slot=i)
        for i in range(len(player.core))
        if core_problem(state, seat, i, state.held.value) is None
    ]
    offered += [mv.PlaceCompensation(slot=i) for i, d in enumerate(player.compensation) if not d]
    if not offered:
        offered.append(mv.ReturnDie())
    if player.camphor:
        offered += [mv.CamphorTrade(delta=d) for d in (-1, 1) if 1 <= state.held.value + d <= 6]
    return offered


def _develops(state: SkyLanternsState, seat: int, effect: fx.Develop) -> list[Move]:
    cards = resolver.develop_options(state, seat, effect.track)
    return [*(mv.Develop(card=c, zone=z) for c in cards for z in range(3)), mv.Decline()]


def _converts(state: SkyLanternsState, seat: int, effect: fx.Convert) -> list[Move]:
    return [mv.Convert(times=n) for n in range(resolver.most_conversions(state, seat, effect) + 1)]


def _one_ofs(state: SkyLanternsState, seat: int, effect: fx.OneOf) -> list[Move]:
    return [mv.ChooseResource(resource=r) for r in effect.res]


def _die_changes(state: SkyLanternsState, seat: int, _: Any) -> list[Move]:
    assert state.held is not None
    return [mv.ChangeDie(delta=d) for d in (-1, 0, 1) if 1 <= state.held.value + d <= 6]


def _spaces(state: SkyLanternsState, seat: int, _: Any) -> list[Move]:
    return [mv.ChooseSpace(space=s) for s in any_space_choices(state)]


def _upgrades(state: SkyLanternsState, seat: int, _: Any) -> list[Move]:
    tiles = state.seats[seat].upgrades
    return [mv.Upgrade(position=i) for i, tile in enumerate(tiles) if tile is not None]


def _donors(state: SkyLanternsState, seat: int, frame: Frame) -> list[Move]:
    resource, _, gainer = parse_donor_key(frame.key)
    return [mv.ChooseDonor(seat=s) for s in richest_others(state, gainer, resource)]


def _draws(state: SkyLanternsState, seat: int, frame: Frame) -> list[Move]:
    deck: list[Move] = [mv.DrawCard()] if state.deck or state.discard else []
    return [*deck, *(mv.DrawCard(card=c) for c in state.market or [])]


def _drafts(state: SkyLanternsState, seat: int, _: Any) -> list[Move]:
    return [mv.DraftCard(card=c) for c in state.draft_packets[seat]]


def _arrangements(state: SkyLanternsState, seat: int, _: Any) -> list[Move]:
    tiles = [t for t in state.seats[seat].upgrades if t is not None]
    return [mv.ArrangeTiles(tiles=order) for order in itertools.permutations(sorted(tiles))]


OFFERS: dict[str, Callable[[SkyLanternsState, int, Any], list[Move]]] = {
    "contract": _contracts,
    "take": _takes,
    "place": _places,
    "develop": _develops,
    "convert": _converts,
    "one_of": _one_ofs,
    "change_die": _die_changes,
    "any_space": _spaces,
    "upgrade": _upgrades,
    "donor": _donors,
    "draw": _draws,
    "draft": _drafts,
    "arrange": _arrangements,
}


def coal_trades(state: SkyLanternsState, seat: int) -> list[Move]:
    player = state.seats[seat]
    if PLAYER_BOARDS[player.board].coal_trade == "coins":
        return [mv.CoalTrade(into="coins")] if player.basics["coal"] >= 2 else []
    if not player.basics["coal"]:
        return []
    cap = PLAYER_BOARDS[player.board].cap
    return [mv.CoalTrade(into=r) for r in ("indigo", "tea", "yam") if player.basics[r] < cap]


def any_space_choices(state: SkyLanternsState) -> list[str]:
    """Non-black spaces in play (with 3 players the four-dot spaces hold no dice)."""
    return [
        s.id for s in BOARD.spaces if s.colour != "black" and (s.dots != 4 or state.players == 4)
    ]


def core_problem(state: SkyLanternsState, seat: int, slot: int, value: int) -> str | None:
    """Why a die of `value` may not go into Core Slot `slot`, or None if it may."""
    core = state.seats[seat].core
    if slot >= len(core):
        return f"There is no Core Slot {slot}; your board has {len(core)}."
    if core[slot] is not None:
        return f"Core Slot {slot} already holds a die."
    left = [d.value for d in core[:slot] if d is not None]
    right = [d.value for d in core[slot + 1 :] if d is not None]
    if (left and max(left) > value) or (right and min(right) < value):
        return (
            f"A {value} cannot go into Core Slot {slot}: die values across the Core Slots "
            "must be equal or increasing from left to right."
        )
    return None


# --- carrying moves out ------------------------------------------------------------------------


def play(state: SkyLanternsState, seat: int, move: Move) -> None:
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
    if player.basics[move.into] >= board.cap:
        raise IllegalMove("track_full", f"Your {move.into} track is full already.")
    pay(state, seat, "coal", 1)
    gain(state, seat, move.into, 1)


def _contract_chosen(state: SkyLanternsState, effect: Any) -> None:
    if effect is None:
        state.step = "take"
    else:
        resolver.done_with_choice(state)


def do_play_contract_card(state: SkyLanternsState, seat: int, move: Any, effect: Any) -> None:
    if move.card not in state.seats[seat].hand:
        raise IllegalMove("card_not_in_hand", f"You do not hold {move.card}.")
    _contract_chosen(state, effect)
    resolver.contract(state, seat, "hand", move.card)


def do_era_contract(state: SkyLanternsState, seat: int, move: Any, effect: Any) -> None:
    era = resolver.current_era(state)
    if move.option >= len(resolver.era_contracts(era)):
        raise IllegalMove("no_such_option", f"Era card {era} has no contract {move.option}.")
    _contract_chosen(state, effect)
    resolver.contract(state, seat, "era", move.option)


def do_exclusive_contract(state: SkyLanternsState, seat: int, move: Any, effect: Any) -> None:
    board = PLAYER_BOARDS[state.seats[seat].board]
    if move.option >= len(board.exclusive_contracts):
        raise IllegalMove(
            "no_such_option", f"Player board {board.id} has no exclusive contract {move.option}."
        )
    _contract_chosen(state, effect)
    resolver.contract(state, seat, "exclusive", move.option)


def do_decline(state: SkyLanternsState, seat: int, move: Any, effect: Any) -> None:
    _contract_chosen(state, effect)


def do_take_die(state: SkyLanternsState, seat: int, move: Any, effect: Any) -> None:
    if move.space not in SPACES:
        raise IllegalMove("no_such_space", f"The Main Board has no dice space {move.space!r}.")
    value = state.spaces.get(move.space)
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
        code = "slot_order" if "equal or increasing" in problem else "slot_unavailable"
        raise IllegalMove(code, problem, {"slot": move.slot, "value": held.value})
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
    if move.slot >= len(player.compensation) or player.compensation[move.slot] is not None:
        raise IllegalMove(
            "slot_unavailable", f"Compensation Slot {move.slot} is not free on your board."
        )
    player.compensation[move.slot] = state.held
    state.held = None
    state.step = "end"
    resolver.push(state, f"board:{player.board}:comp:{move.slot}", seat)


def do_return_die(state: SkyLanternsState, seat: int, move: Any, effect: Any) -> None:
    held = state.held
    assert held is not None
    if _places(state, seat, None)[0].kind != "return_die":
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
            "cannot_afford", f"You can convert at most {most} times here, not {move.times}."
        )
    frame = resolver.done_with_choice(state)
    for _ in range(move.times):
        for resource, value in effect.pay.items():
            pay(state, seat, resource, resolver.amount(state, seat, value))
    for _ in range(move.times):
        resolver.push(state, f"{frame.key}/{frame.index}", seat, frame.card)


def do_choose_resource(state: SkyLanternsState, seat: int, move: Any, effect: fx.OneOf) -> None:
    if move.resource not in effect.res:
        raise IllegalMove("no_such_option", f"This gives {' or '.join(effect.res)} only.")
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
        raise IllegalMove(
            "no_such_option", f"{move.space!r} is not a non-black dice space in this game."
        )
    frame = resolver.done_with_choice(state)
    resolver.push(state, resolver.space_effects(state, move.space), seat, frame.card)


def do_upgrade(state: SkyLanternsState, seat: int, move: Any, effect: Any) -> None:
    if state.seats[seat].upgrades[move.position] is None:
        raise IllegalMove("tile_flipped", f"The Upgrade Tile on space {move.position} is gone.")
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


def do_draft_card(state: SkyLanternsState, seat: int, move: Any, effect: Any) -> None:
    if move.card not in state.draft_packets[seat]:
        raise IllegalMove("not_offered", f"{move.card} is not among the cards offered to you.")
    state.draft_picks[seat] = move.card
    if None in state.draft_picks:
        return
    for picker, pick in enumerate(state.draft_picks):
        state.seats[picker].hand.append(pick)  # type: ignore[arg-type]
        state.draft_packets[picker].remove(pick)  # type: ignore[arg-type]
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
    "arrange_tiles": do_arrange_tiles,
}
