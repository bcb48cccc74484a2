"""The OpenAPI 3.1 document (`/openapi.json`) and the interactive docs (`/docs`).

Generated from the REST operations (`operations.Operation`): their paths, query
parameters and bodies are the pydantic models the routes parse requests with, and their
answers the models the service returns; each game adds its own view and move models. So
the document cannot drift from what the code accepts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pydantic import BaseModel, TypeAdapter
from pydantic.json_schema import JsonSchemaMode
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from services.engine import Game
from services.gameplay.payloads import ProblemDocument

from .operations import Answer, Operation
from .params import (
    ACCEPT_ENCODING,
    RATE_LIMIT_HEADERS,
    REQUEST_ID,
    RETRY_AFTER,
    WWW_AUTHENTICATE,
    ResponseHeader,
)

REF = "#/components/schemas/{model}"
PROBLEM = {"$ref": REF.format(model="ProblemDocument")}
PROBLEM_TEXTS = {
    400: "Malformed request (bad JSON, query or header)",
    401: "Missing or unknown token",
    403: "The token may not do this",
    404: "No such game (or seat, or version)",
    409: "Version conflict, or the game is not in a state for this",
    410: "Gone: the invite code has expired (invite_expired)",
    412: "If-Match names another version of the game (precondition_failed)",
    413: "Body too large",
    415: "Body is not JSON",
    422: "Invalid body, or a move that breaks a rule",
    429: "Rate limit exceeded",
    503: "The game store cannot be reached (store_unavailable); retry after Retry-After",
}


TAGS = {
    "games": "Create, list and read games, their results and board pictures; cancel one "
    "that still waits for players.",
    "moves": "Your legal moves, making a move, resigning.",
    "seats": "Open seats (claim one, fill one with a bot, a new invite), autopilot, a "
    "seat's new token, and a finished game's rematch.",
    "lobby": "The public lobby: games waiting for players, with their open seats' codes.",
    "events": "A game's event log: a page of it, or a live Server-Sent Events stream.",
    "records": "Finished games: their records and their views at any version.",
    "tournaments": "Tournaments: create one, its standings, a participant's own rounds.",
    "catalog": "The games served, their options and component data.",
}
"""Each operation's `tag`, in the order the document lists them."""

EVERY_ANSWER = (*RATE_LIMIT_HEADERS, REQUEST_ID)
"""Headers the middleware may put on any answer under /v1 (`ratelimit`, `requestlog`)."""
PROBLEM_HEADERS: dict[int, tuple[ResponseHeader, ...]] = {
    401: (WWW_AUTHENTICATE,),
    415: (ACCEPT_ENCODING,),
    429: (RETRY_AFTER,),
    503: (RETRY_AFTER,),
}
"""Headers a problem of that status may carry beyond `EVERY_ANSWER`."""


def pascal(game_id: str) -> str:
    return "".join(part.capitalize() for part in game_id.replace("_", "-").split("-"))


def build_openapi(
    games: Mapping[str, Game], operations: Sequence[Operation], version: str = "0.1.0"
) -> dict[str, Any]:
    schemas, parameters = _schemas(games, operations)
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Skyport",
            "version": version,
            "description": "Game-state service: create games, make moves, watch them live. "
            "Errors are RFC 9457 problem documents with a stable `code`.",
        },
        "tags": [{"name": name, "description": text} for name, text in TAGS.items()],
        "paths": _paths(operations, parameters),
        "components": {
            "schemas": schemas,
            "headers": _headers(operations),
            "securitySchemes": {
                "bearer": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "A seat token (from creating the game) or a platform API key.",
                }
            },
        },
    }


# --- schemas ---------------------------------------------------------------------------

SchemaKey = tuple[str, JsonSchemaMode]


