"""REST: the records of finished games, a finished game at any version, and seats that
step away (autopilot)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from services.gameplay.payloads import AutopilotRequest

from .inputs import (
    credentials,
    game_id,
    json_body,
    json_response,
    only_query,
    query_int,
    query_text,
    service,
)


async def game_record(request: Request) -> Response:
    only_query(request)
    record = await service(request).record(game_id(request), credentials(request))
    return json_response(record)


async def state_at_version(request: Request) -> Response:
    only_query(request)
    version: int = request.path_params["version"]
    document = await service(request).version_view(game_id(request), version)
    return json_response(document)


async def list_records(request: Request) -> Response:
    only_query(request, "tag", "limit", "cursor")
    records = await service(request).list_records(
        credentials(request),
        tag=query_text(request, "tag"),
        limit=query_int(request, "limit", 20),
        cursor=query_text(request, "cursor"),
    )
    return json_response(records)


async def autopilot(request: Request) -> Response:
    only_query(request)
    target = game_id(request)
    seat: int = request.path_params["seat"]
    who = credentials(request)
    body = await json_body(request, AutopilotRequest)
    document = await service(request).autopilot(target, who, seat, body.on)
    return json_response(document)


routes = [
    Route("/v1/games/{game_id}/record", game_record, methods=["GET"], name="game_record"),
    Route(
        "/v1/games/{game_id}/states/{version:int}",
        state_at_version,
        methods=["GET"],
        name="state_at_version",
    ),
    Route("/v1/records", list_records, methods=["GET"], name="list_records"),
    Route(
        "/v1/games/{game_id}/seats/{seat:int}/autopilot",
        autopilot,
        methods=["POST"],
        name="autopilot",
    ),
]
