"""Games never stop: progress rests on the stored state, not on one task's survival.

- A stale delivery (its game moved on) sends the current version's turn if it was never
  sent: the task that committed it died before it could.
- The sweep sends again the turn of a game whose bot or scoring is due and that has not
  moved for SKYPORT_TASK_STALL_SECONDS (its task was lost), from the pending index, and
  steps a running tournament not stepped for as long (its last game's report was lost).
- Tasks wait out a Redis outage in place, then hand their message back; never acked.
- A turn whose deliveries keep dying ends its game (aborted) instead of hanging it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import redis as sync_redis
from celery.exceptions import Reject
from kombu.exceptions import OperationalError
from starlette.testclient import TestClient
from worker_harness import FINAL, PLATFORM_KEY, WorkerSetup, wait_for

from services.api.app import create_app
from services.gameplay.auth import Credentials
from services.gameplay.build import Gameplay, build_service
from services.gameplay.dispatch import ADVANCE_TASK, CeleryDispatcher
from services.gameplay.payloads import CreateGameRequest
from services.gameplay.settings import Settings
from services.gameplay.tournament_payloads import CreateTournamentRequest
from services.store import GameStatus, open_redis
from services.store.progress import pending_key
from services.store.tournaments import running_key
from workers.tasks import sweep, unfinished_key, with_reconnects

pytestmark = pytest.mark.timeout(180)

ANYONE = Credentials(None, "127.0.0.1")


# --- waiting out Redis ------------------------------------------------------------------


def flaky(failures: list[Exception]) -> Any:
    calls: list[int] = []

    def run() -> str:
        calls.append(1)
        if len(calls) <= len(failures):
            raise failures[len(calls) - 1]
        return "done"

    run.calls = calls  # type: ignore[attr-defined]
    return run


def test_a_task_waits_out_redis_and_the_broker_being_unreachable_then_runs() -> None:
    run = flaky(
        [
            sync_redis.ConnectionError("Connection refused"),
            sync_redis.TimeoutError("Timeout reading from socket"),
            OperationalError("broker unreachable"),
            sync_redis.BusyLoadingError("Redis is loading the dataset in memory"),
        ]
    )
    assert with_reconnects(Settings(task_retry_seconds=30), "test", run) == "done"
    assert len(run.calls) == 5


def test_a_task_hands_its_message_back_when_redis_stays_away() -> None:
    run = flaky([sync_redis.ConnectionError("Connection refused")] * 1000)
    started = time.monotonic()
    with pytest.raises(Reject) as raised:
        with_reconnects(Settings(task_retry_seconds=1), "test", run)
    assert raised.value.requeue is True, "handed back to the queue, not acked as done"
    assert 1 < len(run.calls) < 20 and time.monotonic() - started < 5


def test_other_errors_are_not_retried() -> None:
    run = flaky([ValueError("a bug")])
    with pytest.raises(ValueError):
        with_reconnects(Settings(task_retry_seconds=30), "test", run)
    assert len(run.calls) == 1


# --- the pending index and the sweep ------------------------------------------------------


class Recorder:
    """A dispatcher that only records what it was asked to send (nothing while muted: a
    worker that died before it could send)."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, int]] = []
        self.resent: list[tuple[str, int]] = []
        self.muted = False

    async def after_commit(self, game_id: str, version: int, *, moved: bool = True) -> None:
        if not self.muted:
            self.sent.append((game_id, version))

    async def resend(self, game_id: str, version: int) -> None:
        if not self.muted:
            self.resent.append((game_id, version))


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
async def gameplay(redis_url, key_prefix, games, recorder):
    settings = Settings(redis_url=redis_url, key_prefix=key_prefix)
    async with build_service(settings, games=games, dispatcher=recorder) as built:
        yield built


async def create(gameplay: Gameplay, seats: list[dict]) -> str:
    request = CreateGameRequest(game="hidden-numbers", seats=seats, seed=3)
    created, _ = await gameplay.service.create_game(ANYONE, request, None)
    return created.id


