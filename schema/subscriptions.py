"""The live subscription: `gameEvents(gameId, sinceVersion)` replays what the client
missed, then streams new versions as they commit on any replica (fed from the Redis
log, rung by pub/sub), then ends with `GameEnded`."""

# No `from __future__ import annotations`: strawberry needs the evaluated annotations.

from collections.abc import AsyncGenerator

import strawberry

from services.gameplay import metrics
from services.gameplay.service import FeedEnd, FeedEntry

from .context import GraphQLContext
from .types import GameEnded, GameResult, GameUpdate, LogEntry, status_of

Info = strawberry.Info[GraphQLContext, None]


@strawberry.type(name="Subscription")
class Subscription:
    @strawberry.subscription(
        description="Every version after sinceVersion, redacted for you, then live ones."
    )
    async def game_events(
        self, info: Info, game_id: strawberry.ID, since_version: int = 0
    ) -> AsyncGenerator[GameUpdate, None]:
        context = info.context
        feed = await context.service.follow(str(game_id), context.credentials(), since_version)
        metrics.LIVE_STREAMS.labels(kind="graphql").inc()
        try:
            async for item in feed:
                if isinstance(item, FeedEntry):
                    yield LogEntry.of(item.entry)
                elif isinstance(item, FeedEnd):
                    yield GameEnded(
                        version=item.version,
                        status=status_of(item.status),
                        result=GameResult.of(item.result) if item.result else None,
                    )
                    return
        finally:
            metrics.LIVE_STREAMS.labels(kind="graphql").dec()
            await feed.aclose()  # type: ignore[attr-defined]
