"""A move that landed is never lost, nor is the work it makes due: whatever dies or
fails after a commit (a hook, the broker, the replica or worker itself), the game goes
on - from the request's answer, from the sweep, or from a retried request.

Each test makes the commit land, then fails or "kills" what comes after it, and checks
that the work is done or will be found."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest
from kombu.exceptions import OperationalError

from services.gameplay import metrics
from services.gameplay import referee as referee_module
from services.gameplay.archive import RecordArchive, archived_from_store, full_log
from services.gameplay.auth import Credentials
from services.gameplay.build import Gameplay, build_service
from services.gameplay.bulk import BulkCreateRequest
from services.gameplay.commits import CommitPipeline
from services.gameplay.dispatch import CeleryDispatcher, InProcessDispatcher
from services.gameplay.payloads import CreateGameRequest
from services.gameplay.problems import Problem
from services.gameplay.referee import Referee
from services.gameplay.settings import Settings
from services.store import Clock, GameStatus, GameStore, open_redis
from services.store.progress import pending_key
from tests.conftest import Crash, crash

ANYONE = Credentials(None, "127.0.0.1")

pytestmark = pytest.mark.anyio


class Recorder:
    """A dispatcher that records the turns it is asked to send, and a webhook sender
    whose broker is unreachable while `broker_down`."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, int]] = []
        self.resent: list[tuple[str, int]] = []
        self.webhooks: list[str] = []
        self.broker_down = False

    async def after_commit(self, game_id: str, version: int, *, moved: bool = True) -> None:
        self.sent.append((game_id, version))

    async def resend(self, game_id: str, version: int) -> None:
        self.resent.append((game_id, version))

    async def send_webhook(
        self, event_id: str, event_type: str, url: str, payload: dict[str, Any]
    ) -> None:
        if self.broker_down:
            raise OperationalError("broker unreachable")
        self.webhooks.append(event_id)


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


async def create(gameplay: Gameplay, seats: list[dict], **body: Any) -> tuple[str, list[str]]:
    request = CreateGameRequest(game="hidden-numbers", seats=seats, seed=3, **body)
    created, _ = await gameplay.service.create_game(ANYONE, request, None)
    return created.id, [seat.token or "" for seat in created.seats]


async def first_move(gameplay: Gameplay, game_id: str, token: str) -> int:
    """Plays the seat's first legal move; returns the version it made."""
    seat = Credentials(bearer=token, client_ip="127.0.0.1")
    legal = await gameplay.service.legal_moves(game_id, seat)
    accepted, _ = await gameplay.service.make_move(
        game_id, seat, legal.moves[0], legal.version, None
    )
    return accepted.version


def failures(hook: str) -> float:
    return metrics.AFTER_COMMIT_FAILURES.labels(hook=hook)._value.get()


HUMAN_AND_BOT = [{"name": "Ann"}, {"name": "Bot", "bot": "random"}]
MOVE_HOOKS = {"webhook_url": "http://127.0.0.1:9/hook", "webhook_events": ["move", "seat.left"]}


# --- a webhook that cannot be sent --------------------------------------------------------


async def test_a_move_whose_webhook_cannot_be_sent_stands_and_its_bot_turn_is_sent(
    gameplay, recorder
) -> None:
    game_id, tokens = await create(gameplay, HUMAN_AND_BOT, **MOVE_HOOKS)
    recorder.sent.clear()
    recorder.broker_down = True
    before = metrics.WEBHOOKS_NOT_SENT._value.get()
    version = await first_move(gameplay, game_id, tokens[0])  # answered, not a 500
    assert recorder.sent[-1] == (game_id, version), "the bot's turn was still sent"
    assert metrics.WEBHOOKS_NOT_SENT._value.get() == before + 1
    stored = await gameplay.store.load(game_id)
    assert stored is not None and stored.version == version


async def test_a_hook_that_fails_does_not_skip_the_hooks_after_it(gameplay, recorder) -> None:
    class Broken:
        async def after_commit(self, change: Any) -> None:
            raise RuntimeError("a hook's bug")

    gameplay.service.pipeline.hooks = (Broken(), *gameplay.service.pipeline.hooks)
    game_id, tokens = await create(gameplay, HUMAN_AND_BOT)
    assert recorder.sent == [(game_id, 0)]
    version = await first_move(gameplay, game_id, tokens[0])
    assert recorder.sent[-1] == (game_id, version)
    assert failures("Broken") == 2


