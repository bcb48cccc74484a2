"""The record of one game: everything needed to replay it through the engine.

A record holds the game, its options, seed and seats, every committed action (a move
or a resignation) with its seat, version and time, every event that action produced
(unredacted), and the result. It reveals hidden information (private event fields,
the final state's digest), so a service hands it out only once the game is over.

It also says why things happened, where the service decided it rather than the engine:
the time control and leave policy the game was played under, why each resignation was
committed (the seat chose to, or its clock ran out) and why each seat that left did.
Every such field is optional: records written before they existed load as they were.
"""

from __future__ import annotations

import hashlib
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from services.engine import Game, GameState, Result

RECORD_FORMAT: Literal["skyport.record/1"] = "skyport.record/1"

SEED_TEXT_PATTERN = r"^[0-9]{1,19}$"
"""A seed as decimal digits: ASCII only (no sign, spaces or underscores, which Python's
int() would take); at most 2^63 - 1, checked once read."""

Reason = Literal["resigned", "timeout"]
"""Why a seat resigned or left: it chose to, or its clock ran out (on_timeout forfeit)."""


def known_reason(name: object) -> Reason | None:
    """`name` as a `Reason`, or None when it is none (not said: the seat left before
    reasons were kept)."""
    if name == "resigned":
        return "resigned"
    if name == "timeout":
        return "timeout"
    return None


class RecordedClock(BaseModel):
    """The time control a game was played under, as it was created."""

    model_config = ConfigDict(extra="forbid")

    initial_seconds: float = Field(description="Each human seat's time bank at the start.")
    increment_seconds: float = Field(
        default=0, description="Added to a seat's bank after each of its moves."
    )
    on_timeout: Literal["forfeit", "bot"] = Field(
        default="forfeit",
        description="When a bank ran out: forfeit (the on_leave policy applied) or bot (a "
        "bot made that move).",
    )


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
    left_reason: Reason | None = Field(
        default=None,
        description="Why a leaver left: resigned (it chose to) or timeout (its clock ran "
        "out). None for a seat that stayed, or one that left before reasons were kept.",
    )

    @model_validator(mode="after")
    def _only_a_leaver_has_a_reason(self) -> RecordedSeat:
        if self.left_reason is not None and self.left_at_version is None:
            raise ValueError("left_reason is for a seat that left (with left_at_version)")
        return self


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
    reason: Reason | None = Field(
        default=None,
        description="Why a resignation was committed: resigned (the seat chose to; what a "
        "resignation recorded without a reason reads as) or timeout (its clock ran out). "
        "None for a move.",
    )

    @model_validator(mode="after")
    def _a_resignation_has_a_reason(self) -> RecordedAction:
        if self.action == "resign" and self.reason is None:
            self.reason = "resigned"
        elif self.action == "move" and self.reason is not None:
            raise ValueError("only a resignation has a reason")
        return self


class Record(BaseModel):
    model_config = ConfigDict(extra="forbid")

    format: Literal["skyport.record/1"] = RECORD_FORMAT
    id: str
    game: str
    options: dict[str, Any] = Field(default_factory=dict)
    seed: int
    seed_text: str | None = Field(
        default=None,
        pattern=SEED_TEXT_PATTERN,
        description="The seed as decimal digits. JavaScript's JSON.parse rounds a seed past "
        "2^53, so a record that went through it keeps its game only here: when both are "
        "read, this is the seed, and seed may be its rounded copy. Written with every record.",
    )
    clock: RecordedClock | None = Field(
        default=None, description="The time control the game was played under; None if untimed."
    )
    on_leave: Literal["bot_takes_over", "end_game"] | None = Field(
        default=None,
        description="What a seat's resignation (or a forfeit on time) did: end_game (the "
        "game ended) or bot_takes_over (a bot of level leave_bot played the seat on). None "
        "for games created before there was a choice (they ended).",
    )
    leave_bot: str | None = Field(
        default=None, description="The bot level that played seats that left (bot_takes_over)."
    )
    seats: list[RecordedSeat] = Field(min_length=1)
    moves: list[RecordedAction] = Field(default_factory=list)
    result: Result | None = Field(
        default=None,
        description="The standings (resigned seats demoted), or None if the game "
        "ended without one (aborted).",
    )
    final_state_sha256: str | None = None
    tags: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _one_seed(self) -> Record:
        if self.seed_text is None:
            self.seed_text = str(self.seed)
            return self
        exact = int(self.seed_text)
        if exact != self.seed and float(exact) != float(self.seed):
            raise ValueError(f"seed {self.seed} and seed_text {self.seed_text} are different seeds")
        self.seed = exact
        return self

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
