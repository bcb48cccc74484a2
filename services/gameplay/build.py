"""`build_service(settings)`: the one place where the service is put together, for the
API (`services.api.app`), the workers (`workers.tasks`), the CLI and the tests.

The parts and who uses whom:

    GameService ──▶ CommitPipeline ──▶ hooks: NextStep ──▶ Dispatcher, ClockDeadlines,
        │                                     CommitMetrics, WebhookNotifier
        └─────────▶ Referee (bots, scoring, time-outs, lost turns) ──▶ the same pipeline

In embedded mode the in-process dispatcher runs `Referee.advance` in this event loop;
with Celery the workers run it, each with a service built here too.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Mapping
from dataclasses import dataclass, field
from types import TracebackType
from typing import Literal

import structlog
from redis.asyncio import Redis

from services.engine import Game, all_games
from services.store import GameStore, Lifetimes, LiveUpdates, open_redis
from services.store.tournaments import TournamentStore
from services.store.webhooks_owed import OwedWebhooks

from .archive import RecordArchive
from .auth import Credentials
from .bulk import BulkCreation
from .clocks import ClockDeadlines
from .commits import CommitMetrics, CommitPipeline, NextStep
from .creation_quota import CreationQuota
from .deals import DealsInPlay
from .dispatch import (
    Advance,
    CeleryDispatcher,
    Dispatcher,
    InProcessDispatcher,
    KeepsWebhooks,
    WebhookSender,
    webhook_policy,
)
from .leavers import SeatsAway
from .notifier import WebhookNotifier
from .parsed_states import ParsedStates
from .referee import Referee, budgeted_bots
from .served import ServedGames
from .service import GameService
from .settings import Settings
from .tournament_runner import TournamentRunner

log = structlog.get_logger(__name__)

CLOSE_STEP_SECONDS = 10.0
"""The longest one step of a shutdown may take (the dispatcher's own bound is 5 s)."""

Role = Literal["api", "worker"]
"""Who the service is for. A worker always hands the next step to the workers (Celery),
whatever the API's mode, and needs few Redis connections (one task at a time)."""

WORKER_REDIS_CONNECTIONS = 4


@dataclass
class Gameplay:
    """The service and the parts a process must start and close."""

    settings: Settings
    redis: Redis
    store: GameStore
    live: LiveUpdates
    dispatcher: Dispatcher
    referee: Referee
    service: GameService
    tournaments: TournamentRunner
    bulk: BulkCreation
    _sweeper: asyncio.Task[None] | None = field(default=None, init=False)
    _listening: bool = field(default=False, init=False)

    async def start(self) -> None:
        """For a serving process: listen for live updates and, when it runs the bots
        itself (where no worker runs the sweep), sweep the clocks, the stalled turns
        (such as those a restart cut short), the stalled tournaments and the webhooks
        owed by commits whose process died before its hooks in this event loop."""
        await self.live.start()
        self._listening = True
        if isinstance(self.dispatcher, InProcessDispatcher):
            every = self.settings.clock_sweep_seconds
            self._sweeper = asyncio.get_running_loop().create_task(
                self._sweep_clocks(every), name="skyport-clock-sweep"
            )

    async def _sweep_clocks(self, every: float) -> None:
        while True:
            await asyncio.sleep(every)
            try:
                await self.referee.enforce_clocks()
            except Exception as error:
                log.error("clock_sweep_failed", exc_info=error)
            try:
                await self.referee.resend_stalled(self.settings.task_stall_seconds)
            except Exception as error:
                log.error("turn_sweep_failed", exc_info=error)
            try:
                await self.tournaments.sweep_stalled(self.settings.task_stall_seconds)
            except Exception as error:
                log.error("tournament_sweep_failed", exc_info=error)
            try:
                await self.referee.send_owed_webhooks(self.settings.task_stall_seconds)
            except Exception as error:
                log.error("owed_webhooks_sweep_failed", exc_info=error)

    async def resend_kept_webhooks(self) -> int:
        """The sweep's part for webhooks the broker could not take: hands the due ones
        to it again. Only a Celery dispatcher keeps any (the in-process one delivers in
        this process, with no broker to refuse them)."""
        if isinstance(self.dispatcher, KeepsWebhooks):
            return await self.dispatcher.resend_kept_webhooks()
        return 0

    async def close(self) -> None:
        """Stops everything this process runs; each step is bounded, so a stuck one
        cannot hold up the process's exit."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            await _bounded("clock_sweep", asyncio.wait({self._sweeper}))
            self._sweeper = None
        close = getattr(self.dispatcher, "close", None)
        if close is not None:
            await _bounded("dispatcher", close())
        if self._listening:
            await _bounded("live_updates", self.live.stop())
            self._listening = False
        await _bounded("redis", self.redis.aclose())

    async def __aenter__(self) -> Gameplay:
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()


async def _bounded(step: str, work: Awaitable[object]) -> None:
    try:
        async with asyncio.timeout(CLOSE_STEP_SECONDS):
            await work
    except TimeoutError:
        log.warning("shutdown_step_timed_out", step=step, seconds=CLOSE_STEP_SECONDS)


def build_service(
    settings: Settings,
    *,
    games: Mapping[str, Game] | None = None,
    role: Role = "api",
    dispatcher: Dispatcher | None = None,
) -> Gameplay:
    """The service for `settings`, serving `games` (default: every registered game).
    `dispatcher` replaces the one the settings call for (tests: one that records)."""
    served = ServedGames(games if games is not None else {game.id: game for game in all_games()})
    redis = open_redis(
        settings.redis_url,
        max_connections=WORKER_REDIS_CONNECTIONS
        if role == "worker"
        else settings.redis_max_connections,
        pool_timeout=settings.redis_pool_timeout,
    )
    store = GameStore(
        redis,
        settings.key_prefix,
        Lifetimes(
            finished_game=settings.finished_game_ttl,
            abandoned_game=settings.abandoned_game_ttl,
            idempotency=settings.idempotency_ttl,
        ),
    )
    live = LiveUpdates(redis, settings.key_prefix)

    async def advance(game_id: str, version: int) -> None:
        await referee.advance(game_id, version)  # the referee below: in-process dispatch

    if dispatcher is None:
        dispatcher = _dispatcher(settings, role, redis, advance)
    notifier = WebhookNotifier(
        _webhook_sender(dispatcher), OwedWebhooks(redis, settings.key_prefix)
    )
    deadlines = ClockDeadlines(store)
    # The steps the game needs first: a webhook that cannot be sent must not hold them up.
    pipeline = CommitPipeline(store, [NextStep(dispatcher), deadlines, CommitMetrics(), notifier])
    archive = RecordArchive(redis, settings.key_prefix, settings.record_ttl)
    states = ParsedStates()
    referee = Referee(
        store=store,
        served=served,
        pipeline=pipeline,
        deadlines=deadlines,
        dispatcher=dispatcher,
        notifier=notifier,
        seats_away=SeatsAway(store),
        archive=archive,
        bot_maker=budgeted_bots(settings.bot_mcts_seconds, settings.bot_mcts_iterations),
        states=states,
    )
    tournament_store = TournamentStore(redis, settings.key_prefix, settings.abandoned_game_ttl)
    service = GameService(
        store=store,
        served=served,
        live=live,
        pipeline=pipeline,
        referee=referee,
        anonymous_create=settings.anonymous_create,
        keepalive=settings.stream_keepalive,
        outage_limit=settings.stream_outage_limit,
        key_webhooks=key_webhooks(settings),
        webhook_allow_private=settings.webhook_allow_private,
        archive=archive,
        invite_ttl=settings.invite_ttl,
        states=states,
        creation_quota=(
            CreationQuota(redis, settings.key_prefix, settings.create_limit_per_ip)
            if settings.create_limit_per_ip
            else None
        ),
        deals=DealsInPlay(tournament_store),
    )
    tournaments = TournamentRunner(
        service,
        tournament_store,
        _webhook_sender(dispatcher),
        service.key_webhooks,
    )
    referee.game_ended = tournaments.game_ended
    bulk = BulkCreation(service)
    return Gameplay(settings, redis, store, live, dispatcher, referee, service, tournaments, bulk)


def _dispatcher(settings: Settings, role: Role, redis: Redis, advance: Advance) -> Dispatcher:
    """Bots and scoring in this process (embedded mode), or on the Celery workers."""
    broker = settings.celery_broker_url
    if role == "api" and (settings.task_mode == "inprocess" or broker is None):
        return InProcessDispatcher(
            advance, webhook_policy(settings), pending=redis, prefix=settings.key_prefix
        )
    return CeleryDispatcher(
        broker or "",
        settings.task_queue,
        claims=redis if settings.redis_url else None,
        prefix=settings.key_prefix,
        # Longer than a redelivery takes, so a read of the game re-sends only lost tasks.
        claim_seconds=3 * settings.task_visibility_timeout,
        outbox_max_entries=settings.webhook_outbox_max_entries,
        outbox_max_age=settings.webhook_outbox_max_age,
    )


def _webhook_sender(dispatcher: Dispatcher) -> WebhookSender | None:
    return dispatcher if isinstance(dispatcher, WebhookSender) else None


def key_webhooks(settings: Settings) -> dict[str, str]:
    """SKYPORT_API_KEY_WEBHOOKS by creator scope (what a game record keeps of its key)."""
    return {
        Credentials(bearer=key, client_ip="", platform=True).scope: url
        for key, url in settings.api_key_webhooks.items()
    }