@pytest.mark.anyio
async def test_the_sweep_resends_each_stalled_game_with_work_due_once(gameplay, recorder) -> None:
    redis = gameplay.store.redis
    index = pending_key(gameplay.store.prefix)
    bot_due = await create(gameplay, [{"name": "Bot", "bot": "random"}, {"name": "Ann"}])
    human_due = await create(gameplay, [{"name": "Ann"}, {"name": "Bo"}])
    fresh = await create(gameplay, [{"name": "Bot", "bot": "random"}, {"name": "Ann"}])
    scoring = await create(gameplay, [{"name": "Ann"}, {"name": "Bo"}])
    await gameplay.store.transition(scoring, 0, [GameStatus.ACTIVE], GameStatus.SCORING, "x")
    now = int(time.time() * 1000)
    old = now - 60_000
    await redis.zadd(
        index, {bot_due: old, human_due: old, scoring: old, fresh: now, "gone" * 6: old}
    )

    # Two sweeps at once (two workers): each stalled game is sent once.
    sweeps = (gameplay.referee.resend_stalled(5), gameplay.referee.resend_stalled(5))
    counts = await asyncio.gather(*sweeps)
    assert sorted(recorder.resent) == sorted([(bot_due, 0), (scoring, 0)])
    assert sum(counts) == 2
    scores = dict(await redis.zrange(index, 0, -1, withscores=True))
    assert set(scores) == {bot_due, scoring, fresh}, "nothing due, or gone: out of the index"
    assert scores[bot_due] >= now and scores[scoring] >= now, "looked at again later"

    # Right after: nothing has stalled for 5 s any more, so nothing is sent again.
    assert await gameplay.referee.resend_stalled(5) == 0
    assert len(recorder.resent) == 2


@pytest.mark.anyio
async def test_the_sweep_finishes_a_tournament_whose_last_report_was_lost(
    gameplay, recorder
) -> None:
    platform = Credentials(bearer="platform-key-for-tests-0001", client_ip="", platform=True)
    request = CreateTournamentRequest.model_validate(
        {
            "game": "hidden-numbers",
            "participants": [{"name": "Ada"}, {"name": "Grace"}],
            "format": {"kind": "round_robin"},
        }
    )
    created, _ = await gameplay.tournaments.create(platform, request)
    ada = Credentials(bearer=created.participants[0].token, client_ip="")
    (first,) = (await gameplay.tournaments.mine(created.id, ada)).rounds
    assert first.game_id is not None and first.seat_token is not None
    seat = Credentials(bearer=first.seat_token, client_ip="")
    await gameplay.service.resign(first.game_id, seat, None, None)
    # The worker scores the game, and dies before its report reaches the tournament.
    gameplay.referee.game_ended = None
    game_id, version = recorder.sent[-1]
    await gameplay.referee.advance(game_id, version)
    game = await gameplay.store.load(first.game_id)
    assert game is not None and game.status is GameStatus.FINISHED
    assert (await gameplay.tournaments.document(created.id)).status == "running"
    # Not stepped for a minute: beat's sweep steps it.
    index = running_key(gameplay.store.prefix)
    await gameplay.store.redis.zadd(index, {created.id: int(time.time() * 1000) - 60_000})
    assert await sweep(gameplay, gameplay.settings) >= 1
    document = await gameplay.tournaments.document(created.id)
    assert document.status == "finished" and document.standings[0].name == "Grace"
    assert await gameplay.store.redis.zscore(index, created.id) is None


@pytest.mark.anyio
async def test_a_stale_advance_sends_the_current_turn_only_if_a_bot_is_due(
    gameplay, recorder
) -> None:
    bots = await create(gameplay, [{"name": "A", "bot": "random"}, {"name": "B", "bot": "random"}])
    human = await create(gameplay, [{"name": "Bot", "bot": "random"}, {"name": "Ann"}])
    recorder.sent.clear()
    recorder.muted = True
    await gameplay.referee.advance(bots, 0)  # committed version 1, then "died": nothing sent
    await gameplay.referee.advance(human, 0)  # now the human is prompted
    recorder.muted = False
    await gameplay.referee.advance(bots, 0)  # the redelivery of the version-0 task: stale
    await gameplay.referee.advance(human, 0)
    assert recorder.sent == [(bots, 1)]


def test_the_dispatcher_indexes_the_game_before_it_sends_and_survives_a_dead_broker(
    redis_url: str, key_prefix: str
) -> None:
    dead_broker = "redis://127.0.0.1:9/0"  # the discard port: nothing listens

    async def commit_and_dispatch() -> None:
        claims = open_redis(redis_url)
        dispatcher = CeleryDispatcher(
            dead_broker, f"{key_prefix}.q", claims=claims, prefix=key_prefix
        )
        dispatcher._celery.conf.broker_transport_options = {"max_retries": 1}
        await dispatcher.after_commit("g" * 24, 4)  # does not raise: the commit stands
        await dispatcher.close()
        await claims.aclose()

    started = time.monotonic()
    asyncio.run(commit_and_dispatch())
    assert time.monotonic() - started < 30
    check = sync_redis.Redis.from_url(redis_url, decode_responses=True)
    try:
        score = check.zscore(pending_key(key_prefix), "g" * 24)
        assert score is not None and abs(score - time.time() * 1000) < 60_000
    finally:
        check.close()


# --- real workers -------------------------------------------------------------------------


