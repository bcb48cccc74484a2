"""Steps ② and ③: placing a sky island tile (or, very rarely, discarding one) and
gaining resources from the flying ships."""

from __future__ import annotations

from services.engine import Event, IllegalMove, Move, Seat
from services.engine.state import trusted

from .board import (
    PlacedTile,
    can_place,
    cell_key,
    fitting_rotations,
    neighbours,
    open_needs,
    placeable,
    placement_problem,
)
from .events import HandRevealed, ResourcesGained, TileDiscarded, TilePlaced
from .moves import DiscardTile, PlaceTile, place_moves
from .ships import sail_in, ship_of
from .state import SkyIslandsState
from .tiles import TILES


def must_discard(state: SkyIslandsState) -> bool:
    """A tile may be discarded "only in this case": no hand tile fits anywhere."""
    return not can_place(state.board, state.active.hand)


def placeable_tiles(state: SkyIslandsState) -> list[int]:
    return placeable(state.board, state.active.hand)


def placing_moves(state: SkyIslandsState) -> list[Move]:
    moves: list[Move] = []
    needs = open_needs(state.board)
    for tile in state.active.hand:
        for (x, y), (faced, island) in needs:
            rotations = fitting_rotations(tile, faced, island)
            if rotations:
                moves += place_moves(tile, x, y, rotations)
    return moves or [trusted(DiscardTile, tile=t) for t in state.active.hand]


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
    state.active.hand.remove(move.tile)
    state.board[cell_key(move.x, move.y)] = placed
    state.placed_this_turn = placed
    state.phase = "build"
    ships = [ship_of(placed)] + [ship_of(t) for _, t in neighbours(state.board, *placed.cell)]
    gains = sail_in(state, seat, ships, "ships")
    placed_event = trusted(
        TilePlaced, seat=seat, tile=move.tile, x=move.x, y=move.y, rotation=move.rotation
    )
    return [placed_event, trusted(ResourcesGained, seat=seat, source="placement", **gains)]


def discard_tile(state: SkyIslandsState, seat: Seat, move: DiscardTile) -> list[Event]:
    _check_in_hand(state, move.tile)
    if not must_discard(state):
        raise IllegalMove(
            "discard_not_allowed",
            "You may discard a tile only when no tile in your hand can be placed; "
            f"tile {placeable_tiles(state)[0]} fits somewhere.",
        )
    revealed = trusted(HandRevealed, seat=seat, tiles=list(state.active.hand))
    state.active.hand.remove(move.tile)
    state.discarded.append(move.tile)
    state.phase = "build"
    # "they gain only 1 resource (or victory point) from the flying ship on the discarded tile"
    gains = sail_in(state, seat, [TILES[move.tile].ship], "ships")
    discarded = trusted(TileDiscarded, seat=seat, tile=move.tile)
    return [revealed, discarded, trusted(ResourcesGained, seat=seat, source="discard", **gains)]
