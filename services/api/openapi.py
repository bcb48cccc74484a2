"""The OpenAPI 3.1 document (`/openapi.json`) and the interactive docs (`/docs`).

Schemas come from the same pydantic models the routes use and from each game's own
view and move models, so the document cannot drift from what the code accepts.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, TypeAdapter
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from services.engine import Game
from services.gameplay import payloads as p
from services.gameplay.records import Record
from services.store import GameStatus

from . import openapi_tournaments

REF = "#/components/schemas/{model}"
PROBLEM = {"$ref": "#/components/schemas/ProblemDocument"}

RESPONSE_MODELS: list[type[BaseModel]] = [
    p.GameCreated,
    p.GameDocument,
    p.GameList,
    p.LegalMovesDocument,
    p.MoveAccepted,
    p.EventsPage,
    p.GameResult,
    p.Catalog,
    Record,
    p.RecordList,
    p.VersionView,
    p.AutopilotDocument,
    p.ProblemDocument,
    *openapi_tournaments.RESPONSE_MODELS,
]
REQUEST_MODELS: list[type[BaseModel]] = [
    p.CreateGameRequest,
    p.MoveRequest,
    p.ResignRequest,
    p.AutopilotRequest,
    *openapi_tournaments.REQUEST_MODELS,
]


def pascal(game_id: str) -> str:
    return "".join(part.capitalize() for part in game_id.replace("_", "-").split("-"))


def build_openapi(games: Mapping[str, Game], version: str = "0.1.0") -> dict[str, Any]:
    schemas = _schemas(games)
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Skyport",
            "version": version,
            "description": "Game-state service: create games, make moves, watch them live. "
            "Errors are RFC 9457 problem documents with a stable `code`.",
        },
        "paths": {
            **_paths(),
            **openapi_tournaments.paths(_json, _problems, _body, IDEMPOTENCY_PARAM),
        },
        "components": {
            "schemas": schemas,
            "securitySchemes": {
                "bearer": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "A seat token (from creating the game) or a platform API key.",
                }
            },
        },
    }


def _schemas(games: Mapping[str, Game]) -> dict[str, Any]:
    inputs: list[tuple[str, Any, TypeAdapter[Any]]] = []
    for model in RESPONSE_MODELS:
        inputs.append((model.__name__, "serialization", TypeAdapter(model)))
    for model in REQUEST_MODELS:
        inputs.append((model.__name__, "validation", TypeAdapter(model)))
    for game in games.values():
        name = pascal(game.id)
        inputs.append((f"{name}View", "serialization", TypeAdapter(game.view_model)))
        inputs.append((f"{name}Move", "validation", TypeAdapter(game.move_model)))
    top, defs = TypeAdapter.json_schemas(inputs, ref_template=REF)
    schemas = dict(defs.get("$defs", {}))
    for (key, _mode), schema in top.items():
        schemas.setdefault(key, schema)
    views = [top[(f"{pascal(g.id)}View", "serialization")] for g in games.values()]
    _type_views(schemas, views)
    _type_moves(schemas, games)
    return schemas


def _type_views(schemas: dict[str, Any], views: list[dict[str, Any]]) -> None:
    """`view` fields hold one of the games' views (the game is named beside it)."""
    any_view = {"anyOf": views} if views else {"type": "object"}
    schemas["GameDocument"]["properties"]["view"] = {**any_view, "description": "Your view."}
    schemas["GameDocument"]["properties"]["seat_views"] = {
        "anyOf": [{"type": "array", "items": any_view}, {"type": "null"}],
        "description": "Every seat's view: finished games read with an API key.",
    }
    schemas["MoveAccepted"]["properties"]["view"] = {**any_view, "description": "Your view."}
    schemas["VersionView"]["properties"]["view"] = {
        **any_view,
        "description": "A spectator's view at that version.",
    }


