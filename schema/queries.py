"""Query resolvers: thin calls into the gameplay service."""

# No `from __future__ import annotations`: strawberry needs the evaluated annotations.

import asyncio
import re
from typing import Annotated

import orjson
import strawberry
from strawberry.scalars import JSON

from services.gameplay.problems import bad_request
from services.gameplay.service import CURSOR, MAX_EVENTS_PAGE, MAX_GAMES_PAGE
from services.store import GameStatus as StoreStatus

from .connections import AFTER, Connection, Paging
from .context import GraphQLContext
from .cost import FIELD_COST, json_cost
from .game_types import GameTypes
from .lobby import LOBBY, LobbyGame
from .lobby import PAGE_COST as LOBBY_PAGE_COST
from .selections import selects
from .tournaments import resolve_my_tournament, resolve_tournament
from .types import (
    CatalogGame,
    EventConnection,
    GameResult,
    GameStatus,
    GameSummary,
    LegalMoves,
    LogEntry,
    RecordSummary,
    status_of,
)

GAMES = Paging("games", CURSOR, MAX_GAMES_PAGE)
RECORDS = Paging("records", CURSOR, MAX_GAMES_PAGE)
EVENTS = Paging("events", re.compile(r"0|[1-9][0-9]{0,11}"), MAX_EVENTS_PAGE)
"""A log entry's cursor holds its version (below the service's 10**12)."""

Info = strawberry.Info[GraphQLContext, None]

RECORD_COST = json_cost(50_000)
"""A record is one JSON value of every move with its events: about 50 KB for a typical
game, hundreds of KB for a long one (2,000 moves: 680 KB), so a query holds a few."""

