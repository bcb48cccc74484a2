"""What happened, for logs and live updates. Only a drawn tile is private (to its drawer);
a hand is shown to all only when the rules reveal it (a forced discard)."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from services.engine import Event

from .state import Colour


class TurnStarted(Event):
    kind: Literal["turn_started"] = "turn_started"
    turn: int
    """The player's own turn, 1..10."""
    number: int
    """The turn of the whole game, counting from 1."""


class ShipGains(Event):
    """Cubes and victory points the flying ships gave, and the colours the supply lacked."""

    kind: str = "ship_gains"
    red: int = 0
    white: int = 0
    blue: int = 0
    vp: int = 0
    missed: list[Colour] = Field(default_factory=list)


class IncomeReceived(ShipGains):
    kind: Literal["income_received"] = "income_received"


class ResourcesGained(ShipGains):
    kind: Literal["resources_gained"] = "resources_gained"
    source: Literal["placement", "discard"]


class TilePlaced(Event):
    kind: Literal["tile_placed"] = "tile_placed"
    tile: int
    x: int
    y: int
    rotation: int


class HandRevealed(Event):
    """A forced discard: "the active player reveals all of their hand tiles"."""

    kind: Literal["hand_revealed"] = "hand_revealed"
    tiles: list[int]


class TileDiscarded(Event):
    kind: Literal["tile_discarded"] = "tile_discarded"
    tile: int


class TileDrawn(Event):
    PRIVATE: ClassVar[frozenset[str]] = frozenset({"tile"})
    kind: Literal["tile_drawn"] = "tile_drawn"
    tile: int


class Built(Event):
    kind: Literal["built"] = "built"
    building: Literal["trading_house", "tower", "harbour"]
    x: int
    y: int
    island: int
    vp: int = 0


class Exchanged(Event):
    kind: Literal["exchanged"] = "exchanged"
    give: Colour
    take: Colour


class ResourcesReturned(Event):
    kind: Literal["resources_returned"] = "resources_returned"
    red: int = 0
    white: int = 0
    blue: int = 0


class TurnEnded(Event):
    kind: Literal["turn_ended"] = "turn_ended"
    turn: int


class IslandScored(Event):
    kind: Literal["island_scored"] = "island_scored"
    island: int
    tile_count: int
    closed: bool
    influence: list[int]
    points: list[int]


class GameEnded(Event):
    kind: Literal["game_ended"] = "game_ended"
    scores: list[int]
    winners: list[int]