def _schemas(
    games: Mapping[str, Game], operations: Sequence[Operation]
) -> tuple[dict[str, Any], dict[SchemaKey, dict[str, Any]]]:
    """Every model's schema, in one pass so that shared models get one name: the
    components, and the parameter models' own schemas (which are not components)."""
    inputs: dict[SchemaKey, TypeAdapter[Any]] = {}
    for model in _answer_models(operations):
        inputs[(model.__name__, "serialization")] = TypeAdapter(model)
    for model in _body_models(operations):
        inputs[(model.__name__, "validation")] = TypeAdapter(model)
    for game in games.values():
        name = pascal(game.id)
        inputs[(f"{name}View", "serialization")] = TypeAdapter(game.view_model)
        inputs[(f"{name}Move", "validation")] = TypeAdapter(game.move_model)
    parameter_keys: list[SchemaKey] = []
    for model in _parameter_models(operations):
        parameter_keys.append((model.__name__, "validation"))
        inputs[(model.__name__, "validation")] = TypeAdapter(model)
    top, defs = TypeAdapter.json_schemas(
        [(name, mode, adapter) for (name, mode), adapter in inputs.items()], ref_template=REF
    )
    schemas: dict[str, Any] = dict(defs.get("$defs", {}))
    parameters = {key: _resolved(top[key], schemas) for key in parameter_keys}
    for name, _mode in parameter_keys:
        schemas.pop(name, None)
    for (name, mode), schema in top.items():
        if (name, mode) not in parameters:
            schemas.setdefault(name, schema)
    views = [top[(f"{pascal(g.id)}View", "serialization")] for g in games.values()]
    _type_views(schemas, views)
    _type_moves(schemas, games)
    _readable_names(schemas)
    return schemas, parameters


def _answer_models(operations: Iterable[Operation]) -> list[type[BaseModel]]:
    found = [
        content
        for operation in operations
        for answer in operation.answers
        for content in answer.content.values()
        if isinstance(content, type)
    ]
    return _named([*found, ProblemDocument])


def _body_models(operations: Iterable[Operation]) -> list[type[BaseModel]]:
    return _named(op.body_model for op in operations if op.body_model is not None)


def _parameter_models(operations: Iterable[Operation]) -> list[type[BaseModel]]:
    return _named(
        model for op in operations for model in (op.path_model, op.query_model) if model is not None
    )


def _named(models: Iterable[type[BaseModel]]) -> list[type[BaseModel]]:
    """Each model once. A schema is named after its class, so two classes may not share
    a name."""
    named: dict[str, type[BaseModel]] = {}
    for model in models:
        if named.setdefault(model.__name__, model) is not model:
            raise ValueError(f"two models are named {model.__name__}: rename one")
    return list(named.values())


def _resolved(schema: dict[str, Any], schemas: Mapping[str, Any]) -> dict[str, Any]:
    """A top-level schema, following its `$ref` into the components if it is one."""
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith(REF.format(model="")):
        resolved: dict[str, Any] = schemas[ref.removeprefix(REF.format(model=""))]
        return resolved
    return schema


NO_VIEW = {
    "type": "object",
    "maxProperties": 0,
    "description": "No view: the answer under Prefer: return=minimal.",
}


def _type_views(schemas: dict[str, Any], views: list[dict[str, Any]]) -> None:
    """`view` fields hold one of the games' views (the game is named beside it), or
    nothing in a move's answer under `Prefer: return=minimal`."""
    any_view = {"anyOf": views} if views else {"type": "object"}
    schemas["GameDocument"]["properties"]["view"] = {**any_view, "description": "Your view."}
    schemas["GameDocument"]["properties"]["seat_views"] = {
        "anyOf": [{"type": "array", "items": any_view}, {"type": "null"}],
        "description": "Every seat's view: finished games read with an API key.",
    }
    # A move's or a resignation's answer under `Prefer: return=minimal` has no view: {}.
    schemas["MoveAccepted"]["properties"]["view"] = {
        "anyOf": [*any_view.get("anyOf", [any_view]), NO_VIEW],
        "description": "Your view; empty ({}) under Prefer: return=minimal.",
    }
    schemas["VersionView"]["properties"]["view"] = {
        **any_view,
        "description": "A spectator's view at that version.",
    }


MOVE = "Move"
LABEL = {
    "type": "string",
    "description": "How legal-moves words this move for a player; ignored when sent back.",
}


