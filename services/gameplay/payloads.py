"""The documents the API reads and writes, as pydantic models.

The same models describe the REST bodies, feed the OpenAPI document, and are what the
gameplay service returns to both REST and GraphQL.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StringConstraints,
    ValidationError,
    ValidationInfo,
    WithJsonSchema,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from services.ai.bot import STAND_IN_DEFAULT
from services.store import MAX_SEATS, GameStatus

from .records.document import SEED_TEXT_PATTERN, Reason

TAG_PATTERN = r"^[A-Za-z0-9_.:-]{1,64}$"
GAME_ID_PATTERN = r"^[a-z2-7]{24}$"
GAME_TYPE_PATTERN = r"^[a-z0-9-]{1,64}$"
CURSOR_PATTERN = r"^\d{15}:[a-z2-7]{1,64}$"
MAX_GAMES_PAGE = 100
MAX_EVENTS_PAGE = 1000
MAX_VERSION = 10**12
"""Ids, filters and page sizes the service accepts: the REST models (and so the OpenAPI
document) and the service's own checks all read them from here."""
MAX_SEED = 2**63 - 1
SEED_TEXT_DESCRIPTION = (
    f"The seed as a string of decimal digits, 0 to {MAX_SEED}: a seed past 2^53 survives "
    "JavaScript's JSON.parse only as text. Give seed or seed_text, not both."
)
Tag = Annotated[str, StringConstraints(pattern=TAG_PATTERN)]
WEBHOOK_URL_PATTERN = r"^https?://[^\s]+$"
WebhookUrl = Annotated[str, StringConstraints(pattern=WEBHOOK_URL_PATTERN, max_length=2048)]
WebhookEvent = Literal[
    "game.finished",
    "game.aborted",
    "move",
    "game.seat_claimed",
    "game.started",
    "game.cancelled",
    "seat.left",
    "seat.token_replaced",
]
OnLeave = Literal["bot_takes_over", "end_game"]

MAX_SEAT_NAME = 64
SEAT_NAME_ERROR = "invalid_seat_name"
TOO_MANY_GAMES = "too_many_games"
INPUT_CODES = frozenset({SEAT_NAME_ERROR, TOO_MANY_GAMES})
"""Validation errors with a code of their own (else a request is just `invalid_request`)."""
_HIDDEN_CHARACTERS = {
    "Cc": "a control character (NUL, newline, tab...)",
    "Cf": "an invisible formatting character (bidi override, zero-width...)",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
    "Cs": "a lone surrogate",
    "Co": "a private-use character",
    "Cn": "an unassigned code point",
}
"""Unicode categories a name shown to other players may not contain: they hide or
reorder text, or break the lines it is shown in."""


ZERO_WIDTH_JOINER = "\u200d"
_EMOJI_PARTS = ("\ufe0f", *map(chr, range(0x1F3FB, 0x1F400)))
"""The emoji presentation selector and the skin-tone modifiers, between an emoji and a
joiner in a sequence such as 🏳️‍🌈 or 👩🏽‍🚀."""


def seat_name(value: str) -> str:
    """A seat name as shown to others: NFC, trimmed, visible, no hidden characters (but
    the joiner inside an emoji sequence, which draws one emoji)."""
    name = unicodedata.normalize("NFC", value)
    for index, char in enumerate(name):
        hidden = _HIDDEN_CHARACTERS.get(unicodedata.category(char))
        if hidden is not None and not _joins_emoji(name, index):
            raise PydanticCustomError(
                SEAT_NAME_ERROR,
                "A seat name may not contain {hidden}: U+{point} was sent.",
                {"hidden": hidden, "point": f"{ord(char):04X}"},
            )
    name = name.strip()
    if not name:
        raise PydanticCustomError(SEAT_NAME_ERROR, "A seat name needs a visible character.")
    if len(name) > MAX_SEAT_NAME:
        raise PydanticCustomError(
            SEAT_NAME_ERROR, "A seat name has at most {limit} characters.", {"limit": MAX_SEAT_NAME}
        )
    return name


def _joins_emoji(name: str, index: int) -> bool:
    """Whether `name[index]` is a zero-width joiner between two symbols (emoji), as in
    🏳️‍🌈: it draws them as one emoji and hides nothing. Between letters it is refused."""
    if name[index] != ZERO_WIDTH_JOINER or index + 1 >= len(name):
        return False
    before = name[:index].rstrip("".join(_EMOJI_PARTS))
    return (
        bool(before)
        and unicodedata.category(before[-1]) == "So"
        and unicodedata.category(name[index + 1]) == "So"
    )


