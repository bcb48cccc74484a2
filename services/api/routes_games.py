"""REST: games, moves, legal moves, resigning, results, listing."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from services.gameplay.payloads import CreateGameRequest, MoveRequest, ResignRequest
from services.gameplay.problems import Problem, bad_request
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
from .preconditions import (
    VARY,
    entity_tag,
    not_modified,
    precondition_failed,
    required_version,
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
    headers = {"ETag": entity_tag(document), "Vary": VARY}
    if not_modified(request, headers["ETag"]):
        return Response(status_code=304, headers=headers)
    return json_response(document, headers=headers)


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
    expected = required_version(request, body.expected_version)
    with failing_precondition(request):
        accepted, replayed = await service(request).make_move(target, who, body.move, expected, key)
    return json_response(accepted, headers=replay_headers(replayed))


async def resign(request: Request) -> Response:
    only_query(request)
    target = game_id(request)
    who = credentials(request)
    key = idempotency_key(request)
    body = await json_body(request, ResignRequest, optional=True)
    expected = required_version(request, body.expected_version)
    with failing_precondition(request):
        accepted, replayed = await service(request).resign(target, who, expected, key)
    return json_response(accepted, headers=replay_headers(replayed))


@contextmanager
def failing_precondition(request: Request) -> Iterator[None]:
    """Under `If-Match`, the game being at another version is 412, not 409."""
    try:
        yield
    except Problem as problem:
        if problem.code == "version_conflict" and "if-match" in request.headers:
            raise precondition_failed(problem) from None
        raise


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
