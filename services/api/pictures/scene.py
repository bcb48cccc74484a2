"""What a drawer gets: the game's view for one reader, and the public facts around it
(seat names, status, whose turn, the result). Built only from the `GameDocument` the
service hands that reader, so a picture shows nothing the JSON does not."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pydantic import BaseModel

from services.gameplay.payloads import GameDocument, GameResult, SeatInfo

from .svg import Svg, fit, isolated, short, text_width

V = TypeVar("V", bound=BaseModel)

SEAT_COLOURS = ("#f2b705", "#8e44ad", "#e8590c", "#3b3b3b", "#0f9d8a", "#c2185b")
"""One colour per seat, far from the game colours drawn on the pieces."""

INK = "#1d2733"
MUTED = "#5b6776"
PAPER = "#ffffff"
PANEL = "#f3f5f8"
PAD = 12
"""The margin of every picture."""


@dataclass(frozen=True)
class Scene(Generic[V]):
    title: str
    view: V
    seats: list[SeatInfo]
    you: int | None
    status: str
    version: int
    turn: list[int]
    result: GameResult | None

    def name(self, seat: int, limit: int = 16) -> str:
        if not 0 <= seat < len(self.seats):
            return "?"
        return isolated(short(self.seats[seat].name, limit))

    def mark(self, seat: int) -> str:
        info = self.seats[seat]
        return " (you)" if seat == self.you else f" ({info.bot} bot)" if info.bot else ""

    def who(self, seat: int, limit: int = 16) -> str:
        """The seat's name, marked when it is a bot or the reader."""
        return self.name(seat, limit) + self.mark(seat)

    def who_within(self, seat: int, width: float, size: float, prefix: str = "") -> str:
        """`prefix` and `who(seat)`, the name cut so that the whole fits in `width` at
        `size` (a long name must not run into the score beside it)."""
        mark = self.mark(seat)
        room = width - text_width(prefix + mark, size)
        return prefix + isolated(fit(self.seats[seat].name, room, size)) + mark

    @property
    def reader(self) -> str:
        return "spectator" if self.you is None else f"seat {self.you + 1}, {self.name(self.you)}"


def seat_colour(seat: int) -> str:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def scene_of(document: GameDocument, view_model: type[V], title: str) -> Scene[V]:
    return Scene(
        title=title,
        view=view_model.model_validate(document.view),
        seats=document.seats,
        you=document.you,
        status=document.status.value,
        version=document.version,
        turn=document.turn,
        result=document.result,
    )


def heading(svg: Svg, scene: Scene[Any], over: bool, playing: Callable[[], str]) -> None:
    """The game's title, then what is happening: `playing()` (whose turn) while the game
    runs, else why nothing is."""
    svg.text(PAD, 26, scene.title, 20, font_weight="bold", fill=INK)
    if over or scene.status != "active":
        state = "Game over" if over else scene.status.capitalize()
    else:
        state = playing()
    svg.text(PAD, 47, state, 14, fill=INK)


def reader_line(svg: Svg, scene: Scene[Any], y: float) -> None:
    """Which version is drawn, and for whom."""
    svg.text(PAD, y, f"Version {scene.version} · seen by {scene.reader}", 12, fill=MUTED)
