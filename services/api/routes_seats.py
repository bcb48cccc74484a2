"""REST: open seats - claiming one with its invite code, the creator filling one with a
bot, and the creator cancelling a game that still waits for players."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from services.gameplay.seats import ClaimSeatRequest, FillSeatRequest

from .inputs import (
    credentials,
    game_id,
    idempotency_key,
    json_body,
    json_response,
    only_query,
    replay_headers,
    service,
)


async def claim_seat(request: Request) -> Response:
    only_query(request)
    target = game_id(request)
    seat: int = request.path_params["seat"]
    key = idempotency_key(request)
    body = await json_body(request, ClaimSeatRequest)
    taken, replayed = await service(request).seats.claim(target, seat, body, key)
    return json_response(taken, headers=replay_headers(replayed))


async def fill_seat(request: Request) -> Response:
    only_query(request)
    target = game_id(request)
    seat: int = request.path_params["seat"]
    who = credentials(request)
    body = await json_body(request, FillSeatRequest)
    taken = await service(request).seats.fill_with_bot(target, who, seat, body.bot, body.name)
    return json_response(taken)


async def cancel_game(request: Request) -> Response:
    only_query(request)
    target = game_id(request)
    cancelled = await service(request).seats.cancel(target, credentials(request))
    return json_response(cancelled)


routes = [
    Route(
        "/v1/games/{game_id}/seats/{seat:int}/claim",
        claim_seat,
        methods=["POST"],
        name="claim_seat",
    ),
    Route(
        "/v1/games/{game_id}/seats/{seat:int}/bot", fill_seat, methods=["POST"], name="fill_seat"
    ),
    Route("/v1/games/{game_id}/cancel", cancel_game, methods=["POST"], name="cancel_game"),
]