async def test_a_seat_taken_over_gets_its_bot_even_if_seat_left_cannot_be_sent(
    gameplay, recorder
) -> None:
    game_id, _ = await create(
        gameplay, [{"name": "Ann"}, {"name": "Bo"}, HUMAN_AND_BOT[1]], **MOVE_HOOKS
    )
    record = await gameplay.store.load(game_id)
    assert record is not None
    recorder.broker_down = True
    await gameplay.referee.take_over(record, 0, reason="resigned", at_version=False)
    assert recorder.resent == [(game_id, 0)]


async def test_the_celery_dispatcher_logs_a_webhook_it_cannot_send_and_goes_on(
    redis_url, key_prefix
) -> None:
    dispatcher = CeleryDispatcher("redis://127.0.0.1:9/0", f"{key_prefix}.q", prefix=key_prefix)

    async def broker_down(task: str, args: list[Any]) -> None:
        raise OperationalError("broker unreachable")

    dispatcher._in_thread = broker_down  # type: ignore[method-assign]
    before = metrics.WEBHOOKS_NOT_SENT._value.get()
    await dispatcher.send_webhook("g:1:move", "move", "http://hooks.example/x", {})
    assert metrics.WEBHOOKS_NOT_SENT._value.get() == before + 1
    await dispatcher.close()


async def test_a_finished_game_is_reported_even_if_game_finished_cannot_be_sent(
    gameplay, recorder
) -> None:
    ended: list[str] = []

    async def game_ended(record: Any) -> None:
        ended.append(record.id)

    gameplay.referee.game_ended = game_ended
    game_id, tokens = await create(
        gameplay, [{"name": "Ann"}, {"name": "Bo"}], webhook_url="http://127.0.0.1:9/hook"
    )
    ann = Credentials(bearer=tokens[0], client_ip="127.0.0.1")
    resigned, _ = await gameplay.service.resign(game_id, ann, None, None)
    assert resigned.status is GameStatus.SCORING
    recorder.broker_down = True
    await gameplay.referee.advance(game_id, resigned.version)
    assert ended == [game_id]
    stored = await gameplay.store.load(game_id)
    assert stored is not None and stored.status is GameStatus.FINISHED


# --- a process that dies right after its commit -------------------------------------------


async def test_a_bot_turn_due_after_a_move_whose_replica_died_is_found_by_the_sweep(
    gameplay, recorder, monkeypatch
) -> None:
    game_id, tokens = await create(gameplay, HUMAN_AND_BOT)
    index = pending_key(gameplay.store.prefix)
    await gameplay.store.redis.zrem(index, game_id)  # the creation's turn was played
    with monkeypatch.context() as dying:
        dying.setattr(CommitPipeline, "_after", crash)  # the replica dies after COMMIT
        with pytest.raises(Crash):
            await first_move(gameplay, game_id, tokens[0])
    record = await gameplay.store.load(game_id)
    assert record is not None and record.version == 1 and gameplay.referee.work_due(record)
    assert await gameplay.store.redis.zscore(index, game_id) is not None, "noted with the commit"
    recorder.sent.clear()
    assert await gameplay.referee.resend_stalled(0) == 1
    assert recorder.resent == [(game_id, 1)]


async def test_reading_the_legal_moves_or_the_feed_sends_a_bot_turn_that_was_dropped(
    gameplay, recorder, monkeypatch
) -> None:
    game_id, tokens = await create(gameplay, HUMAN_AND_BOT)
    with monkeypatch.context() as dying:
        dying.setattr(CommitPipeline, "_after", crash)
        with pytest.raises(Crash):
            await first_move(gameplay, game_id, tokens[0])
    recorder.sent.clear()
    ann = Credentials(bearer=tokens[0], client_ip="127.0.0.1")
    await gameplay.service.legal_moves(game_id, ann)
    assert recorder.sent == [(game_id, 1)]
    await gameplay.service.follow(game_id, ann, 1)
    assert recorder.sent == [(game_id, 1)] * 2


