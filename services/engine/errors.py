"""The errors a game raises. Their codes are stable and part of the public API."""

from __future__ import annotations

from typing import Any


class GameError(Exception):
    """Base class: a stable machine-readable `code` and a message a player understands."""

    code = "game_error"

    def __init__(self, code: str, message: str, details: dict[str, Any] | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details or {}

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


class IllegalMove(GameError):
    """The move breaks a rule. The state it was tried on is left untouched."""


class InvalidConfig(GameError):
    """The game cannot be set up as asked (player count, options, kingdom, ...)."""


class UnknownGame(GameError):
    def __init__(self, game_id: str, known: list[str]):
        super().__init__(
            "unknown_game",
            f"There is no game called {game_id!r}. Known games: {', '.join(known)}.",
            {"game": game_id, "known": known},
        )
