"""The live subscription: `gameEvents(gameId, sinceVersion)` replays what the client
missed, then streams new versions as they commit on any replica (fed from the Redis
log, rung by pub/sub), then ends with `GameEnded`. A game that waited for players has
its start (`GameStarted`) before its first version. A seat's status changing without a
commit (it left under bot_takes_over, its autopilot went on or off) is `SeatChanged`,
sent only to a subscription that selects it (`... on SeatChanged`), so one written before
it existed gets no updates it did not ask for; once caught up, each seat a bot plays for
now has one (a reader who subscribes later still learns it). While the game waits for
players, its seats come as `LobbyChanged` when they change, also only if selected."""

# No `from __future__ import annotations`: strawberry needs the evaluated annotations.

from collections.abc import AsyncGenerator
from typing import Annotated

import strawberry

from services.gameplay import metrics
from services.gameplay.service import FeedEnd, FeedEntry, FeedLobby, FeedSeat, FeedStart
from services.store import GameStatus as StoreStatus

from .context import GraphQLContext
from .selections import selects_type
from .types import GameResult, GameStatus, LogEntry, Seat, status_of

Info = strawberry.Info[GraphQLContext, None]


@strawberry.type(
    description="The last open seat of a game that waited for players was filled: the game "
    "is active. It comes after version 0, before the first move; sinceVersion 0 has it."
)
class GameStarted:
    version: int
    status: GameStatus
    turn: list[int] = strawberry.field(description="The seats prompted first.")
    at: str


@strawberry.type(
    description="A seat's status changed without a commit: it left (onLeave bot_takes_over: "
    "resigned or ran out of time; a bot plays it to the end), or its autopilot went on or "
    "off. Once caught up, a subscription also has one for each seat a bot plays for now. "
    "A status, not a log entry: it may come again to a reader who subscribes again."
)
class SeatChanged:
    seat: int
    abandoned: bool = strawberry.field(description="The seat left; a bot plays it to the end.")
    autopilot: bool = strawberry.field(description="A bot plays the seat's turns for now.")
    version: int = strawberry.field(
        description="The game version the status holds from (the seat left or stepped away "
        "at it; for a seat back in play, the version it was seen back at)."
    )
    at: str = strawberry.field(
        description="When the seat left or stepped away; for one back in play, when seen."
    )
    reason: str | None = strawberry.field(
        default=None,
        description='Why an abandoned seat left: "resigned" or "timeout" (its clock ran out). '
        "Null for a seat in play or on autopilot.",
    )


@strawberry.type(
    description="The seats of a game that waits for players, as `game { seats }` shows "
    "them: once a subscription has caught up while the game waits, again each time they "
    "change (an open seat claimed, an invite reissued), and the last, with every seat "
    "filled, just before GameStarted. A status, not a log entry."
)
class LobbyChanged:
    seats: list[Seat]


@strawberry.type(description="The game is over and every entry has been sent.")
class GameEnded:
    version: int
    status: GameStatus
    result: GameResult | None
    reason: str | None = strawberry.field(
        description="Why an aborted game was stopped (its creator cancelled it while it "
        "waited, a bot could not move…); null otherwise."
    )


GameUpdate = Annotated[
    LogEntry | GameStarted | LobbyChanged | SeatChanged | GameEnded,
    strawberry.union(
        "GameUpdate",
        description="A committed version, the start of a game that waited, its seats "
        "while it waits, a seat's status, or the end.",
    ),
]


@strawberry.type(name="Subscription")
class Subscription:
    @strawberry.subscription(
        description="Every version after sinceVersion, redacted for you, then live ones. "
        "A game that waited for players has its start (GameStarted) before its first version. "
        "SeatChanged and LobbyChanged come only to a subscription that selects them "
        "(... on SeatChanged, ... on LobbyChanged)."
    )
    async def game_events(
        self, info: Info, game_id: strawberry.ID, since_version: int = 0
    ) -> AsyncGenerator[GameUpdate, None]:
        context = info.context
        seats_wanted = selects_type(info, "SeatChanged")
        lobby_wanted = selects_type(info, "LobbyChanged")
        streams, client = context.live_streams, context.client_ip
        if not streams.open(client):
            raise streams.refusal()
        try:
            feed = await context.service.follow(str(game_id), context.credentials(), since_version)
        except BaseException:
            streams.close(client)
            raise
        metrics.LIVE_STREAMS.labels(kind="graphql").inc()
        try:
            async for item in feed:
                if isinstance(item, FeedEntry):
                    yield LogEntry.of(item.entry)
                elif isinstance(item, FeedStart):
                    yield GameStarted(
                        version=item.version,
                        status=status_of(StoreStatus.ACTIVE),
                        turn=item.turn,
                        at=item.at,
                    )
                elif isinstance(item, FeedLobby):
                    if lobby_wanted:
                        yield LobbyChanged(seats=[Seat.of(seat) for seat in item.seats])
                elif isinstance(item, FeedSeat):
                    if seats_wanted:
                        yield SeatChanged(
                            seat=item.seat,
                            abandoned=item.abandoned,
                            autopilot=item.autopilot,
                            version=item.version,
                            at=item.at,
                            reason=item.reason,
                        )
                elif isinstance(item, FeedEnd):
                    yield GameEnded(
                        version=item.version,
                        status=status_of(item.status),
                        result=GameResult.of(item.result) if item.result else None,
                        reason=item.reason,
                    )
                    return
        finally:
            streams.close(client)
            metrics.LIVE_STREAMS.labels(kind="graphql").dec()
            await feed.aclose()  # type: ignore[attr-defined]