@contextmanager
def api(setup: WorkerSetup) -> Iterator[TestClient]:
    with TestClient(create_app(setup.settings)) as client:
        yield client


def create_over_api(client: TestClient, game: str, seats: list[dict], **body: Any) -> str:
    response = client.post(
        "/v1/games",
        json={"game": game, "seats": seats, "seed": 7, **body},
        headers={"Authorization": f"Bearer {PLATFORM_KEY}"},
    )
    assert response.status_code == 201, response.text
    return response.json()["id"]


def stored(setup: WorkerSetup, game_id: str) -> tuple[int, str]:
    """(version, status) straight from Redis: reading through the API would nudge it."""
    store = setup.store()
    try:
        version, status = store.hmget(
            f"{setup.settings.key_prefix}:{{{game_id}}}:game", "version", "status"
        )
    finally:
        store.close()
    return int(version), status


async def advance_without_sending(settings: Settings, game_id: str, version: int) -> None:
    """A worker that commits the bot's move at `version` and dies before it sends the next."""
    silent = Recorder()
    silent.muted = True
    async with build_service(settings, role="worker", dispatcher=silent) as gameplay:
        await gameplay.referee.advance(game_id, version)


ALL_BOTS = [{"name": "A", "bot": "random"}, {"name": "B", "bot": "greedy"}]


def test_a_stale_redelivery_sends_the_turn_its_committer_never_sent(worker_setup) -> None:
    setup = worker_setup()
    with api(setup) as client:
        game_id = create_over_api(client, "sky-islands", ALL_BOTS)  # advance(0) is queued
        asyncio.run(advance_without_sending(setup.settings, game_id, 0))
        assert stored(setup, game_id) == (1, "active")
        # No sweep runs (no --beat) and no one reads the game: only the stale task is left.
        setup.start_worker()
        wait_for(lambda: stored(setup, game_id)[1] in FINAL, 90, "the game to end")
        assert stored(setup, game_id)[1] == "finished"


def test_the_sweep_sends_again_a_turn_whose_task_was_lost(worker_setup) -> None:
    setup = worker_setup(task_stall_seconds=2, clock_sweep_seconds=0.5)
    with api(setup) as client:
        game_id = create_over_api(client, "sky-islands", ALL_BOTS)
        broker = setup.broker()
        try:
            assert broker.delete(setup.settings.task_queue) == 1, "the only task, lost"
        finally:
            broker.close()
        lost_at = time.monotonic()
        setup.start_worker("--beat")
        wait_for(lambda: stored(setup, game_id)[0] >= 1, 30, "the lost turn to be sent again")
        assert time.monotonic() - lost_at < 20
        wait_for(lambda: stored(setup, game_id)[1] in FINAL, 90, "the game to end")
        assert stored(setup, game_id)[1] == "finished"


def test_a_turn_whose_deliveries_keep_dying_ends_the_game_instead_of_hanging(
    worker_setup,
) -> None:
    """Two deliveries of the bot's first turn died with their worker (never finished); with
    SKYPORT_TASK_MAX_DELIVERIES=2 the third gives up and aborts the game."""
    setup = worker_setup(task_max_deliveries=2)
    with api(setup) as client:
        game_id = create_over_api(
            client,
            "sky-islands",
            [{"name": "Ada"}, {"name": "Bot", "bot": "random"}],
            options={"starting_player": 1},
        )
        store = setup.store()
        try:
            store.set(unfinished_key(setup.settings, ADVANCE_TASK, game_id, 0), 2)
        finally:
            store.close()
        worker = setup.start_worker()
        wait_for(lambda: stored(setup, game_id)[1] in FINAL, 30, "the game to end")
        assert stored(setup, game_id) == (0, "aborted"), "the bot's turn was not played"
        assert b"task_given_up" in worker.log.read_bytes()


def test_a_turn_that_finishes_leaves_no_unfinished_delivery(worker_setup) -> None:
    """Deliveries that end normally are not held against the turn: only dead ones are."""
    setup = worker_setup()
    with api(setup) as client:
        game_id = create_over_api(client, "sky-islands", ALL_BOTS)
        setup.start_worker()
        wait_for(lambda: stored(setup, game_id)[1] in FINAL, 90, "the game to end")
        version = stored(setup, game_id)[0]
        store = setup.store()

        def unfinished() -> list[int]:
            return [
                int(store.get(unfinished_key(setup.settings, ADVANCE_TASK, game_id, v)) or 0)
                for v in range(version + 1)
            ]

        try:
            # The last task marks its delivery finished just after it stored the game's end.
            wait_for(lambda: not any(unfinished()), 10, "the last delivery to finish")
            assert unfinished() == [0] * (version + 1)
        finally:
            store.close()