def _type_moves(schemas: dict[str, Any], games: Mapping[str, Game]) -> None:
    names = ", ".join(f"{pascal(g.id)}Move" for g in games.values())
    schemas["MoveRequest"]["properties"]["move"] = {
        "type": "object",
        "required": ["kind"],
        "properties": {"kind": {"type": "string"}, "label": {"type": "string"}},
        "additionalProperties": True,
        "description": "One of the game's moves (schemas: " + names + "); any element of "
        "legal-moves may be sent back verbatim, label included.",
    }
    schemas["LegalMovesDocument"]["properties"]["moves"]["items"] = {
        "type": "object",
        "required": ["kind", "label"],
        "properties": {"kind": {"type": "string"}, "label": {"type": "string"}},
        "additionalProperties": True,
    }


# --- paths -----------------------------------------------------------------------------


def _json(schema_name: str, description: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {
            "application/json": {"schema": {"$ref": f"#/components/schemas/{schema_name}"}}
        },
    }


def _problems(*statuses: int, store: bool = True) -> dict[str, Any]:
    """Problem answers of a route: `statuses`, 429, and 503 where it reads the store."""
    texts = {
        400: "Malformed request (bad JSON, query or header)",
        401: "Missing or unknown token",
        403: "The token may not do this",
        404: "No such game (or seat, or version)",
        409: "Version conflict, or the game is not in a state for this",
        412: "If-Match names another version of the game (precondition_failed)",
        413: "Body too large",
        415: "Body is not JSON",
        422: "Invalid body, or a move that breaks a rule",
        429: "Rate limit exceeded",
        503: "The game store cannot be reached (store_unavailable); retry after Retry-After",
    }
    statuses = tuple(sorted({*statuses, 429, *((503,) if store else ())}))
    return {
        str(status): {
            "description": texts[status],
            "content": {"application/problem+json": {"schema": PROBLEM}},
        }
        for status in statuses
    }


GAME_ID_PARAM = {
    "name": "game_id",
    "in": "path",
    "required": True,
    "schema": {"type": "string", "pattern": "^[a-z2-7]{24}$"},
}
IDEMPOTENCY_PARAM = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": False,
    "description": "A retry with the same key returns the first answer and changes nothing.",
    "schema": {"type": "string", "pattern": "^[\\x21-\\x7e]{8,255}$"},
}
IF_MATCH_PARAM = {
    "name": "If-Match",
    "in": "header",
    "required": False,
    "description": "The game's ETag as GET returned it: the move is refused with 412 unless "
    "the game is still at that version (an alternative to expected_version).",
    "schema": {"type": "string", "pattern": '^(W/)?"v[0-9]{1,18}(-[0-9a-f]{1,16})?"$'},
}
IF_NONE_MATCH_PARAM = {
    "name": "If-None-Match",
    "in": "header",
    "required": False,
    "description": "ETags you hold (or *): 304 with no body while the game is unchanged.",
    "schema": {"type": "string"},
}
AUTH: list[dict[str, list[str]]] = [{"bearer": []}, {}]


def _body(schema_name: str, required: bool = True) -> dict[str, Any]:
    return {
        "required": required,
        "content": {
            "application/json": {"schema": {"$ref": f"#/components/schemas/{schema_name}"}}
        },
    }


