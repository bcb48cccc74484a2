"""The OpenAPI paths and models of tournaments and bulk creation, merged into the
document by `openapi.build_openapi`."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from services.gameplay import bulk
from services.gameplay import tournament_payloads as t

RESPONSE_MODELS: list[type[BaseModel]] = [
    t.TournamentCreated,
    t.TournamentDocument,
    t.MyTournament,
    bulk.BulkCreated,
]
REQUEST_MODELS: list[type[BaseModel]] = [t.CreateTournamentRequest, bulk.BulkCreateRequest]

TOURNAMENT_ID_PARAM = {
    "name": "tournament_id",
    "in": "path",
    "required": True,
    "schema": {"type": "string", "pattern": "^[a-z2-7]{24}$"},
}


def paths(json: Any, problems: Any, body: Any, idempotency_param: dict[str, Any]) -> dict[str, Any]:
    """`json`, `problems` and `body` are openapi.py's helpers of the same names."""
    return {
        "/v1/games/bulk": {
            "post": {
                "operationId": "createGames",
                "summary": f"Create up to {bulk.MAX_BULK_GAMES} games at once (platform API "
                "keys), all or nothing: a refused spec (its index in the problem's `index`) "
                "creates none. With an Idempotency-Key (header or body) a repeat answers the "
                "same ids and tokens; the same key with another body is 422.",
                "security": [{"bearer": []}],
                "parameters": [idempotency_param],
                "requestBody": body("BulkCreateRequest"),
                "responses": {
                    "201": json("BulkCreated", "Created (or replayed: Idempotent-Replayed)"),
                    **problems(400, 401, 403, 409, 413, 415, 422),
                },
            }
        },
        "/v1/tournaments": {
            "post": {
                "operationId": "createTournament",
                "summary": "Create a tournament (platform API keys): round_robin, swiss or "
                "duplicate. Round 1's games start now; the workers start each next round "
                "when the last one ends. Returns each participant's token, once.",
                "security": [{"bearer": []}],
                "requestBody": body("CreateTournamentRequest"),
                "responses": {
                    "201": json("TournamentCreated", "Created"),
                    **problems(400, 401, 403, 409, 413, 415, 422),
                },
            }
        },
        "/v1/tournaments/{tournament_id}": {
            "get": {
                "operationId": "getTournament",
                "summary": "Standings (points, the game's measure, then the format's "
                "tie-break) and every round's tables with their game ids.",
                "parameters": [TOURNAMENT_ID_PARAM],
                "responses": {
                    "200": json("TournamentDocument", "The tournament"),
                    **problems(400, 404),
                },
            }
        },
        "/v1/tournaments/{tournament_id}/standings.csv": {
            "get": {
                "operationId": "tournamentStandingsCsv",
                "summary": "The standings as CSV (RFC 4180, a header row).",
                "parameters": [TOURNAMENT_ID_PARAM],
                "responses": {
                    "200": {
                        "description": "The standings",
                        "content": {"text/csv": {"schema": {"type": "string"}}},
                    },
                    **problems(400, 404),
                },
            }
        },
        "/v1/tournaments/{tournament_id}/me": {
            "get": {
                "operationId": "myTournament",
                "summary": "Your rounds (table, seat, game id and seat token) for your "
                "participant token.",
                "security": [{"bearer": []}],
                "parameters": [TOURNAMENT_ID_PARAM],
                "responses": {
                    "200": json("MyTournament", "Your rounds"),
                    **problems(400, 401, 404),
                },
            }
        },
    }
