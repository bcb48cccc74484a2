"""What one seat (or a spectator) may see, with the connected islands already worked
out so that an app can draw the sky without knowing the rules.

Hidden: other players' hand tiles, the draw pile's contents and order, the tiles put
back in the box at setup, and the RNG. Hands revealed by a forced discard appear only
as events.
"""

from __future__ import annotations

import functools

from pydantic import BaseModel, ConfigDict

from services.engine import Seat

from .board import IslandMap, Node, PlacedTile, connected_islands
from .scoring import breakdown, influence
from .state import Phase, SkyIslandsState, TradingHouse
from .tiles import SIDES, TILES, EdgeKind, ShipColour, Side, SkyIslandTile, turned


class TileFace(BaseModel):
    """A tile as printed (rotation 0)."""

    id: int
    shape: str
    ship: ShipColour
    edges: dict[Side, EdgeKind]
    islands: list[list[Side]]


SHARED = ConfigDict(frozen=True)
"""For the parts of a view that views share (`_tile_view`, `_island_view`): they cannot be
changed, and hold tuples, not lists (a tile's `edges` mapping excepted: never edit it)."""


class TradingHouseView(BaseModel):
    model_config = SHARED

    owner: Seat
    tower: bool
    harbour: bool


class TileIslandView(BaseModel):
    model_config = SHARED

    index: int
    edges: tuple[Side, ...]
    """The sides this island reaches, as the tile lies (turned)."""
    connected_island: int
    trading_house: TradingHouseView | None


class BoardTileView(BaseModel):
    model_config = SHARED

    x: int
    y: int
    rotation: int
    tile: int
    shape: str
    ship: ShipColour
    initial: bool
    edges: dict[Side, EdgeKind]
    """As the tile lies (turned)."""
    islands: tuple[TileIslandView, ...]


class IslandNodeView(BaseModel):
    model_config = SHARED

    x: int
    y: int
    island: int


class ConnectedIslandView(BaseModel):
    model_config = SHARED

    id: int
    nodes: tuple[IslandNodeView, ...]
    tile_count: int
    closed: bool
    influence: tuple[int, ...]
    """Per seat: 1 per trading house, 2 per tower-equipped one."""
    has_tower: bool


class Cubes(BaseModel):
    """Resource cubes: red = wine, white = canvas, blue = flying stone."""

    red: int
    white: int
    blue: int


class VictoryPoints(BaseModel):
    """Victory points scored during the game, by where they came from."""

    income: int
    ships: int
    towers: int


class PlayerView(BaseModel):
    seat: Seat
    cubes: Cubes
    victory_points: int
    """Scored during the game so far (islands are scored at the end)."""
    victory_points_by_kind: VictoryPoints
    trading_houses_left: int
    turns_taken: int
    hand_count: int


class SupplyView(BaseModel):
    red: int
    white: int
    blue: int
    towers: int
    harbours: int


class CellView(BaseModel):
    x: int
    y: int


class SkyIslandsView(BaseModel):
    viewer: Seat | None
    hand: list[TileFace] | None
    """The viewer's own hand; None for a spectator."""
    players: list[PlayerView]
    supply: SupplyView
    draw_pile: int
    returned_to_box: int
    discarded: list[int]
    """Tiles discarded (after the hand was revealed) during play."""
    starting_player: Seat
    current_player: Seat | None
    phase: Phase
    turn_number: int
    placed_this_turn: CellView | None
    board: list[BoardTileView]
    connected_islands: list[ConnectedIslandView]
    over: bool
    final_scores: list[dict[str, int]] | None
    """Per seat, by category, once the game is over."""


def tile_face(tile: SkyIslandTile) -> TileFace:
    return TileFace(
        id=tile.id,
        shape=tile.shape,
        ship=tile.ship,
        edges=dict(tile.edges),
        islands=[list(island.edges) for island in tile.islands],
    )


HouseMark = tuple[Seat, bool, bool]
"""A trading house as the picture of its tile needs it: owner, tower, harbour."""


def _board_tile(
    placed: PlacedTile, houses: dict[Node, TradingHouse], of: dict[Node, int]
) -> BoardTileView:
    x, y = placed.x, placed.y
    count = len(TILES[placed.tile].islands)
    marks = tuple(_mark(houses.get((x, y, i))) for i in range(count))
    connected = tuple(of[(x, y, i)] for i in range(count))
    return _tile_view(placed.tile, x, y, placed.rotation, connected, marks)


