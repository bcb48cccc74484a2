"""What a REST request names in its path, query string and headers, as pydantic models,
and the headers its answers carry.

The models parse the request (`operations` hands a route its parsed `path` and `query`)
and describe it in the OpenAPI document, so the two cannot drift. Their limits and
patterns are the service's own (`services.gameplay.payloads`), which the service checks
again for GraphQL.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    ValidatorFunctionWrapHandler,
    WrapValidator,
)
from pydantic_core import PydanticCustomError

from services.gameplay.auth import IDEMPOTENCY_KEY_PATTERN
from services.gameplay.payloads import (
    CURSOR_PATTERN,
    GAME_ID_PATTERN,
    GAME_TYPE_PATTERN,
    MAX_EVENTS_PAGE,
    MAX_GAMES_PAGE,
    MAX_VERSION,
    Tag,
)
from services.gameplay.problems import Problem, not_found
from services.store import MAX_SEATS, GameStatus

from .preconditions import IF_MATCH_PATTERN

_WHOLE_NUMBER = re.compile(r"[0-9]{1,19}")


def whole_number(value: object) -> object:
    """A number in a path or query string: ASCII digits only (no sign, blanks, `_` or
    `.0`)."""
    if isinstance(value, str) and not _WHOLE_NUMBER.fullmatch(value):
        raise PydanticCustomError("int_parsing", "Input should be a whole number")
    return value


WholeNumber = Annotated[int, BeforeValidator(whole_number)]
GameId = Annotated[str, StringConstraints(pattern=GAME_ID_PATTERN)]
GameType = Annotated[str, StringConstraints(pattern=GAME_TYPE_PATTERN)]


def opaque_cursor(value: object, handler: ValidatorFunctionWrapHandler) -> object:
    """A cursor is opaque to clients: refuse one the service never gave without showing
    the pattern it checks it against."""
    try:
        return handler(value)
    except ValidationError:
        raise PydanticCustomError(
            "invalid_cursor",
            "Not a cursor this service gave: pass a page's next_cursor as it came",
        ) from None


Cursor = Annotated[str, StringConstraints(pattern=CURSOR_PATTERN), WrapValidator(opaque_cursor)]


# --- path ----------------------------------------------------------------------------


class PathParams(BaseModel):
    """A route's path parameters. A path they refuse names nothing: 404."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    @classmethod
    def missing(cls, raw: Mapping[str, Any]) -> Problem:
        """The 404 for a path these parameters refuse."""
        return Problem(404, "not_found", "There is nothing at this address.")


class GamePath(PathParams):
    game_id: GameId = Field(description="The game's id, as creating it returned.")

    @classmethod
    def missing(cls, raw: Mapping[str, Any]) -> Problem:
        return not_found(str(raw.get("game_id", "")))


def _no_game_has(raw: Mapping[str, Any], code: str, detail: str) -> Problem:
    """The 404 for a path whose game id is well formed but whose number no game has."""
    try:
        GamePath.model_validate({"game_id": raw.get("game_id")})
    except ValidationError:
        return GamePath.missing(raw)
    return Problem(404, code, detail)


class GameSeatPath(GamePath):
    seat: WholeNumber = Field(ge=0, lt=MAX_SEATS, description="A seat of the game, from 0.")

    @classmethod
    def missing(cls, raw: Mapping[str, Any]) -> Problem:
        detail = f"No game has that seat: seats are numbered 0 to {MAX_SEATS - 1} at most."
        return _no_game_has(raw, "seat_not_found", detail)


class GameVersionPath(GamePath):
    version: WholeNumber = Field(
        ge=0, le=MAX_VERSION, description="A version of the game: 0 is before any move."
    )

    @classmethod
    def missing(cls, raw: Mapping[str, Any]) -> Problem:
        detail = f"A version is a whole number from 0 (before any move) to {MAX_VERSION}."
        return _no_game_has(raw, "version_not_found", detail)


class LobbyPath(PathParams):
    game: GameType = Field(description="A game id from the catalog.")


# --- query ---------------------------------------------------------------------------


