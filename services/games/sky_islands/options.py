"""The options a game of Merchants of Sky Islands can be set up with."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator


class SkyIslandsOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    starting_player: int | None = Field(
        default=None,
        ge=0,
        description="Seat that takes the first turn (0-based); null picks one at random.",
    )

    @field_validator("starting_player")
    @classmethod
    def _seat_exists(cls, seat: int | None, info: ValidationInfo) -> int | None:
        players = (info.context or {}).get("players")
        problem = starting_player_problem(seat, players)
        if problem:
            raise ValueError(problem)
        return seat


def starting_player_problem(seat: int | None, players: int | None) -> str | None:
    if seat is None or players is None or 0 <= seat < players:
        return None
    return f"starting_player must be a seat of this {players}-player game (0 to {players - 1})"
