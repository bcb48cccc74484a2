"""REST: games, moves, legal moves, resigning, results, listing."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from starlette.requests import Request
from starlette.responses import Response

from services.gameplay.payloads import (
    CreateGameRequest,
    GameCreated,
    GameDocument,
    GameList,
    GameResult,
    LegalMovesDocument,
    MoveAccepted,
    MoveRequest,
    ResignRequest,
)
from services.gameplay.problems import Problem

from .inputs import (
    MINIMAL_APPLIED,
    credentials,
    idempotency_key,
    json_response,
    prefers_minimal,
    replay_headers,
    service,
)
from .operations import BEARER, BEARER_OR_NONE, Answer, json_answer, operation
from .params import (
    ETAG,
    IDEMPOTENCY_KEY,
    IF_MATCH,
    IF_NONE_MATCH,
    LOCATION,
    PREFER,
    VARY_AUTHORIZATION,
    GameListQuery,
    GamePath,
)
from .preconditions import (
    VARY,
    entity_tag,
    if_match_version,
    not_modified,
    precondition_failed,
    required_version,
)


@operation(
    "POST",
    "/v1/games",
    summary="Create a game; returns one secret token per human seat, once.",
    tag="games",
    security=BEARER_OR_NONE,
    headers=(IDEMPOTENCY_KEY,),
    answers=(json_answer(201, GameCreated, "Created", headers=(LOCATION,)),),
    problems=(401,),
)
async def create_game(request: Request, body: CreateGameRequest) -> Response:
    who = credentials(request)
    key = idempotency_key(request)
    created, replayed = await service(request).create_game(who, body, key)
    headers = {"Location": f"/v1/games/{created.id}", **replay_headers(replayed)}
    return json_response(created, 201, headers)


@operation(
    "GET",
    "/v1/games",
    summary="List the games your platform API key created, newest first.",
    tag="games",
    security=BEARER,
    answers=(json_answer(200, GameList, "A page of games"),),
    problems=(401,),
)
async def list_games(request: Request, query: GameListQuery) -> Response:
    games = await service(request).list_games(
        credentials(request),
        status=query.status,
        game=query.game,
        tag=query.tag,
        limit=query.limit,
        cursor=query.cursor,
    )
    return json_response(games)


@operation(
    "GET",
    "/v1/games/{game_id}",
    summary="Status, version, whose turn and the view for your token.",
    tag="games",
    security=BEARER_OR_NONE,
    headers=(IF_NONE_MATCH,),
    answers=(
        json_answer(
            200,
            GameDocument,
            "The game (weak ETag, Vary: Authorization)",
            headers=(ETAG, VARY_AUTHORIZATION),
        ),
        Answer(
            304,
            "Unchanged since the ETag in If-None-Match",
            headers=(ETAG, VARY_AUTHORIZATION),
        ),
    ),
    problems=(401, 409),
)
async def get_game(request: Request, path: GamePath) -> Response:
    document = await service(request).get_game(path.game_id, credentials(request))
    headers = {"ETag": entity_tag(document), "Vary": VARY}
    if not_modified(request, headers["ETag"]):
        return Response(status_code=304, headers=headers)
    return json_response(document, headers=headers)


@operation(
    "GET",
    "/v1/games/{game_id}/legal-moves",
    summary="Your legal moves now, each with a label; POST any back verbatim.",
    tag="moves",
    security=BEARER,
    answers=(json_answer(200, LegalMovesDocument, "Legal moves"),),
    problems=(401, 403, 409),
)
async def legal_moves(request: Request, path: GamePath) -> Response:
    document = await service(request).legal_moves(path.game_id, credentials(request))
    return json_response(document)


@operation(
    "POST",
    "/v1/games/{game_id}/moves",
    summary="Make a move (compare-and-set on expected_version).",
    tag="moves",
    security=BEARER,
    headers=(IDEMPOTENCY_KEY, IF_MATCH, PREFER),
    answers=(json_answer(200, MoveAccepted, "Applied"),),
    problems=(401, 403, 409),
)
async def make_move(request: Request, path: GamePath, body: MoveRequest) -> Response:
    who = credentials(request)
    key = idempotency_key(request)
    expected = required_version(request, body.expected_version)
    minimal = prefers_minimal(request)
    with failing_precondition(request):
        accepted, replayed = await service(request).make_move(
            path.game_id, who, body.move, expected, key, with_view=not minimal
        )
    return move_answer(accepted, replayed, minimal)


@operation(
    "POST",
    "/v1/games/{game_id}/resign",
    summary="Give up. With on_leave end_game (the default with 1 or 2 seats) the game "
    "ends at once: the others are scored and you rank last. With bot_takes_over (the "
    "default with 3 or more) nothing is committed: `abandoned` is true, your seat is "
    "abandoned and a bot of level leave_bot plays it to the end.",
    tag="moves",
    security=BEARER,
    headers=(IDEMPOTENCY_KEY, IF_MATCH, PREFER),
    answers=(json_answer(200, MoveAccepted, "Resigned"),),
    problems=(401, 403, 409),
    body_required=False,
)
async def resign(request: Request, path: GamePath, body: ResignRequest) -> Response:
    who = credentials(request)
    key = idempotency_key(request)
    expected = required_version(request, body.expected_version)
    minimal = prefers_minimal(request)
    with failing_precondition(request):
        accepted, replayed = await service(request).resign(
            path.game_id, who, expected, key, with_view=not minimal
        )
    return move_answer(accepted, replayed, minimal)


def move_answer(accepted: MoveAccepted, replayed: bool, minimal: bool) -> Response:
    """The answer to a move or a resignation; under `Prefer: return=minimal` without the
    view (an answer kept under an Idempotency-Key is whole, for retries that want it)."""
    if not minimal:
        return json_response(accepted, headers=replay_headers(replayed))
    accepted.view = {}
    return json_response(accepted, headers={**replay_headers(replayed), **MINIMAL_APPLIED})


@contextmanager
def failing_precondition(request: Request) -> Iterator[None]:
    """Under an `If-Match` naming a version, the game being at another is 412, not 409
    (`If-Match: *` names none: a conflict with `expected_version` stays 409)."""
    try:
        yield
    except Problem as problem:
        if problem.code == "version_conflict" and if_match_version(request) is not None:
            raise precondition_failed(problem) from None
        raise


@operation(
    "GET",
    "/v1/games/{game_id}/result",
    summary="Final standings with every score's breakdown; 409 not_finished before the "
    "end, game_aborted for a game that ended without standings. A tournament table's "
    "result is for its own seats (409 deal_in_play for others) until every table dealt "
    "the same seed has finished.",
    tag="games",
    security=BEARER_OR_NONE,
    answers=(json_answer(200, GameResult, "Standings"),),
    problems=(401, 409),
)
async def result(request: Request, path: GamePath) -> Response:
    return json_response(await service(request).result(path.game_id, credentials(request)))


operations = [create_game, list_games, get_game, legal_moves, make_move, resign, result]
busiest = [legal_moves, make_move, get_game]
"""Most requests of play: matched first."""