class QueryParams(BaseModel):
    """A route's query parameters: optional, each with its default. A value they refuse is
    400 invalid_query; a name they do not have is 400 unknown_query_parameter."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class PageQuery(QueryParams):
    """A listing's tag filter and cursor paging (games and records alike)."""

    tag: Tag | None = Field(default=None, description="Only this tag.")
    limit: WholeNumber = Field(
        default=20, ge=1, le=MAX_GAMES_PAGE, description="Page size (default 20)."
    )
    cursor: Cursor | None = Field(default=None, description="next_cursor of the previous page.")


class LobbyQuery(QueryParams):
    # Not a PageQuery without its tag: a subclass would list limit and cursor first,
    # and clients see the order (OpenAPI, the unknown_query_parameter message).
    players: WholeNumber | None = Field(
        default=None, ge=1, le=MAX_SEATS, description="Only games of this many seats."
    )
    limit: WholeNumber = Field(
        default=20, ge=1, le=MAX_GAMES_PAGE, description="Page size (default 20)."
    )
    cursor: Cursor | None = Field(default=None, description="next_cursor of the previous page.")


class GameListQuery(PageQuery):
    status: GameStatus | None = Field(default=None, description="Only this status.")
    game: GameType | None = Field(default=None, description="Only this game.")


class EventsQuery(QueryParams):
    since: WholeNumber = Field(
        default=0, ge=0, le=MAX_VERSION, description="Version after which to start (default 0)."
    )
    limit: WholeNumber = Field(
        default=200,
        ge=1,
        le=MAX_EVENTS_PAGE,
        description="Most entries in one page (default 200).",
    )


# --- headers ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ResponseHeader:
    """A header an answer carries, as the OpenAPI document shows it (one entry of its
    `components/headers`, referred to by each answer that carries it)."""

    name: str
    description: str
    schema: Mapping[str, Any]
    required: bool = False
    """Whether every answer that declares it carries it."""


ETAG = ResponseHeader(
    name="ETag",
    description="A weak entity tag of this representation: for a game its version, what "
    'changes without a new version and whose view it is (W/"v<version>-<mark>"); for a '
    'lobby page a digest of the page (W/"l-<digest>"). Send it back in If-None-Match '
    "(304 while unchanged) or, for a game, in If-Match on a move or a resignation.",
    schema={"type": "string", "pattern": r'^W/"(v[0-9]+|l)-[0-9a-z-]+"$'},
    required=True,
)
VARY_AUTHORIZATION = ResponseHeader(
    name="Vary",
    description="Authorization: each token has its own representation (and Accept-Encoding "
    "where the answer may be compressed).",
    schema={"type": "string"},
    required=True,
)
CACHE_CONTROL = ResponseHeader(
    name="Cache-Control",
    description="How long, and by whom, this answer may be kept.",
    schema={"type": "string"},
)
LOCATION = ResponseHeader(
    name="Location",
    description="The address of what was created (a replayed creation names the same one).",
    schema={"type": "string", "format": "uri-reference"},
    required=True,
)
CONTENT_DISPOSITION = ResponseHeader(
    name="Content-Disposition",
    description="attachment, with a file name.",
    schema={"type": "string"},
    required=True,
)
IDEMPOTENT_REPLAYED = ResponseHeader(
    name="Idempotent-Replayed",
    description="true: this is the first answer to this Idempotency-Key, given again; "
    "nothing was changed by this request. Absent on a first answer.",
    schema={"type": "string", "enum": ["true"]},
)
PREFERENCE_APPLIED = ResponseHeader(
    name="Preference-Applied",
    description="return=minimal when Prefer asked for it: the answer's view is empty ({}).",
    schema={"type": "string", "enum": ["return=minimal"]},
)
RATE_LIMIT_HEADERS = (
    ResponseHeader(
        name="RateLimit-Limit",
        description="Requests allowed in the window of the tightest limit (per client IP or "
        "per bearer token). Sent when a rate limit is configured.",
        schema={"type": "integer", "minimum": 0},
    ),
    ResponseHeader(
        name="RateLimit-Remaining",
        description="Requests left in the current window of that limit.",
        schema={"type": "integer", "minimum": 0},
    ),
    ResponseHeader(
        name="RateLimit-Reset",
        description="Seconds until that window ends.",
        schema={"type": "integer", "minimum": 0},
    ),
    ResponseHeader(
        name="RateLimit-Policy",
        description='The limit, as `"<ip|token|created>";q=<requests>;w=<seconds>`.',
        schema={"type": "string"},
    ),
)
"""On every answer under /v1 while a limit is set (`ratelimit.RateLimitMiddleware`), and on
a 429 of another quota (`too_many_games_created`) that quota's own."""
RETRY_AFTER = ResponseHeader(
    name="Retry-After",
    description="Seconds to wait before trying again.",
    schema={"type": "integer", "minimum": 0},
)
REQUEST_ID = ResponseHeader(
    name="X-Request-Id",
    description="The request's id in the service's logs: the caller's own X-Request-Id when "
    "it is 1-128 of A-Z a-z 0-9 . _ : -, else a new one.",
    schema={"type": "string"},
)
"""Every answer the app gives has one (`requestlog`); a connection refused before the app
(`http_protocol`'s 429) has none, so it is not `required`."""
WWW_AUTHENTICATE = ResponseHeader(
    name="WWW-Authenticate",
    description='Bearer realm="skyport": send a seat token or an API key as a bearer token.',
    schema={"type": "string"},
    required=True,
)
"""On every 401 (`problems.unauthorized`)."""
ACCEPT_ENCODING = ResponseHeader(
    name="Accept-Encoding",
    description="identity: a body sent with a Content-Encoding is refused; send it plain.",
    schema={"type": "string"},
)


