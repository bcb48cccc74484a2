"""What happens after a commit without a client asking: bot turns and scoring.

The seam is one method, `after_commit(game_id, version)`. The work itself is
`Referee.advance(game_id, version)`, which is idempotent: it acts only if the game is
still at `version`, so a repeated or stale call is a no-op. This in-process dispatcher
runs it as background asyncio tasks (embedded mode); `CeleryDispatcher` sends the same
(game_id, version) to the workers (`workers/tasks.py`) instead.

Both are awaited from the event loop and never block it: the Celery dispatcher claims a
turn on the async Redis client and hands `send_task` (a blocking broker round trip) to
a small thread pool of its own.

A webhook the broker cannot take is kept in a Redis outbox (`services.store.
webhook_outbox`) and handed to the broker again by the sweep (`resend_kept_webhooks`).
The in-process dispatcher hands nothing to a broker, so it has no such failure and keeps
nothing: it delivers in this process, retried with back-off, as long as it runs.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import structlog
from redis.asyncio import Redis

from services.store.progress import note_moved
from services.store.webhook_outbox import KeptWebhook, WebhookOutbox

from . import metrics
from .webhooks import DeliveryFailed, Webhook, backoff_seconds, deliver

if TYPE_CHECKING:
    from .settings import Settings

log = structlog.get_logger(__name__)

Advance = Callable[[str, int], Awaitable[None]]


class Dispatcher(Protocol):
    async def after_commit(self, game_id: str, version: int, *, moved: bool = True) -> None:
        """Game `game_id` now is at `version`: play bots or score it if that is due.
        `moved`: a commit just made that version (not a re-kick of a version seen)."""

    async def resend(self, game_id: str, version: int) -> None:
        """Send the turn at `version` again even if it was sent before (the sweep found
        the game stalled: its task was lost)."""


class NoDispatch:
    """Sends nothing: for a caller that advances its games itself (`Referee.advance`),
    as the benches and tests that play bot turns one by one do."""

    async def after_commit(self, game_id: str, version: int, *, moved: bool = True) -> None:
        return None

    async def resend(self, game_id: str, version: int) -> None:
        return None


@runtime_checkable
class WebhookSender(Protocol):
    async def send_webhook(
        self, event_id: str, event_type: str, url: str, payload: dict[str, Any]
    ) -> None:
        """POST `payload` to `url`, signed, retried with back-off (at least once)."""


@runtime_checkable
class KeepsWebhooks(Protocol):
    async def resend_kept_webhooks(self, limit: int = ...) -> int:
        """Hand the due webhooks of the outbox to the broker again; returns how many
        it took. Safe on any number of sweepers at once."""


@dataclass(frozen=True)
class WebhookPolicy:
    """How webhooks are signed and retried (the same on workers and in-process)."""

    secret: str | None
    max_retries: int = 8
    backoff_seconds: float = 1.0
    backoff_max: float = 20.0
    timeout: float = 10.0
    allow_private: bool = False


async def deliver_with_retries(
    policy: WebhookPolicy, event_id: str, event_type: str, url: str, payload: dict[str, Any]
) -> bool:
    """Embedded mode's delivery: the workers' `deliver`, retried in this event loop with
    the workers' back-off. Returns whether the receiver took it."""
    if not policy.secret:
        log.error("webhook_not_signed", event_id=event_id, reason="SKYPORT_WEBHOOK_SECRET unset")
        return False
    webhook = Webhook(event_id, event_type, url, payload)
    for retry in range(policy.max_retries + 1):
        try:
            await asyncio.to_thread(
                deliver,
                webhook,
                policy.secret,
                timeout=policy.timeout,
                allow_private=policy.allow_private,
            )
            return True
        except DeliveryFailed as error:
            log.warning("webhook_failed", event_id=event_id, retry=retry, error=str(error))
            if retry < policy.max_retries:
                await asyncio.sleep(
                    backoff_seconds(retry, policy.backoff_seconds, policy.backoff_max)
                )
    log.error("webhook_given_up", event_id=event_id, url=url)
    return False


