"""REST: the public lobby - games whose creators listed them, waiting for players, with
their open seats' invite codes - and joining it in one call."""

from __future__ import annotations

import hashlib

from starlette.requests import Request
from starlette.responses import Response

from services.gameplay.lobby import LobbyList
from services.gameplay.lobby_join import JoinLobbyRequest, LobbyJoined

from .inputs import credentials, idempotency_key, json_response, replay_headers, service
from .operations import BEARER_OR_NONE, Answer, json_answer, operation
from .params import ETAG, IDEMPOTENCY_KEY, IF_NONE_MATCH, LobbyPath, LobbyQuery
from .preconditions import not_modified


@operation(
    "GET",
    "/v1/lobby/{game}",
    summary="Games of this kind waiting for players whose creators listed them in the "
    "lobby (created with lobby: true), oldest first (players: only games of that many "
    "seats), each with its options, clock and "
    "seats: an open seat shows its invite code, for anyone to claim it with (POST "
    "/v1/games/{game_id}/seats/{seat}/claim). Two players may pick the same seat: one gets "
    "it, the other 409 seat_taken and picks another. 404 for a game not in the catalog. "
    "A poll that sends the page's ETag back in If-None-Match gets 304 while the page is "
    "unchanged.",
    tag="lobby",
    headers=(IF_NONE_MATCH,),
    answers=(
        json_answer(200, LobbyList, "A page of the lobby (weak ETag)", headers=(ETAG,)),
        Answer(304, "Unchanged since the ETag in If-None-Match", headers=(ETAG,)),
    ),
)
async def lobby(request: Request, path: LobbyPath, query: LobbyQuery) -> Response:
    page = await service(request).lobby.page(path.game, query.limit, query.cursor, query.players)
    body = page.__pydantic_serializer__.to_json(page)
    # The page is read afresh each time (its codes expire, its games fill): the tag is a
    # digest of what it holds, so a poll that finds it unchanged is answered without it.
    headers = {"ETag": f'W/"l-{hashlib.blake2s(body, digest_size=8).hexdigest()}"'}
    if not_modified(request, headers["ETag"]):
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/json", headers=headers)


@operation(
    "POST",
    "/v1/lobby/{game}/join",
    summary="Take a seat in the lobby in one call: the first open seat of the longest "
    "waiting listed game (players: only games of that many seats), claimed under your "
    "name as with its invite code; returns the seat's token, once. A seat another player "
    "takes first is passed over for the next one. 404 no_open_seat when no listed game "
    "has a seat to claim (create one with lobby: true), 404 not_found for a game not in "
    "the catalog, 409 seat_taken when 8 seats in a row were taken first. With create: "
    "true (and players) a join that finds no seat creates a listed game of that many seats "
    "(default options, untimed, its open seats listed for 15 minutes; counted against the "
    "hourly quota of games created without an API key) and takes its seat 0 (created: "
    "true); two such joins at once make one "
    "game, the second taking a seat in it; where anonymous creation is off, creating needs "
    "an API key (401 api_key_required). With an "
    "Idempotency-Key (send a random one) a retry answers the same seat and token, even "
    "once the game has started; another request under the key is 422 "
    "idempotency_key_reused.",
    tag="lobby",
    security=BEARER_OR_NONE,
    headers=(IDEMPOTENCY_KEY,),
    answers=(json_answer(200, LobbyJoined, "Joined: the seat's token"),),
    problems=(401, 409),
)
async def join_lobby(request: Request, path: LobbyPath, body: JoinLobbyRequest) -> Response:
    key = idempotency_key(request)
    taken, replayed = await service(request).lobby_join.join(
        path.game, body, key, credentials(request)
    )
    return json_response(taken, headers=replay_headers(replayed))


operations = [lobby, join_lobby]
