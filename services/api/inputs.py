"""Reading what a REST request sends — JSON bodies, query parameters, headers — into
checked values, or a 4xx problem that says what is wrong."""

from __future__ import annotations

import re
from typing import TypeVar

import orjson
from pydantic import BaseModel, ValidationError
from starlette.requests import Request
from starlette.responses import Response

from services.gameplay.auth import Credentials, check_idempotency_key, credentials_from
from services.gameplay.payloads import input_code, validation_errors
from services.gameplay.problems import Problem, bad_request, not_found, unprocessable
from services.gameplay.service import GameService

ModelT = TypeVar("ModelT", bound=BaseModel)

MAX_GAME_ID_CHARS = 64
"""Game ids are 24 characters; anything much longer is refused before any other work."""

_JSON_TYPES = re.compile(r"^application/(?:[\w.+-]+\+)?json\s*(?:;.*)?$", re.IGNORECASE)


def service(request: Request) -> GameService:
    gameplay: GameService = request.app.state.service
    return gameplay


def credentials(request: Request) -> Credentials:
    client = request.client.host if request.client else "unknown"
    return credentials_from(request.headers, client, request.app.state.api_keys)


def idempotency_key(request: Request) -> str | None:
    return check_idempotency_key(request.headers.get("idempotency-key"))


def game_id(request: Request) -> str:
    value: str = request.path_params["game_id"]
    if len(value) > MAX_GAME_ID_CHARS:
        raise not_found(value)
    return value


async def json_body(request: Request, model: type[ModelT], *, optional: bool = False) -> ModelT:
    raw = await request.body()
    if not raw.strip():
        if optional:
            return model()
        raise bad_request("empty_body", "This request needs a JSON body.")
    content_type = request.headers.get("content-type", "")
    if not _JSON_TYPES.match(content_type):
        raise Problem(415, "unsupported_media_type", "Send the body as application/json.")
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError:
        raise bad_request("malformed_json", "The body is not valid JSON.") from None
    try:
        return model.model_validate(data)
    except ValidationError as error:
        raise unprocessable(
            input_code(error),
            "The body does not match the schema.",
            errors=validation_errors(error),
        ) from None


def only_query(request: Request, *allowed: str) -> None:
    """Refuse query parameters the route does not know (a typo would otherwise be
    silently ignored)."""
    if not request.scope.get("query_string"):
        return  # nothing to parse: most requests
    unknown = sorted(set(request.query_params) - set(allowed))
    if unknown:
        raise bad_request(
            "unknown_query_parameter",
            f"Unknown query parameter {unknown[0][:64]!r}; known here: "
            f"{', '.join(allowed) or 'none'}.",
        )


def query_int(request: Request, name: str, default: int) -> int:
    """A whole-number query parameter; its range is the service's to check."""
    raw = request.query_params.get(name)
    if raw is None:
        return default
    if not re.fullmatch(r"\d{1,19}", raw):
        raise bad_request("invalid_query", f"{name} must be a whole number.")
    return int(raw)


def query_text(request: Request, name: str) -> str | None:
    return request.query_params.get(name)


def json_response(
    document: BaseModel, status_code: int = 200, headers: dict[str, str] | None = None
) -> Response:
    return Response(
        document.__pydantic_serializer__.to_json(document),  # one pass, straight to bytes
        status_code=status_code,
        media_type="application/json",
        headers=headers,
    )


def replay_headers(replayed: bool) -> dict[str, str]:
    return {"Idempotent-Replayed": "true"} if replayed else {}
