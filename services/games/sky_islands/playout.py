"""A cheap, sensible playout policy for searching bots: one move for the seat to act,
without listing every legal move (a placement turn has about 70).

Searching bots play thousands of these moves per decision, so the policy must cost
little and play like a merchant rather than at random: place where the most ships
pay, build while there is something to build, keep a mix of colours.
"""

from __future__ import annotations

from services.engine import Move, Rng, Seat
from services.engine.state import unchecked

from .board import FITS, Cell, facts_of
from .building import building_moves
from .disposal import exchange_moves, must_return
from .moves import END_TURN, FINISH_BUILDING, DiscardTile, Keep, placements_in
from .state import COLOURS, KEEP_AT_MOST, SkyIslandsState
from .tiles import Rotation


def playout_move(state: SkyIslandsState, seat: Seat, rng: Rng) -> Move:
    if state.phase == "place":
        return _placement(state, rng)
    if state.phase == "build":
        builds = building_moves(state)
        return rng.choice(builds) if builds else FINISH_BUILDING
    if must_return(state):
        return _keep(state)
    exchanges = exchange_moves(state)
    if exchanges and rng.below(2):
        return rng.choice(exchanges)
    return END_TURN


def _placement(state: SkyIslandsState, rng: Rng) -> Move:
    """A placement touching as many tiles as any can (each touching tile's ship pays),
    chosen uniformly among those; only the chosen move is made."""
    best: list[tuple[int, tuple[Rotation, ...], list[Cell]]] = []
    most = count = 0
    by_code = facts_of(state.board).by_code
    codes = sorted(by_code)
    for tile in state.active.hand:
        fits = FITS[tile]
        for code in codes:
            rotations = fits[code]
            if not rotations or TOUCHING[code] < most:
                continue
            if TOUCHING[code] > most:
                best, most, count = [], TOUCHING[code], 0
            best.append((tile, rotations, by_code[code]))
            count += len(rotations) * len(by_code[code])
    if not best:
        return unchecked(DiscardTile)(tile=rng.choice(state.active.hand))
    pick = rng.below(count)
    for tile, rotations, cells in best:
        size = len(rotations) * len(cells)
        if pick < size:
            cell, rotation = cells[pick // len(rotations)], rotations[pick % len(rotations)]
            return placements_in(tile, (rotation,), [cell])[0]
        pick -= size
    raise AssertionError("the pick lies within the placements counted")


TOUCHING = tuple((code >> 4).bit_count() for code in range(256))
"""Per need code, how many tiles a tile placed there touches."""


def _keep(state: SkyIslandsState) -> Move:
    """Keep 3, one colour at a time from the scarcest in hand, so a building stays near."""
    cubes = state.active.cubes
    kept = dict.fromkeys(COLOURS, 0)
    for _ in range(KEEP_AT_MOST):
        short = [c for c in COLOURS if cubes.get(c) > kept[c]]
        if not short:
            break
        colour = min(short, key=lambda c: kept[c])
        kept[colour] += 1
    return unchecked(Keep)(**kept)
