"""The sky: where tiles lie, where a tile may be placed, and the connected islands.

Cells are (x, y) with y growing southward. The board is a dict keyed by "x,y" so that
it survives JSON unchanged. Sides are indexed N=0, E=1, S=2, W=3.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import Any

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


Need = tuple[Cell, int]
"""An open cell and what a tile there must show: ((x, y), code), where code packs the
sides facing a tile (high 4 bits) and those of them that must show island (low 4 bits),
as `requirement` gives them: `faced << 4 | island`."""


def need_code(faced: int, island: int) -> int:
    return faced << 4 | island


MASKS: dict[int, tuple[tuple[Rotation, int], ...]] = {
    tile: tuple((rotation, ORIENTATIONS[(tile, rotation)].mask) for rotation in ROTATIONS)
    for tile in TILES
}
"""Per tile, (rotation, island-sides mask) for each way it can lie."""

FITS: dict[int, tuple[tuple[Rotation, ...], ...]] = {
    tile: tuple(
        tuple(r for r, mask in masks if mask & (code >> 4) == code & 15) for code in range(256)
    )
    for tile, masks in MASKS.items()
}
"""Per tile and need code, the rotations in which the tile fits such a cell."""

FITTING_CODES: dict[int, frozenset[int]] = {
    tile: frozenset(code for code, rotations in enumerate(fits) if rotations and code >> 4)
    for tile, fits in FITS.items()
}
"""Per tile, the need codes of the open cells it fits in some way."""


def fitting_rotations(tile: int, faced: int, island: int) -> tuple[Rotation, ...]:
    """The ways `tile` may lie in a cell whose touching sides are `faced`, of which
    `island` must show island."""
    return FITS[tile][faced << 4 | island]


class BoardFacts:
    """What the placement rules and scoring derive from one board: its open cells with
    their needs, the placement moves of each tile, and the connected islands.

    Kept per board content (see `facts_of`), not in the state: many states share a board
    (every move of a turn but the placement, every dealt world of a searching bot), and
    a placement derives its board's open cells from the previous board's in a few steps.
    """

    __slots__ = ("snapshot", "cells", "by_code", "moves", "_needs", "_islands")

    def __init__(
        self, board: Board, cells: dict[Cell, int], by_code: dict[int, list[Cell]] | None = None
    ) -> None:
        self.snapshot = board.copy()
        """The board's content, private: the board itself may be a copy that its move
        changes after asking."""
        self.cells = cells
        """Open cell -> need code."""
        if by_code is None:
            by_code = {}
            for cell, code in sorted(cells.items()):
                if code in by_code:
                    by_code[code].append(cell)
                else:
                    by_code[code] = [cell]
        self.by_code = by_code
        """Open cells by need code, each list in cell order."""
        self.moves: dict[int, list[Any]] = {}
        """Placement moves per hand tile, filled by `placing.placing_moves`."""
        self._needs: list[Need] | None = None
        self._islands: IslandMap | None = None

    @property
    def needs(self) -> list[Need]:
        """The open cells and their needs, in cell order."""
        if self._needs is None:
            self._needs = sorted(self.cells.items())
        return self._needs

    @property
    def islands(self) -> IslandMap:
        if self._islands is None:
            self._islands = _connected_islands(tuple(self.snapshot.values()))
        return self._islands


FACTS_KEPT = 64
"""Boards whose facts are kept; all are forgotten when more accumulate. Few are needed —
a move is followed by the next, and a placement derives its facts from the board
before — and facts kept long would cost the garbage collector more than they save."""

BOARDS_PER_KEY = 8
"""Boards kept whose cells were filled in the same order (a search's sibling moves)."""

_facts: dict[tuple[str, ...], list[BoardFacts]] = {}
"""Facts by the board's cells in the order they were filled, then by content."""


def facts_of(board: Board) -> BoardFacts:
    """The facts of `board`, computed once per board content. Shared: read only."""
    key = tuple(board)
    bucket = _facts.get(key)
    if bucket is not None:
        for facts in bucket:
            if facts.snapshot == board:
                return facts
    facts = BoardFacts(board, _open_cells(board))
    _keep(key, facts)
    return facts


def facts_after_placing(before: BoardFacts, board: Board, placed: PlacedTile) -> BoardFacts:
    """The facts of `board`, which is the board of `before` with `placed` added last:
    the open cells change only around the new tile."""
    cells = before.cells.copy()
    by_code = before.by_code.copy()
    copied: set[int] = set()

    def own(code: int) -> list[Cell]:
        """The list of `code`'s cells, this board's own (the others are shared)."""
        if code not in copied:
            copied.add(code)
            by_code[code] = by_code[code].copy() if code in by_code else []
        return by_code.setdefault(code, [])

    def move(cell: Cell, old: int | None, new: int | None) -> None:
        if old is not None:
            own(old).remove(cell)
        if new is not None:
            insort(own(new), cell)

    x, y = placed.x, placed.y
    move((x, y), cells.pop((x, y)), None)
    mask = ORIENTATIONS[(placed.tile, placed.rotation)].mask
    for side, (dx, dy) in enumerate(OFFSETS):
        if cell_key(x + dx, y + dy) in board:
            continue
        cell = (x + dx, y + dy)
        facing = 1 << OPPOSITE[side]  # the side of a tile there that faces the new one
        old = cells.get(cell)
        new = (old or 0) | facing << 4 | (facing if mask >> side & 1 else 0)
        cells[cell] = new
        move(cell, old, new)
    for code in copied:
        if not by_code[code]:
            del by_code[code]
    facts = BoardFacts(board, cells, by_code)
    _keep(tuple(board), facts)
    return facts


def _keep(key: tuple[str, ...], facts: BoardFacts) -> None:
    bucket = _facts.get(key)
    if bucket is None:
        if len(_facts) >= FACTS_KEPT:
            _facts.clear()
        _facts[key] = [facts]
    elif len(bucket) < BOARDS_PER_KEY:
        bucket.append(facts)
    else:
        bucket[len(_facts) % BOARDS_PER_KEY] = facts


def _open_cells(board: Board) -> dict[Cell, int]:
    """Every empty cell touching the board by an edge, with its need code."""
    cells: dict[Cell, int] = {}
    for tile in board.values():
        mask = ORIENTATIONS[(tile.tile, tile.rotation)].mask
        x, y = tile.x, tile.y
        for side, (dx, dy) in enumerate(OFFSETS):
            if cell_key(x + dx, y + dy) in board:
                continue
            cell = (x + dx, y + dy)
            facing = 1 << OPPOSITE[side]  # the side of a tile there that faces this one
            cells[cell] = cells.get(cell, 0) | facing << 4 | (facing if mask >> side & 1 else 0)
    return cells


def open_cells(board: Board) -> dict[Cell, tuple[int, int]]:
    """Every empty cell touching the board by an edge — the only places a tile can go —
    with its requirement (as `requirement` gives it)."""
    return {cell: (code >> 4, code & 15) for cell, code in facts_of(board).needs}


def placements(board: Board, tiles: Iterable[int]) -> list[tuple[int, int, int, Rotation]]:
    """Every (tile, x, y, rotation) that the placement rules allow, by tile, then cell."""
    needs = facts_of(board).needs
    return [
        (tile, x, y, rotation)
        for tile in tiles
        for (x, y), code in needs
        for rotation in FITS[tile][code]
    ]


def placeable(board: Board, tiles: Iterable[int]) -> list[int]:
    """The tiles among `tiles` that fit somewhere."""
    codes = facts_of(board).by_code.keys()
    return [t for t in tiles if not FITTING_CODES[t].isdisjoint(codes)]


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

    @cached_property
    def cells(self) -> frozenset[Cell]:
        return frozenset((x, y) for x, y, _ in self.nodes)

    @cached_property
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
    return facts_of(board).islands


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
