"""The sky: where tiles lie, where a tile may be placed, and the connected islands.

Cells are (x, y) with y growing southward. The board is a dict keyed by "x,y" so that
it survives JSON unchanged. Sides are indexed N=0, E=1, S=2, W=3.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache, lru_cache

from .tiles import ORIENTATIONS, QUARTER_CELLS, ROTATIONS, SIDES, TILES, Orientation, Rotation

Cell = tuple[int, int]
Node = tuple[int, int, int]
"""One island of one tile: (x, y, index of the island on the tile)."""

OFFSETS: tuple[Cell, ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))
OPPOSITE = (2, 3, 0, 1)


@dataclass(frozen=True, slots=True, kw_only=True)
class PlacedTile:
    tile: int
    x: int
    y: int
    rotation: Rotation = 0

    @property
    def orientation(self) -> Orientation:
        return ORIENTATIONS[(self.tile, self.rotation)]

    @property
    def cell(self) -> Cell:
        return (self.x, self.y)


Board = dict[str, PlacedTile]


def cell_key(x: int, y: int) -> str:
    return f"{x},{y}"


def initial_board() -> Board:
    """The initial tile's four quarters: "Place the initial sky island tile face up in
    the centre of the table." """
    board: Board = {}
    for tile in TILES.values():
        if tile.quarter is not None:
            x, y = QUARTER_CELLS[tile.quarter]
            board[cell_key(x, y)] = PlacedTile(tile=tile.id, x=x, y=y)
    return board


def neighbours(board: Board, x: int, y: int) -> Iterator[tuple[int, PlacedTile]]:
    """(side, tile) for every tile touching cell (x, y) by an edge."""
    for side, (dx, dy) in enumerate(OFFSETS):
        other = board.get(cell_key(x + dx, y + dy))
        if other is not None:
            yield side, other


def requirement(board: Board, x: int, y: int) -> tuple[int, int]:
    """Which sides of a tile at (x, y) face a tile, and which of those must be island."""
    faced = island = 0
    for side, other in neighbours(board, x, y):
        faced |= 1 << side
        if other.orientation.mask >> OPPOSITE[side] & 1:
            island |= 1 << side
    return faced, island


Needs = list[tuple[Cell, tuple[int, int]]]

_last_open: tuple[Board | None, int, Needs] = (None, 0, [])
"""The last board asked about, its size then, and its open cells. Prompts and legal moves
of one state ask in turn; tiles are only ever added to a board, so the size tells a
board changed in place."""


def open_cells(board: Board) -> dict[Cell, tuple[int, int]]:
    """Every empty cell touching the board by an edge — the only places a tile can go —
    with its requirement (as `requirement` gives it), in one pass over the board."""
    return dict(_open_cells(board))


def open_needs(board: Board) -> Needs:
    """`open_cells` as a sorted list, shared: the caller must not change it."""
    return _open_cells(board)


def _open_cells(board: Board) -> Needs:
    global _last_open
    last_board, last_size, last_needs = _last_open
    if board is last_board and len(board) == last_size:
        return last_needs
    occupied = {(t.x, t.y) for t in board.values()}
    needs: dict[Cell, tuple[int, int]] = {}
    for tile in board.values():
        mask = ORIENTATIONS[(tile.tile, tile.rotation)].mask
        x, y = tile.x, tile.y
        for side, (dx, dy) in enumerate(OFFSETS):
            cell = (x + dx, y + dy)
            if cell in occupied:
                continue
            faced, island = needs.get(cell, (0, 0))
            facing = 1 << OPPOSITE[side]  # the side of the new tile that faces this one
            needs[cell] = (faced | facing, island | (facing if mask >> side & 1 else 0))
    result = sorted(needs.items())
    _last_open = (board, len(board), result)
    return result


MASKS: dict[int, tuple[tuple[Rotation, int], ...]] = {
    tile: tuple((rotation, ORIENTATIONS[(tile, rotation)].mask) for rotation in ROTATIONS)
    for tile in TILES
}
"""Per tile, (rotation, island-sides mask) for each way it can lie."""


@cache
def fitting_rotations(tile: int, faced: int, island: int) -> tuple[Rotation, ...]:
    """The ways `tile` may lie in a cell whose touching sides are `faced`, of which
    `island` must show island."""
    return tuple(rotation for rotation, mask in MASKS[tile] if mask & faced == island)


def placements(board: Board, tiles: Iterable[int]) -> list[tuple[int, int, int, Rotation]]:
    """Every (tile, x, y, rotation) that the placement rules allow, by tile, then cell."""
    needs = _open_cells(board)
    return [
        (tile, x, y, rotation)
        for tile in tiles
        for (x, y), (faced, island) in needs
        for rotation in fitting_rotations(tile, faced, island)
    ]


