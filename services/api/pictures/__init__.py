"""Board pictures: one drawing module per game, each turning that game's view (for one
reader) into an SVG document. A game without a module here has no picture yet; adding
one is a module with `draw(scene) -> str` and a line in `DRAWERS`."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from services.gameplay.payloads import GameDocument

from ..preconditions import entity_tag as document_tag
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


REVISION = hashlib.blake2s(
    b"".join(path.read_bytes() for path in sorted(Path(__file__).parent.glob("*.py"))),
    digest_size=4,
).hexdigest()
"""A mark of the drawing code, so that a new drawing of an unchanged game is a new tag."""


def entity_tag(document: GameDocument) -> str:
    """The picture's weak ETag: the document's own (its version and reader, and what
    changes without a new version), plus the drawing code's revision."""
    return f'{document_tag(document).removesuffix(chr(34))}-p{REVISION}"'
