"""The Starlette application: REST routes, GraphQL, health, metrics and docs."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Mapping

import redis as sync_redis
import structlog
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import BaseRoute

from services.engine import Game, all_games
from services.gameplay.auth import ApiKeys, Credentials
from services.gameplay.dispatch import CeleryDispatcher, InProcessDispatcher, WebhookPolicy
from services.gameplay.logs import configure_logging
from services.gameplay.service import GameService, budgeted_bots
from services.gameplay.settings import Settings, get_settings
from services.store import GameStore, Lifetimes, LiveUpdates, open_redis

from . import (
    openapi,
    routes_board,
    routes_catalog,
    routes_events,
    routes_games,
    routes_health,
    routes_playground,
)
from .bodylimit import BodyLimitMiddleware
from .client_ip import ForwardedClientMiddleware, TrustedProxies
from .graphql import graphql_routes
from .metrics import RequestMetricsMiddleware
from .problems import EXCEPTION_HANDLERS
from .ratelimit import RateLimiter, RateLimitMiddleware
from .requestlog import RequestLogMiddleware

log = structlog.get_logger(__name__)


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
            bot_maker=budgeted_bots(settings.bot_mcts_seconds, settings.bot_mcts_iterations),
            key_webhooks=key_webhooks(settings),
            webhook_allow_private=settings.webhook_allow_private,
        )
        dispatcher = make_dispatcher(settings, service)
        service.dispatcher = dispatcher
        service.webhooks = dispatcher
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
        sweeper = (
            loop.create_task(sweep_clocks(service, settings.clock_sweep_seconds))
            if isinstance(dispatcher, InProcessDispatcher)
            else None
        )
        try:
            yield
        finally:
            if sweeper is not None:
                sweeper.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await sweeper
            await dispatcher.close()
            await live.stop()
            await redis.aclose()

    app = Starlette(
        routes=_routes(served, settings),
        middleware=[
            Middleware(ForwardedClientMiddleware, TrustedProxies(settings.forwarded_allow_ips)),
            Middleware(RequestLogMiddleware),
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


async def sweep_clocks(service: GameService, every: float) -> None:
    """Embedded mode's clock sweep (with workers, `skyport worker --beat` runs it)."""
    while True:
        await asyncio.sleep(every)
        try:
            await service.enforce_clocks()
        except Exception as error:
            log.error("clock_sweep_failed", exc_info=error)


def make_dispatcher(
    settings: Settings, service: GameService
) -> InProcessDispatcher | CeleryDispatcher:
    """Bots and scoring in this process (embedded mode), or on the Celery workers."""
    broker = settings.celery_broker_url
    if settings.task_mode == "inprocess" or broker is None:
        return InProcessDispatcher(service.advance, webhook_policy(settings))
    claims = (
        sync_redis.Redis.from_url(settings.redis_url, socket_timeout=settings.redis_pool_timeout)
        if settings.redis_url
        else None
    )
    return CeleryDispatcher(
        broker,
        settings.task_queue,
        claims=claims,
        prefix=settings.key_prefix,
        # Longer than a redelivery takes, so a read of the game re-sends only lost tasks.
        claim_seconds=3 * settings.task_visibility_timeout,
    )


def webhook_policy(settings: Settings) -> WebhookPolicy:
    secret = settings.webhook_secret
    return WebhookPolicy(
        secret=secret.get_secret_value() if secret else None,
        max_retries=settings.webhook_max_retries,
        backoff_seconds=settings.webhook_backoff_seconds,
        backoff_max=settings.webhook_backoff_max,
        timeout=settings.webhook_timeout,
        allow_private=settings.webhook_allow_private,
    )


def key_webhooks(settings: Settings) -> dict[str, str]:
    """SKYPORT_API_KEY_WEBHOOKS by creator scope (what a game record keeps of its key)."""
    return {
        Credentials(bearer=key, client_ip="", platform=True).scope: url
        for key, url in settings.api_key_webhooks.items()
    }


def _routes(games: Mapping[str, Game], settings: Settings) -> list[BaseRoute]:
    return [
        *routes_games.routes,
        *routes_events.routes,
        *routes_board.routes,
        *routes_playground.routes,
        *routes_catalog.routes,
        *routes_health.routes,
        *openapi.routes,
        *graphql_routes(games, settings),
    ]
