"""The Starlette application: REST routes, GraphQL, health, metrics and docs."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Mapping

import structlog
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import BaseRoute

from services.engine import Game, all_games
from services.gameplay.auth import ApiKeys
from services.gameplay.build import build_service
from services.gameplay.logs import configure_logging
from services.gameplay.per_client import LiveStreams
from services.gameplay.settings import Settings, get_settings

from . import (
    openapi,
    routes_board,
    routes_catalog,
    routes_events,
    routes_games,
    routes_health,
    routes_lobby,
    routes_playground,
    routes_records,
    routes_seats,
    routes_tournaments,
)
from .bodylimit import BodyLimitMiddleware
from .client_ip import ForwardedClientMiddleware, TrustedProxies
from .cors import cors_middleware
from .graphql import graphql_routes
from .metrics import RequestMetricsMiddleware
from .operations import Operation
from .problems import EXCEPTION_HANDLERS
from .ratelimit import RateLimiter, RateLimitMiddleware
from .requestlog import RequestLogMiddleware
from .ws_denials import quiet_denied_handshakes

OPERATIONS: list[Operation] = [
    *routes_tournaments.operations,  # first: POST /v1/games/bulk, not a game's id
    *routes_games.operations,
    *routes_records.operations,
    *routes_seats.operations,
    *routes_lobby.operations,
    *routes_events.operations,
    *routes_board.operations,
    *routes_catalog.operations,
]
"""Every REST operation: served as routes and documented in /openapi.json."""

log = structlog.get_logger(__name__)


def create_app(
    settings: Settings | None = None, games: Mapping[str, Game] | None = None
) -> Starlette:
    """The app for `settings` (default: from the environment), serving `games`
    (default: every registered game)."""
    settings = settings or get_settings()
    served = dict(games) if games is not None else {game.id: game for game in all_games()}
    configure_logging(settings.log_level, settings.log_json)
    quiet_denied_handshakes()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        gameplay = build_service(settings, games=served)
        await gameplay.start()
        live = gameplay.live
        loop = asyncio.get_running_loop()
        app.state.close_streams = lambda: loop.call_soon_threadsafe(live.close_streams)
        app.state.service = gameplay.service
        app.state.tournaments = gameplay.tournaments
        app.state.bulk = gameplay.bulk
        app.state.limiter = RateLimiter(
            gameplay.redis,
            settings.key_prefix,
            settings.rate_limit_per_ip,
            settings.rate_limit_per_token,
            settings.rate_limit_window,
        )
        try:
            yield
        finally:
            await gameplay.close()

    app = Starlette(
        routes=_routes(served, settings),
        middleware=[
            Middleware(ForwardedClientMiddleware, TrustedProxies(settings.forwarded_allow_ips)),
            Middleware(RequestLogMiddleware),
            Middleware(RequestMetricsMiddleware),
            *cors_middleware(settings.cors_allow_origins),
            Middleware(RateLimitMiddleware),
            Middleware(BodyLimitMiddleware, max_bytes=settings.max_body_bytes),
        ],
        exception_handlers=EXCEPTION_HANDLERS,
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.state.live_streams = LiveStreams(settings.sse_max_streams_per_ip)
    app.state.api_keys = ApiKeys(key.get_secret_value() for key in settings.api_keys)
    app.state.openapi = openapi.build_openapi(served, OPERATIONS)
    return app


def _routes(games: Mapping[str, Game], settings: Settings) -> list[BaseRoute]:
    # Routes are tried in order: the busiest first (a REST move reads its legal moves and
    # posts the move; GraphQL is one route), so a request is matched against few patterns.
    # No busiest route's pattern matches a path that an earlier route in OPERATIONS serves.
    busiest = [operation.route for operation in routes_games.busiest]
    return [
        *busiest,
        *graphql_routes(games, settings),
        *(operation.route for operation in OPERATIONS if operation.route not in busiest),
        *routes_playground.routes,
        *routes_health.routes,
        *openapi.routes,
    ]
