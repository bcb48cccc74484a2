"""Step ⑤, stock disposal: exchanging 3 cubes for 1, then keeping at most 3."""

from __future__ import annotations

from itertools import product

from services.engine import Event, IllegalMove, Move, Seat
from services.engine.state import unchecked

from .events import Exchanged, ResourcesReturned
from .moves import END_TURN, EndTurn, Exchange, Keep, exchange_move, keep_move
from .state import COLOURS, EXCHANGE_RATE, KEEP_AT_MOST, Colour, SkyIslandsState


def must_return(state: SkyIslandsState) -> bool:
    """Rulebook: "If you have 4 or more, you must choose up to 3 resources to keep."""
    return state.active.cubes.total > KEEP_AT_MOST


def _in_supply(state: SkyIslandsState, give: Colour, take: Colour) -> int:
    """Cubes of `take` in the supply once 3 `give` are paid for them."""
    return state.supply.get(take) + (EXCHANGE_RATE if take == give else 0)


def exchange_moves(state: SkyIslandsState) -> list[Move]:
    cubes = state.active.cubes
    return [
        exchange_move(give, take)
        for give in COLOURS
        if cubes.get(give) >= EXCHANGE_RATE
        for take in COLOURS
        if _in_supply(state, give, take) > 0
    ]


def keep_moves(state: SkyIslandsState) -> list[Move]:
    cubes = state.active.cubes
    ranges = [range(min(cubes.get(c), KEEP_AT_MOST) + 1) for c in COLOURS]
    return [keep_move(r, w, b) for r, w, b in product(*ranges) if r + w + b <= KEEP_AT_MOST]


def disposal_moves(state: SkyIslandsState) -> list[Move]:
    closing = keep_moves(state) if must_return(state) else [END_TURN]
    return exchange_moves(state) + closing


def has_choice(state: SkyIslandsState) -> bool:
    if must_return(state):
        return True
    cubes = state.active.cubes
    if max(cubes.red, cubes.white, cubes.blue) < EXCHANGE_RATE:
        return False  # the usual case, answered without trying every exchange
    return any(
        cubes.get(give) >= EXCHANGE_RATE and _in_supply(state, give, take) > 0
        for give in COLOURS
        for take in COLOURS
    )


def exchange(state: SkyIslandsState, seat: Seat, move: Exchange) -> list[Event]:
    cubes = state.merchants[seat].cubes
    if cubes.get(move.give) < EXCHANGE_RATE:
        raise IllegalMove(
            "exchange_needs_three",
            f"An exchange costs 3 {move.give} resources; you have {cubes.get(move.give)}.",
        )
    # "pay 3 resources of the same colour ... to the supply, to take 1 resource of any
    # colour from the supply. (They may not exchange for a colour that is not in the supply)"
    if _in_supply(state, move.give, move.take) == 0:
        raise IllegalMove(
            "supply_empty", f"The supply has no {move.take} resource to exchange for."
        )
    cubes.add(move.give, -EXCHANGE_RATE)
    state.supply.add(move.give, EXCHANGE_RATE)
    state.supply.add(move.take, -1)
    cubes.add(move.take, 1)
    return [unchecked(Exchanged)(seat=seat, give=move.give, take=move.take)]


def keep(state: SkyIslandsState, seat: Seat, move: Keep) -> list[Event]:
    cubes = state.merchants[seat].cubes
    if cubes.total <= KEEP_AT_MOST:
        raise IllegalMove(
            "keep_not_needed",
            f"With {cubes.total} resources you keep them all; end the turn instead.",
        )
    if move.total > KEEP_AT_MOST:
        raise IllegalMove(
            "must_keep_at_most_three",
            f"You may keep at most 3 resources, not {move.total}.",
        )
    for colour in COLOURS:
        if getattr(move, colour) > cubes.get(colour):
            raise IllegalMove(
                "keep_more_than_you_have",
                f"You cannot keep {getattr(move, colour)} {colour}; you have {cubes.get(colour)}.",
            )
    returned = {c: cubes.get(c) - getattr(move, c) for c in COLOURS}
    for colour, count in returned.items():
        cubes.add(colour, -count)
        state.supply.add(colour, count)
    state.phase = "refill"
    return [unchecked(ResourcesReturned)(seat=seat, **returned)]


def end_turn(state: SkyIslandsState, seat: Seat, move: EndTurn) -> list[Event]:
    total = state.merchants[seat].cubes.total
    if total > KEEP_AT_MOST:
        raise IllegalMove(
            "too_many_cubes",
            f"You hold {total} resources; choose at most 3 to keep before the turn ends.",
        )
    state.phase = "refill"
    return []
