"""Board pictures: one drawing module per game, each turning that game's view (for one
reader) into an SVG document. A game without a module here has no picture yet; adding
one is a module with `draw(scene) -> str` and a line in `DRAWERS`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from services.gameplay.payloads import GameDocument

from . import dominion, sky_islands, sky_lanterns
from .scene import Scene, scene_of

Drawer = Callable[[Scene[Any]], str]

DRAWERS: dict[str, Drawer] = {
    "sky-islands": sky_islands.draw,
    "dominion": dominion.draw,
    "sky-lanterns": sky_lanterns.draw,
}


def has_picture(game_id: str) -> bool:
    return game_id in DRAWERS


def draw(document: GameDocument, view_model: type[Any], title: str) -> str:
    """The picture of `document` (one reader's document), from its view alone."""
    return DRAWERS[document.game](scene_of(document, view_model, title))
