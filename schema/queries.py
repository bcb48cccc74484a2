"""Query resolvers: thin calls into the gameplay service."""

# No `from __future__ import annotations`: strawberry needs the evaluated annotations.

import strawberry
from strawberry.scalars import JSON

from services.store import GameStatus as StoreStatus

from .context import GraphQLContext
from .game_types import GameTypes
from .tournaments import resolve_tournament
from .types import (
    CatalogGame,
    EventPage,
    GamePage,
    GameResult,
    GameStatus,
    LegalMoves,
    RecordPage,
)

Info = strawberry.Info[GraphQLContext, None]


def build_query(types: GameTypes) -> type:
    game_type = types.game
    at_version = types.game_at_version

    @strawberry.type(name="Query")
    class Query:
        @strawberry.field(description="A game as your token (or a spectator) may see it.")
        async def game(self, info: Info, id: strawberry.ID) -> game_type | None:
            context = info.context
            document = await context.service.get_game(str(id), context.credentials())
            return game_type.of(document, context.service.games[document.game])

        @strawberry.field(description="Games, newest first (platform API keys only).")
        async def games(
            self,
            info: Info,
            status: GameStatus | None = None,
            game: str | None = None,
            tag: str | None = None,
            limit: int = 20,
            cursor: str | None = None,
        ) -> GamePage:
            context = info.context
            page = await context.service.list_games(
                context.credentials(),
                status=StoreStatus(status.value) if status is not None else None,
                game=game,
                tag=tag,
                limit=limit,
                cursor=cursor,
            )
            return GamePage.of(page)

        @strawberry.field(description="Your legal moves now; send any `move` back verbatim.")
        async def legal_moves(self, info: Info, game_id: strawberry.ID) -> LegalMoves:
            context = info.context
            document = await context.service.legal_moves(str(game_id), context.credentials())
            return LegalMoves.of(document)

        @strawberry.field(description="The log after `sinceVersion`, redacted for you.")
        async def events(
            self, info: Info, game_id: strawberry.ID, since_version: int = 0, limit: int = 200
        ) -> EventPage:
            context = info.context
            page = await context.service.events(
                str(game_id), context.credentials(), since_version, limit
            )
            return EventPage.of(page)

        @strawberry.field(description="Final standings with every score's breakdown.")
        async def result(self, info: Info, game_id: strawberry.ID) -> GameResult:
            return GameResult.of(await info.context.service.result(str(game_id)))

        @strawberry.field(
            description="The record of a finished game (for its seats and platform API keys): "
            "everything `skyport replay` needs, hidden information included."
        )
        async def record(self, info: Info, game_id: strawberry.ID) -> JSON:
            context = info.context
            record = await context.service.record(str(game_id), context.credentials())
            return JSON(record.model_dump(mode="json"))

        @strawberry.field(description="A finished game as a spectator saw it at `version`.")
        async def game_at_version(
            self, info: Info, game_id: strawberry.ID, version: int
        ) -> at_version:
            context = info.context
            document = await context.service.version_view(str(game_id), version)
            return at_version.of(document, context.service.games[document.game])

        @strawberry.field(description="Records of finished games your API key created.")
        async def records(
            self,
            info: Info,
            tag: str | None = None,
            limit: int = 20,
            cursor: str | None = None,
        ) -> RecordPage:
            context = info.context
            page = await context.service.list_records(
                context.credentials(), tag=tag, limit=limit, cursor=cursor
            )
            return RecordPage.of(page)

        tournament = strawberry.field(
            resolver=resolve_tournament,
            description="A tournament's standings and rounds; null if there is none.",
        )

        @strawberry.field(description="Games, their options and component data.")
        def catalog(self, info: Info) -> list[CatalogGame]:
            return [CatalogGame.of(game) for game in info.context.service.catalog().games]

    return Query
