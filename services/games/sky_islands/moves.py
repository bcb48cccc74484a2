"""The decisions a player makes, one Move subclass each, told apart by `kind`."""

from __future__ import annotations

from functools import lru_cache
from typing import Annotated, Literal

from pydantic import Field

from services.engine import Move
from services.engine.state import unchecked

from .state import Colour
from .tiles import Rotation


class PlaceTile(Move):
    """Step ②: place a hand tile, turned clockwise by `rotation` degrees."""

    kind: Literal["place"] = "place"
    tile: int
    x: int
    y: int
    rotation: Rotation = 0


class DiscardTile(Move):
    """Step ②, only when no hand tile can be placed: reveal the hand, discard one."""

    kind: Literal["discard"] = "discard"
    tile: int


class BuildTradingHouse(Move):
    """Step ④a: a trading house on island `island` of the tile at (x, y)."""

    kind: Literal["build_trading_house"] = "build_trading_house"
    x: int
    y: int
    island: int = Field(default=0, ge=0)


class BuildTower(Move):
    """Step ④b: a tower next to your trading house on island `island` at (x, y)."""

    kind: Literal["build_tower"] = "build_tower"
    x: int
    y: int
    island: int = Field(default=0, ge=0)


class BuildHarbour(Move):
    """Step ④c: a harbour under your trading house on island `island` at (x, y)."""

    kind: Literal["build_harbour"] = "build_harbour"
    x: int
    y: int
    island: int = Field(default=0, ge=0)


class FinishBuilding(Move):
    kind: Literal["finish_building"] = "finish_building"


class Exchange(Move):
    """Step ⑤: pay 3 cubes of `give` to the supply, take 1 cube of `take` from it."""

    kind: Literal["exchange"] = "exchange"
    give: Colour
    take: Colour


class Keep(Move):
    """Step ⑤ with 4 or more cubes: keep these (at most 3), return the rest."""

    kind: Literal["keep"] = "keep"
    red: int = Field(default=0, ge=0)
    white: int = Field(default=0, ge=0)
    blue: int = Field(default=0, ge=0)

    @property
    def total(self) -> int:
        return self.red + self.white + self.blue


class EndTurn(Move):
    """Step ⑤ with 3 cubes or fewer: end the turn."""

    kind: Literal["end_turn"] = "end_turn"


BuildMove = BuildTradingHouse | BuildTower | BuildHarbour

SkyIslandsMove = Annotated[
    PlaceTile
    | DiscardTile
    | BuildTradingHouse
    | BuildTower
    | BuildHarbour
    | FinishBuilding
    | Exchange
    | Keep
    | EndTurn,
    Field(discriminator="kind"),
]


# --- the engine's own moves, made once each ------------------------------------------
# Moves are frozen values, so the legal moves the engine lists can share them: each is
# built once, without validation, and looked up after (a placement turn lists ~70).

MADE = 1 << 16
"""At most this many distinct moves of a kind are kept (a real game uses a few hundred)."""


PlacementSlots = list[PlaceTile | None]
"""The placements of one tile in one cell, by rotation // 90, each made when first asked."""

_placed: dict[int, dict[tuple[int, int], PlacementSlots]] = {}
_placed_count = 0


def placement_slots(tile: int) -> dict[tuple[int, int], PlacementSlots]:
    """Per cell, the placements of `tile` made so far (fill them with `make_placement`)."""
    global _placed_count
    made = _placed.get(tile)
    if made is None:
        if _placed_count >= MADE:
            _placed.clear()
            _placed_count = 0
        made = _placed[tile] = {}
    return made


def make_placement(
    slots: PlacementSlots, tile: int, cell: tuple[int, int], rotation: Rotation
) -> PlaceTile:
    global _placed_count
    _placed_count += 1
    move = slots[rotation // 90] = _new_place_tile(
        tile=tile, x=cell[0], y=cell[1], rotation=rotation
    )
    return move


def placements_in(
    tile: int, rotations: tuple[Rotation, ...], cells: list[tuple[int, int]]
) -> list[PlaceTile]:
    """`tile` put in each of `cells`, turned each of these ways."""
    made = placement_slots(tile)
    moves: list[PlaceTile] = []
    for cell in cells:
        slots = made.get(cell)
        if slots is None:
            slots = made[cell] = [None, None, None, None]
        for rotation in rotations:
            moves.append(slots[rotation // 90] or make_placement(slots, tile, cell, rotation))
    return moves


_new_place_tile = unchecked(PlaceTile)


@lru_cache(maxsize=MADE)
def build_move(kind: type[BuildMove], x: int, y: int, island: int) -> BuildMove:
    return unchecked(kind)(x=x, y=y, island=island)


@lru_cache(maxsize=MADE)
def keep_move(red: int, white: int, blue: int) -> Keep:
    return unchecked(Keep)(red=red, white=white, blue=blue)


@lru_cache(maxsize=MADE)
def exchange_move(give: Colour, take: Colour) -> Exchange:
    return unchecked(Exchange)(give=give, take=take)


FINISH_BUILDING = unchecked(FinishBuilding)()
END_TURN = unchecked(EndTurn)()