SHOWN_SEAT_NAME = WithJsonSchema({"type": "string", "minLength": 1, "maxLength": MAX_SEAT_NAME})
"""A seat name as documented: the limit `seat_name` enforces, on the name as stored (NFC,
without blanks at either end), which is what a client should send. The raw bound of
`BoundedSeatName`, there to bound the work before that, is no promise to clients."""
SeatName = Annotated[str, AfterValidator(seat_name), SHOWN_SEAT_NAME]
BoundedSeatName = Annotated[
    str,
    StringConstraints(min_length=1, max_length=4 * MAX_SEAT_NAME),
    AfterValidator(seat_name),
    SHOWN_SEAT_NAME,
]
"""A seat name, with its raw length bounded before any work on it."""
MIN_INVITE_TTL = 60
MAX_INVITE_TTL = 7 * 24 * 3600


def input_code(error: ValidationError) -> str:
    """The stable code of a refused input: a named one if every error has it."""
    codes = {item["type"] for item in error.errors(include_url=False)}
    if len(codes) == 1 and codes <= INPUT_CODES:
        return codes.pop()
    return "invalid_request"


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


# --- requests ------------------------------------------------------------------------


NAMED_OR_OPEN: dict[str, Any] = {
    "if": {"properties": {"open": {"const": True}}, "required": ["open"]},
    "then": {"properties": {"name": {"type": "null"}, "bot": {"type": "null"}}},
    "else": {"properties": {"name": {"type": "string"}}, "required": ["name"]},
}
"""`SeatRequest._named_or_open` in JSON Schema: an open seat has no name or bot, any other
seat has a name. Said with if/then/else, which validators apply and code generators
leave aside (the seat stays one object with optional fields, as the model is), where
a oneOf or anyOf of `required` lists would make several of them type it as unknown."""


class SeatRequest(Strict):
    model_config = ConfigDict(json_schema_extra=NAMED_OR_OPEN)

    name: BoundedSeatName | None = Field(
        default=None,
        description="Shown to the other players: 1-64 visible characters, stored in NFC; "
        "control, bidi-override and zero-width characters are refused. Required unless "
        "the seat is open.",
    )
    bot: str | None = Field(
        default=None,
        description="Bot level to let the service play this seat (see the catalog); "
        "omit for a human seat, which gets a token.",
    )
    open: StrictBool = Field(
        default=False,
        description="An open seat (without name or bot): it gets an invite code, shown "
        "only to the creator (and in the lobby, for a game listed there), that one player "
        "claims it with (POST "
        "/v1/games/{id}/seats/{seat}/claim). The game waits (status waiting) until every "
        "open seat is claimed or filled with a bot by the creator.",
    )

    @model_validator(mode="after")
    def _named_or_open(self) -> SeatRequest:
        if self.open and (self.name is not None or self.bot is not None):
            raise ValueError("an open seat has no name or bot: its player names it")
        if not self.open and self.name is None:
            raise ValueError("a seat needs a name, or open: true")
        return self


class ClockRequest(Strict):
    initial_seconds: float = Field(
        gt=0, le=30 * 86400, description="Each human seat's time bank at the start."
    )
    increment_seconds: float = Field(
        default=0, ge=0, le=86400, description="Added to a seat's bank after each of its moves."
    )
    on_timeout: Literal["forfeit", "bot"] = Field(
        default="forfeit",
        description="When a bank runs out: forfeit (the game's on_leave policy: the seat "
        "resigns and the others are scored, or it is abandoned and a bot plays it on) "
        "or bot (a bot makes that move; the seat plays on with only its increment, which "
        "must then be more than 0).",
    )

    @model_validator(mode="after")
    def _bot_needs_an_increment(self) -> ClockRequest:
        if self.on_timeout == "bot" and self.increment_seconds == 0:
            raise ValueError(
                "on_timeout bot needs increment_seconds above 0: a seat whose bank ran out "
                "plays on with only its increment, and with none it could never move again"
            )
        return self


def _seed_not_text(value: object) -> object:
    if isinstance(value, str):
        raise ValueError("seed is a JSON integer: give a seed as a string in seed_text.")
    return value


Seed = Annotated[
    Annotated[StrictInt, Field(ge=0, le=MAX_SEED)] | None, BeforeValidator(_seed_not_text)
]