TIMED = {"clock": {"initial_seconds": 0.3, "increment_seconds": 0, "on_timeout": "forfeit"}}


async def test_a_clock_started_by_a_worker_that_died_after_its_commit_still_runs_out(
    gameplay, recorder, monkeypatch
) -> None:
    game_id, tokens = await create(gameplay, HUMAN_AND_BOT, **TIMED)
    await first_move(gameplay, game_id, tokens[0])  # Ann discards; only the bot runs now
    clocks = gameplay.store.index.clocks
    assert await gameplay.store.redis.zscore(clocks, game_id) is None
    with monkeypatch.context() as dying:
        dying.setattr(CommitPipeline, "_after", crash)  # the worker dies after COMMIT
        with pytest.raises(Crash):
            await gameplay.referee.advance(game_id, 1)  # the bot discards: Ann's clock runs
    assert await gameplay.store.redis.zscore(clocks, game_id) is not None, "noted with it"
    await asyncio.sleep(0.35)
    assert await gameplay.referee.enforce_clocks() == 1
    record = await gameplay.store.load(game_id)
    assert record is not None and record.status is GameStatus.SCORING, "Ann forfeited"


async def test_a_move_refused_out_of_time_and_a_stale_redelivery_note_the_deadline(
    gameplay, recorder, monkeypatch
) -> None:
    game_id, tokens = await create(gameplay, HUMAN_AND_BOT, **TIMED)
    await first_move(gameplay, game_id, tokens[0])
    redis, clocks = gameplay.store.redis, gameplay.store.index.clocks
    with monkeypatch.context() as dying:
        dying.setattr(CommitPipeline, "_after", crash)
        with pytest.raises(Crash):
            await gameplay.referee.advance(game_id, 1)
    await redis.zrem(clocks, game_id)  # as if the deadline had never been noted
    await gameplay.referee.advance(game_id, 1)  # the task redelivered: stale
    assert await redis.zscore(clocks, game_id) is not None
    await redis.zrem(clocks, game_id)
    await asyncio.sleep(0.35)
    with pytest.raises(Problem) as refused:
        await first_move(gameplay, game_id, tokens[0])
    assert refused.value.code == "out_of_time"
    assert await gameplay.referee.enforce_clocks() == 1, "the refusal noted the deadline"
    record = await gameplay.store.load(game_id)
    assert record is not None and record.status is GameStatus.SCORING


# --- a creation retried after its first attempt died -----------------------------------------

PLATFORM = Credentials(bearer="platform-key-for-tests-0001", client_ip="", platform=True)
TWO_BOTS = [{"name": "A", "bot": "random"}, {"name": "B", "bot": "random"}]


@pytest.fixture
async def platform_gameplay(redis_url, key_prefix, games, recorder):
    settings = Settings(
        redis_url=redis_url, key_prefix=key_prefix, api_keys="platform-key-for-tests-0001"
    )
    async with build_service(settings, games=games, dispatcher=recorder) as built:
        yield built


async def test_a_replayed_creation_does_what_its_first_attempt_died_before(
    platform_gameplay, recorder, monkeypatch
) -> None:
    gameplay = platform_gameplay
    request = CreateGameRequest(game="hidden-numbers", seats=TWO_BOTS, seed=3, tags=["mine"])
    with monkeypatch.context() as dying:
        dying.setattr(GameStore, "add_to_indexes", crash)  # dies right after CREATE
        with pytest.raises(Crash):
            await gameplay.service.create_game(PLATFORM, request, "create-key-0001")
    assert recorder.sent == []
    created, replayed = await gameplay.service.create_game(PLATFORM, request, "create-key-0001")
    assert replayed
    listed = await gameplay.service.list_games(
        PLATFORM, status=None, game=None, tag="mine", limit=10, cursor=None
    )
    assert [game.id for game in listed.games] == [created.id]
    assert recorder.sent == [(created.id, 0)], "its first bot turn"