def _type_moves(schemas: dict[str, Any], games: Mapping[str, Game]) -> None:
    """Every body and answer that holds a move names the games' move schemas: `Move`,
    any one of them. Each game's moves are told apart by `kind` (its discriminator, so
    required: the server parses by it); two games may share a kind (end_turn), so
    `Move` is an anyOf of the games' own unions, not one discriminated union. A move may
    carry the `label` legal-moves gives it: sent back verbatim, it is ignored."""
    unions = [f"{pascal(game.id)}Move" for game in games.values()]
    for union in unions:
        discriminated = "discriminator" in schemas[union]
        for name in _members(schemas, union):
            move = schemas[name]
            move.setdefault("properties", {})["label"] = dict(LABEL)
            if discriminated and "kind" not in move.get("required", []):
                move["required"] = ["kind", *move.get("required", [])]
    schemas[MOVE] = {
        "description": "A move of one of the games served (" + ", ".join(unions) + "), "
        "each game's moves told apart by `kind`. legal-moves lists yours, each with a "
        "label; send any one back verbatim.",
        **(
            {"anyOf": [{"$ref": REF.format(model=union)} for union in unions]}
            if unions
            else {"type": "object"}
        ),
    }
    move = {"$ref": REF.format(model=MOVE)}
    schemas["MoveRequest"]["properties"]["move"] = {
        **move,
        "description": "One of the game's moves: any element of legal-moves, verbatim (its "
        "label is ignored).",
    }
    schemas["LegalMovesDocument"]["properties"]["moves"]["items"] = move
    for logged in ("LogEntryDocument", "RecordedAction"):
        if logged in schemas:
            schemas[logged]["properties"]["move"]["anyOf"] = [move, {"type": "null"}]


def _members(schemas: Mapping[str, Any], union: str) -> list[str]:
    """The names of the move schemas a game's move schema stands for."""
    schema = schemas[union]
    if "$ref" in schema:
        return [schema["$ref"].removeprefix(REF.format(model=""))]
    options = schema.get("oneOf", schema.get("anyOf"))
    if options is not None:
        return [option["$ref"].removeprefix(REF.format(model="")) for option in options]
    return [union]


def _readable_names(schemas: dict[str, Any]) -> None:
    """pydantic names two models of one name after their modules
    (`services__games__dominion__moves__EndTurn`), which a generated client makes a class
    name of. Each is named after its game (or its top module) instead: `DominionEndTurn`."""
    renamed: dict[str, str] = {}
    for name in list(schemas):
        parts = name.split("__")
        if len(parts) < 2:
            continue
        owner = parts[parts.index("games") + 1] if "games" in parts[:-2] else parts[0]
        readable = pascal(owner) + parts[-1]
        if readable not in schemas and readable not in renamed.values():
            renamed[name] = readable
    for old, new in renamed.items():
        schemas[new] = schemas.pop(old)
    refs = {REF.format(model=old): REF.format(model=new) for old, new in renamed.items()}
    if refs:
        _replace_refs(schemas, refs)


def _replace_refs(node: Any, refs: Mapping[str, str]) -> None:
    """Every `$ref` (and discriminator mapping) in `node` that `refs` renames, renamed."""
    if isinstance(node, dict):
        for key, value in node.items():
            if isinstance(value, str):
                node[key] = refs.get(value, value)
            else:
                _replace_refs(value, refs)
    elif isinstance(node, list):
        for item in node:
            _replace_refs(item, refs)


# --- paths ---------------------------------------------------------------------------


def _paths(
    operations: Sequence[Operation], parameters: Mapping[SchemaKey, dict[str, Any]]
) -> dict[str, Any]:
    paths: dict[str, Any] = {}
    for operation in operations:
        if operation.tag not in TAGS:
            raise ValueError(f"{operation.name}: tag {operation.tag!r} is not one of {list(TAGS)}")
        document: dict[str, Any] = {
            "operationId": operation.operation_id,
            "tags": [operation.tag],
            "summary": operation.summary,
            # None: the route reads no credentials; said, not left to a default.
            "security": [dict(requirement) for requirement in operation.security or ()],
        }
        listed = [
            *_parameters(operation.path_model, "path", parameters),
            *_parameters(operation.query_model, "query", parameters),
            *(
                {
                    "name": header.name,
                    "in": "header",
                    "required": False,
                    "description": header.description,
                    "schema": dict(header.schema),
                }
                for header in operation.headers
            ),
        ]
        if listed:
            document["parameters"] = listed
        if operation.body_model is not None:
            document["requestBody"] = {
                "required": operation.body_required,
                "content": {"application/json": {"schema": _ref(operation.body_model)}},
            }
        answered_with = [header for sent in operation.headers for header in sent.answered_with]
        document["responses"] = {
            **{
                str(answer.status): _answer(answer, [*answer.headers, *answered_with])
                for answer in operation.answers
            },
            **{
                str(status): {
                    "description": PROBLEM_TEXTS[status],
                    "headers": _header_refs(PROBLEM_HEADERS.get(status, ())),
                    "content": {"application/problem+json": {"schema": PROBLEM}},
                }
                for status in operation.statuses()
            },
        }
        paths.setdefault(operation.document_path, {})[operation.method.lower()] = document
    return paths


