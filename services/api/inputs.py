"""Reading what a REST request sends — JSON bodies, query parameters, headers — into
checked values, or a 4xx problem that says what is wrong."""

from __future__ import annotations

import re
from typing import TypeVar

import orjson
from pydantic import BaseModel, ValidationError
from starlette.requests import Request
from starlette.responses import Response

from services.engine import validation_errors
from services.gameplay.auth import Credentials, check_idempotency_key, credentials_from
from services.gameplay.payloads import input_code
from services.gameplay.problems import Problem, bad_request, unprocessable
from services.gameplay.service import GameService

from .params import PathParams, QueryParams

ModelT = TypeVar("ModelT", bound=BaseModel)
PathT = TypeVar("PathT", bound=PathParams)
QueryT = TypeVar("QueryT", bound=QueryParams)

_JSON_TYPES = re.compile(r"^application/(?:[\w.+-]+\+)?json\s*(?:;.*)?$", re.IGNORECASE)


def service(request: Request) -> GameService:
    gameplay: GameService = request.app.state.service
    return gameplay


def credentials(request: Request) -> Credentials:
    client = request.client.host if request.client else "unknown"
    return credentials_from(request.headers, client, request.app.state.api_keys)


def idempotency_key(request: Request) -> str | None:
    return check_idempotency_key(request.headers.get("idempotency-key"))


def prefers_minimal(request: Request) -> bool:
    """Whether the request's `Prefer` header asks for `return=minimal` (RFC 7240: a
    comma-separated list of preferences, each perhaps with `;` parameters)."""
    prefer = request.headers.get("prefer")
    if prefer is None:
        return False
    wanted = (part.split(";", 1)[0].replace(" ", "").lower() for part in prefer.split(","))
    return "return=minimal" in wanted


MINIMAL_APPLIED = {"Preference-Applied": "return=minimal"}


def path_params(request: Request, model: type[PathT]) -> PathT:
    """The path's parameters; a path they refuse names nothing (the model's 404)."""
    try:
        return model.model_validate(request.path_params)
    except ValidationError:
        raise model.missing(request.path_params) from None


def query_params(request: Request, model: type[QueryT] | None) -> QueryT | None:
    """The query string's parameters (none without a model). A name the model does not
    have is refused, since a typo would otherwise be silently ignored."""
    if model is None and not request.scope.get("query_string"):
        return None  # nothing to parse: most requests
    allowed = list(model.model_fields) if model is not None else []
    unknown = sorted(set(request.query_params) - set(allowed))
    if unknown:
        raise bad_request(
            "unknown_query_parameter",
            f"Unknown query parameter {unknown[0][:64]!r}; known here: "
            f"{', '.join(allowed) or 'none'}.",
        )
    if model is None:
        return None
    try:
        return model.model_validate(dict(request.query_params))
    except ValidationError as error:
        errors = validation_errors(error)
        where = ".".join(errors[0]["location"])
        raise bad_request(
            "invalid_query",
            f"The query parameter {where} is not valid here: {errors[0]['message']}.",
            errors=errors,
        ) from None


async def json_body(request: Request, model: type[ModelT], *, optional: bool = False) -> ModelT:
    raw = await request.body()
    if not raw.strip():
        if optional:
            return model()
        raise bad_request("empty_body", "This request needs a JSON body.")
    content_type = request.headers.get("content-type", "")
    if not _JSON_TYPES.match(content_type):
        raise Problem(415, "unsupported_media_type", "Send the body as application/json.")
    coding = request.headers.get("content-encoding", "identity").strip().lower()
    if coding not in ("", "identity"):
        # RFC 9110 15.5.16: a content coding the server does not take is a 415, and
        # Accept-Encoding in the answer says which it takes. Read as plain JSON, a
        # compressed body would be refused as malformed at best.
        raise Problem(
            415,
            "unsupported_media_type",
            "Send the body without a Content-Encoding: request bodies are not decompressed.",
            headers={"Accept-Encoding": "identity"},
        )
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