class Seeded(Strict):
    """A request that may fix its randomness, by `seed` or, for clients whose numbers are
    doubles, by `seed_text`; once read, `seed` holds it either way."""

    seed: Seed = Field(
        default=None,
        description="Fixes all randomness (as seed_text does). Anyone who knows it can work "
        "out hidden information, so leave it out for real play.",
    )
    seed_text: str | None = Field(
        default=None,
        pattern=SEED_TEXT_PATTERN,
        description=SEED_TEXT_DESCRIPTION,
        # Read into `seed`, never dumped: a request's Idempotency-Key fingerprint (and a
        # tournament's stored spec) stay what they were before seed_text existed.
        exclude=True,
    )

    @field_validator("seed_text")
    @classmethod
    def _one_seed_in_range(cls, text: str | None, info: ValidationInfo) -> str | None:
        if text is None:
            return None
        if info.data.get("seed") is not None:
            raise ValueError("Give seed or seed_text, not both.")
        if int(text) > MAX_SEED:
            raise ValueError(f"seed_text must be a seed from 0 to {MAX_SEED}.")
        return text

    @model_validator(mode="after")
    def _seed_from_text(self) -> Seeded:
        """One form once read, so requests for one seed are equal (idempotency compares
        them) however it was given."""
        if self.seed_text is not None:
            self.seed, self.seed_text = int(self.seed_text), None
        return self


class CreateGameRequest(Seeded):
    game: str = Field(min_length=1, max_length=64, description="Game id from the catalog.")
    seats: list[SeatRequest] = Field(min_length=1, max_length=MAX_SEATS)
    options: dict[str, Any] = Field(
        default_factory=dict, description="The game's options (see its options_schema)."
    )
    tags: list[Tag] = Field(
        default_factory=list, max_length=10, description="Labels platforms can list games by."
    )
    webhook_url: WebhookUrl | None = Field(
        default=None,
        description="Callback URL (http or https) the workers POST this game's events to, "
        "signed with HMAC-SHA256 (Skyport-Signature header), with an event id to dedupe by.",
    )
    clock: ClockRequest | None = Field(
        default=None, description="Time control; omit for an untimed game."
    )
    webhook_events: list[WebhookEvent] = Field(
        default_factory=lambda: list[WebhookEvent](["game.finished"]),
        max_length=8,
        description="Which events to POST: game.finished (final standings), game.aborted "
        "(the game ended without standings, with the reason; also sent to those told of "
        "game.finished), move "
        "(every committed move, as a spectator sees it), game.seat_claimed (an open seat "
        "was claimed or filled with a bot: seat, name, bot), game.started (the last open "
        "seat was filled), game.cancelled (the creator cancelled the waiting game) and "
        "seat.left (a seat resigned or ran out of time: seat, reason, and the bot that "
        "plays it on, if any) and seat.token_replaced (a seat's token was replaced: seat, "
        "name, and by whom, the seat itself or the API key that created the game).",
    )
    on_leave: OnLeave | None = Field(
        default=None,
        description="When a seat resigns or its clock runs out (with on_timeout forfeit): "
        "bot_takes_over (the default with 3 or more seats: the seat is marked abandoned and "
        "a bot of level leave_bot plays it to the end) or end_game (the default with 1 or "
        "2 seats: the game ends and the others are scored).",
    )
    leave_bot: str | None = Field(
        default=None,
        description="Bot level that plays abandoned seats and seats on autopilot (see the "
        f"catalog's bot_levels); default {STAND_IN_DEFAULT}.",
    )
    invite_ttl_seconds: StrictInt | None = Field(
        default=None,
        ge=MIN_INVITE_TTL,
        le=MAX_INVITE_TTL,
        description="How long the open seats' invite codes are valid, in seconds (60 to "
        "604800); default SKYPORT_INVITE_TTL.",
    )
    lobby: StrictBool = Field(
        default=False,
        description="List the game in the public lobby (GET /v1/lobby/{game}) while it "
        "waits: anyone sees its open seats' invite codes there and may claim one. Needs an "
        "open seat. The codes are the lobby's own: the creator gets the same ones.",
        # Dumped only when set: the Idempotency-Key fingerprint of every other creation
        # (and bulk request) stays what it was before the lobby existed.
        exclude_if=lambda listed: listed is False,
    )

    @model_validator(mode="after")
    def _lobby_has_open_seats(self) -> CreateGameRequest:
        if self.lobby and not any(seat.open for seat in self.seats):
            raise ValueError("lobby needs an open seat: the lobby lists a game's open seats")
        return self


ExpectedVersion = Annotated[StrictInt | None, Field(ge=0, le=MAX_VERSION)]
"""A version a move or resignation requires, as the service checks it for every door."""
WHOLE_NUMBER_NOTE = "A JSON integer as written: 12, not 12.0 or 1.2e1."


