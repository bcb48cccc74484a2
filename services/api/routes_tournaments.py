"""REST: tournaments (create, read, standings as CSV, a participant's own rounds) and
bulk creation of games."""

from __future__ import annotations

import orjson
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from services.gameplay.bulk import MAX_BULK_GAMES, BulkCreateRequest, BulkCreation, too_many_games
from services.gameplay.tournament_payloads import CreateTournamentRequest
from services.gameplay.tournament_runner import TournamentRunner

from .inputs import (
    credentials,
    idempotency_key,
    json_body,
    json_response,
    only_query,
    replay_headers,
)


def tournaments(request: Request) -> TournamentRunner:
    runner: TournamentRunner = request.app.state.tournaments
    return runner


def bulk(request: Request) -> BulkCreation:
    creation: BulkCreation = request.app.state.bulk
    return creation


def tournament_id(request: Request) -> str:
    value: str = request.path_params["tournament_id"]
    return value[:64]


async def create_tournament(request: Request) -> Response:
    only_query(request)
    who = credentials(request)
    body = await json_body(request, CreateTournamentRequest)
    created = await tournaments(request).create(who, body)
    return json_response(created, 201, {"Location": f"/v1/tournaments/{created.id}"})


async def get_tournament(request: Request) -> Response:
    only_query(request)
    return json_response(await tournaments(request).document(tournament_id(request)))


async def standings_csv(request: Request) -> Response:
    only_query(request)
    text = await tournaments(request).csv(tournament_id(request))
    return Response(
        text,
        media_type="text/csv; charset=utf-8",
        headers={
            "Content-Disposition": f'attachment; filename="standings-{tournament_id(request)}.csv"'
        },
    )


async def my_rounds(request: Request) -> Response:
    only_query(request)
    mine = await tournaments(request).mine(tournament_id(request), credentials(request))
    return json_response(mine)


async def create_games(request: Request) -> Response:
    only_query(request)
    who = credentials(request)
    key = idempotency_key(request)
    try:
        sent = orjson.loads(await request.body())
    except orjson.JSONDecodeError:
        sent = None  # json_body says what is wrong
    specs = sent.get("games") if isinstance(sent, dict) else None
    if isinstance(specs, list) and len(specs) > MAX_BULK_GAMES:
        raise too_many_games(len(specs))
    body = await json_body(request, BulkCreateRequest)
    created, replayed = await bulk(request).create_games(who, body, key)
    return json_response(created, 201, replay_headers(replayed))


routes = [
    Route("/v1/games/bulk", create_games, methods=["POST"], name="create_games"),
    Route("/v1/tournaments", create_tournament, methods=["POST"], name="create_tournament"),
    Route(
        "/v1/tournaments/{tournament_id}",
        get_tournament,
        methods=["GET"],
        name="get_tournament",
    ),
    Route(
        "/v1/tournaments/{tournament_id}/standings.csv",
        standings_csv,
        methods=["GET"],
        name="tournament_standings_csv",
    ),
    Route("/v1/tournaments/{tournament_id}/me", my_rounds, methods=["GET"], name="my_rounds"),
]
