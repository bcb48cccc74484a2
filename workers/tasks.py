"""The workers' tasks. Each names the game version it acts on, so a stale, repeated or
redelivered task never changes a game twice (every change is a compare-and-set).

`skyport.advance(game_id, version)` runs `Referee.advance`: one bot move, or the
end-of-game scoring, if the game is still at `version`. The service here dispatches
through Celery too, so each commit enqueues the next task and a game of bots goes on
move by move, on whichever worker takes the next task. A stale delivery makes sure the
current version's turn was sent (its sender may have died right after its commit).

`skyport.sweep_clocks()` (run by beat: `skyport worker --beat`) applies the time-out
policy of every game whose clock ran out, and sends again the turn of every game whose
bot or scoring is due but that has not moved for SKYPORT_TASK_STALL_SECONDS (its task
was lost), and steps every running tournament not stepped for as long (the report of
its round's last game was lost), and sends the webhooks of every change not handed
over for as long (whoever made it died before its hooks), and hands the broker the
webhooks it could not take when they were sent (kept in Redis meanwhile): progress
rests on the stored state, not on one task's survival.

While Redis (or the broker) is unreachable, a task retries in place with back-off for up
to SKYPORT_TASK_RETRY_SECONDS, then hands its message back; it is never acknowledged as
done. A turn whose deliveries keep dying unfinished (their worker killed) more than
SKYPORT_TASK_MAX_DELIVERIES times aborts its game rather than being tried forever.

`skyport.deliver_webhook(event_id, type, url, payload)` POSTs one signed webhook and
retries it with exponential back-off and jitter, up to SKYPORT_WEBHOOK_MAX_RETRIES.

Each worker process keeps one event loop, one service (`build_service(settings,
role="worker")`: its Redis pool and its Celery producer) and one Redis client for the
delivery counts, from its first task to its exit (`WorkerRuntime`).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import redis as sync_redis
import structlog
from celery import Task
from celery.exceptions import Reject
from celery.signals import worker_process_shutdown
from kombu.exceptions import OperationalError

from services.gameplay import metrics
from services.gameplay.build import Gameplay, build_service
from services.gameplay.dispatch import ADVANCE_TASK, WEBHOOK_TASK
from services.gameplay.settings import Settings, get_settings
from services.gameplay.webhooks import DeliveryFailed, Webhook, backoff_seconds, deliver

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


class WorkerRuntime:
    """What one worker process (or thread) keeps from task to task: an event loop, the
    service built on it (a Redis pool, a Celery producer) and a Redis client for the
    delivery counts. A task so costs no new connections, and no new Celery app."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.pid = os.getpid()
        self._runner = asyncio.Runner()
        self.gameplay = self._runner.run(_build(settings))
        self.counts = sync_redis.Redis.from_url(settings.redis_url) if settings.redis_url else None

    def run(self, work: Callable[[Gameplay], Awaitable[T]]) -> T:
        """`work(gameplay)`, run to its end on this runtime's event loop."""

        async def main() -> T:
            return await work(self.gameplay)

        return self._runner.run(main())

    def close(self) -> None:
        with contextlib.suppress(*RECONNECT_ERRORS):
            self._runner.run(self.gameplay.close())
        self._runner.close()
        if self.counts is not None:
            self.counts.close()


async def _build(settings: Settings) -> Gameplay:
    # Built inside the loop that will use it: the Redis pool's connections belong to it.
    return build_service(settings, role="worker")


_local = threading.local()


def runtime(settings: Settings) -> WorkerRuntime:
    """This process's (and thread's) runtime for `settings`, made at its first task. A
    forked child makes its own: connections do not cross a fork."""
    current: WorkerRuntime | None = getattr(_local, "runtime", None)
    if current is not None and current.pid == os.getpid() and current.settings is settings:
        return current
    if current is not None and current.pid == os.getpid():
        current.close()
    fresh = WorkerRuntime(settings)
    _local.runtime = fresh
    return fresh


@worker_process_shutdown.connect
def _close_runtime(**_: object) -> None:
    current: WorkerRuntime | None = getattr(_local, "runtime", None)
    if current is not None and current.pid == os.getpid():
        current.close()
        _local.runtime = None


async def sweep(gameplay: Gameplay, settings: Settings) -> int:
    """Clocks that ran out, then games that stalled, then tournaments that stalled, then
    the webhooks of commits whose process died before handing them over, then the
    webhooks the broker could not take. Returns how many games and tournaments it acted
    on or looked at, commits whose webhooks it sent, and kept webhooks it sent."""
    looked = await gameplay.referee.enforce_clocks()
    looked += await gameplay.referee.resend_stalled(stall_seconds(settings))
    looked += await gameplay.tournaments.sweep_stalled(stall_seconds(settings))
    looked += await gameplay.referee.send_owed_webhooks(settings.task_stall_seconds)
    return looked + await gameplay.resend_kept_webhooks()


@app.task(name=ADVANCE_TASK, acks_late=True, reject_on_worker_lost=True)
def advance(game_id: str, version: int) -> None:
    """Play one bot move or score the game, if it is still at `version`."""
    settings = get_settings()
    here = runtime(settings)

    def step() -> None:
        here.run(lambda gameplay: gameplay.referee.advance(game_id, version))

    if here.counts is None:
        step()
        return
    counts = here.counts
    _, unfinished = with_reconnects(
        settings,
        ADVANCE_TASK,
        lambda: start_delivery(counts, settings, ADVANCE_TASK, game_id, version),
    )
    if unfinished > settings.task_max_deliveries:
        _give_up(here, game_id, version, unfinished)
    else:
        with_reconnects(settings, ADVANCE_TASK, step)
    with_reconnects(
        settings,
        ADVANCE_TASK,
        lambda: counts.decr(unfinished_key(settings, ADVANCE_TASK, game_id, version)),
    )


def _give_up(here: WorkerRuntime, game_id: str, version: int, unfinished: int) -> None:
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
        here.settings,
        ADVANCE_TASK,
        lambda: here.run(lambda gameplay: gameplay.referee.give_up(game_id, version, reason)),
    )


@app.task(bind=True, name=WEBHOOK_TASK, acks_late=True, reject_on_worker_lost=True)
def deliver_webhook(
    self: Task, event_id: str, event_type: str, url: str, payload: dict[str, Any]
) -> None:
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
    """Apply the time-out policy to games whose clock ran out, send again the turns of
    games that stalled, send the webhooks commits owe whose committer died, and hand the
    broker the webhooks kept while it was down (run by
    beat, every SKYPORT_CLOCK_SWEEP_SECONDS). Each action is a compare-and-set or an
    atomic claim. While Redis is unreachable it does nothing: the next one will."""
    settings = get_settings()
    if not settings.redis_url:
        return 0
    try:
        return runtime(settings).run(lambda gameplay: sweep(gameplay, settings))
    except RECONNECT_ERRORS as error:
        log.warning("sweep_skipped", error=repr(error))
        return 0