GAME_AT_VERSION_COST = 1_000
"""A game at a past version is the record replayed, in a worker thread (up to a
twentieth of the game from the nearest state kept, the whole game the first time):
milliseconds to tens of them, so a query holds at most 19."""


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

        @strawberry.field(description="The games your platform API key created, newest first.")
        async def games(
            self,
            info: Info,
            status: GameStatus | None = None,
            game: str | None = None,
            tag: str | None = None,
            first: Annotated[int, GAMES.first_argument()] = 20,
            after: Annotated[str | None, AFTER] = None,
        ) -> Connection[GameSummary] | None:
            size, position = GAMES.start(first, after)
            context = info.context
            listing = await context.service.game_listing(
                context.credentials(),
                status=StoreStatus(status.value) if status is not None else None,
                game=game,
                tag=tag,
                limit=size,
                cursor=position,
            )
            nodes = [GameSummary.of(summary) for summary in listing.items]
            return GAMES.connection(nodes, listing, position)

        @strawberry.field(
            description="The rematch of a finished game once a player has asked for it "
            "(mutation rematch), as anyone may see it: null until then. Errors: "
            "game_not_finished, rematch_not_offered (a game created with an API key)."
        )
        async def rematch(self, info: Info, game_id: strawberry.ID) -> GameSummary | None:
            found = await info.context.service.rematches.find(str(game_id))
            return GameSummary.of(found.rematch) if found.rematch is not None else None

        @strawberry.field(
            description="Games of this kind waiting for players whose creators listed them "
            "in the lobby (createGame with lobby: true), oldest first; an open seat shows its "
            "invite code, for anyone to claim it with (mutation claimSeat).",
            metadata={FIELD_COST: LOBBY_PAGE_COST},
        )
        async def lobby(
            self,
            info: Info,
            game: str,
            first: Annotated[int, LOBBY.first_argument()] = 20,
            after: Annotated[str | None, AFTER] = None,
            players: Annotated[
                int | None, strawberry.argument(description="Only games of this many seats.")
            ] = None,
        ) -> Connection[LobbyGame]:
            size, position = LOBBY.start(first, after)
            listing = await info.context.service.lobby.listing(game, size, position, players)
            return LOBBY.connection([LobbyGame.of(g) for g in listing.items], listing, position)

        @strawberry.field(description="Your legal moves now; send any `move` back verbatim.")
        async def legal_moves(self, info: Info, game_id: strawberry.ID) -> LegalMoves | None:
            context = info.context
            document = await context.service.legal_moves(
                str(game_id), context.credentials(), labelled=selects(info, "moves", "label")
            )
            return LegalMoves.of(document)

        @strawberry.field(
            description="A game's log, oldest first, redacted for you: from the start, "
            "`after` a cursor, or after `sinceVersion` (as the `gameEvents` subscription)."
        )
        async def events(
            self,
            info: Info,
            game_id: strawberry.ID,
            first: Annotated[int, EVENTS.first_argument()] = 200,
            after: Annotated[str | None, AFTER] = None,
            since_version: Annotated[
                int | None,
                strawberry.argument(description="Start after this version, instead of `after`."),
            ] = None,
        ) -> EventConnection | None:
            size, position = EVENTS.start(first, after)
            if position is not None and since_version is not None:
                raise bad_request("invalid_query", "Give `after` or `sinceVersion`, not both.")
            since = int(position) if position is not None else since_version or 0
            context = info.context
            page = await context.service.events(str(game_id), context.credentials(), since, size)
            return EventConnection.of(
                [LogEntry.of(entry) for entry in page.entries],
                [EVENTS.encode(str(entry.version)) for entry in page.entries],
                more=page.more,
                after=since > 0,
                game_id=strawberry.ID(page.id),
                version=page.version,
                status=status_of(page.status),
            )

        @strawberry.field(
            description="Final standings with every score's breakdown. A tournament "
            "table's result is for its own seats (deal_in_play for others) until every "
            "table dealt its seed has finished."
        )
        async def result(self, info: Info, game_id: strawberry.ID) -> GameResult | None:
            context = info.context
            return GameResult.of(await context.service.result(str(game_id), context.credentials()))

        @strawberry.field(
            description="The record of a finished game (for its seats and the API key that "
            "created it): "
            "everything `skyport replay` needs, hidden information included. A tournament "
            "table's record waits (deal_in_play) until every table dealt its seed has finished.",
            metadata={FIELD_COST: RECORD_COST},
        )
        async def record(self, info: Info, game_id: strawberry.ID) -> JSON | None:
            context = info.context
            archived = await context.service.record(str(game_id), context.credentials())
            return JSON(await asyncio.to_thread(orjson.loads, archived.record_json))

        @strawberry.field(
            description="A finished game as a spectator saw it at `version`.",
            metadata={FIELD_COST: GAME_AT_VERSION_COST},
        )
        async def game_at_version(
            self, info: Info, game_id: strawberry.ID, version: int
        ) -> at_version | None:
            context = info.context
            document = await context.service.version_view(str(game_id), version)
            return at_version.of(document, context.service.games[document.game])

        @strawberry.field(description="Records of finished games your API key created.")
        async def records(
            self,
            info: Info,
            tag: str | None = None,
            first: Annotated[int, RECORDS.first_argument()] = 20,
            after: Annotated[str | None, AFTER] = None,
        ) -> Connection[RecordSummary] | None:
            size, position = RECORDS.start(first, after)
            context = info.context
            listing = await context.service.record_listing(
                context.credentials(), tag=tag, limit=size, cursor=position
            )
            nodes = [RecordSummary.of(summary) for summary in listing.items]
            return RECORDS.connection(nodes, listing, position)

        tournament = strawberry.field(
            resolver=resolve_tournament,
            description="A tournament's standings and rounds; null if there is none.",
        )
        my_tournament = strawberry.field(
            resolver=resolve_my_tournament,
            description="Your rounds (table, seat, game and seat token), for your participant "
            "token as the bearer; an error if the token or the tournament is unknown.",
        )

        @strawberry.field(description="Games, their options and component data.")
        def catalog(self, info: Info) -> list[CatalogGame]:
            return [CatalogGame.of(game) for game in info.context.service.catalog().games]

    return Query
