"""The record of one game: everything needed to replay it through the engine.

A record holds the game, its options, seed and seats, every committed action (a move
or a resignation) with its seat, version and time, every event that action produced
(unredacted), and the result. It reveals hidden information (private event fields,
the final state's digest), so a service hands it out only once the game is over.
"""

from __future__ import annotations

import hashlib
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from services.engine import Game, GameState, Result

RECORD_FORMAT: Literal["skyport.record/1"] = "skyport.record/1"


class RecordedSeat(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    bot: str | None = Field(
        default=None, description="Bot level of a seat the service played, else None."
    )
    left_at_version: int | None = Field(
        default=None,
        description="A leaver: the version after which a bot played this seat to the end.",
    )


class RecordedAction(BaseModel):
    """One committed version."""

    model_config = ConfigDict(extra="forbid")

    version: int = Field(ge=1, description="The version this action made: 1 for the first.")
    seat: int = Field(ge=0)
    action: Literal["move", "resign"]
    move: dict[str, Any] | None = Field(
        default=None, description="The move as JSON (None for a resignation)."
    )
    at: str = Field(description="When it was committed (ISO 8601, UTC).")
    events: list[dict[str, Any]] = Field(
        default_factory=list, description="Every event it produced, unredacted."
    )
    state_sha256: str | None = Field(
        default=None,
        description="SHA-256 of the game's JSON state after this version; checked when given.",
    )


class Record(BaseModel):
    model_config = ConfigDict(extra="forbid")

    format: Literal["skyport.record/1"] = RECORD_FORMAT
    id: str
    game: str
    options: dict[str, Any] = Field(default_factory=dict)
    seed: int
    seats: list[RecordedSeat] = Field(min_length=1)
    moves: list[RecordedAction] = Field(default_factory=list)
    result: Result | None = Field(
        default=None,
        description="The standings (resigned seats demoted), or None if the game "
        "ended without one (aborted).",
    )
    final_state_sha256: str | None = None
    tags: list[str] = Field(default_factory=list)

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def version(self) -> int:
        return self.moves[-1].version if self.moves else 0

    def to_json(self) -> str:
        return self.model_dump_json(indent=2)


def state_sha256(game: Game, state: GameState) -> str:
    """The digest of a state's canonical JSON: equal states give equal digests, since the
    same seed and the same moves give a byte-identical state."""
    return hashlib.sha256(game.dump_state(state).encode()).hexdigest()