async def test_a_replayed_timed_creation_notes_its_clock(
    platform_gameplay, recorder, monkeypatch
) -> None:
    gameplay = platform_gameplay
    request = CreateGameRequest(game="hidden-numbers", seats=HUMAN_AND_BOT, seed=3, **TIMED)
    with monkeypatch.context() as dying:
        dying.setattr(CommitPipeline, "created", crash)
        with pytest.raises(Crash):
            await gameplay.service.create_game(PLATFORM, request, "create-key-0002")
    clocks = gameplay.store.index.clocks
    game_id = (await gameplay.store.redis.zrange(clocks, 0, -1))[0]
    await gameplay.store.redis.zrem(clocks, game_id)  # as if never noted
    await asyncio.sleep(0.05)
    created, _ = await gameplay.service.create_game(PLATFORM, request, "create-key-0002")
    record = await gameplay.store.load(created.id)
    assert record is not None and record.clock
    deadline = Clock.from_json(record.clock).deadline_ms()
    assert await gameplay.store.redis.zscore(clocks, created.id) == deadline, "the stored one"


async def test_a_replayed_batch_does_what_its_first_attempt_died_before(
    platform_gameplay, recorder, monkeypatch
) -> None:
    gameplay = platform_gameplay
    request = BulkCreateRequest(
        games=[CreateGameRequest(game="hidden-numbers", seats=TWO_BOTS, seed=3, tags=["batch"])] * 2
    )
    with monkeypatch.context() as dying:
        dying.setattr(GameStore, "add_to_indexes", crash)
        with pytest.raises(Crash):
            await gameplay.bulk.create_games(PLATFORM, request, "bulk-key-0001")
    created, replayed = await gameplay.bulk.create_games(PLATFORM, request, "bulk-key-0001")
    assert replayed
    ids = [game.id for game in created.games]
    listed = await gameplay.service.list_games(
        PLATFORM, status=None, game=None, tag="batch", limit=10, cursor=None
    )
    assert sorted(game.id for game in listed.games) == sorted(ids)
    assert sorted(recorder.sent) == sorted((game_id, 0) for game_id in ids)


# --- a scoring task that died before archiving -------------------------------------------------


async def test_a_redelivered_scoring_keeps_the_record_its_first_run_died_before(
    gameplay, recorder, monkeypatch
) -> None:
    game_id, tokens = await create(gameplay, [{"name": "Ann"}, {"name": "Bo"}])
    ann = Credentials(bearer=tokens[0], client_ip="127.0.0.1")
    resigned, _ = await gameplay.service.resign(game_id, ann, None, None)
    with monkeypatch.context() as dying:
        dying.setattr(Referee, "keep_record", crash)  # dies right after FINISHED is stored
        with pytest.raises(Crash):
            await gameplay.referee.advance(game_id, resigned.version)
    archive = gameplay.referee.archive
    assert not await archive.has(game_id)
    await gameplay.referee.advance(game_id, resigned.version)  # the task redelivered
    kept = await archive.load(game_id)
    assert kept is not None and kept.id == game_id


# --- bots in the API process (SKYPORT_TASKS=inprocess) over a real Redis -----------------------


async def test_bot_games_cut_short_by_a_restart_go_on_in_the_process_that_comes_next(
    redis_url, key_prefix, games
) -> None:
    settings = Settings(
        redis_url=redis_url,
        key_prefix=key_prefix,
        tasks="inprocess",
        clock_sweep_seconds=0.05,
        task_stall_seconds=0.2,
    )
    stopped = Recorder()  # the process before: it stopped before it ran the bot's turn
    async with build_service(settings, games=games, dispatcher=stopped) as before:
        game_id, _ = await create(before, TWO_BOTS)
    async with build_service(settings, games=games) as after:
        await after.start()
        for _ in range(100):
            record = await after.store.load(game_id)
            if record is not None and record.version > 0:
                break
            await asyncio.sleep(0.05)
        assert record is not None and record.version > 0, "its sweep sent the turn again"


async def test_the_in_process_dispatcher_notes_the_turns_it_runs(redis_url, key_prefix) -> None:
    redis = open_redis(redis_url)
    ran: list[tuple[str, int]] = []

    async def advance(game_id: str, version: int) -> None:
        ran.append((game_id, version))

    dispatcher = InProcessDispatcher(advance, pending=redis, prefix=key_prefix)
    await dispatcher.after_commit("g" * 24, 3, moved=False)
    await dispatcher.resend("h" * 24, 1)
    index = pending_key(key_prefix)
    assert await redis.zscore(index, "g" * 24) is not None
    assert await redis.zscore(index, "h" * 24) is not None
    await dispatcher.close()
    await redis.aclose()


