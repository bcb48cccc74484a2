"""Mutation resolvers. Expected failures (an illegal move, a version conflict, bad
options) are results in the schema; access problems are errors with a `code`."""

# No `from __future__ import annotations`: strawberry needs the evaluated annotations.

from typing import Any

import strawberry
from pydantic import ValidationError
from strawberry.scalars import JSON

from services.gameplay.auth import check_idempotency_key
from services.gameplay.payloads import CreateGameRequest
from services.gameplay.problems import Problem

from .context import GraphQLContext
from .game_types import GameTypes
from .inputs import invalid_input, plain_input, read_seed_text, rejected
from .selections import selects
from .tournaments import (
    resolve_create_games,
    resolve_create_tournament,
    resolve_replace_participant_token,
)
from .types import (
    Autopilot,
    AutopilotResult,
    CreateGameInput,
    CreateGameResult,
    GameCreated,
    Rejected,
    VersionConflict,
)

Info = strawberry.Info[GraphQLContext, None]


def build_mutation(types: GameTypes) -> type:
    from .seats import SeatMutations  # it reuses this module's helpers

    move_result = types.move_result
    applied = types.move_applied

    @strawberry.type(name="Mutation")
    class Mutation(SeatMutations):
        create_tournament = strawberry.mutation(
            resolver=resolve_create_tournament,
            description="Create a tournament (platform API keys); participant tokens, once.",
        )
        replace_participant_token = strawberry.mutation(
            resolver=resolve_replace_participant_token,
            description="A new token for a tournament participant whose token was lost or "
            "leaked (asked with the participant's own token or the API key that created the "
            "tournament): the old one stops working, and the seat tokens of their tables in "
            "play are replaced too. Refused: token_replaced, idempotency_key_reused "
            "(results); who may not ask gets errors. With an idempotencyKey a retry with "
            "the same credentials (the old token) gets the same new token while it is "
            "still the participant's.",
        )
        create_games = strawberry.mutation(
            resolver=resolve_create_games,
            description="Create up to 200 games at once, all or nothing (platform API keys).",
        )

        @strawberry.mutation(description="Create a game; tokens for human seats, shown once.")
        async def create_game(
            self, info: Info, input: CreateGameInput, idempotency_key: str | None = None
        ) -> CreateGameResult:
            context = info.context
            key = check_idempotency_key(idempotency_key)
            asked = plain_input(input)
            refused = read_seed_text(asked, [])
            if refused is not None:
                return refused
            try:
                request = CreateGameRequest.model_validate(asked)
            except ValidationError as error:
                return invalid_input(error)
            try:
                created, replayed = await context.service.create_game(
                    context.credentials(), request, key
                )
            except Problem as problem:
                return _rejected_or_raise(problem)
            return GameCreated.of(created, replayed)

        @strawberry.mutation(description="Make a move (compare-and-set on expectedVersion).")
        async def make_move(
            self,
            info: Info,
            game_id: strawberry.ID,
            move: JSON,
            expected_version: int | None = None,
            idempotency_key: str | None = None,
        ) -> move_result:
            context = info.context
            key = check_idempotency_key(idempotency_key)
            if not isinstance(move, dict):
                return Rejected(
                    code="invalid_request", message="move must be an object.", details=None
                )
            try:
                accepted, replayed = await context.service.make_move(
                    str(game_id),
                    context.credentials(),
                    move,
                    expected_version,
                    key,
                    with_view=selects(info, "view"),
                )
            except Problem as problem:
                return _rejected_or_raise(problem)
            return applied.of(accepted, context.service.games[accepted.game], replayed)

        @strawberry.mutation(
            description="Give up. Under onLeave end_game (the default with 1 or 2 seats) "
            "the game ends at once: the others are scored and you rank last. Under "
            "bot_takes_over (the default with 3 or more) nothing is committed: the answer "
            "says abandoned, and a bot of level leaveBot plays your seat to the end."
        )
        async def resign(
            self,
            info: Info,
            game_id: strawberry.ID,
            expected_version: int | None = None,
            idempotency_key: str | None = None,
        ) -> move_result:
            context = info.context
            key = check_idempotency_key(idempotency_key)
            try:
                accepted, replayed = await context.service.resign(
                    str(game_id),
                    context.credentials(),
                    expected_version,
                    key,
                    with_view=selects(info, "view"),
                )
            except Problem as problem:
                return _rejected_or_raise(problem)
            return applied.of(accepted, context.service.games[accepted.game], replayed)

        @strawberry.mutation(
            description="Step away (on: a bot plays your seat's turns) or come back, with "
            "that seat's own token. Refused at a tournament table (autopilot_not_allowed)."
        )
        async def set_autopilot(
            self, info: Info, game_id: strawberry.ID, seat: int, on: bool
        ) -> AutopilotResult:
            context = info.context
            try:
                document = await context.service.autopilot(
                    str(game_id), context.credentials(), seat, on
                )
            except Problem as problem:
                return _rejected_or_raise(problem)
            return Autopilot.of(document)

    return Mutation


def _rejected_or_raise(problem: Problem) -> Any:
    if problem.code == "version_conflict":
        return VersionConflict(
            code=problem.code,
            message=problem.detail,
            current_version=problem.extra["current_version"],
        )
    if problem.refusal:
        return rejected(problem)
    raise problem
