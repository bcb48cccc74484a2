"""The game contract every Skyport game implements. Pure Python, no I/O."""

from .errors import GameError, IllegalMove, InvalidConfig, UnknownGame
from .game import Game, GameState
from .registry import RegistrationError, all_games, get_game, register
from .rng import Rng
from .state import copy_state, dump_state, load_state, state_to_python
from .types import (
    Event,
    Move,
    Opponent,
    Outcome,
    Prompt,
    Resigned,
    Result,
    Seat,
    Standing,
    seats_to_act,
)
from .validation import describe_validation_error, validation_errors

__all__ = [
    "Event",
    "Game",
    "GameError",
    "GameState",
    "IllegalMove",
    "InvalidConfig",
    "Move",
    "Opponent",
    "Outcome",
    "Prompt",
    "RegistrationError",
    "Resigned",
    "Result",
    "Rng",
    "Seat",
    "Standing",
    "UnknownGame",
    "all_games",
    "copy_state",
    "dump_state",
    "load_state",
    "state_to_python",
    "validation_errors",
    "describe_validation_error",
    "get_game",
    "register",
    "seats_to_act",
]
