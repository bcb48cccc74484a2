"""REST operations: one declaration per route gives both its Starlette route and its
OpenAPI entry, and the route's parameters are parsed by the very models the document
is generated from.

A new route is a handler decorated with `operation`::

    @operation(
        "POST",
        "/v1/games/{game_id}/seats/{seat}/claim",
        summary="Claim an open seat with its invite code.",
        tag="seats",
        headers=(IDEMPOTENCY_KEY,),
        answers=(json_answer(200, SeatTaken, "Claimed: the seat's token"),),
        problems=(403, 409, 410),
    )
    async def claim_seat(request: Request, path: GameSeatPath, body: ClaimSeatRequest) -> Response:
        key = idempotency_key(request)
        taken, replayed = await service(request).seats.claim(path.game_id, path.seat, body, key)
        return json_response(taken, headers=replay_headers(replayed))

  (as `routes_seats.claim_seat` reads.)

- The handler takes `request`, then any of `path` (a `params.PathParams` model whose
  fields are exactly the template's `{names}`), `query` (a `params.QueryParams` model)
  and `body` (any pydantic model, read as JSON; `body_required=False` makes an empty
  body the model's defaults). It is called with them parsed, and never runs on a
  request they refuse:
  - a path the model refuses is 404 (`PathParams.missing`: `game_not_found` for a game id);
  - a query value it refuses is 400 `invalid_query`, a name it lacks 400
    `unknown_query_parameter` (a route without `query` takes no query parameters);
  - a body: 400 `empty_body` or `malformed_json`, 415 `unsupported_media_type`,
    422 `invalid_request` (or the input's own code) listing `validation_errors`.
- Headers and tokens stay the handler's to read (`inputs.credentials`,
  `inputs.idempotency_key`, `preconditions`); `headers` and `security` document them
  (`security=None`: the route reads no credentials, anyone may call it).
- `answers` are the successes, each with the headers the handler sets on it
  (`Answer.headers`: ETag, Location...); `problems` the statuses the service adds (401,
  403, 409...). 400, 429, 503 (unless `reads_store=False`), 404 with a path,
  400/413/415/422 with a body, and each header's problems are documented without being
  listed, as are the headers a request header brings (`Header.answered_with`:
  Idempotent-Replayed...) and those the middleware puts on every answer (`RateLimit-*`,
  `X-Request-Id`, `Retry-After`).
- `tag` groups the operation in the document (one of `openapi.TAGS`).
- The module lists its operations in `operations`; `app.OPERATIONS` gathers every module's,
  which serves them and documents them (`openapi.build_openapi`).
"""

from __future__ import annotations

import inspect
import re
import string
import typing
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from .inputs import json_body, path_params, query_params
from .params import Header, PathParams, QueryParams, ResponseHeader

Handler = Callable[..., Awaitable[Response]]
Security = tuple[Mapping[str, list[str]], ...]

BEARER: Security = ({"bearer": []},)
"""A seat token or an API key is required."""
BEARER_OR_NONE: Security = ({"bearer": []}, {})
"""A token or key changes what is shown; without one the caller is a spectator."""

_CONVERTOR = re.compile(r"\{(\w+)(?::\w+)?\}")


@dataclass(frozen=True)
class Answer:
    """A success a route gives: its status, what it means, its body per media type (a
    model, or a JSON schema for what is not one) and the headers the handler sets on it."""

    status: int
    description: str
    content: Mapping[str, type[BaseModel] | Mapping[str, Any]] = field(default_factory=dict)
    headers: tuple[ResponseHeader, ...] = ()


def json_answer(
    status: int,
    model: type[BaseModel],
    description: str,
    headers: tuple[ResponseHeader, ...] = (),
) -> Answer:
    return Answer(status, description, {"application/json": model}, headers)