class MoveRequest(Strict):
    move: dict[str, Any] = Field(
        description="A move: any element of legal-moves, verbatim (its label is ignored)."
    )
    expected_version: ExpectedVersion = Field(
        default=None,
        description="Apply only if the game is still at this version, else 409. "
        + WHOLE_NUMBER_NOTE,
    )


class ResignRequest(Strict):
    expected_version: ExpectedVersion = Field(
        default=None,
        description="Resign only if the game is still at this version, else 409. "
        + WHOLE_NUMBER_NOTE,
    )


class AutopilotRequest(Strict):
    on: StrictBool = Field(
        description="true: a bot (the game's leave_bot) plays your turns until you turn it "
        "off; false: you play again."
    )


# --- responses -----------------------------------------------------------------------


class SeatInfo(BaseModel):
    seat: int
    name: str
    bot: str | None = None
    resigned: bool = False
    abandoned: bool = Field(
        default=False, description="The seat left; a bot plays it to the end (on_leave)."
    )
    autopilot: bool = Field(
        default=False, description="The seat stepped away; a bot plays its turns for now."
    )
    open: bool = Field(
        default=False, description="The seat waits for a player to claim it (name is empty)."
    )
    invite_expires_at: str | None = Field(
        default=None, description="When an open seat's invite code expires."
    )


class CreatedSeat(SeatInfo):
    token: str | None = Field(
        default=None,
        description="The seat's secret bearer token (human seats only). Shown only here.",
    )
    invite_code: str | None = Field(
        default=None,
        description="An open seat's invite code: single use, until invite_expires_at. "
        "Shown only here, to the creator, who passes it to the one player who may "
        "claim the seat (and in the lobby, for a game listed there).",
    )


class GameCreated(BaseModel):
    id: str
    game: str
    version: int
    status: GameStatus
    seats: list[CreatedSeat]
    tags: list[str]
    created_at: str
    creator_token: str | None = Field(
        default=None,
        description="A game with open seats: the creator's secret bearer token, which "
        "cancels the waiting game or fills an open seat with a bot (an API key that created "
        "the game may too). Shown only here.",
    )


class PromptInfo(BaseModel):
    """An open decision. Its text and options are shown only to the prompted seat."""

    seat: int
    kind: str
    text: str | None = None
    options: list[str] | None = None
    min_picks: int | None = None
    max_picks: int | None = None


class StandingInfo(BaseModel):
    seat: int
    name: str
    rank: int = Field(
        description="1 for the winner(s); tied seats share a rank. A virtual opponent is "
        "ranked among the seats, so a solo player who lost to it is 2nd."
    )
    score: int
    breakdown: dict[str, int]
    resigned: bool = False
    abandoned: bool = Field(
        default=False, description="The seat left and a bot played it to the end."
    )
    left_reason: Reason | None = Field(
        default=None,
        description="Why a seat that resigned or left did: resigned (it chose to) or timeout "
        "(its clock ran out). Null for a seat that stayed, and in results scored before "
        "reasons were kept.",
    )


class OpponentInfo(BaseModel):
    """The virtual opponent of a solo game (an automa, a ghost) or a scenario's target:
    scored and ranked beside the seats, never a seat itself."""

    name: str
    rank: int
    score: int
    breakdown: dict[str, int]


class GameResult(BaseModel):
    id: str
    game: str
    version: int
    winners: list[int] = Field(
        description="Seats that won; empty when nobody did (a solo player who lost)."
    )
    standings: list[StandingInfo]
    opponent: OpponentInfo | None = Field(
        default=None,
        description="A solo game's virtual opponent, with its score breakdown next to the "
        "player's; null in games between seats only.",
    )
    summary: str | None = Field(
        default=None, description="Why the game ended as it did, when the game says."
    )


class ClockInfo(BaseModel):
    initial_seconds: float
    increment_seconds: float
    on_timeout: Literal["forfeit", "bot"]
    remaining: list[float | None] = Field(
        description="Seconds each seat has left now (null for bot seats)."
    )
    running: list[int] = Field(description="Seats whose clock is running now.")


class GameDocument(BaseModel):
    id: str
    game: str
    status: GameStatus
    version: int
    seats: list[SeatInfo]
    you: int | None = Field(description="Your seat, or null for spectators and platforms.")
    turn: list[int] = Field(description="Seats that must act now.")
    prompts: list[PromptInfo]
    view: dict[str, Any] = Field(description="The game's own view for you (see its schema).")
    seat_views: list[dict[str, Any]] | None = Field(
        default=None, description="Every seat's view: finished games read with an API key."
    )
    result: GameResult | None = None
    clock: ClockInfo | None = Field(default=None, description="Time control, if the game has one.")
    tags: list[str]
    created_at: str
    updated_at: str
    abort_reason: str | None = Field(
        default=None,
        description="Why an aborted game was stopped: 'cancelled by its creator' (a game "
        "that waited for players), or what went wrong.",
    )
    lobby: bool = Field(
        default=False,
        description="Its creator listed it in the public lobby (created with lobby: true): "
        "it is shown there, with its open seats' invite codes, while it waits for players.",
    )


