"""REST: the records of finished games, a finished game at any version, and seats that
step away (autopilot)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from services.gameplay.payloads import (
    AutopilotDocument,
    AutopilotRequest,
    RecordList,
    VersionView,
)
from services.gameplay.records import Record

from .inputs import credentials, json_response, service
from .operations import BEARER, json_answer, operation
from .params import GamePath, GameSeatPath, GameVersionPath, PageQuery


@operation(
    "GET",
    "/v1/games/{game_id}/record",
    summary="The record of a finished game: game, options, seed, seats, every "
    "committed move with its seat, version, time and unredacted events, and the "
    "result; replay it with `skyport replay FILE`. For the game's seat tokens and "
    "the API key that created it; 409 not_finished before the end, game_aborted for a game that "
    "ended without standings. Kept SKYPORT_RECORD_TTL "
    "seconds after the end, longer than the game. A tournament table's record waits "
    "(409 deal_in_play) until every table dealt the same seed has finished.",
    tag="records",
    security=BEARER,
    answers=(json_answer(200, Record, "The record"),),
    problems=(401, 409),
    operation_id="gameRecord",
)
async def game_record(request: Request, path: GamePath) -> Response:
    archived = await service(request).record(path.game_id, credentials(request))
    return Response(archived.record_json, media_type="application/json")


@operation(
    "GET",
    "/v1/games/{game_id}/states/{version}",
    summary="A finished game as a spectator saw it at `version` (0: before the "
    "first move); 404 version_not_found beyond its last version.",
    tag="records",
    answers=(json_answer(200, VersionView, "The view at that version"),),
    problems=(409,),
)
async def state_at_version(request: Request, path: GameVersionPath) -> Response:
    document = await service(request).version_view(path.game_id, path.version)
    return json_response(document)


@operation(
    "GET",
    "/v1/records",
    summary="Records of finished games your API key created, newest first.",
    tag="records",
    security=BEARER,
    answers=(json_answer(200, RecordList, "A page of records"),),
    problems=(401,),
)
async def list_records(request: Request, query: PageQuery) -> Response:
    records = await service(request).list_records(
        credentials(request), tag=query.tag, limit=query.limit, cursor=query.cursor
    )
    return json_response(records)


@operation(
    "POST",
    "/v1/games/{game_id}/seats/{seat}/autopilot",
    summary="Step away (on: a bot of the game's leave_bot level plays your turns) "
    "or come back (off), with that seat's own token.",
    tag="seats",
    security=BEARER,
    answers=(json_answer(200, AutopilotDocument, "Switched"),),
    problems=(401, 403, 409),
)
async def autopilot(request: Request, path: GameSeatPath, body: AutopilotRequest) -> Response:
    who = credentials(request)
    document = await service(request).autopilot(path.game_id, who, path.seat, body.on)
    return json_response(document)


operations = [game_record, state_at_version, list_records, autopilot]
