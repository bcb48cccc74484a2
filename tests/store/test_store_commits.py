"""The store: compare-and-set commits, the log, idempotency, expiry and hash tags —
against a real Redis and against the embedded in-process one, with the same code."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import UTC, datetime

import pytest
from redis.crc import key_slot

from services.store import (
    Commit,
    CommitVerdict,
    EventViews,
    GameKeys,
    GameRecord,
    GameStatus,
    GameStore,
    Lifetimes,
    LogEntry,
    SeatRecord,
    open_redis,
)

pytestmark = pytest.mark.anyio

LIFETIMES = Lifetimes(finished_game=600, abandoned_game=3600, idempotency=60)


@pytest.fixture(params=["redis", "embedded"])
async def store(request, redis_url: str, key_prefix: str):
    client = open_redis(redis_url if request.param == "redis" else None)
    yield GameStore(client, key_prefix, LIFETIMES)
    await client.aclose()


def now() -> str:
    return datetime.now(UTC).isoformat()


def record(game_id: str = "g1", *, tags: list[str] | None = None, game: str = "toy") -> GameRecord:
    return GameRecord(
        id=game_id,
        game=game,
        version=0,
        status=GameStatus.ACTIVE,
        state='{"n": 0}',
        seats=[SeatRecord("Ann", token_hash="aa"), SeatRecord("Bot", bot="random")],
        options={},
        seed=7,
        tags=tags or [],
        created_at=now(),
        updated_at=now(),
        creator="test",
        create_fingerprint="fp",
    )


def commit(game_id: str, expected: int, *, digest: str | None = None, over: bool = False) -> Commit:
    status = GameStatus.SCORING if over else GameStatus.ACTIVE
    entry = LogEntry(
        version=expected + 1,
        seat=0,
        action="move",
        move={"kind": "inc"},
        events=EventViews(full=[{"kind": "inc"}], spectator=[{"kind": "inc"}]),
        status=status,
        at=now(),
    )
    return Commit(
        game_id=game_id,
        expected_version=expected,
        state=f'{{"n": {expected + 1}}}',
        status=status,
        entry=entry,
        idempotency_digest=digest,
        idempotency_answer=f'{{"answer": {expected + 1}}}' if digest else None,
    )


async def test_a_created_game_loads_back_unchanged(store: GameStore):
    created = record()
    assert await store.create(created) is None
    assert await store.load("g1") == created


async def test_creating_an_existing_id_changes_nothing_and_tells_its_fingerprint(store):
    await store.create(record())
    assert await store.create(record()) == "fp"
    assert (await store.load("g1")).version == 0


async def test_a_commit_bumps_the_version_and_appends_one_log_entry(store: GameStore):
    await store.create(record())
    outcome = await store.commit(commit("g1", 0))
    assert outcome.verdict is CommitVerdict.COMMITTED and outcome.version == 1
    loaded = await store.load("g1")
    assert (loaded.version, loaded.state) == (1, '{"n": 1}')
    entries = await store.log("g1", after=0, count=10)
    assert [e.version for e in entries] == [1]
    raw = await store.redis.xrange(store.keys("g1").log)
    assert [entry_id for entry_id, _ in raw] == ["1-0"]


@pytest.mark.parametrize(
    "clock", [None, '{"remaining_ms": [1000, 2000], "since_ms": 5, "running": [0]}']
)
@pytest.mark.parametrize("over", [False, True])
async def test_a_commit_tells_the_record_it_leaves_as_stored(store: GameStore, clock, over):
    """What a replica keeps after its commit, for the next move, is what a read gives."""
    created = record()
    await store.create(created)
    made = replace(commit("g1", 0, over=over), clock=clock)
    assert (await store.commit(made)).verdict is CommitVerdict.COMMITTED
    assert made.applied_to(created) == await store.load("g1")


async def test_what_a_commit_makes_due_is_noted_with_it_and_deadlines_only_come_earlier(
    store: GameStore,
):
    """The pending index and the clocks' deadline are written in the commit's round trip,
    before it: a process that dies after the commit leaves them for the sweeps."""
    from services.store.progress import pending_key

    await store.create(record())
    clocks, pending = store.index.clocks, pending_key(store.prefix)
    await store.redis.zadd(clocks, {"g1": 1_000})
    later = '{"remaining_ms": [90000, null], "since_ms": 5000, "running": [0]}'
    made = replace(commit("g1", 0), clock=later, work_due=True)
    assert (await store.commit(made)).verdict is CommitVerdict.COMMITTED
    assert await store.redis.zscore(pending, "g1") is not None
    assert await store.redis.zscore(clocks, "g1") == 1_000, "never pushed later: LT"
    await store.redis.zrem(clocks, "g1")
    await store.commit(replace(commit("g1", 1), clock=later))
    assert await store.redis.zscore(clocks, "g1") == 95_000


async def test_a_timed_game_is_kept_while_a_seat_has_time_left(store: GameStore):
    """SKYPORT_ABANDONED_GAME_TTL after its last change, or longer: while a clock still
    has time, the game waits for it to run out (and for the sweep to apply it)."""
    long_bank = 40 * 24 * 3600 * 1000  # longer than the games' 30-day lifetime
    clock = f'{{"remaining_ms": [{long_bank}, null], "since_ms": 5, "running": [0]}}'
    await store.create(replace(record(), clock=clock))
    assert await store.redis.pttl(store.keys("g1").record) > long_bank
    await store.commit(replace(commit("g1", 0), clock=clock))
    for key in (store.keys("g1").record, store.keys("g1").log):
        assert await store.redis.pttl(key) > long_bank
    await store.create(record("g2"))
    assert await store.redis.pttl(store.keys("g2").record) <= LIFETIMES.abandoned_game * 1000


async def test_a_resignation_does_not_tell_its_record(store: GameStore):
    resigning = commit("g1", 0)
    resigning = replace(resigning, entry=replace(resigning.entry, action="resign", move=None))
    assert resigning.applied_to(record()) is None


async def test_a_stale_commit_is_refused_with_the_current_version(store: GameStore):
    await store.create(record())
    await store.commit(commit("g1", 0))
    outcome = await store.commit(commit("g1", 0))
    assert outcome.verdict is CommitVerdict.CONFLICT and outcome.version == 1
    assert (await store.load("g1")).state == '{"n": 1}'
    assert len(await store.log("g1", after=0, count=10)) == 1


async def test_a_commit_read_before_another_change_of_the_record_is_refused(store: GameStore):
    """A change that is not a move (here a status transition) bumps the revision; a commit
    made on the record read before it must be judged again, and writes nothing."""
    await store.create(record())
    read = await store.load("g1")
    assert read.revision == 0
    assert await store.transition("g1", 0, [GameStatus.ACTIVE], GameStatus.ACTIVE, now())
    outcome = await store.commit(replace(commit("g1", 0), expected_revision=read.revision))
    assert outcome.verdict is CommitVerdict.STALE and outcome.version == 0
    now_stored = await store.load("g1")
    assert (now_stored.version, now_stored.revision, now_stored.state) == (0, 1, '{"n": 0}')
    assert await store.log("g1", after=0, count=10) == []
    landed = await store.commit(replace(commit("g1", 0), expected_revision=1))
    assert landed.verdict is CommitVerdict.COMMITTED and landed.version == 1
    assert (await store.load("g1")).revision == 1  # a move is counted by the version


async def test_of_many_racing_commits_on_one_version_exactly_one_wins(store: GameStore):
    await store.create(record())
    outcomes = await asyncio.gather(*(store.commit(commit("g1", 0)) for _ in range(25)))
    verdicts = [o.verdict for o in outcomes]
    assert verdicts.count(CommitVerdict.COMMITTED) == 1
    assert verdicts.count(CommitVerdict.CONFLICT) == 24
    assert len(await store.log("g1", after=0, count=100)) == 1


async def test_a_retry_with_the_same_idempotency_key_gets_the_first_answer(store: GameStore):
    await store.create(record())
    first = await store.commit(commit("g1", 0, digest="k1"))
    again = await store.commit(commit("g1", 1, digest="k1"))
    assert first.verdict is CommitVerdict.COMMITTED
    assert again.verdict is CommitVerdict.REPLAYED and again.answer == '{"answer": 1}'
    assert (await store.load("g1")).version == 1
    assert await store.idempotent_answer("g1", "k1") == '{"answer": 1}'


async def test_a_commit_to_an_unknown_game_is_missing(store: GameStore):
    assert (await store.commit(commit("nope", 0))).verdict is CommitVerdict.MISSING


async def test_no_move_commits_once_the_game_is_scoring(store: GameStore):
    await store.create(record())
    await store.commit(commit("g1", 0, over=True))
    outcome = await store.commit(commit("g1", 1))
    assert outcome.verdict is CommitVerdict.CLOSED and outcome.status == "scoring"


async def test_scoring_finishes_only_at_the_version_it_was_asked_for(store: GameStore):
    await store.create(record())
    await store.commit(commit("g1", 0, over=True))
    scoring = [GameStatus.SCORING]
    assert not await store.transition("g1", 0, scoring, GameStatus.FINISHED, now())
    extra = {"standings": '{"winners": [0]}'}
    assert await store.transition("g1", 1, scoring, GameStatus.FINISHED, now(), extra)
    assert not await store.transition("g1", 1, scoring, GameStatus.FINISHED, now(), extra)
    loaded = await store.load("g1")
    assert loaded.status is GameStatus.FINISHED and loaded.standings == {"winners": [0]}


async def test_unfinished_games_expire_after_the_abandoned_ttl_and_finished_ones_sooner(store):
    await store.create(record())
    await store.commit(commit("g1", 0, over=True))
    keys = store.keys("g1")
    assert 3500_000 < await store.redis.pttl(keys.record) <= 3600_000
    assert 3500_000 < await store.redis.pttl(keys.log) <= 3600_000
    await store.transition("g1", 1, [GameStatus.SCORING], GameStatus.FINISHED, now())
    assert 500_000 < await store.redis.pttl(keys.record) <= 600_000
    assert 500_000 < await store.redis.pttl(keys.log) <= 600_000


async def test_idempotency_records_expire(store: GameStore):
    await store.create(record())
    await store.commit(commit("g1", 0, digest="k1"))
    assert 0 < await store.redis.pttl(store.keys("g1").idempotency("k1")) <= 60_000


async def test_every_commit_rings_the_games_channel(store: GameStore):
    pubsub = store.redis.pubsub(ignore_subscribe_messages=True)
    await pubsub.subscribe(store.keys("g1").channel)
    try:
        await store.create(record())
        await store.commit(commit("g1", 0))
        rung = []
        for _ in range(20):
            message = await pubsub.get_message(timeout=0.2)
            if message:
                rung.append(message["data"])
            if len(rung) == 2:
                break
        assert rung == ["0", "1"]
    finally:
        await pubsub.aclose()


def test_all_keys_of_one_game_share_a_cluster_slot():
    game = GameKeys("skyport", "abc123")
    names = [game.record, game.log, game.idempotency("d1"), game.no_idempotency]
    assert {key_slot(name.encode()) for name in names} == {key_slot(b"abc123")}