def placeable(board: Board, tiles: Iterable[int]) -> list[int]:
    """The tiles among `tiles` that fit somewhere."""
    needs = {need for _, need in _open_cells(board)}
    return [t for t in tiles if any(_fits_one(mask, needs) for _, mask in MASKS[t])]


def _fits_one(mask: int, needs: set[tuple[int, int]]) -> bool:
    return any(mask & faced == island for faced, island in needs)


def can_place(board: Board, tiles: Iterable[int]) -> bool:
    return bool(placeable(board, tiles))


def placement_problem(
    board: Board, tile: int, x: int, y: int, rotation: Rotation
) -> tuple[str, str] | None:
    """Why the tile may not go there, as (code, message), or None if it may."""
    if cell_key(x, y) in board:
        return "cell_occupied", f"There is already a tile at ({x}, {y})."
    faced, island = requirement(board, x, y)
    if not faced:
        return "not_touching", (
            f"A tile must touch an edge of a tile already placed; ({x}, {y}) touches none."
        )
    mismatch = (ORIENTATIONS[(tile, rotation)].mask ^ island) & faced
    if mismatch:
        side = SIDES[(mismatch & -mismatch).bit_length() - 1]
        return "edges_do_not_match", (
            f"On every edge where tiles touch, island must meet island and sky must meet "
            f"sky; tile {tile} turned {rotation}° breaks that on its {side} edge."
        )
    return None


@dataclass(frozen=True)
class ConnectedIsland:
    """Islands of tiles joined across island edges. "Closed" when none of its island
    edges faces an empty cell."""

    id: int
    nodes: tuple[Node, ...]
    closed: bool

    @property
    def cells(self) -> frozenset[Cell]:
        return frozenset((x, y) for x, y, _ in self.nodes)

    @property
    def tiles(self) -> int:
        return len(self.cells)


@dataclass(frozen=True)
class IslandMap:
    islands: list[ConnectedIsland]
    of: dict[Node, int]
    """The id of the connected island each node belongs to."""


class _UnionFind:
    def __init__(self) -> None:
        self.parent: dict[Node, Node] = {}

    def add(self, node: Node) -> None:
        self.parent[node] = node

    def find(self, node: Node) -> Node:
        while self.parent[node] != node:
            self.parent[node] = self.parent[self.parent[node]]
            node = self.parent[node]
        return node

    def union(self, a: Node, b: Node) -> None:
        self.parent[self.find(a)] = self.find(b)


def _join_across_edges(tiles: tuple[PlacedTile, ...], sets: _UnionFind) -> set[Node]:
    """Union nodes across island edges; return the nodes with an edge facing the sky void."""
    by_cell = {(t.x, t.y): t.orientation.island_at for t in tiles}
    open_nodes: set[Node] = set()
    for (x, y), island_at in by_cell.items():
        for side, (dx, dy) in enumerate(OFFSETS):
            if island_at[side] < 0:
                continue
            other = by_cell.get((x + dx, y + dy))
            if other is None:
                open_nodes.add((x, y, island_at[side]))
            elif side in (1, 2) and other[OPPOSITE[side]] >= 0:
                sets.union((x, y, island_at[side]), (x + dx, y + dy, other[OPPOSITE[side]]))
    return open_nodes


def connected_islands(board: Board) -> IslandMap:
    """Every connected island of the board, in a stable order (by their first node).
    Shared between boards with the same tiles: the caller must not change it."""
    return _connected_islands(tuple(board.values()))


@lru_cache(maxsize=256)
def _connected_islands(tiles: tuple[PlacedTile, ...]) -> IslandMap:
    # Keyed by the placed tiles: a state's copies share them, and during one turn the
    # build step asks again and again about the same board.
    sets = _UnionFind()
    for tile in tiles:
        for index in range(len(TILES[tile.tile].islands)):
            sets.add((tile.x, tile.y, index))
    open_nodes = _join_across_edges(tiles, sets)
    groups: dict[Node, list[Node]] = {}
    for node in sets.parent:
        groups.setdefault(sets.find(node), []).append(node)
    ordered = sorted(sorted(nodes) for nodes in groups.values())
    islands = [
        ConnectedIsland(i, tuple(nodes), not open_nodes.intersection(nodes))
        for i, nodes in enumerate(ordered)
    ]
    return IslandMap(islands, {node: i.id for i in islands for node in i.nodes})