@dataclass(frozen=True)
class Operation:
    """One REST route: how it is called, what it is given and what it answers."""

    method: str
    path: str
    """Starlette's template, convertors included (`{seat:int}`)."""
    handler: Handler
    operation_id: str
    summary: str
    tag: str
    security: Security | None
    headers: tuple[Header, ...]
    answers: tuple[Answer, ...]
    problems: tuple[int, ...]
    reads_store: bool
    path_model: type[PathParams] | None
    query_model: type[QueryParams] | None
    body_model: type[BaseModel] | None
    body_required: bool

    @property
    def name(self) -> str:
        return self.handler.__name__

    @property
    def document_path(self) -> str:
        """The template as OpenAPI writes it (`{seat}`)."""
        return _CONVERTOR.sub(r"{\1}", self.path)

    @property
    def route(self) -> Route:
        return Route(self.path, self.endpoint, methods=[self.method], name=self.name)

    async def endpoint(self, request: Request) -> Response:
        """Parses the declared parameters, then calls the handler with them."""
        given: dict[str, Any] = {}
        if self.path_model is not None:
            given["path"] = path_params(request, self.path_model)
        query = query_params(request, self.query_model)
        if query is not None:
            given["query"] = query
        if self.body_model is not None:
            given["body"] = await json_body(
                request, self.body_model, optional=not self.body_required
            )
        return await self.handler(request, **given)

    def statuses(self) -> list[int]:
        """Every problem status the route may answer."""
        found = {400, 429, *self.problems}
        if self.reads_store:
            found.add(503)
        if self.path_model is not None:
            found.add(404)
        if self.body_model is not None:
            found |= {413, 415, 422}
        for header in self.headers:
            found.update(header.problems)
        return sorted(found)


def operation(
    method: str,
    path: str,
    *,
    summary: str,
    tag: str,
    answers: Sequence[Answer],
    problems: Sequence[int] = (),
    security: Security | None = None,
    headers: Sequence[Header] = (),
    operation_id: str | None = None,
    reads_store: bool = True,
    body_required: bool = True,
) -> Callable[[Handler], Operation]:
    """Declares a handler as a REST operation (see the module's docstring)."""

    def declare(handler: Handler) -> Operation:
        models = _models_of(handler)
        path_model = models.get("path")
        query_model = models.get("query")
        _check_kind(handler, "path", path_model, PathParams)
        _check_kind(handler, "query", query_model, QueryParams)
        _check_path(handler, path, path_model)
        return Operation(
            method=method,
            path=path,
            handler=handler,
            operation_id=operation_id or _camel(handler.__name__),
            summary=summary,
            tag=tag,
            security=security,
            headers=tuple(headers),
            answers=tuple(answers),
            problems=tuple(problems),
            reads_store=reads_store,
            path_model=typing.cast("type[PathParams] | None", path_model),
            query_model=typing.cast("type[QueryParams] | None", query_model),
            body_model=models.get("body"),
            body_required=body_required,
        )

    return declare


def _models_of(handler: Handler) -> dict[str, type[BaseModel]]:
    hints = typing.get_type_hints(handler)
    names = list(inspect.signature(handler).parameters)
    if names[:1] != ["request"]:
        raise TypeError(f"{handler.__qualname__}: the first parameter must be `request`")
    models: dict[str, type[BaseModel]] = {}
    for name in names[1:]:
        model = hints.get(name)
        if name not in ("path", "query", "body"):
            raise TypeError(f"{handler.__qualname__}: {name!r} is not path, query or body")
        if not (isinstance(model, type) and issubclass(model, BaseModel)):
            raise TypeError(f"{handler.__qualname__}: {name!r} must be a pydantic model")
        models[name] = model
    return models


def _check_kind(
    handler: Handler, name: str, model: type[BaseModel] | None, kind: type[BaseModel]
) -> None:
    if model is not None and not issubclass(model, kind):
        raise TypeError(f"{handler.__qualname__}: {name!r} must be a {kind.__name__}")


def _check_path(handler: Handler, path: str, model: type[BaseModel] | None) -> None:
    named = {found.group(1) for found in _CONVERTOR.finditer(path)}
    fields = set(model.model_fields) if model is not None else set()
    if named != fields:
        raise TypeError(
            f"{handler.__qualname__}: {path} names {sorted(named)}, its path model {sorted(fields)}"
        )


def _camel(name: str) -> str:
    first, *rest = name.split("_")
    return first + "".join(string.capwords(part) for part in rest)
