"""The Starlette application: REST routes, GraphQL, health, metrics and docs."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Mapping

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import BaseRoute

from services.engine import Game, all_games
from services.store import GameStore, Lifetimes, LiveUpdates, open_redis

from . import openapi, routes_catalog, routes_events, routes_games, routes_health
from .auth import ApiKeys
from .bodylimit import BodyLimitMiddleware
from .dispatch import InProcessDispatcher
from .gameplay import GameService
from .graphql import graphql_routes
from .logs import configure_logging
from .metrics import RequestMetricsMiddleware
from .problems import EXCEPTION_HANDLERS
from .ratelimit import RateLimiter, RateLimitMiddleware
from .settings import Settings, get_settings


def create_app(
    settings: Settings | None = None, games: Mapping[str, Game] | None = None
) -> Starlette:
    """The app for `settings` (default: from the environment), serving `games`
    (default: every registered game)."""
    settings = settings or get_settings()
    served = dict(games) if games is not None else {game.id: game for game in all_games()}
    configure_logging(settings.log_level, settings.log_json)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        redis = open_redis(
            settings.redis_url,
            max_connections=settings.redis_max_connections,
            pool_timeout=settings.redis_pool_timeout,
        )
        lifetimes = Lifetimes(
            finished_game=settings.finished_game_ttl,
            abandoned_game=settings.abandoned_game_ttl,
            idempotency=settings.idempotency_ttl,
        )
        live = LiveUpdates(redis, settings.key_prefix)
        await live.start()
        service = GameService(
            store=GameStore(redis, settings.key_prefix, lifetimes),
            games=served,
            live=live,
            anonymous_create=settings.anonymous_create,
            keepalive=settings.stream_keepalive,
        )
        dispatcher = InProcessDispatcher(service.advance)
        service.dispatcher = dispatcher
        loop = asyncio.get_running_loop()
        app.state.close_streams = lambda: loop.call_soon_threadsafe(live.close_streams)
        app.state.service = service
        app.state.dispatcher = dispatcher
        app.state.limiter = RateLimiter(
            redis,
            settings.key_prefix,
            settings.rate_limit_per_ip,
            settings.rate_limit_per_token,
            settings.rate_limit_window,
        )
        try:
            yield
        finally:
            await dispatcher.close()
            await live.stop()
            await redis.aclose()

    app = Starlette(
        routes=_routes(served, settings),
        middleware=[
            Middleware(RequestMetricsMiddleware),
            Middleware(RateLimitMiddleware),
            Middleware(BodyLimitMiddleware, max_bytes=settings.max_body_bytes),
        ],
        exception_handlers=EXCEPTION_HANDLERS,
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.state.api_keys = ApiKeys(key.get_secret_value() for key in settings.api_keys)
    app.state.openapi = openapi.build_openapi(served)
    return app


def _routes(games: Mapping[str, Game], settings: Settings) -> list[BaseRoute]:
    return [
        *routes_games.routes,
        *routes_events.routes,
        *routes_catalog.routes,
        *routes_health.routes,
        *openapi.routes,
        *graphql_routes(games, settings),
    ]