# --- games a sweep cannot look at ------------------------------------------------------------


async def test_games_the_sweep_cannot_read_are_put_back_and_do_not_starve_the_others(
    gameplay, recorder, monkeypatch
) -> None:
    redis, index = gameplay.store.redis, pending_key(gameplay.store.prefix)
    poison = [await create(gameplay, TWO_BOTS) for _ in range(2)]
    good, _ = await create(gameplay, TWO_BOTS)
    poisoned = {game_id for game_id, _ in poison}
    await redis.zadd(index, {game_id: 1_000 + n for n, game_id in enumerate(poisoned)})
    await redis.zadd(index, {good: 5_000})
    work_due = gameplay.referee.work_due

    def unreadable(record: Any) -> bool:
        if record.id in poisoned:
            raise ValueError("a record this code cannot read")
        return work_due(record)

    monkeypatch.setattr(gameplay.referee, "work_due", unreadable)
    before = metrics.SWEEP_FAILURES.labels(sweep="turns")._value.get()
    assert await gameplay.referee.resend_stalled(0, limit=2) == 0  # both poisoned: put back
    assert metrics.SWEEP_FAILURES.labels(sweep="turns")._value.get() == before + 2
    assert await gameplay.referee.resend_stalled(0, limit=2) == 1
    assert recorder.resent == [(good, 0)]
    for game_id in poisoned:
        assert (await redis.zscore(index, game_id) or 0) > 5_000, "looked at again later"


async def test_games_the_clock_sweep_cannot_enforce_do_not_starve_the_others(
    gameplay, monkeypatch
) -> None:
    clocks = gameplay.store.index.clocks
    await gameplay.store.redis.zadd(clocks, {"p" * 24: 1_000, "q" * 24: 1_001, "r" * 24: 5_000})
    looked: list[str] = []

    async def enforce(game_id: str) -> None:
        if game_id != "r" * 24:
            raise ValueError("a record this code cannot read")
        looked.append(game_id)

    monkeypatch.setattr(gameplay.referee, "enforce_clock", enforce)
    await gameplay.referee.enforce_clocks(limit=2)
    await gameplay.referee.enforce_clocks(limit=2)
    assert looked == ["r" * 24]


# --- a seat taken back while its bot thinks ---------------------------------------------------


async def test_a_bot_move_for_a_seat_taken_back_while_it_thought_is_dropped(
    gameplay, recorder, monkeypatch
) -> None:
    game_id, tokens = await create(gameplay, [{"name": "Ann"}, {"name": "Bo"}])
    ann = Credentials(bearer=tokens[0], client_ip="127.0.0.1")
    await gameplay.service.autopilot(game_id, ann, 0, True)
    choose = Referee._bot_choice

    async def slow_choice(self: Referee, *args: Any) -> Any:
        chosen = await choose(self, *args)
        await gameplay.service.autopilot(game_id, ann, 0, False)  # Ann is back meanwhile
        return chosen

    monkeypatch.setattr(Referee, "_bot_choice", slow_choice)
    recorder.resent.clear()
    await gameplay.referee.advance(game_id, 0)
    record = await gameplay.store.load(game_id)
    assert record is not None and record.version == 0, "no move made for Ann"
    assert await gameplay.store.log(game_id, 0, 10) == []
    assert recorder.resent == [(game_id, 0)], "what is due now is judged again"


# --- a record keeper that dies half-way ---------------------------------------------------------


async def test_a_record_keeping_cut_short_leaves_nothing_that_never_expires(
    gameplay, monkeypatch
) -> None:
    game_id, tokens = await create(gameplay, [{"name": "Ann"}, {"name": "Bo"}])
    ann = Credentials(bearer=tokens[0], client_ip="127.0.0.1")
    resigned, _ = await gameplay.service.resign(game_id, ann, None, None)
    archive = gameplay.referee.archive
    with monkeypatch.context() as dying:
        dying.setattr(RecordArchive, "_index", crash)  # dies after its first MULTI
        with pytest.raises(Crash):
            await archive.keep(await kept_of(gameplay, game_id))
    ttl = await gameplay.store.redis.pttl(archive._key(game_id))
    assert 0 < ttl <= archive.ttl_ms
    assert await archive.load(game_id) is None, "kept again when read"


