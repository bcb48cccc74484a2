"""REST: games, moves, legal moves, resigning, results, listing."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from services.gameplay.payloads import CreateGameRequest, MoveRequest, ResignRequest
from services.gameplay.problems import bad_request
from services.store import GameStatus

from .inputs import (
    credentials,
    game_id,
    idempotency_key,
    json_body,
    json_response,
    only_query,
    query_int,
    query_text,
    replay_headers,
    service,
)

STATUSES = [status.value for status in GameStatus]


async def create_game(request: Request) -> Response:
    only_query(request)
    who = credentials(request)
    key = idempotency_key(request)
    body = await json_body(request, CreateGameRequest)
    created, replayed = await service(request).create_game(who, body, key)
    headers = {"Location": f"/v1/games/{created.id}", **replay_headers(replayed)}
    return json_response(created, 201, headers)


async def list_games(request: Request) -> Response:
    only_query(request, "status", "game", "tag", "limit", "cursor")
    who = credentials(request)
    status = query_text(request, "status")
    if status is not None and status not in STATUSES:
        raise bad_request("invalid_query", f"status must be one of {', '.join(STATUSES)}.")
    games = await service(request).list_games(
        who,
        status=GameStatus(status) if status else None,
        game=query_text(request, "game"),
        tag=query_text(request, "tag"),
        limit=query_int(request, "limit", 20),
        cursor=query_text(request, "cursor"),
    )
    return json_response(games)


async def get_game(request: Request) -> Response:
    only_query(request)
    document = await service(request).get_game(game_id(request), credentials(request))
    return json_response(document, headers={"ETag": f'"v{document.version}"'})


async def legal_moves(request: Request) -> Response:
    only_query(request)
    document = await service(request).legal_moves(game_id(request), credentials(request))
    return json_response(document)


async def make_move(request: Request) -> Response:
    only_query(request)
    target = game_id(request)
    who = credentials(request)
    key = idempotency_key(request)
    body = await json_body(request, MoveRequest)
    accepted, replayed = await service(request).make_move(
        target, who, body.move, body.expected_version, key
    )
    return json_response(accepted, headers=replay_headers(replayed))


async def resign(request: Request) -> Response:
    only_query(request)
    target = game_id(request)
    who = credentials(request)
    key = idempotency_key(request)
    body = await json_body(request, ResignRequest, optional=True)
    accepted, replayed = await service(request).resign(target, who, body.expected_version, key)
    return json_response(accepted, headers=replay_headers(replayed))


async def result(request: Request) -> Response:
    only_query(request)
    return json_response(await service(request).result(game_id(request)))


routes = [
    Route("/v1/games", create_game, methods=["POST"], name="create_game"),
    Route("/v1/games", list_games, methods=["GET"], name="list_games"),
    Route("/v1/games/{game_id}", get_game, methods=["GET"], name="get_game"),
    Route("/v1/games/{game_id}/legal-moves", legal_moves, methods=["GET"], name="legal_moves"),
    Route("/v1/games/{game_id}/moves", make_move, methods=["POST"], name="make_move"),
    Route("/v1/games/{game_id}/resign", resign, methods=["POST"], name="resign"),
    Route("/v1/games/{game_id}/result", result, methods=["GET"], name="result"),
]
