"""What a REST request names in its path, query string and headers, as pydantic models.

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
    """A query string's number: ASCII digits only (no sign, blanks, `_` or `.0`)."""
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
    seat: int = Field(ge=0, lt=MAX_SEATS, description="A seat of the game, from 0.")

    @classmethod
    def missing(cls, raw: Mapping[str, Any]) -> Problem:
        detail = f"No game has that seat: seats are numbered 0 to {MAX_SEATS - 1} at most."
        return _no_game_has(raw, "seat_not_found", detail)


class GameVersionPath(GamePath):
    version: int = Field(
        ge=0, le=MAX_VERSION, description="A version of the game: 0 is before any move."
    )

    @classmethod
    def missing(cls, raw: Mapping[str, Any]) -> Problem:
        return _no_game_has(raw, "version_not_found", f"No game has a version above {MAX_VERSION}.")


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


# --- headers -------------------------------------------------------------------------


@dataclass(frozen=True)
class Header:
    """A request header a route reads (its parser is named beside it), as the OpenAPI
    document shows it, and the problems a bad value gets."""

    name: str
    description: str
    schema: Mapping[str, Any]
    problems: tuple[int, ...] = ()


IDEMPOTENCY_KEY = Header(
    name="Idempotency-Key",
    description="A retry with the same key returns the first answer and changes nothing.",
    schema={"type": "string", "pattern": IDEMPOTENCY_KEY_PATTERN},
    problems=(400,),
)
"""Read by `inputs.idempotency_key`."""

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
)
"""Read by `inputs.prefers_minimal`."""

IF_NONE_MATCH = Header(
    name="If-None-Match",
    description="ETags you hold (or *): 304 with no body while the game is unchanged.",
    schema={"type": "string"},
)
"""Read by `preconditions.not_modified`."""