async def kept_of(gameplay: Gameplay, game_id: str) -> Any:
    record = await gameplay.store.load(game_id)
    assert record is not None
    entries = await full_log(gameplay.store, game_id, record.version)
    return await archived_from_store(record, entries, gameplay.service.served.of(record))


async def test_a_seat_taken_over_by_a_process_that_died_right_after_gets_its_bot(
    gameplay, recorder, monkeypatch
) -> None:
    game_id, _ = await create(gameplay, [{"name": "Ann"}, {"name": "Bo"}, {"name": "Cy"}])
    index = pending_key(gameplay.store.prefix)
    await gameplay.store.redis.zrem(index, game_id)
    record = await gameplay.store.load(game_id)
    assert record is not None
    with monkeypatch.context() as dying:
        dying.setattr(referee_module, "log", SimpleNamespace(info=crash))  # after the change
        with pytest.raises(Crash):
            await gameplay.referee.take_over(record, 0, reason="resigned", at_version=False)
    assert recorder.resent == []
    assert await gameplay.referee.resend_stalled(0) == 1
    assert recorder.resent == [(game_id, 0)]


async def test_a_game_started_by_a_fill_whose_process_died_right_after_gets_its_bot(
    gameplay, recorder, monkeypatch
) -> None:
    from services.gameplay import seats as seats_module
    from services.gameplay.seats import ClaimSeatRequest

    request = CreateGameRequest(
        game="hidden-numbers", seats=[{"name": "Bot", "bot": "random"}, {"open": True}], seed=3
    )
    created, _ = await gameplay.service.create_game(ANYONE, request, None)
    code = created.seats[1].invite_code or ""  # only the creation answer shows it
    assert created.status is GameStatus.WAITING
    await gameplay.store.redis.zrem(pending_key(gameplay.store.prefix), created.id)
    with monkeypatch.context() as dying:
        dying.setattr(seats_module, "log", SimpleNamespace(info=crash))  # after the fill
        with pytest.raises(Crash):
            await gameplay.service.seats.claim(
                created.id, 1, ClaimSeatRequest(code=code, name="Ann"), None
            )
    started = await gameplay.store.load(created.id)
    assert started is not None and started.status is GameStatus.ACTIVE
    assert recorder.resent == []
    assert await gameplay.referee.resend_stalled(0) == 1
    assert recorder.resent == [(created.id, 0)]


async def test_a_game_started_by_a_fill_that_read_another_seat_open_and_died_gets_its_bot(
    gameplay, recorder, monkeypatch
) -> None:
    """Two fills of the last two open seats at once each read the other's seat open, so
    neither knew it was the last; the one whose script started the game died before
    handing the bot its turn. Every fill notes the game as possibly due, so the sweep
    still finds it."""
    from services.gameplay import seats as seats_module
    from services.gameplay.seats import ClaimSeatRequest

    request = CreateGameRequest(
        game="hidden-numbers",
        seats=[{"name": "Bot", "bot": "random"}, {"open": True}, {"open": True}],
        seed=3,
    )
    created, _ = await gameplay.service.create_game(ANYONE, request, None)
    codes = {seat.seat: seat.invite_code or "" for seat in created.seats}
    both_open = await gameplay.store.load(created.id)
    assert both_open is not None and set(both_open.invites) == {1, 2}
    desk = gameplay.service.seats
    await desk.claim(created.id, 1, ClaimSeatRequest(code=codes[1], name="Ann"), None)
    index = pending_key(gameplay.store.prefix)
    await gameplay.store.redis.zrem(index, created.id)
    with monkeypatch.context() as dying:
        dying.setattr(seats_module, "log", SimpleNamespace(info=crash))  # after the fill
        with pytest.raises(Crash):
            await desk._claim(
                created.id,
                2,
                ClaimSeatRequest(code=codes[2], name="Bo"),
                "a-token",
                None,
                both_open,
            )
    started = await gameplay.store.load(created.id)
    assert started is not None and started.status is GameStatus.ACTIVE
    assert recorder.resent == []
    assert await gameplay.referee.resend_stalled(0) == 1
    assert recorder.resent == [(created.id, 0)]
