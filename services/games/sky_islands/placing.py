"""Steps ② and ③: placing a sky island tile (or, very rarely, discarding one) and
gaining resources from the flying ships."""

from __future__ import annotations

from services.engine import Event, IllegalMove, Move, Seat
from services.engine.state import unchecked

from .board import (
    FITS,
    FITTING_CODES,
    BoardFacts,
    PlacedTile,
    can_place,
    cell_key,
    facts_after_placing,
    facts_of,
    neighbours,
    placeable,
    placement_problem,
)
from .events import HandRevealed, ResourcesGained, TileDiscarded, TilePlaced
from .moves import DiscardTile, PlaceTile, make_placement, placement_slots
from .ships import sail_in, ship_of
from .state import SkyIslandsState
from .tiles import TILES


def must_discard(state: SkyIslandsState) -> bool:
    """A tile may be discarded "only in this case": no hand tile fits anywhere."""
    return not can_place(state.board, state.active.hand)


def placeable_tiles(state: SkyIslandsState) -> list[int]:
    return placeable(state.board, state.active.hand)


def placing_moves(state: SkyIslandsState) -> list[Move]:
    facts = facts_of(state.board)
    moves: list[Move] = []
    for tile in state.active.hand:
        made = facts.moves.get(tile)
        if made is None:
            made = facts.moves[tile] = _tile_placements(tile, facts)
        moves += made
    return moves or [unchecked(DiscardTile)(tile=t) for t in state.active.hand]


def _tile_placements(tile: int, facts: BoardFacts) -> list[Move]:
    """Every placement of `tile`: by the need of the cell (in code order), then cell,
    then rotation (`placements_in`, inlined: a placement turn lists about 70)."""
    moves: list[Move] = []
    append = moves.append
    made = placement_slots(tile)
    by_code, fits = facts.by_code, FITS[tile]
    for code in sorted(FITTING_CODES[tile].intersection(by_code)):
        rotations = fits[code]
        for cell in by_code[code]:
            slots = made.get(cell)
            if slots is None:
                slots = made[cell] = [None, None, None, None]
            for rotation in rotations:
                append(slots[rotation // 90] or make_placement(slots, tile, cell, rotation))
    return moves


def _check_in_hand(state: SkyIslandsState, tile: int) -> None:
    if tile not in state.active.hand:
        raise IllegalMove(
            "tile_not_in_hand",
            f"Tile {tile} is not in your hand; you hold {_listed(state.active.hand)}.",
            {"hand": list(state.active.hand)},
        )


def _listed(tiles: list[int]) -> str:
    return ", ".join(str(t) for t in tiles) or "no tiles"


def place_tile(state: SkyIslandsState, seat: Seat, move: PlaceTile) -> list[Event]:
    _check_in_hand(state, move.tile)
    problem = placement_problem(state.board, move.tile, move.x, move.y, move.rotation)
    if problem is not None:
        raise IllegalMove(*problem)
    placed = PlacedTile(tile=move.tile, x=move.x, y=move.y, rotation=move.rotation)
    before = facts_of(state.board)
    state.active.hand.remove(move.tile)
    state.board[cell_key(move.x, move.y)] = placed
    facts_after_placing(before, state.board, placed)
    state.placed_this_turn = placed
    state.phase = "build"
    ships = [ship_of(placed)] + [ship_of(t) for _, t in neighbours(state.board, *placed.cell)]
    gains = sail_in(state, seat, ships, "ships")
    placed_event = unchecked(TilePlaced)(
        seat=seat, tile=move.tile, x=move.x, y=move.y, rotation=move.rotation
    )
    return [placed_event, unchecked(ResourcesGained)(seat=seat, source="placement", **gains)]


def discard_tile(state: SkyIslandsState, seat: Seat, move: DiscardTile) -> list[Event]:
    _check_in_hand(state, move.tile)
    if not must_discard(state):
        raise IllegalMove(
            "discard_not_allowed",
            "You may discard a tile only when no tile in your hand can be placed; "
            f"tile {placeable_tiles(state)[0]} fits somewhere.",
        )
    revealed = unchecked(HandRevealed)(seat=seat, tiles=list(state.active.hand))
    state.active.hand.remove(move.tile)
    state.discarded.append(move.tile)
    state.phase = "build"
    # "they gain only 1 resource (or victory point) from the flying ship on the discarded tile"
    gains = sail_in(state, seat, [TILES[move.tile].ship], "ships")
    discarded = unchecked(TileDiscarded)(seat=seat, tile=move.tile)
    return [revealed, discarded, unchecked(ResourcesGained)(seat=seat, source="discard", **gains)]
