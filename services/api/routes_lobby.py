"""REST: the public lobby - games whose creators listed them, waiting for players, with
their open seats' invite codes."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from services.gameplay.lobby import LobbyList

from .inputs import json_response, service
from .operations import json_answer, operation
from .params import LobbyPath, LobbyQuery


@operation(
    "GET",
    "/v1/lobby/{game}",
    summary="Games of this kind waiting for players whose creators listed them in the "
    "lobby (created with lobby: true), oldest first (players: only games of that many "
    "seats), each with its options, clock and "
    "seats: an open seat shows its invite code, for anyone to claim it with (POST "
    "/v1/games/{game_id}/seats/{seat}/claim). Two players may pick the same seat: one gets "
    "it, the other 409 seat_taken and picks another. 404 for a game not in the catalog.",
    tag="lobby",
    answers=(json_answer(200, LobbyList, "A page of the lobby"),),
)
async def lobby(request: Request, path: LobbyPath, query: LobbyQuery) -> Response:
    page = await service(request).lobby.page(path.game, query.limit, query.cursor, query.players)
    return json_response(page)


operations = [lobby]
