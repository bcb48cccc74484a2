"""Valley of Sky Lanterns: take dice, place them in Core Slots under your sky lantern
developments, run your train round its loop, and launch the most lanterns."""

from .game import SkyLanternsGame
from .moves import SkyLanternsMove
from .options import SkyLanternsOptions
from .state import SkyLanternsState
from .view import SkyLanternsView

game = SkyLanternsGame()

__all__ = [
    "SkyLanternsGame",
    "SkyLanternsMove",
    "SkyLanternsOptions",
    "SkyLanternsState",
    "SkyLanternsView",
    "game",
]