@dataclass(frozen=True)
class Header:
    """A request header a route reads (its parser is named beside it), as the OpenAPI
    document shows it, the problems a bad value gets, and the headers a success answers
    it with."""

    name: str
    description: str
    schema: Mapping[str, Any]
    problems: tuple[int, ...] = ()
    answered_with: tuple[ResponseHeader, ...] = ()


IDEMPOTENCY_KEY = Header(
    name="Idempotency-Key",
    description="A retry with the same key returns the first answer and changes nothing.",
    schema={"type": "string", "pattern": IDEMPOTENCY_KEY_PATTERN},
    problems=(400,),
    answered_with=(IDEMPOTENT_REPLAYED,),
)
"""Read by `inputs.idempotency_key`; a replay says so (`inputs.replay_headers`)."""

IF_MATCH = Header(
    name="If-Match",
    description="The game's ETag as GET returned it: the move is refused with 412 unless "
    "the game is still at that version (an alternative to expected_version). * matches "
    "the game at any version.",
    schema={"type": "string", "pattern": IF_MATCH_PATTERN},
    problems=(400, 412),
)
"""Read by `preconditions.required_version`."""

PREFER = Header(
    name="Prefer",
    description="return=minimal (RFC 7240): the answer's view is left empty ({}), which "
    "spares building and sending it; the answer says Preference-Applied: return=minimal.",
    schema={"type": "string"},
    answered_with=(PREFERENCE_APPLIED,),
)
"""Read by `inputs.prefers_minimal`."""

IF_NONE_MATCH = Header(
    name="If-None-Match",
    description="ETags you hold (or *): 304 with no body while it is unchanged.",
    schema={"type": "string"},
)
"""Read by `preconditions.not_modified`."""

_LAST_EVENT_ID = r"([0-9]{1,12})(-end|-start)?"
LAST_EVENT_ID_PATTERN = f"^{_LAST_EVENT_ID}$"
"""A present id; an empty header is taken as none, so the document allows that too."""
LAST_EVENT_ID = Header(
    name="Last-Event-ID",
    description="With Accept: text/event-stream: the id of the last event you received "
    "(EventSource sends it when it reconnects). The stream resumes after that version "
    "(`<version>-start`: after the game's start); `<version>-end` is answered 204 (the "
    "stream is over), or 400 invalid_last_event_id if the game has not ended. It takes "
    "the place of `since`; an empty one is the same as none. Ignored without Accept: "
    "text/event-stream.",
    schema={"type": "string", "pattern": f"^(|{_LAST_EVENT_ID})$"},
    problems=(400,),
)
"""Read by `routes_events`."""