class LegalMovesDocument(BaseModel):
    id: str
    version: int
    seat: int
    moves: list[dict[str, Any]] = Field(
        description="Each a move plus a human-readable `label`; POST any one back verbatim. "
        "Empty when the game is not active (`status`) or `seat` is not in `turn`."
    )
    status: GameStatus = Field(description="The game's status: only an active game has moves.")
    turn: list[int] = Field(
        description="The seats that must act now (none unless the game is active): a seat "
        "not among them has no moves until it is."
    )


ViewValue = Annotated[
    Any, WithJsonSchema({"additionalProperties": True, "title": "View", "type": "object"})
]
"""A game's view: its own model where the service built it (serialised straight to JSON
in one pass), or its JSON form where it was read back (a replayed answer)."""


class MoveAccepted(BaseModel):
    id: str
    game: str
    version: int
    status: GameStatus
    seat: int
    events: list[dict[str, Any]] = Field(description="What the move did, as you may see it.")
    view: ViewValue
    turn: list[int]
    prompts: list[PromptInfo]
    abandoned: bool = Field(
        default=False,
        description="A resignation under on_leave bot_takes_over: nothing was committed "
        "(version unchanged); the seat is abandoned and a bot plays it from here.",
    )


class AutopilotDocument(BaseModel):
    id: str
    seat: int
    version: int = Field(description="The game's version when it was switched.")
    autopilot: bool
    bot: str | None = Field(description="The bot level playing the seat while on.")


class RecordSummary(BaseModel):
    id: str
    game: str
    version: int = Field(description="The game's last version.")
    seats: list[str] = Field(description="The seats' names, in seat order.")
    winners: list[int]
    tags: list[str]
    finished_at: str


class RecordList(BaseModel):
    records: list[RecordSummary]
    next_cursor: str | None = Field(
        description="Pass as `cursor` for the next page; null when nothing follows this one."
    )


class VersionView(BaseModel):
    """A spectator's view of a finished game at one of its versions."""

    id: str
    game: str
    version: int
    last_version: int
    view: dict[str, Any] = Field(description="The game's own view for a spectator.")


class LogEntryDocument(BaseModel):
    version: int
    seat: int
    action: str = Field(description='"move" or "resign".')
    move: dict[str, Any] | None = Field(
        default=None, description="The move itself: only for the seat that made it."
    )
    events: list[dict[str, Any]]
    status: GameStatus
    at: str
    reason: Literal["resigned", "timeout"] | None = Field(
        default=None,
        description='Why a seat resigned: "resigned" (it chose to) or "timeout" (its clock '
        "ran out, on_timeout forfeit). Null for a move.",
    )


class EventsPage(BaseModel):
    id: str
    since: int
    version: int = Field(description="The game's current version.")
    status: GameStatus
    entries: list[LogEntryDocument]
    more: bool = Field(description="True when more entries follow; ask again since the last.")


class GameSummaryDocument(BaseModel):
    id: str
    game: str
    status: GameStatus
    version: int
    seats: list[SeatInfo]
    tags: list[str]
    created_at: str
    updated_at: str
    lobby: bool = Field(
        default=False, description="Its creator listed it in the public lobby (lobby: true)."
    )


class GameList(BaseModel):
    games: list[GameSummaryDocument]
    next_cursor: str | None = Field(
        description="Pass as `cursor` for the next page; null when nothing follows this one. "
        "A page looks at up to 1,000 games: with a filter few of them match it may hold "
        "fewer games than asked for (none even) and still have a next_cursor."
    )


class CatalogGame(BaseModel):
    id: str
    title: str
    min_players: int
    max_players: int
    options_schema: dict[str, Any]
    components: dict[str, Any]
    bot_levels: list[str]


class Catalog(BaseModel):
    games: list[CatalogGame]


class ProblemDocument(BaseModel):
    type: str
    title: str
    status: int
    detail: str
    code: str
    instance: str | None = None
    current_version: int | None = None
    details: dict[str, Any] | None = None
    errors: list[dict[str, Any]] | None = None

    model_config = ConfigDict(extra="allow")