def _query(name: str, schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {
        "name": name,
        "in": "query",
        "required": False,
        "schema": schema,
        "description": description,
    }


PAGING_PARAMS = [
    _query("tag", {"type": "string", "pattern": p.TAG_PATTERN}, "Only this tag."),
    _query("limit", {"type": "integer", "minimum": 1, "maximum": 100}, "Page size (default 20)."),
    _query(
        "cursor",
        {"type": "string", "pattern": "^\\d{15}:[a-z2-7]{1,64}$"},
        "next_cursor of the previous page.",
    ),
]
"""A listing's tag filter and cursor paging (games and records alike)."""


def _paths() -> dict[str, Any]:
    statuses = [status.value for status in GameStatus]
    return {
        "/v1/games": {
            "post": {
                "operationId": "createGame",
                "summary": "Create a game; returns one secret token per human seat, once.",
                "security": AUTH,
                "parameters": [IDEMPOTENCY_PARAM],
                "requestBody": _body("CreateGameRequest"),
                "responses": {
                    "201": _json("GameCreated", "Created"),
                    **_problems(400, 401, 413, 415, 422),
                },
            },
            "get": {
                "operationId": "listGames",
                "summary": "List games (platform API keys only), newest first.",
                "security": [{"bearer": []}],
                "parameters": [
                    _query("status", {"type": "string", "enum": statuses}, "Only this status."),
                    _query(
                        "game",
                        {"type": "string", "pattern": "^[a-z0-9-]{1,64}$"},
                        "Only this game.",
                    ),
                    *PAGING_PARAMS,
                ],
                "responses": {
                    "200": _json("GameList", "A page of games"),
                    **_problems(400, 401, 403),
                },
            },
        },
        "/v1/games/{game_id}": {
            "get": {
                "operationId": "getGame",
                "summary": "Status, version, whose turn and the view for your token.",
                "security": AUTH,
                "parameters": [GAME_ID_PARAM, IF_NONE_MATCH_PARAM],
                "responses": {
                    "200": _json("GameDocument", "The game (weak ETag, Vary: Authorization)"),
                    "304": {"description": "Unchanged since the ETag in If-None-Match"},
                    **_problems(400, 401, 404),
                },
            }
        },
        "/v1/games/{game_id}/legal-moves": {
            "get": {
                "operationId": "legalMoves",
                "summary": "Your legal moves now, each with a label; POST any back verbatim.",
                "security": [{"bearer": []}],
                "parameters": [GAME_ID_PARAM],
                "responses": {
                    "200": _json("LegalMovesDocument", "Legal moves"),
                    **_problems(400, 401, 403, 404),
                },
            }
        },
        "/v1/games/{game_id}/moves": {
            "post": {
                "operationId": "makeMove",
                "summary": "Make a move (compare-and-set on expected_version).",
                "security": [{"bearer": []}],
                "parameters": [GAME_ID_PARAM, IDEMPOTENCY_PARAM, IF_MATCH_PARAM],
                "requestBody": _body("MoveRequest"),
                "responses": {
                    "200": _json("MoveAccepted", "Applied"),
                    **_problems(400, 401, 403, 404, 409, 412, 413, 415, 422),
                },
            }
        },
        "/v1/games/{game_id}/resign": {
            "post": {
                "operationId": "resign",
                "summary": "Give up. With on_leave end_game the game ends at once and you rank "
                "last; with bot_takes_over your seat is abandoned (nothing is committed, "
                "`abandoned` is true) and a bot plays it to the end.",
                "security": [{"bearer": []}],
                "parameters": [GAME_ID_PARAM, IDEMPOTENCY_PARAM, IF_MATCH_PARAM],
                "requestBody": _body("ResignRequest", required=False),
                "responses": {
                    "200": _json("MoveAccepted", "Resigned"),
                    **_problems(400, 401, 403, 404, 409, 412, 413, 415, 422),
                },
            }
        },
        "/v1/games/{game_id}/events": {
            "get": {
                "operationId": "events",
                "summary": "Events after version `since`, redacted for you; with "
                "Accept: text/event-stream a live SSE stream (resumable with Last-Event-ID).",
                "security": AUTH,
                "parameters": [
                    GAME_ID_PARAM,
                    _query(
                        "since",
                        {"type": "integer", "minimum": 0, "maximum": 10**12},
                        "Version after which to start (default 0).",
                    ),
                    _query(
                        "limit",
                        {"type": "integer", "minimum": 1, "maximum": 1000},
                        "Most entries in one page (default 200).",
                    ),
                ],
                "responses": {
                    "200": {
                        "description": "A page of log entries, or a live stream",
                        "content": {
                            "application/json": {
                                "schema": {"$ref": "#/components/schemas/EventsPage"}
                            },
                            "text/event-stream": {"schema": {"type": "string"}},
                        },
                    },
                    "204": {"description": "Last-Event-ID was the end of the stream."},
                    **_problems(400, 401, 404),
                },
            }
        },
        "/v1/games/{game_id}/result": {
            "get": {
                "operationId": "result",
                "summary": "Final standings with every score's breakdown.",
                "parameters": [GAME_ID_PARAM],
                "responses": {"200": _json("GameResult", "Standings"), **_problems(400, 404, 409)},
            }
        },
        "/v1/games/{game_id}/record": {
            "get": {
                "operationId": "gameRecord",
                "summary": "The record of a finished game: game, options, seed, seats, every "
                "committed move with its seat, version, time and unredacted events, and the "
                "result; replay it with `skyport replay FILE`. For the game's seat tokens and "
                "platform API keys; 409 not_finished before the end. Kept SKYPORT_RECORD_TTL "
                "seconds after the end, longer than the game.",
                "security": [{"bearer": []}],
                "parameters": [GAME_ID_PARAM],
                "responses": {
                    "200": _json("Record", "The record"),
                    **_problems(400, 401, 404, 409),
                },
            }
        },
        "/v1/games/{game_id}/states/{version}": {
            "get": {
                "operationId": "stateAtVersion",
                "summary": "A finished game as a spectator saw it at `version` (0: before the "
                "first move); 404 version_not_found beyond its last version.",
                "parameters": [
                    GAME_ID_PARAM,
                    {
                        "name": "version",
                        "in": "path",
                        "required": True,
                        "schema": {"type": "integer", "minimum": 0},
                    },
                ],
                "responses": {
                    "200": _json("VersionView", "The view at that version"),
                    **_problems(400, 404, 409),
                },
            }
        },
        "/v1/games/{game_id}/seats/{seat}/autopilot": {
            "post": {
                "operationId": "autopilot",
                "summary": "Step away (on: a bot of the game's leave_bot level plays your turns) "
                "or come back (off), with that seat's own token.",
                "security": [{"bearer": []}],
                "parameters": [
                    GAME_ID_PARAM,
                    {
                        "name": "seat",
                        "in": "path",
                        "required": True,
                        "schema": {"type": "integer", "minimum": 0},
                    },
                ],
                "requestBody": _body("AutopilotRequest"),
                "responses": {
                    "200": _json("AutopilotDocument", "Switched"),
                    **_problems(400, 401, 403, 404, 409, 413, 415, 422),
                },
            }
        },
        "/v1/records": {
            "get": {
                "operationId": "listRecords",
                "summary": "Records of finished games your API key created, newest first.",
                "security": [{"bearer": []}],
                "parameters": [
                    *PAGING_PARAMS,
                ],
                "responses": {
                    "200": _json("RecordList", "A page of records"),
                    **_problems(400, 401, 403),
                },
            }
        },
        "/v1/games/{game_id}/board.svg": {
            "get": {
                "operationId": "boardPicture",
                "summary": "The board as an SVG picture, drawn from the view for your token "
                "(a spectator's without one). 404 no_picture for a game without a drawing.",
                "security": AUTH,
                "parameters": [GAME_ID_PARAM],
                "responses": {
                    "200": {
                        "description": "The picture",
                        "content": {"image/svg+xml": {"schema": {"type": "string"}}},
                    },
                    **_problems(400, 401, 404),
                },
            }
        },
        "/v1/catalog": {
            "get": {
                "operationId": "catalog",
                "summary": "Games, their options and component data.",
                "responses": {"200": _json("Catalog", "The catalog"), **_problems(store=False)},
            }
        },
    }


# --- endpoints -------------------------------------------------------------------------

DOCS_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Skyport API</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="https://cdn.jsdelivr.net/npm/swagger-ui-dist@5/swagger-ui.css">
</head><body><div id="docs"></div>
<script src="https://cdn.jsdelivr.net/npm/swagger-ui-dist@5/swagger-ui-bundle.js"></script>
<script>SwaggerUIBundle({url: "/openapi.json", dom_id: "#docs"});</script>
</body></html>"""


async def openapi_json(request: Request) -> Response:
    return JSONResponse(request.app.state.openapi)


async def docs(request: Request) -> Response:
    return HTMLResponse(DOCS_PAGE)


routes = [
    Route("/openapi.json", openapi_json, methods=["GET"], include_in_schema=False),
    Route("/docs", docs, methods=["GET"], include_in_schema=False),
]
