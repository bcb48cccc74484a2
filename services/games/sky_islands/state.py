"""The state of a game of Merchants of Sky Islands: plain data, JSON-exact."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from services.engine import GameState, Seat

from .board import Board, PlacedTile

Colour = Literal["red", "white", "blue"]
COLOURS: tuple[Colour, ...] = ("red", "white", "blue")
Phase = Literal["place", "build", "dispose", "refill", "over"]
"""Steps ② (place or discard), ④ (build), ⑤ (stock disposal), ⑥ (refill, automatic)."""

TURNS_PER_PLAYER = 10
TILES_PER_PLAYER = 10
STARTING_HAND = 2
PIECES_PER_COLOUR = 12
"""Trading house pieces of each colour in the box."""
TRADING_HOUSES_PER_PLAYER = PIECES_PER_COLOUR - 1
"""In hand after setup D: "Place one of those trading house pieces on the 0 space of the
score board"; that piece marks the score and is never built."""
TOWERS = 12
HARBOURS = 12
CUBES_PER_COLOUR = 20
KEEP_AT_MOST = 3
EXCHANGE_RATE = 3


@dataclass(slots=True, kw_only=True)
class Cubes:
    """Resource cubes: red = wine, white = canvas, blue = flying stone."""

    red: int = 0
    white: int = 0
    blue: int = 0

    def get(self, colour: Colour) -> int:
        count: int = getattr(self, colour)
        return count

    def add(self, colour: Colour, count: int) -> None:
        setattr(self, colour, self.get(colour) + count)

    @property
    def total(self) -> int:
        return self.red + self.white + self.blue


@dataclass(slots=True, kw_only=True)
class VictoryPoints:
    """Victory points scored during the game, by where they came from."""

    income: int = 0
    ships: int = 0
    towers: int = 0

    @property
    def total(self) -> int:
        return self.income + self.ships + self.towers


@dataclass(frozen=True, slots=True, kw_only=True)
class TradingHouse:
    """A trading house on one island of a tile, possibly tower- and harbour-equipped."""

    owner: Seat
    x: int
    y: int
    island: int
    tower: bool = False
    harbour: bool = False

    @property
    def node(self) -> tuple[int, int, int]:
        return (self.x, self.y, self.island)


@dataclass(slots=True, kw_only=True)
class Merchant:
    """One player's pieces, hand and score."""

    hand: list[int] = field(default_factory=list)
    cubes: Cubes = field(default_factory=Cubes)
    vp: VictoryPoints = field(default_factory=VictoryPoints)
    trading_houses_left: int = TRADING_HOUSES_PER_PLAYER
    turns_taken: int = 0


@dataclass(slots=True, kw_only=True)
class SkyIslandsState(GameState):
    starting_player: Seat
    current: Seat
    phase: Phase = "place"
    turn_number: int = 1
    """Turns begun in the whole game, counting from 1."""
    placed_this_turn: PlacedTile | None = None
    board: Board
    trading_houses: list[TradingHouse] = field(default_factory=list)
    merchants: list[Merchant]
    pile: list[int]
    returned: list[int] = field(default_factory=list)
    """Tiles put back in the box unseen at setup."""
    discarded: list[int] = field(default_factory=list)
    """Tiles revealed and discarded to the box during play (public)."""
    supply: Cubes
    towers_left: int = TOWERS
    harbours_left: int = HARBOURS

    @property
    def active(self) -> Merchant:
        return self.merchants[self.current]

    def houses_of(self, seat: Seat) -> list[TradingHouse]:
        return [h for h in self.trading_houses if h.owner == seat]

    def house_at(self, x: int, y: int, island: int) -> TradingHouse | None:
        return next((h for h in self.trading_houses if h.node == (x, y, island)), None)

    def replace_house(self, old: TradingHouse, new: TradingHouse) -> None:
        self.trading_houses[self.trading_houses.index(old)] = new