def _parameters(
    model: type[BaseModel] | None, where: str, schemas: Mapping[SchemaKey, dict[str, Any]]
) -> list[dict[str, Any]]:
    """One parameter per field of a path or query model, from the model's own schema.
    A query parameter that is left out is absent, never null: the null a default of
    None adds to the schema is dropped."""
    if model is None:
        return []
    schema = schemas[(model.__name__, "validation")]
    required = set(schema.get("required", []))
    found = []
    for name, field in schema["properties"].items():
        field = {key: value for key, value in field.items() if key != "title"}
        description = field.pop("description", None)
        if name not in required:
            field = _not_null(field)
        parameter: dict[str, Any] = {"name": name, "in": where, "required": name in required}
        if description:
            parameter["description"] = description
        parameter["schema"] = field
        found.append(parameter)
    return found


def _not_null(schema: dict[str, Any]) -> dict[str, Any]:
    options = schema.get("anyOf")
    if not isinstance(options, list):
        return schema
    kept = [option for option in options if option != {"type": "null"}]
    rest = {key: value for key, value in schema.items() if key != "anyOf"}
    if rest.get("default", ...) is None:
        rest.pop("default")
    return {**kept[0], **rest} if len(kept) == 1 else {**rest, "anyOf": kept}


def _answer(answer: Answer, headers: Sequence[ResponseHeader]) -> dict[str, Any]:
    document: dict[str, Any] = {"description": answer.description}
    document["headers"] = _header_refs(headers)
    if answer.content:
        document["content"] = {
            media: {"schema": _ref(content) if isinstance(content, type) else dict(content)}
            for media, content in answer.content.items()
        }
    return document


def _ref(model: type[BaseModel]) -> dict[str, str]:
    return {"$ref": REF.format(model=model.__name__)}


HEADER_REF = "#/components/headers/{name}"


def _header_refs(headers: Iterable[ResponseHeader]) -> dict[str, Any]:
    """An answer's headers: its own, then those of every answer."""
    named = {header.name: header for header in [*headers, *EVERY_ANSWER]}
    return {name: {"$ref": HEADER_REF.format(name=name)} for name in named}


def _headers(operations: Iterable[Operation]) -> dict[str, Any]:
    """Every response header an answer names, once."""
    found: dict[str, ResponseHeader] = {}
    every = [
        *EVERY_ANSWER,
        *(header for headers in PROBLEM_HEADERS.values() for header in headers),
        *(header for op in operations for answer in op.answers for header in answer.headers),
        *(header for op in operations for sent in op.headers for header in sent.answered_with),
    ]
    for header in every:
        if found.setdefault(header.name, header) != header:
            raise ValueError(f"two response headers are named {header.name}")
    return {
        name: {
            "description": header.description,
            "required": header.required,
            "schema": dict(header.schema),
        }
        for name, header in sorted(found.items())
    }


# --- endpoints -------------------------------------------------------------------------

SWAGGER_UI = "https://cdn.jsdelivr.net/npm/swagger-ui-dist@5.32.0"
"""Swagger UI, pinned to one release; the page names each file's hash (Subresource
Integrity), so the browser runs nothing but those bytes, whatever the CDN serves. No
package on PyPI ships a Swagger UI that reads OpenAPI 3.1."""

DOCS_PAGE = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Skyport API</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="{SWAGGER_UI}/swagger-ui.css" crossorigin="anonymous"
 integrity="sha384-3nuX7df3EaAoiqLBeyS1Ola0Gpg9ryJKVtarubwfnA1cOH8AWHUdbPSIvEqPZ9VH">
</head><body><div id="docs"></div>
<script src="{SWAGGER_UI}/swagger-ui-bundle.js" crossorigin="anonymous"
 integrity="sha384-7xcoc6ZKDFF7Ek627QTC3Bg/K+5Y36NJ8MWAE43D2m6+3Sh9XO3tdsfHhrS8gNIQ"></script>
<script>SwaggerUIBundle({{url: "/openapi.json", dom_id: "#docs"}});</script>
</body></html>"""


async def openapi_json(request: Request) -> Response:
    return JSONResponse(request.app.state.openapi)


async def docs(request: Request) -> Response:
    return HTMLResponse(DOCS_PAGE)


routes = [
    Route("/openapi.json", openapi_json, methods=["GET"], include_in_schema=False),
    Route("/docs", docs, methods=["GET"], include_in_schema=False),
]
