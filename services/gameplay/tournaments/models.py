"""What a tournament is, as plain serialisable data: its spec (game, participants,
format), its rounds of tables, and the results recorded at those tables."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from services.engine import Result


class InvalidTournament(ValueError):
    """A tournament cannot be made or advanced as asked. `code` is stable."""

    def __init__(self, code: str, message: str, details: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details or {}
        """The game's own facts when the game refused (its options, say)."""

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


class Participant(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=64)
    bot: str | None = Field(default=None, description="Bot level that plays for them, if any.")


class RoundRobin(BaseModel):
    """Everyone meets everyone (see `round_robin` for how tables of more than two seats
    are made)."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["round_robin"] = "round_robin"


class Swiss(BaseModel):
    """`rounds` rounds, each paired by the standings so far, avoiding rematches."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["swiss"] = "swiss"
    rounds: int = Field(ge=1, le=64)


class Duplicate(BaseModel):
    """Every table of a round plays the same seed; seats rotate over the rounds. By
    default as many rounds as seats per table, so everyone holds every seat once."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["duplicate"] = "duplicate"
    rounds: int | None = Field(default=None, ge=1, le=64)


Format = Annotated[RoundRobin | Swiss | Duplicate, Field(discriminator="kind")]


class TournamentSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: str
    options: dict[str, Any] = Field(default_factory=dict)
    seats_per_table: int = Field(default=2, ge=1, le=16)
    participants: list[Participant] = Field(min_length=1, max_length=1024)
    format: Format
    seed: int = Field(default=0, description="Every table's seed is derived from it.")


class Table(BaseModel):
    model_config = ConfigDict(extra="forbid")

    number: int = Field(ge=1)
    seats: list[int] = Field(description="The participant (index) in each seat, seat 0 first.")
    seed: int
    game_id: str | None = Field(default=None, description="The service's game for this table.")
    result: Result | None = None
    void: bool = Field(
        default=False, description="The game ended without a result (aborted): no points."
    )

    @property
    def done(self) -> bool:
        return self.result is not None or self.void


class Round(BaseModel):
    model_config = ConfigDict(extra="forbid")

    number: int = Field(ge=1)
    tables: list[Table]
    byes: list[int] = Field(
        default_factory=list,
        description="Participants who sit out; a bye is scored as a win at tables of two, "
        "as the participant's average points per game at bigger tables (see `standings`).",
    )

    @property
    def done(self) -> bool:
        return all(table.done for table in self.tables)


class ScheduledRound(BaseModel):
    """A round fixed in advance (a round robin's): who sits at each table, in seat
    order, and who sits out."""

    model_config = ConfigDict(extra="forbid")

    tables: list[list[int]]
    byes: list[int] = Field(default_factory=list)


class Tournament(BaseModel):
    model_config = ConfigDict(extra="forbid")

    spec: TournamentSpec
    rounds: list[Round] = Field(default_factory=list)
    schedule: list[ScheduledRound] | None = Field(
        default=None,
        description="A round robin's every round, made at creation (results cannot change "
        "it). None for the other formats, and for a round robin stored before schedules "
        "were: `with_schedule` makes it.",
    )
