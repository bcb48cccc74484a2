"""What a GraphQL client sends — a JSON body, the query string of a GET, or the payload
of a WebSocket `subscribe` message — read into an `Operation`, or refused with a stable
code before any of it is parsed as GraphQL.

JSON is read by the same parser as REST bodies (`inputs.json_body`: 415 for another
media type, 400 `empty_body` and `malformed_json`). Variables may not nest deeper than
`MAX_JSON_DEPTH` (also `malformed_json`): graphql-core and the resolvers walk them
recursively. A document longer than its character or token limit is refused before it
is parsed (`query_too_large`); graphql-core's parser then enforces the token limit again
(`schema.document_cache`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

import orjson
from graphql import (
    GraphQLError,
    GraphQLFormattedError,
    GraphQLSyntaxError,
    Lexer,
    Source,
    TokenKind,
)
from pydantic import BaseModel, ConfigDict, Field, RootModel, ValidationError
from starlette.requests import Request

from schema import Limits
from services.engine import validation_errors
from services.gameplay.problems import Problem, bad_request, unprocessable

from .inputs import json_body

MAX_JSON_DEPTH = 64
"""Deepest nesting of arrays and objects in `variables` and `extensions`."""


class Operation(BaseModel):
    """One GraphQL operation as the GraphQL-over-HTTP spec and graphql-transport-ws
    send it."""

    model_config = ConfigDict(populate_by_name=True)

    query: str | None = None
    variables: dict[str, Any] | None = None
    operation_name: str | None = Field(default=None, alias="operationName")
    extensions: dict[str, Any] | None = None


class _AnyJSON(RootModel[Any]):
    """Any JSON document: `operation_from` checks its shape."""


async def from_body(request: Request) -> Operation:
    return operation_from((await json_body(request, _AnyJSON)).root)


def from_query_string(params: Mapping[str, str]) -> Operation:
    data: dict[str, Any] = {key: params[key] for key in ("query", "operationName") if key in params}
    for key in ("variables", "extensions"):
        if params.get(key):
            try:
                data[key] = orjson.loads(params[key])
            except orjson.JSONDecodeError:
                raise bad_request("malformed_json", f"`{key}` is not valid JSON.") from None
    return operation_from(data)


def operation_from(data: Any) -> Operation:
    """The operation in a request's JSON, checked; a `Problem` says what is wrong."""
    if isinstance(data, list):
        raise bad_request(
            "batching_not_supported", "Send one operation per request; batches are not supported."
        )
    try:
        operation = Operation.model_validate(data)
    except ValidationError as error:
        raise unprocessable(
            "invalid_request",
            "The request does not match the GraphQL request schema "
            "(query, variables, operationName, extensions).",
            errors=validation_errors(error),
        ) from None
    for key, value in (("variables", operation.variables), ("extensions", operation.extensions)):
        if nests_deeper(value, MAX_JSON_DEPTH):
            raise bad_request(
                "malformed_json", f"`{key}` nests arrays or objects over {MAX_JSON_DEPTH} deep."
            )
    return operation


def nests_deeper(value: Any, limit: int) -> bool:
    """Whether arrays and objects in `value` nest more than `limit` levels (without
    recursion, so that any depth can be measured)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children: Iterable[Any]
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def document_refusal(query: str | None, limits: Limits) -> GraphQLError | None:
    """Why `query` is refused before parsing, if it is: too long, or too many tokens."""
    if query is None:
        return None
    if len(query) > limits.max_length:
        return _too_large(
            f"This document is {len(query)} characters long, over the limit of "
            f"{limits.max_length}.",
            limits.max_length,
        )
    if _tokens_over(query, limits.max_tokens):
        return _too_large(
            f"This document has more than {limits.max_tokens} tokens.", limits.max_tokens
        )
    return None


def problem_error(problem: Problem) -> GraphQLFormattedError:
    """A problem as one entry of a GraphQL `errors` list."""
    extensions = {"code": problem.code, "status": problem.status, **problem.extra}
    return {"message": problem.detail, "extensions": extensions}


@lru_cache(maxsize=256)
def _tokens_over(query: str, limit: int) -> bool:
    """Lexes the whole document, so it is remembered: clients send the same few again."""
    lexer = Lexer(Source(query))
    try:
        for _ in range(limit + 1):
            if lexer.advance().kind == TokenKind.EOF:
                return False
    except GraphQLSyntaxError:
        return False  # the parser reports it, with its location
    return True


def _too_large(message: str, limit: int) -> GraphQLError:
    return GraphQLError(message, extensions={"code": "query_too_large", "limit": limit})
