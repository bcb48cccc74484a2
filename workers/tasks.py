"""The workers' tasks. Each names the game version it acts on, so a stale, repeated or
redelivered task is a no-op.

`skyport.advance(game_id, version)` runs `GameService.advance`: one bot move, or the
end-of-game scoring, if the game is still at `version`. The service here dispatches
through Celery too, so each commit enqueues the next task and a game of bots goes on
move by move, on whichever worker takes the next task.

`skyport.sweep_clocks()` (run by beat: `skyport worker --beat`) applies the time-out
policy of every game whose clock ran out.

`skyport.deliver_webhook(event_id, type, url, payload)` POSTs one signed webhook and
retries it with exponential back-off and jitter, up to SKYPORT_WEBHOOK_MAX_RETRIES.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import redis as sync_redis
import structlog

from services.api import metrics
from services.api.app import make_dispatcher
from services.api.dispatch import ADVANCE_TASK, WEBHOOK_TASK
from services.api.gameplay import GameService, budgeted_bots
from services.api.settings import Settings, get_settings
from services.engine import all_games
from services.store import GameStore, Lifetimes, LiveUpdates, open_redis

from .celery_app import app
from .webhooks import DeliveryFailed, Webhook, backoff_seconds, deliver

log = structlog.get_logger(__name__)

SWEEP_TASK = "skyport.sweep_clocks"

DELIVERY_COUNT_SECONDS = 24 * 3600
"""How long the delivery count of one task (game, version) is kept."""


def delivery_key(settings: Settings, task: str, game_id: str, version: int) -> str:
    return f"{settings.key_prefix}:{{{game_id}}}:deliveries:{task}:{version}"


def count_delivery(settings: Settings, task: str, game_id: str, version: int) -> int:
    """Counts this delivery of (task, game, version); returns how many there were so far.
    Without Redis (embedded mode) nothing is counted and the answer is 1."""
    if not settings.redis_url:
        return 1
    client = sync_redis.Redis.from_url(settings.redis_url)
    try:
        key = delivery_key(settings, task, game_id, version)
        with client.pipeline() as pipe:
            pipe.incr(key)
            pipe.expire(key, DELIVERY_COUNT_SECONDS)
            count, _ = pipe.execute()
        return int(count)
    finally:
        client.close()


@asynccontextmanager
async def game_service(settings: Settings) -> AsyncIterator[GameService]:
    """A GameService with a store of its own (one event loop per task) that hands the
    next step of a game to the workers, whatever the API's own mode."""
    redis = open_redis(
        settings.redis_url, max_connections=4, pool_timeout=settings.redis_pool_timeout
    )
    service = GameService(
        store=GameStore(
            redis,
            settings.key_prefix,
            Lifetimes(
                finished_game=settings.finished_game_ttl,
                abandoned_game=settings.abandoned_game_ttl,
                idempotency=settings.idempotency_ttl,
            ),
        ),
        games={game.id: game for game in all_games()},
        live=LiveUpdates(redis, settings.key_prefix),
        bot_maker=budgeted_bots(settings.bot_mcts_seconds, settings.bot_mcts_iterations),
    )
    dispatcher = make_dispatcher(settings.model_copy(update={"tasks": "celery"}), service)
    service.dispatcher = dispatcher
    service.webhooks = dispatcher
    try:
        yield service
    finally:
        await dispatcher.close()
        await redis.aclose()


async def advance_game(settings: Settings, game_id: str, version: int) -> None:
    async with game_service(settings) as service:
        await service.advance(game_id, version)


async def sweep(settings: Settings) -> int:
    async with game_service(settings) as service:
        return await service.enforce_clocks()


@app.task(name=ADVANCE_TASK, acks_late=True, reject_on_worker_lost=True)
def advance(game_id: str, version: int) -> None:
    """Play one bot move or score the game, if it is still at `version`."""
    settings = get_settings()
    deliveries = count_delivery(settings, ADVANCE_TASK, game_id, version)
    if deliveries > settings.task_max_deliveries:
        metrics.TASKS_GIVEN_UP.labels(task=ADVANCE_TASK).inc()
        log.error(
            "task_given_up",
            task=ADVANCE_TASK,
            game_id=game_id,
            version=version,
            deliveries=deliveries,
        )
        return
    asyncio.run(advance_game(settings, game_id, version))


@app.task(bind=True, name=WEBHOOK_TASK, acks_late=True, reject_on_worker_lost=True)
def deliver_webhook(self, event_id: str, event_type: str, url: str, payload: dict) -> None:
    """POST one webhook; on failure retry after a back-off, then give up (logged)."""
    settings = get_settings()
    if settings.webhook_secret is None:
        log.error("webhook_not_signed", event_id=event_id, reason="SKYPORT_WEBHOOK_SECRET unset")
        return
    webhook = Webhook(event_id, event_type, url, payload)
    secret = settings.webhook_secret.get_secret_value()
    try:
        deliver(
            webhook,
            secret,
            timeout=settings.webhook_timeout,
            allow_private=settings.webhook_allow_private,
        )
    except DeliveryFailed as error:
        retries = self.request.retries
        log.warning("webhook_failed", event_id=event_id, retry=retries, error=str(error))
        if retries >= settings.webhook_max_retries:
            metrics.TASKS_GIVEN_UP.labels(task=WEBHOOK_TASK).inc()
            log.error("webhook_given_up", event_id=event_id, url=url, retries=retries)
            return
        delay = backoff_seconds(
            retries, settings.webhook_backoff_seconds, settings.webhook_backoff_max
        )
        raise self.retry(countdown=delay, max_retries=settings.webhook_max_retries) from None
    log.info("webhook_delivered", event_id=event_id, url=url)


@app.task(name=SWEEP_TASK, ignore_result=True)
def sweep_clocks() -> int:
    """Apply the time-out policy to games whose clock ran out (run by beat, every
    SKYPORT_CLOCK_SWEEP_SECONDS). Each action is a compare-and-set on the version."""
    settings = get_settings()
    if not settings.redis_url:
        return 0
    return asyncio.run(sweep(settings))
