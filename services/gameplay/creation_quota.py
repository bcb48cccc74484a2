"""How many games one client IP may create in an hour without a platform API key.

The request rate limit alone let an anonymous client create 600 games a minute, each kept
for `SKYPORT_ABANDONED_GAME_TTL` (30 days) if nobody plays it: memory in Redis that one
script could fill. Platforms create games with an API key and are not counted here."""

from __future__ import annotations

from redis.asyncio import Redis

from services.store.counters import FixedWindows

from .problems import Problem

WINDOW_SECONDS = 3600


class CreationQuota:
    def __init__(self, redis: Redis, prefix: str, per_hour: int) -> None:
        self.per_hour = per_hour
        self.windows = FixedWindows(redis, prefix, "created", WINDOW_SECONDS)

    async def take(self, client_ip: str) -> None:
        """Counts one game created by `client_ip`; 429 if that is over the quota."""
        created, reset = await self.windows.add(client_ip)
        if created > self.per_hour:
            raise too_many_games_created(self.per_hour, reset)


def too_many_games_created(per_hour: int, retry_after: int) -> Problem:
    return Problem(
        429,
        "too_many_games_created",
        f"This client has created {per_hour} games this hour without an API key; try again "
        f"in {retry_after} s (platforms creating games for many players use an API key).",
        headers={
            "Retry-After": str(retry_after),
            # This quota's, not the request rate limit's: a client backing off by them
            # would otherwise come back when the minute resets and be refused again.
            "RateLimit-Limit": str(per_hour),
            "RateLimit-Remaining": "0",
            "RateLimit-Reset": str(retry_after),
            "RateLimit-Policy": f'"created";q={per_hour};w={WINDOW_SECONDS}',
        },
        retry_after=retry_after,
    )
