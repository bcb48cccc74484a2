"""REST: tournaments (create, read, standings as CSV, a participant's own rounds) and
bulk creation of games."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import Field, StringConstraints, ValidationError
from starlette.requests import Request
from starlette.responses import Response

from services.gameplay.bulk import MAX_BULK_GAMES, BulkCreated, BulkCreateRequest, BulkCreation
from services.gameplay.participant_tokens import participant_tokens
from services.gameplay.payloads import GAME_ID_PATTERN
from services.gameplay.problems import Problem
from services.gameplay.tournament_payloads import (
    MAX_PARTICIPANTS,
    CreateTournamentRequest,
    MyTournament,
    ParticipantTokenReplaced,
    TournamentCreated,
    TournamentDocument,
)
from services.gameplay.tournament_runner import TournamentRunner, tournament_not_found

from .inputs import credentials, idempotency_key, json_response, replay_headers
from .operations import BEARER, Answer, json_answer, operation
from .params import CONTENT_DISPOSITION, IDEMPOTENCY_KEY, LOCATION, PathParams, WholeNumber


class TournamentPath(PathParams):
    tournament_id: Annotated[str, StringConstraints(pattern=GAME_ID_PATTERN)] = Field(
        description="The tournament's id, as creating it returned."
    )

    @classmethod
    def missing(cls, raw: Mapping[str, Any]) -> Problem:
        return tournament_not_found(str(raw.get("tournament_id", ""))[:64])


class TournamentParticipantPath(TournamentPath):
    participant: WholeNumber = Field(
        ge=0, lt=MAX_PARTICIPANTS, description="A participant of the tournament, from 0."
    )

    @classmethod
    def missing(cls, raw: Mapping[str, Any]) -> Problem:
        try:
            TournamentPath.model_validate({"tournament_id": raw.get("tournament_id")})
        except ValidationError:
            return TournamentPath.missing(raw)
        return Problem(
            404,
            "participant_not_found",
            f"No tournament has that participant: they are numbered 0 to {MAX_PARTICIPANTS - 1} "
            "at most.",
        )


def tournaments(request: Request) -> TournamentRunner:
    runner: TournamentRunner = request.app.state.tournaments
    return runner


def bulk(request: Request) -> BulkCreation:
    creation: BulkCreation = request.app.state.bulk
    return creation


@operation(
    "POST",
    "/v1/games/bulk",
    summary=f"Create up to {MAX_BULK_GAMES} games at once (platform API keys), all or "
    "nothing: a refused spec (its index in the problem's `index`) creates none. With an "
    "Idempotency-Key (header or body) a repeat answers the same ids and tokens; the same "
    "key with another body is 422.",
    tag="games",
    security=BEARER,
    headers=(IDEMPOTENCY_KEY,),
    answers=(json_answer(201, BulkCreated, "Created (or replayed: Idempotent-Replayed)"),),
    problems=(401, 409),
)
async def create_games(request: Request, body: BulkCreateRequest) -> Response:
    who = credentials(request)
    created, replayed = await bulk(request).create_games(who, body, idempotency_key(request))
    return json_response(created, 201, replay_headers(replayed))


@operation(
    "POST",
    "/v1/tournaments",
    summary="Create a tournament (platform API keys): round_robin, swiss or duplicate. "
    "Round 1's games start now; the workers start each next round when the last one "
    "ends. Returns each participant's token, once. With an Idempotency-Key a repeat "
    "answers the same id and tokens and creates nothing; the same key with another "
    "body is 422.",
    tag="tournaments",
    security=BEARER,
    headers=(IDEMPOTENCY_KEY,),
    answers=(
        json_answer(
            201,
            TournamentCreated,
            "Created (or replayed: Idempotent-Replayed)",
            headers=(LOCATION,),
        ),
    ),
    problems=(401, 409),
)
async def create_tournament(request: Request, body: CreateTournamentRequest) -> Response:
    who = credentials(request)
    created, replayed = await tournaments(request).create(who, body, idempotency_key(request))
    headers = {"Location": f"/v1/tournaments/{created.id}", **replay_headers(replayed)}
    return json_response(created, 201, headers)


@operation(
    "GET",
    "/v1/tournaments/{tournament_id}",
    summary="Standings (points, the game's measure, then the format's tie-break) and "
    "every round's tables with their game ids.",
    tag="tournaments",
    answers=(json_answer(200, TournamentDocument, "The tournament"),),
)
async def get_tournament(request: Request, path: TournamentPath) -> Response:
    return json_response(await tournaments(request).document(path.tournament_id))


@operation(
    "GET",
    "/v1/tournaments/{tournament_id}/standings.csv",
    summary="The standings as CSV (RFC 4180, a header row).",
    tag="tournaments",
    answers=(
        Answer(
            200, "The standings", {"text/csv": {"type": "string"}}, headers=(CONTENT_DISPOSITION,)
        ),
    ),
    operation_id="tournamentStandingsCsv",
)
async def standings_csv(request: Request, path: TournamentPath) -> Response:
    text = await tournaments(request).csv(path.tournament_id)
    return Response(
        text,
        media_type="text/csv; charset=utf-8",
        headers={
            "Content-Disposition": f'attachment; filename="standings-{path.tournament_id}.csv"'
        },
    )


@operation(
    "GET",
    "/v1/tournaments/{tournament_id}/me",
    summary="Your rounds (table, seat, game id and seat token) for your participant token.",
    tag="tournaments",
    security=BEARER,
    answers=(json_answer(200, MyTournament, "Your rounds"),),
    problems=(401,),
    operation_id="myTournament",
)
async def my_rounds(request: Request, path: TournamentPath) -> Response:
    mine = await tournaments(request).mine(path.tournament_id, credentials(request))
    return json_response(mine)


@operation(
    "POST",
    "/v1/tournaments/{tournament_id}/participants/{participant}/token",
    summary="A new token for a participant whose token was lost or leaked: the old one "
    "stops working at once (for /me), and the seat tokens of the participant's tables "
    "still in play are replaced too (/me gives the new ones to the new token). Asked "
    "with the participant's own token or the API key that created the tournament. With "
    "an Idempotency-Key a retry (with the same credentials: the participant's old "
    "token) gets the same new token while it is still the participant's (409 "
    "token_replaced once it was replaced again).",
    tag="tournaments",
    security=BEARER,
    headers=(IDEMPOTENCY_KEY,),
    answers=(json_answer(200, ParticipantTokenReplaced, "The new token, shown only here"),),
    problems=(401, 403, 409),
    operation_id="replaceParticipantToken",
)
async def replace_participant_token(request: Request, path: TournamentParticipantPath) -> Response:
    desk = participant_tokens(tournaments(request))
    replaced, replayed = await desk.replace(
        path.tournament_id, credentials(request), path.participant, idempotency_key(request)
    )
    return json_response(replaced, headers=replay_headers(replayed))


operations = [
    create_games,
    create_tournament,
    get_tournament,
    standings_csv,
    my_rounds,
    replace_participant_token,
]
