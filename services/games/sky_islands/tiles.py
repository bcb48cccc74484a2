"""The sky island tiles: the 40 tiles of the draw pile and the four quarters of the
initial tile, read from `tiles.json` and checked when loaded.

The rulebook lists how many tiles there are, not what is drawn on them; the set in
`tiles.json` is ours (see RULES-NOTES.md). Tiles 1..40 are the draw pile, 101..104 the
NW, NE, SW and SE quarters of the initial tile ("considered to be four connected sky
island tiles for the whole game").
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from pathlib import Path
from typing import Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, model_validator

Side = Literal["N", "E", "S", "W"]
SIDES: tuple[Side, ...] = ("N", "E", "S", "W")
SIDE_INDEX: dict[str, int] = {side: i for i, side in enumerate(SIDES)}
EdgeKind = Literal["island", "sky"]
ShipColour = Literal["red", "white", "blue", "green"]
SHIP_COLOURS: tuple[ShipColour, ...] = ("red", "white", "blue", "green")
Quarter = Literal["NW", "NE", "SW", "SE"]
Rotation = Literal[0, 90, 180, 270]
ROTATIONS: tuple[Rotation, ...] = (0, 90, 180, 270)

NORMAL_TILE_COUNT = 40
INITIAL_QUARTER_IDS = (101, 102, 103, 104)
QUARTER_CELLS: dict[Quarter, tuple[int, int]] = {
    "NW": (0, 0),
    "NE": (1, 0),
    "SW": (0, 1),
    "SE": (1, 1),
}
# Edges the quarters share inside the initial tile: (quarter, side, quarter, side).
INTERNAL_EDGES: tuple[tuple[Quarter, Side, Quarter, Side], ...] = (
    ("NW", "E", "NE", "W"),
    ("NW", "S", "SW", "N"),
    ("NE", "S", "SE", "N"),
    ("SW", "E", "SE", "W"),
)
SHIPS_PER_COLOUR = range(8, 13)  # "roughly 10" of each colour among the 40 tiles

TILES_FILE = Path(__file__).with_name("tiles.json")


class IslandShape(BaseModel):
    """One island drawn on a tile and the tile edges it reaches (none: an islet)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    edges: tuple[Side, ...] = ()


class SkyIslandTile(BaseModel):
    """A sky island tile as printed, before it is turned."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: int
    shape: str = ""
    quarter: Quarter | None = None
    ship: ShipColour
    edges: dict[Side, EdgeKind]
    islands: tuple[IslandShape, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _islands_meet_the_edges(self) -> SkyIslandTile:
        if set(self.edges) != set(SIDES):
            raise ValueError(f"tile {self.id}: edges must name N, E, S and W")
        touches = Counter(side for island in self.islands for side in island.edges)
        for side in SIDES:
            wanted = 1 if self.edges[side] == "island" else 0
            if touches[side] != wanted:
                raise ValueError(
                    f"tile {self.id}: {self.edges[side]} edge {side} is touched by "
                    f"{touches[side]} islands, not {wanted}"
                )
        return self

    @property
    def initial(self) -> bool:
        return self.quarter is not None


class TileSet(BaseModel):
    """Every tile of the game, checked as a whole."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    initial_quarters: tuple[SkyIslandTile, ...]
    tiles: tuple[SkyIslandTile, ...]

    @model_validator(mode="after")
    def _complete_and_consistent(self) -> TileSet:
        self._check_ids()
        self._check_quarters()
        self._check_ships()
        return self

    def _check_ids(self) -> None:
        ids = [t.id for t in self.all()]
        if len(set(ids)) != len(ids):
            raise ValueError("tile ids must be unique")
        if sorted(t.id for t in self.tiles) != list(range(1, NORMAL_TILE_COUNT + 1)):
            raise ValueError(f"the draw pile must be tiles 1..{NORMAL_TILE_COUNT}")
        if any(t.quarter is not None for t in self.tiles):
            raise ValueError("only initial quarters name a quarter")

    def _check_quarters(self) -> None:
        if sorted(t.id for t in self.initial_quarters) != list(INITIAL_QUARTER_IDS):
            raise ValueError(f"the initial quarters must be tiles {INITIAL_QUARTER_IDS}")
        by_quarter = {t.quarter: t for t in self.initial_quarters}
        if set(by_quarter) != set(QUARTER_CELLS):
            raise ValueError("the initial quarters must be NW, NE, SW and SE, once each")
        for a, side_a, b, side_b in INTERNAL_EDGES:
            if by_quarter[a].edges[side_a] != by_quarter[b].edges[side_b]:
                raise ValueError(f"initial tile: {a} {side_a} edge does not match {b} {side_b}")

    def _check_ships(self) -> None:
        ships = Counter(t.ship for t in self.tiles)
        for colour in SHIP_COLOURS:
            if ships[colour] not in SHIPS_PER_COLOUR:
                raise ValueError(f"{ships[colour]} {colour} ships; expected about 10")

    def all(self) -> tuple[SkyIslandTile, ...]:
        return self.initial_quarters + self.tiles


class Orientation(NamedTuple):
    """A tile turned clockwise by `rotation`: which sides show island, and which of the
    tile's islands reaches each side (N, E, S, W order; -1 for sky)."""

    mask: int
    island_at: tuple[int, int, int, int]


def turned(side: Side, rotation: int) -> Side:
    """Where a printed side ends up after turning the tile clockwise (N -> E -> S -> W)."""
    return SIDES[(SIDE_INDEX[side] + rotation // 90) % 4]


def orient(tile: SkyIslandTile, rotation: int) -> Orientation:
    island_at = [-1, -1, -1, -1]
    for index, island in enumerate(tile.islands):
        for side in island.edges:
            island_at[SIDE_INDEX[turned(side, rotation)]] = index
    mask = sum(1 << i for i in range(4) if island_at[i] >= 0)
    return Orientation(mask, (island_at[0], island_at[1], island_at[2], island_at[3]))


@cache
def tile_set() -> TileSet:
    return TileSet.model_validate_json(TILES_FILE.read_text())


TILES: dict[int, SkyIslandTile] = {t.id: t for t in tile_set().all()}
ORIENTATIONS: dict[tuple[int, int], Orientation] = {
    (t.id, r): orient(t, r) for t in TILES.values() for r in ROTATIONS
}
NORMAL_TILE_IDS: tuple[int, ...] = tuple(t.id for t in tile_set().tiles)