class InProcessDispatcher:
    """Runs `advance` in background tasks of this process, one per (game, version)."""

    def __init__(
        self,
        advance: Advance,
        webhooks: WebhookPolicy | None = None,
        *,
        pending: Redis | None = None,
        prefix: str = "skyport",
    ) -> None:
        self._advance = advance
        self._running: dict[tuple[str, int], asyncio.Task[None]] = {}
        self._webhooks = webhooks
        self._deliveries: set[asyncio.Task[Any]] = set()
        self._pending = pending
        """Where the pending index is, as with Celery: a turn this process was running
        when it stopped is found there by the sweep of the process that comes next."""
        self._prefix = prefix
        self._closing = False

    async def after_commit(self, game_id: str, version: int, *, moved: bool = True) -> None:
        if self._pending is not None:
            async with self._pending.pipeline(transaction=False) as pipe:
                note_moved(pipe, self._prefix, game_id, _now_ms(), moved=moved)
                await pipe.execute()
        key = (game_id, version)
        if key in self._running or self._closing:
            return  # closing: the turn is noted pending, for the sweep of whoever comes next
        task = asyncio.get_running_loop().create_task(self._run(key), name=f"advance-{key}")
        self._running[key] = task

    async def resend(self, game_id: str, version: int) -> None:
        await self.after_commit(game_id, version, moved=False)

    async def _run(self, key: tuple[str, int]) -> None:
        try:
            await self._advance(*key)
        except Exception as error:
            log.error("advance_failed", game_id=key[0], version=key[1], exc_info=error)
        finally:
            self._running.pop(key, None)

    async def send_webhook(
        self, event_id: str, event_type: str, url: str, payload: dict[str, Any]
    ) -> None:
        if self._webhooks is None:
            return
        delivery = deliver_with_retries(self._webhooks, event_id, event_type, url, payload)
        task = asyncio.get_running_loop().create_task(delivery, name=f"webhook-{event_id}")
        self._deliveries.add(task)
        task.add_done_callback(self._deliveries.discard)

    @property
    def busy(self) -> int:
        return len(self._running)

    async def close(self) -> None:
        """Cancel what runs, and wait for it a bounded time: a bot move in a thread cannot
        be interrupted, and shutting down must not wait on it for ever. A turn cancelled
        after its commit landed still hands over its webhooks, which start tasks of their
        own while this waits: they are cancelled and waited for too, or the loop would
        end with them pending (and their connections' release never awaited)."""
        self._closing = True
        deadline = asyncio.get_running_loop().time() + CLOSE_WAIT_SECONDS
        while tasks := [*self._running.values(), *self._deliveries]:
            for task in tasks:
                task.cancel()
            left = deadline - asyncio.get_running_loop().time()
            _, pending = await asyncio.wait(tasks, timeout=max(left, 0))
            if pending:
                log.warning("dispatcher_closed_with_tasks_running", tasks=len(pending))
                return


CLOSE_WAIT_SECONDS = 5.0
"""How long closing waits for cancelled bot turns and webhook deliveries."""

ADVANCE_TASK = "skyport.advance"
"""Name of the workers' task that runs `Referee.advance(game_id, version)`."""
WEBHOOK_TASK = "skyport.deliver_webhook"
"""Name of the workers' task that POSTs one webhook (args: event id, type, url, payload)."""

OUTBOX_BATCH = 100
"""Most kept webhooks one sweep hands to the broker (the oldest due first; the next
sweep goes on)."""
OUTBOX_LEASE_MS = 60_000
"""How long a sweep's claim on a kept webhook lasts: if the sweeper dies before the broker
took it, another sends it after this."""
OUTBOX_BACKOFF_MS = (5_000, 60_000)
"""Shortest and longest wait before a kept webhook the broker refused again is tried
again: as long as it has been kept (so the wait doubles), within these bounds."""


