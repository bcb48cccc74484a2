"""Merchants of Sky Islands: place sky island tiles, build trading houses, towers and
harbours, and hold the most influence on the connected islands."""

from .game import SkyIslandsGame
from .moves import SkyIslandsMove
from .options import SkyIslandsOptions
from .state import SkyIslandsState
from .view import SkyIslandsView

game = SkyIslandsGame()

__all__ = [
    "SkyIslandsGame",
    "SkyIslandsMove",
    "SkyIslandsOptions",
    "SkyIslandsState",
    "SkyIslandsView",
    "game",
]
