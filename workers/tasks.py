"""The workers' tasks. Each names the game version it acts on, so a stale, repeated or
redelivered task never changes a game twice (every change is a compare-and-set).

`skyport.advance(game_id, version)` runs `GameService.advance`: one bot move, or the
end-of-game scoring, if the game is still at `version`. The service here dispatches
through Celery too, so each commit enqueues the next task and a game of bots goes on
move by move, on whichever worker takes the next task. A stale delivery makes sure the
current version's turn was sent (its sender may have died right after its commit).

`skyport.sweep_clocks()` (run by beat: `skyport worker --beat`) applies the time-out
policy of every game whose clock ran out, and sends again the turn of every game whose
bot or scoring is due but that has not moved for SKYPORT_TASK_STALL_SECONDS (its task
was lost): progress rests on the stored state, not on one task's survival.

While Redis (or the broker) is unreachable, a task retries in place with back-off for up
to SKYPORT_TASK_RETRY_SECONDS, then hands its message back; it is never acknowledged as
done. A turn whose deliveries keep dying unfinished (their worker killed) more than
SKYPORT_TASK_MAX_DELIVERIES times aborts its game rather than being tried forever.

`skyport.deliver_webhook(event_id, type, url, payload)` POSTs one signed webhook and
retries it with exponential back-off and jitter, up to SKYPORT_WEBHOOK_MAX_RETRIES.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import TypeVar

import redis as sync_redis
import structlog
from celery.exceptions import Reject
from kombu.exceptions import OperationalError

from services.engine import all_games
from services.gameplay import metrics
from services.gameplay.dispatch import ADVANCE_TASK, WEBHOOK_TASK, CeleryDispatcher
from services.gameplay.service import GameService, budgeted_bots
from services.gameplay.settings import Settings, get_settings
from services.gameplay.webhooks import DeliveryFailed, Webhook, backoff_seconds, deliver
from services.store import GameStore, Lifetimes, LiveUpdates, open_redis

from .celery_app import app

log = structlog.get_logger(__name__)

T = TypeVar("T")

SWEEP_TASK = "skyport.sweep_clocks"

DELIVERY_COUNT_SECONDS = 24 * 3600
"""How long the delivery counts of one task (game, version) are kept."""

RECONNECT_ERRORS: tuple[type[Exception], ...] = (
    sync_redis.ConnectionError,  # BusyLoadingError (a restarted Redis loading) included
    sync_redis.TimeoutError,
    OperationalError,  # kombu: the broker
)
"""Errors that mean "Redis or the broker is unreachable for now": worth waiting out."""

RECONNECT_BACKOFF = (0.25, 4.0)
"""Base and cap, in seconds, of the back-off between tries while Redis is unreachable."""


def delivery_key(settings: Settings, task: str, game_id: str, version: int) -> str:
    """How many times (task, game, version) was delivered."""
    return f"{settings.key_prefix}:{{{game_id}}}:deliveries:{task}:{version}"


def unfinished_key(settings: Settings, task: str, game_id: str, version: int) -> str:
    """How many deliveries of (task, game, version) started and have not finished: the
    ones whose worker died under them."""
    return f"{settings.key_prefix}:{{{game_id}}}:unfinished:{task}:{version}"


def stall_seconds(settings: Settings) -> float:
    """How long a due game may sit still before the sweep sends its turn again."""
    return max(settings.task_stall_seconds, settings.bot_mcts_seconds + 2)


def with_reconnects(settings: Settings, what: str, run: Callable[[], T]) -> T:
    """`run()`, tried again with back-off while Redis or the broker is unreachable, for
    up to `task_retry_seconds`; then the message goes back to the queue (not acked)."""
    deadline = time.monotonic() + settings.task_retry_seconds
    for attempt in itertools.count():
        try:
            return run()
        except RECONNECT_ERRORS as error:
            delay = backoff_seconds(attempt, *RECONNECT_BACKOFF)
            if time.monotonic() + delay > deadline:
                log.error("task_handed_back", task=what, tries=attempt + 1, error=repr(error))
                raise Reject(repr(error), requeue=True) from error
            log.warning("task_waiting_for_redis", task=what, retry=attempt, error=repr(error))
            time.sleep(delay)
    raise AssertionError("unreachable")


def start_delivery(
    client: sync_redis.Redis, settings: Settings, task: str, game_id: str, version: int
) -> tuple[int, int]:
    """Counts this delivery; returns (deliveries so far, unfinished ones including it)."""
    keys = [
        delivery_key(settings, task, game_id, version),
        unfinished_key(settings, task, game_id, version),
    ]
    with client.pipeline() as pipe:
        for key in keys:
            pipe.incr(key)
            pipe.expire(key, DELIVERY_COUNT_SECONDS)
        delivered, _, unfinished, _ = pipe.execute()
    return int(delivered), int(unfinished)


def count_delivery(settings: Settings, task: str, game_id: str, version: int) -> int:
    """Counts this delivery of (task, game, version); returns how many there were so far.
    Without Redis (embedded mode) nothing is counted and the answer is 1."""
    if not settings.redis_url:
        return 1
    client = sync_redis.Redis.from_url(settings.redis_url)
    try:
        return start_delivery(client, settings, task, game_id, version)[0]
    finally:
        client.close()


def worker_dispatcher(settings: Settings) -> CeleryDispatcher:
    """The workers hand the next step to the workers, whatever the API's own mode. (Built
    here rather than by the API's app factory, which would load Starlette and Strawberry
    into every worker and slow each start, and so each recovery, by a second.)"""
    claims = (
        sync_redis.Redis.from_url(settings.redis_url, socket_timeout=settings.redis_pool_timeout)
        if settings.redis_url
        else None
    )
    return CeleryDispatcher(
        settings.celery_broker_url or "",
        settings.task_queue,
        claims=claims,
        prefix=settings.key_prefix,
        claim_seconds=3 * settings.task_visibility_timeout,
    )


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
    dispatcher = worker_dispatcher(settings)
    service.dispatcher = dispatcher
    service.webhooks = dispatcher
    try:
        yield service
    finally:
        with contextlib.suppress(*RECONNECT_ERRORS):
            await dispatcher.close()
        with contextlib.suppress(*RECONNECT_ERRORS):
            await redis.aclose()


async def advance_game(settings: Settings, game_id: str, version: int) -> None:
    async with game_service(settings) as service:
        await service.advance(game_id, version)


async def give_up_game(settings: Settings, game_id: str, version: int, reason: str) -> bool:
    async with game_service(settings) as service:
        return await service.give_up(game_id, version, reason)


async def sweep(settings: Settings) -> int:
    """Clocks that ran out, then games that stalled. Returns how many games it acted on
    or looked at."""
    async with game_service(settings) as service:
        looked = await service.enforce_clocks()
        return looked + await service.resend_stalled(stall_seconds(settings))


@app.task(name=ADVANCE_TASK, acks_late=True, reject_on_worker_lost=True)
def advance(game_id: str, version: int) -> None:
    """Play one bot move or score the game, if it is still at `version`."""
    settings = get_settings()
    if not settings.redis_url:
        asyncio.run(advance_game(settings, game_id, version))
        return
    client = sync_redis.Redis.from_url(settings.redis_url)
    try:
        _, unfinished = with_reconnects(
            settings,
            ADVANCE_TASK,
            lambda: start_delivery(client, settings, ADVANCE_TASK, game_id, version),
        )
        if unfinished > settings.task_max_deliveries:
            _give_up(settings, game_id, version, unfinished)
        else:
            with_reconnects(
                settings,
                ADVANCE_TASK,
                lambda: asyncio.run(advance_game(settings, game_id, version)),
            )
        with_reconnects(
            settings,
            ADVANCE_TASK,
            lambda: client.decr(unfinished_key(settings, ADVANCE_TASK, game_id, version)),
        )
    finally:
        client.close()


def _give_up(settings: Settings, game_id: str, version: int, unfinished: int) -> None:
    metrics.TASKS_GIVEN_UP.labels(task=ADVANCE_TASK).inc()
    log.error(
        "task_given_up",
        task=ADVANCE_TASK,
        game_id=game_id,
        version=version,
        unfinished=unfinished,
    )
    reason = (
        f"The step at version {version} stopped its worker {unfinished - 1} times; "
        "the game was ended so that it does not hang."
    )
    with_reconnects(
        settings,
        ADVANCE_TASK,
        lambda: asyncio.run(give_up_game(settings, game_id, version, reason)),
    )


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
    """Apply the time-out policy to games whose clock ran out, and send again the turns
    of games that stalled (run by beat, every SKYPORT_CLOCK_SWEEP_SECONDS). Each action
    is a compare-and-set. While Redis is unreachable it does nothing: the next one will."""
    settings = get_settings()
    if not settings.redis_url:
        return 0
    try:
        return asyncio.run(sweep(settings))
    except RECONNECT_ERRORS as error:
        log.warning("sweep_skipped", error=repr(error))
        return 0
