"""Failures of the service, each with a stable `code`, a status and a sentence for people.

Every failure the service reports is a `Problem`; engine errors are mapped to one here, so
an engine error is never a 500. The REST door answers them as RFC 9457 documents
(`services.api.problems`), the GraphQL door as errors with the same codes. Problem texts
never include request bodies or game state.
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

import redis.exceptions
import structlog

from services.engine import GameError, IllegalMove, InvalidConfig, UnknownGame

MAX_INSTANCE_CHARS = 128
"""Longer request paths are cut in `instance`: an answer never echoes a huge id back."""
STORE_RETRY_AFTER_SECONDS = 5
STORE_ERRORS = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)
"""What the Redis client raises while the store cannot be reached (refused, reset, busy
loading, timed out, no pooled connection free)."""
STORE_REFUSALS = (
    redis.exceptions.OutOfMemoryError,
    redis.exceptions.ReadOnlyError,
    redis.exceptions.MasterDownError,
    redis.exceptions.ClusterDownError,
    redis.exceptions.TryAgainError,
)
"""What Redis answers while it is reached but takes no changes: full (`maxmemory` with
`noeviction`), a replica (read-only after a failover), no primary, a cluster healing."""
STORE_EXCEPTIONS = (*STORE_ERRORS, redis.exceptions.ResponseError)
"""The Redis exceptions a door hands to `as_store_problem` (some replies are refusals)."""
REFUSAL_PREFIXES = ("MISCONF ", "BUSY ")
"""Replies redis-py raises as a plain `ResponseError`: snapshots failing (Redis then
refuses writes) and a script running too long (Redis answers nothing else meanwhile)."""

log = structlog.get_logger(__name__)


class Problem(Exception):
    """An answer that is not a success: HTTP status, stable code, a sentence for people."""

    def __init__(
        self,
        status: int,
        code: str,
        detail: str,
        *,
        title: str | None = None,
        headers: dict[str, str] | None = None,
        refusal: bool = False,
        **extra: Any,
    ) -> None:
        super().__init__(detail)
        self.refusal = refusal
        """A refusal of what was asked, given the game's rules and state (an illegal move,
        bad options, a version conflict), as opposed to a failure to reach or use the
        service (tokens, missing games, limits, malformed requests). GraphQL answers
        refusals as result types that implement `Error`, and the rest as errors."""
        self.status = status
        self.code = code
        self.detail = detail
        self.title = title or HTTPStatus(status).phrase
        self.headers = headers or {}
        self.extra = extra

    def document(self, instance: str | None = None) -> dict[str, Any]:
        body: dict[str, Any] = {
            "type": f"urn:skyport:problem:{self.code}",
            "title": self.title,
            "status": self.status,
            "detail": self.detail,
            "code": self.code,
        }
        if instance:
            body["instance"] = _shortened(instance)
        body.update(self.extra)
        return body


# --- the problems the service names ---------------------------------------------------------


def _shortened(text: str, limit: int = MAX_INSTANCE_CHARS) -> str:
    return text if len(text) <= limit else f"{text[: limit - 1]}\u2026"


def not_found(game_id: str) -> Problem:
    return Problem(
        404, "game_not_found", f"There is no game {_shortened(game_id, 64)!r} (or it has expired)."
    )


def _store_busy(code: str, detail: str) -> Problem:
    """A 503 to come back from after `Retry-After` seconds."""
    return Problem(
        503,
        code,
        detail,
        headers={"Retry-After": str(STORE_RETRY_AFTER_SECONDS)},
        retry_after=STORE_RETRY_AFTER_SECONDS,
    )


def store_unavailable() -> Problem:
    return _store_busy(
        "store_unavailable", "The game store cannot be reached right now; try again shortly."
    )


def store_refusing() -> Problem:
    return _store_busy(
        "store_unavailable", "The game store is not taking changes right now; try again shortly."
    )


def move_unconfirmed() -> Problem:
    """A move sent to the store whose answer was lost: it may yet be applied, so a plain
    "try again" could make it twice."""
    return _store_busy(
        "move_unconfirmed",
        "The game store did not confirm this move in time, and it may still be applied. "
        "Read the game (its version, or its events) before moving again, or repeat the "
        "request with the same Idempotency-Key.",
    )


def refuses_changes(error: BaseException | None) -> bool:
    """Redis was reached but refuses to change anything for now (see `STORE_REFUSALS`)."""
    if isinstance(error, STORE_REFUSALS):
        return True
    return isinstance(error, redis.exceptions.ResponseError) and str(error).startswith(
        REFUSAL_PREFIXES
    )


def as_store_problem(error: BaseException | None) -> Problem | None:
    """The 503 for a Redis connection failure, or for a Redis that takes no changes for
    now (logged once, without a traceback); None for any other error."""
    if isinstance(error, STORE_ERRORS):
        log.warning("store_unavailable", error=type(error).__name__)
        return store_unavailable()
    if refuses_changes(error):
        # The reply names the cause (OOM, READONLY, MISCONF...), without any data.
        log.error("store_refusing_changes", error=type(error).__name__, reply=str(error)[:120])
        return store_refusing()
    return None


def version_conflict(current: int, expected: int | None = None) -> Problem:
    detail = (
        f"The game is at version {current}, not {expected}; reload it and try again."
        if expected is not None
        else f"Another move was committed at the same time; the game is at version {current}."
    )
    return Problem(409, "version_conflict", detail, refusal=True, current_version=current)


def unauthorized(code: str, detail: str) -> Problem:
    return Problem(401, code, detail, headers={"WWW-Authenticate": 'Bearer realm="skyport"'})


def forbidden(code: str, detail: str) -> Problem:
    return Problem(403, code, detail)


def conflict(code: str, detail: str, **extra: Any) -> Problem:
    return Problem(409, code, detail, refusal=True, **extra)


def bad_request(code: str, detail: str, **extra: Any) -> Problem:
    return Problem(400, code, detail, **extra)


def unprocessable(code: str, detail: str, **extra: Any) -> Problem:
    return Problem(422, code, detail, refusal=True, **extra)


def idempotency_key_reused() -> Problem:
    return unprocessable(
        "idempotency_key_reused",
        "This Idempotency-Key was already used for a different request.",
    )


def from_game_error(error: GameError) -> Problem:
    """Engine errors: the move or the setup breaks a rule — 422 with the engine's code."""
    title = {
        IllegalMove: "Illegal move",
        InvalidConfig: "Invalid game options",
        UnknownGame: "Unknown game",
    }.get(type(error), "Rule broken")
    return Problem(
        422, error.code, error.message, title=title, refusal=True, **engine_facts(error.details)
    )


def engine_facts(details: dict[str, Any]) -> dict[str, Any]:
    """An engine error's `details` as a problem document carries them: its `errors`
    (where in the input) beside the code, as a refused request body has them, and the
    other facts under `details`."""
    facts = dict(details)
    extra: dict[str, Any] = {}
    if "errors" in facts:
        extra["errors"] = facts.pop("errors")
    if facts:
        extra["details"] = facts
    return extra