def _mark(house: TradingHouse | None) -> HouseMark | None:
    return None if house is None else (house.owner, house.tower, house.harbour)


def _house_view(mark: HouseMark | None) -> TradingHouseView | None:
    if mark is None:
        return None
    owner, tower, harbour = mark
    return TradingHouseView(owner=owner, tower=tower, harbour=harbour)


@functools.lru_cache(maxsize=8192)
def _tile_view(
    tile_id: int,
    x: int,
    y: int,
    rotation: int,
    connected: tuple[int, ...],
    marks: tuple[HouseMark | None, ...],
) -> BoardTileView:
    # A placed tile's view changes only with these; views share it (it is frozen), so
    # most of a board is built once per process, not once per view.
    tile = TILES[tile_id]
    edges = {turned(side, rotation): tile.edges[side] for side in SIDES}
    islands = tuple(
        TileIslandView(
            index=i,
            edges=tuple(sorted((turned(s, rotation) for s in island.edges), key=SIDES.index)),
            connected_island=connected[i],
            trading_house=_house_view(marks[i]),
        )
        for i, island in enumerate(tile.islands)
    )
    return BoardTileView(
        x=x,
        y=y,
        rotation=rotation,
        tile=tile.id,
        shape=tile.shape,
        ship=tile.ship,
        initial=tile.initial,
        edges={side: edges[side] for side in SIDES},
        islands=islands,
    )


def _player(state: SkyIslandsState, seat: Seat) -> PlayerView:
    merchant = state.merchants[seat]
    cubes, vp = merchant.cubes, merchant.vp
    return PlayerView(
        seat=seat,
        cubes=Cubes(red=cubes.red, white=cubes.white, blue=cubes.blue),
        victory_points=vp.total,
        victory_points_by_kind=VictoryPoints(income=vp.income, ships=vp.ships, towers=vp.towers),
        trading_houses_left=merchant.trading_houses_left,
        turns_taken=merchant.turns_taken,
        hand_count=len(merchant.hand),
    )


def _connected_islands(
    state: SkyIslandsState, islands: IslandMap, table: list[list[int]]
) -> list[ConnectedIslandView]:
    towered = {islands.of[h.node] for h in state.trading_houses if h.tower}
    return [
        _island_view(
            island.id,
            tuple(island.nodes),
            island.tiles,
            island.closed,
            tuple(table[island.id]),
            island.id in towered,
        )
        for island in islands.islands
    ]


@functools.lru_cache(maxsize=8192)
def _island_view(
    island_id: int,
    nodes: tuple[Node, ...],
    tiles: int,
    closed: bool,
    influence: tuple[int, ...],
    has_tower: bool,
) -> ConnectedIslandView:
    # Shared between views like `_tile_view`: an island changes only as these do.
    return ConnectedIslandView(
        id=island_id,
        nodes=tuple(IslandNodeView(x=x, y=y, island=i) for x, y, i in nodes),
        tile_count=tiles,
        closed=closed,
        influence=influence,
        has_tower=has_tower,
    )


def build_view(state: SkyIslandsState, seat: Seat | None) -> SkyIslandsView:
    islands = connected_islands(state.board)
    houses = {h.node: h for h in state.trading_houses}
    placed = state.placed_this_turn
    own_hand = None if seat is None else state.merchants[seat].hand
    return SkyIslandsView(
        viewer=seat,
        hand=None if own_hand is None else [tile_face(TILES[t]) for t in own_hand],
        players=[_player(state, s) for s in range(state.players)],
        supply=SupplyView(
            red=state.supply.red,
            white=state.supply.white,
            blue=state.supply.blue,
            towers=state.towers_left,
            harbours=state.harbours_left,
        ),
        draw_pile=len(state.pile),
        returned_to_box=len(state.returned) + len(state.discarded),
        discarded=list(state.discarded),
        starting_player=state.starting_player,
        current_player=None if state.over else state.current,
        phase=state.phase,
        turn_number=state.turn_number,
        placed_this_turn=None if placed is None else CellView(x=placed.x, y=placed.y),
        board=[_board_tile(p, houses, islands.of) for p in state.board.values()],
        connected_islands=_connected_islands(state, islands, influence(state, islands)),
        over=state.over,
        final_scores=breakdown(state) if state.over else None,
    )
