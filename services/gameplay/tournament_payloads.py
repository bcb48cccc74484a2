"""The documents of the tournament endpoints, as pydantic models (REST bodies, OpenAPI
and GraphQL alike), and the tournament as stored."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    model_serializer,
    model_validator,
)

from .payloads import ClockRequest, OnLeave, SeatName, Seed, Seeded, Strict, WebhookUrl
from .records.document import Reason
from .tournaments import Tournament
from .tournaments.models import Format

MAX_PARTICIPANTS = 256
MAX_TOURNAMENT_GAMES = 4096
"""Tables over every round of one tournament (its document is rewritten at each result)."""

TournamentEvent = Literal["tournament.round_started", "tournament.finished"]


class ParticipantRequest(Strict):
    name: SeatName = Field(
        min_length=1, max_length=256, description="Shown as the seat's name at every table."
    )
    bot: str | None = Field(
        default=None,
        description="Bot level (see the catalog's bot_levels) that plays this participant's "
        "seats; omit for a person, who reads their seat tokens with their participant token.",
    )


class CreateTournamentRequest(Seeded):
    game: str = Field(min_length=1, max_length=64, description="Game id from the catalog.")
    options: dict[str, Any] = Field(
        default_factory=dict, description="The game's options, the same at every table."
    )
    participants: list[ParticipantRequest] = Field(min_length=1, max_length=MAX_PARTICIPANTS)
    format: Format = Field(
        description='{"kind": "round_robin"}, {"kind": "swiss", "rounds": N} or '
        '{"kind": "duplicate", "rounds": N (default: seats per table)}.'
    )
    seats_per_table: int = Field(default=2, ge=1, le=8)
    seed: Seed = Field(
        default=None,
        description="Every table's seed is derived from it and the tournament's own secret "
        "(random if omitted): a table's seed, shown once it is done, reveals nothing of "
        "the tables still playing, whatever this seed is.",
    )
    webhook_url: WebhookUrl | None = Field(
        default=None,
        description="Callback URL for tournament.round_started and tournament.finished "
        "(signed as game webhooks are).",
    )
    clock: ClockRequest | None = Field(
        default=None,
        description="Every table's time control, as a game's clock (it starts when the "
        "table's round does); omit for untimed tables. With on_timeout forfeit, a "
        "participant who never moves runs out of time under on_leave and the round goes on.",
    )
    on_leave: OnLeave | None = Field(
        default=None,
        description="Every table's on_leave, as a game's: bot_takes_over (the default at "
        "tables of 3 or more) or end_game (the default at 1 or 2 seats).",
    )


class CreatedParticipant(BaseModel):
    participant: int
    name: str
    bot: str | None
    token: str = Field(
        description="The participant's secret token: reads their seat token in every round "
        "(GET /v1/tournaments/{id}/me). Shown only here."
    )


class TournamentCreated(BaseModel):
    id: str
    game: str
    format: str
    rounds_total: int
    participants: list[CreatedParticipant]


class StandingDocument(BaseModel):
    rank: int
    participant: int
    name: str
    bot: str | None
    played: int
    wins: int
    byes: int
    points: float = Field(description="A win 1, a draw ½; at larger tables the share beaten.")
    score: int = Field(description="The sum of their scores in their games.")
    tiebreak: float = Field(description="The format's tie-break (see `tiebreak`).")


class TableDocument(BaseModel):
    number: int
    participants: list[int] = Field(description="The participant in each seat, seat 0 first.")
    game_id: str | None
    status: Literal["playing", "finished", "void"]
    ranks: list[int] | None = Field(
        default=None, description="Each seat's rank in the game, once finished."
    )
    scores: list[int] | None = None
    seed: int | None = Field(
        default=None,
        description="The table's seed, shown once the table and every other table dealt the "
        "same seed (a duplicate round's tables) are done.",
    )
    seed_text: str | None = Field(
        default=None,
        description="The same seed as decimal digits, for clients whose JSON numbers are "
        "doubles (JavaScript's JSON.parse rounds a seed past 2^53).",
    )
    left_reasons: list[Reason | None] | None = Field(
        default=None,
        description="Once the table is finished, why each seat that left did, in its game "
        "record's words (a seat's left_reason, a resignation's reason): resigned (it chose "
        "to) or timeout (its clock ran out); null for a seat that stayed, or one whose "
        "table was finished before reasons were kept. Null while the table plays, or if it "
        "is void.",
    )


class RoundDocument(BaseModel):
    number: int
    done: bool
    byes: list[int]
    tables: list[TableDocument]


class TournamentDocument(BaseModel):
    id: str
    game: str
    options: dict[str, Any]
    format: dict[str, Any]
    seats_per_table: int
    status: Literal["running", "finished"]
    rounds_total: int
    tiebreak: str = Field(description="buchholz (swiss), sonneborn_berger or matchpoints.")
    standings: list[StandingDocument]
    rounds: list[RoundDocument]
    clock: ClockRequest | None = Field(
        default=None, description="Every table's time control (null: untimed)."
    )
    on_leave: OnLeave | None = Field(
        default=None, description="Every table's on_leave (null: the game's default)."
    )
    created_at: str
    updated_at: str
    finished_at: str | None


class MyRound(BaseModel):
    number: int
    bye: bool
    table: int | None
    seat: int | None
    game_id: str | None
    seat_token: str | None = Field(
        description="The seat token for that game (null for a bye, a bot, an expired game, "
        "a token replaced since, or for a moment while the round's games are being made: "
        "ask again)."
    )
    token_replaced: bool = Field(
        default=False,
        description="The seat's token was replaced (POST /v1/games/{id}/seats/{seat}/token): "
        "the one derived for it no longer works, and the new one is only in the "
        "replacement's answer.",
    )


class MyTournament(BaseModel):
    id: str
    participant: int
    name: str
    bot: str | None
    rounds: list[MyRound]


class ParticipantTokenReplaced(BaseModel):
    id: str
    participant: int
    token: str | None = Field(
        description="The participant's new secret token; the old one no longer works, and "
        "the seat tokens of their tables in play were replaced too (ask /me for them with "
        "the new token). Shown only here."
    )
    issued_at: str = Field(description="When the new token was issued.")


class TokenRotation(BaseModel):
    """A participant token replaced with an Idempotency-Key (see `token_rotations`)."""

    participant: int
    generation: int
    issued_at: str
    request_print: str


class StoredTournament(BaseModel):
    """What Redis keeps (one JSON document, changed by compare-and-set).

    A round robin's schedule (`Tournament.schedule`) is kept beside the tournament, as
    `schedule`, not in it: during a rolling update a replica of the release before,
    whose `Tournament` refuses unknown fields, still reads what this one writes (it
    ignores `schedule` and makes the schedule itself, as it always did).

    Fields it does not know (added by a later release) are kept through its swaps, so a
    replica of this release does not drop, say, a later release's notes of what is
    owed while both run."""

    model_config = ConfigDict(extra="allow")

    id: str
    tournament: Tournament
    creator: str
    secret: str
    """Part of every table game's idempotency key: the games' ids and seat tokens follow
    from it, and nobody who lacks it can work them out. It also keys the tables' seeds
    (`derive_seed`), so one published seed tells nothing of another table's."""
    token_hashes: list[str]
    webhooks: list[str]
    created_at: str
    updated_at: str
    announced: int = 0
    """Rounds whose games were all created and whose round_started was sent."""
    finished_at: str | None = None
    finish_announced: bool = False
    create_fingerprint: str | None = None
    """The creation request's fingerprint: a retry with its Idempotency-Key must match."""
    token_salt: str | None = None
    """Salt of the participant tokens derived from an Idempotency-Key (hex)."""
    clock: ClockRequest | None = None
    """Every table game's clock (None: untimed)."""
    left_reasons: dict[str, dict[int, Reason]] = Field(default_factory=dict)
    """Why seats left, by the game id of their table (recorded with its result): seat ->
    resigned or timeout, for the seats that left only. Beside the tournament, as
    `schedule` is, so the release before still reads what this one writes (a swap by
    one of its replicas drops them: those tables then show no reason)."""
    on_leave: OnLeave | None = None
    """Every table game's on_leave (None: the game's default for its seat count)."""
    token_generations: list[int] = Field(default_factory=list)
    """How many times each participant's token was replaced (missing: none), which
    tells `/me` the seat tokens it set then at the participant's tables in play."""
    seat_generations: dict[str, list[int]] = Field(default_factory=dict)
    """The generations whose seat tokens were set at each participant's table in play
    when its token was replaced (see `seat_generation_key`): a finished table keeps the
    one it had, and `/me` still finds it after later replacements."""
    tokens_owed: dict[str, str] = Field(default_factory=dict)
    """Replacements of participant tokens whose seats and webhook are not settled yet,
    `"participant:generation"` -> who replaced it: noted in the replacement's own
    compare-and-set, struck off once done, finished by the next step of the tournament
    if the process that replaced it died first."""
    token_rotations: dict[str, TokenRotation] = Field(default_factory=dict)
    """The last replacements of participant tokens asked with an Idempotency-Key, by
    the caller's and key's digest: a retry answers the same token while it is current."""

    @model_validator(mode="before")
    @classmethod
    def _schedule_into_tournament(cls, data: Any) -> Any:
        if isinstance(data, dict) and "schedule" in data:
            data = dict(data)
            schedule = data.pop("schedule")
            tournament = data.get("tournament")
            if schedule is not None and isinstance(tournament, dict):
                data["tournament"] = {**tournament, "schedule": schedule}
        return data

    @model_serializer(mode="wrap")
    def _schedule_beside_tournament(self, handler: SerializerFunctionWrapHandler) -> Any:
        data = handler(self)
        tournament = data.get("tournament") if isinstance(data, dict) else None
        if isinstance(tournament, dict) and "schedule" in tournament:
            data["tournament"] = {k: v for k, v in tournament.items() if k != "schedule"}
            data["schedule"] = tournament["schedule"]
        return data