class CeleryDispatcher:
    """Sends `(game_id, version)` to the Celery workers' `skyport.advance` task.

    Only a producer: it does not import the workers' code. A (game, version) is sent
    once per `claim_seconds` (a Redis SET NX claim), so clients polling a game whose bot
    is thinking do not queue the same turn again and again.

    With the claim, every commit notes the game in the pending index
    (`services.store.progress`) before its task is sent. Progress so rests on the stored
    state: if the task is lost (a worker killed, the broker down), the game stays in the
    index and the workers' sweep sends its turn again (`resend`, past the claim).

    With the same Redis, a webhook the broker cannot take is kept in the outbox
    (`services.store.webhook_outbox`, bounded by `outbox_max_entries` and
    `outbox_max_age` seconds) and the sweep hands it over later (`resend_kept_webhooks`).

    One instance per process: its Celery app keeps the broker connection and producer
    pool, and its threads send the tasks, so the event loop never waits on the broker.
    """

    def __init__(
        self,
        broker_url: str,
        queue: str,
        *,
        claims: Redis | None = None,
        prefix: str = "skyport",
        claim_seconds: int = 30,
        senders: int = 4,
        outbox_max_entries: int = 10_000,
        outbox_max_age: int = 86_400,
    ) -> None:
        from celery import Celery

        from .broker import transport_for

        self._celery = Celery("skyport-api", broker=broker_url, set_as_current=False)
        self._celery.conf.update(
            broker_transport=transport_for(broker_url),
            task_serializer="json",
            accept_content=["json"],
            broker_connection_retry_on_startup=True,
        )
        self._queue = queue
        self._claims = claims
        self._prefix = prefix
        self._claim_seconds = claim_seconds
        self._senders = ThreadPoolExecutor(senders, thread_name_prefix="skyport-send")
        self._outbox = (
            WebhookOutbox(
                claims,
                prefix,
                max_entries=outbox_max_entries,
                max_age_ms=outbox_max_age * 1000,
            )
            if claims is not None
            else None
        )

    def _claim_key(self, game_id: str, version: int) -> str:
        return f"{self._prefix}:{{{game_id}}}:sent:{version}"

    async def after_commit(self, game_id: str, version: int, *, moved: bool = True) -> None:
        if self._claims is not None:
            async with self._claims.pipeline(transaction=False) as pipe:
                note_moved(pipe, self._prefix, game_id, _now_ms(), moved=moved)
                pipe.set(self._claim_key(game_id, version), "1", nx=True, ex=self._claim_seconds)
                _, claimed = await pipe.execute()
            if not claimed:
                return
        await self._send(game_id, version)

    async def resend(self, game_id: str, version: int) -> None:
        if self._claims is not None:
            await self._claims.set(self._claim_key(game_id, version), "1", ex=self._claim_seconds)
        await self._send(game_id, version)

    async def _send(self, game_id: str, version: int) -> None:
        try:
            await self._in_thread(ADVANCE_TASK, [game_id, version])
        except Exception as error:
            # The game is in the pending index: the sweep sends this turn once the broker
            # is back. The commit stands, so whoever committed is not told it failed.
            log.warning("advance_not_sent", game_id=game_id, version=version, error=repr(error))
            return
        log.debug("advance_sent", game_id=game_id, version=version)

    async def send_webhook(
        self, event_id: str, event_type: str, url: str, payload: dict[str, Any]
    ) -> None:
        """Hands the delivery to the workers; if the broker cannot take it, the webhook
        is kept in the outbox for the sweep to send later, and the caller goes on: it is
        sent after a change that stands, and whatever comes next (the clocks, a bot's
        turn, a tournament's report) must not wait for the broker. If it cannot be kept
        either (Redis down too), it is logged and counted as not sent."""
        try:
            await self._in_thread(WEBHOOK_TASK, [event_id, event_type, url, payload])
        except Exception as error:
            await self._keep(event_id, event_type, url, payload, error)

    async def _keep(
        self,
        event_id: str,
        event_type: str,
        url: str,
        payload: dict[str, Any],
        error: Exception,
    ) -> None:
        if self._outbox is None:
            metrics.WEBHOOKS_NOT_SENT.inc()
            log.error("webhook_not_sent", event_id=event_id, url=url, error=repr(error))
            return
        try:
            kept = await self._outbox.keep(event_id, event_type, url, payload, _now_ms())
        except Exception as keep_error:
            metrics.WEBHOOKS_NOT_SENT.inc()
            log.error(
                "webhook_not_sent",
                event_id=event_id,
                url=url,
                error=repr(error),
                outbox_error=repr(keep_error),
            )
            return
        metrics.WEBHOOKS_KEPT.inc()
        log.warning("webhook_kept", event_id=event_id, url=url, error=repr(error))
        _count_dropped("too_old", kept.expired)
        _count_dropped("outbox_full", kept.dropped)

    async def resend_kept_webhooks(self, limit: int = OUTBOX_BATCH) -> int:
        """The sweep's part for webhooks: hands up to `limit` due webhooks of the outbox
        to the broker, oldest due first, each removed once the broker took it. The first
        the broker refuses again is tried again after a back-off, and the rest of the
        batch at the next sweep (one refusal per sweep while the broker is down). Each
        entry is claimed first, so concurrent sweeps send it once. Returns how many
        the broker took."""
        if self._outbox is None:
            return 0
        now = _now_ms()
        claimed, expired = await self._outbox.claim(now, limit, OUTBOX_LEASE_MS)
        _count_dropped("too_old", expired)
        sent = 0
        for index, webhook in enumerate(claimed):
            try:
                await self._in_thread(WEBHOOK_TASK, _task_args(webhook))
            except Exception as error:
                low, high = OUTBOX_BACKOFF_MS
                wait = min(max(now - webhook.kept_at_ms, low), high)
                log.warning(
                    "webhook_still_not_sent",
                    event_id=webhook.event_id,
                    url=webhook.url,
                    retry_in_ms=wait,
                    error=repr(error),
                )
                rest = [(other, now) for other in claimed[index + 1 :]]
                await self._outbox.later([(webhook, now + wait), *rest])
                break
            await self._outbox.sent(webhook)
            metrics.WEBHOOKS_RESENT.inc()
            log.info("webhook_resent", event_id=webhook.event_id, url=webhook.url)
            sent += 1
        return sent

    async def _in_thread(self, task: str, args: list[Any]) -> None:
        def send() -> None:
            self._celery.send_task(task, args=args, queue=self._queue)

        await asyncio.get_running_loop().run_in_executor(self._senders, send)

    async def close(self) -> None:
        await asyncio.get_running_loop().run_in_executor(None, self._senders.shutdown)
        self._celery.close()


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


def _now_ms() -> int:
    return int(time.time() * 1000)


def _task_args(webhook: KeptWebhook) -> list[Any]:
    return [webhook.event_id, webhook.event_type, webhook.url, webhook.payload]


def _count_dropped(reason: str, entries: list[str]) -> None:
    """Webhooks dropped from the outbox unsent (`<event id> <url>` each): given up."""
    if entries:
        metrics.WEBHOOKS_NOT_SENT.inc(len(entries))
        log.error("webhooks_dropped_from_outbox", reason=reason, webhooks=entries)
