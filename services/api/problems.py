"""Problems as RFC 9457 documents (`application/problem+json`), and the app's exception
handlers: a `Problem`, an engine error, a Redis outage or anything unexpected each
becomes a problem document, never a bare 500 page."""

from __future__ import annotations

from typing import Any

import orjson
import structlog
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.routing import Match

from services.engine import GameError
from services.gameplay.problems import STORE_EXCEPTIONS, Problem, as_store_problem, from_game_error

PROBLEM_MEDIA_TYPE = "application/problem+json"

log = structlog.get_logger(__name__)


def problem_response(problem: Problem, instance: str | None = None) -> Response:
    return Response(
        orjson.dumps(problem.document(instance)),
        status_code=problem.status,
        media_type=PROBLEM_MEDIA_TYPE,
        headers=problem.headers,
    )


# --- exception handlers ---------------------------------------------------------------


async def handle_problem(request: Request, error: Exception) -> Response:
    assert isinstance(error, Problem)
    return problem_response(error, request.url.path)


async def handle_game_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, GameError)
    return problem_response(from_game_error(error), request.url.path)


async def handle_http_exception(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    code = {404: "not_found", 405: "method_not_allowed"}.get(error.status_code, "http_error")
    detail = {
        404: "There is nothing at this address.",
        405: f"{request.method} is not allowed here.",
    }.get(error.status_code, str(error.detail))
    headers = dict(error.headers or {})
    if error.status_code == 405:
        headers["Allow"] = ", ".join(allowed_methods(request))
    problem = Problem(error.status_code, code, detail, headers=headers)
    return problem_response(problem, request.url.path)


METHOD_ORDER = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE")


def allowed_methods(request: Request) -> list[str]:
    """Every method some route serves at this path. Starlette's 405 names only those of
    the first route matching the path, but one path may be several routes (`GET` and
    `POST /v1/games`), and `Allow` must list them all (RFC 9110, 15.5.6)."""
    methods: set[str] = set()
    for route in request.app.router.routes:
        served = getattr(route, "methods", None)
        if served and route.matches(request.scope)[0] is not Match.NONE:
            methods |= served
    return sorted(methods, key=lambda m: METHOD_ORDER.index(m) if m in METHOD_ORDER else 99)


async def handle_store_error(request: Request, error: Exception) -> Response:
    problem = as_store_problem(error)
    if problem is None:  # a Redis reply that is not "try again later": a fault of ours
        return await handle_unexpected(request, error)
    return problem_response(problem, request.url.path)


CLIENT_CLOSED_REQUEST = 499
"""nginx's status for a request whose client went away before it was answered."""


async def handle_client_disconnect(request: Request, error: Exception) -> Response:
    """The client went away while its body was being read (a dropped connection, or the
    request deadline of `http_protocol`): nobody is left to answer, and it is no fault
    of the service, so it is logged and counted as 499, not as a 500."""
    assert isinstance(error, ClientDisconnect)
    return Response(status_code=CLIENT_CLOSED_REQUEST)


async def handle_unexpected(request: Request, error: Exception) -> Response:
    log.error("unhandled_error", path=request.url.path, error=type(error).__name__, exc_info=error)
    problem = Problem(500, "internal_error", "Something went wrong on our side.")
    return problem_response(problem, request.url.path)


EXCEPTION_HANDLERS: dict[Any, Any] = {
    Problem: handle_problem,
    GameError: handle_game_error,
    HTTPException: handle_http_exception,
    **dict.fromkeys(STORE_EXCEPTIONS, handle_store_error),
    ClientDisconnect: handle_client_disconnect,
    Exception: handle_unexpected,
}
