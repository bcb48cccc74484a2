"""Filling open seats in Redis: one script checks the invite and fills the seat, so that
of twenty clients claiming one seat at once exactly one gets it, and the game starts in
the step that fills its last open seat."""

from __future__ import annotations

import asyncio
from collections import Counter

import pytest

from services.store import GameRecord, GameStatus, GameStore, Lifetimes, SeatRecord, open_redis
from services.store.records import GameStart
from services.store.seats import FillVerdict, OpenSeats

pytestmark = pytest.mark.anyio

CLAIMERS = 20
FAR_AHEAD_MS = 4_000_000_000_000


def waiting_game(game_id: str, expires_ms: int = FAR_AHEAD_MS) -> GameRecord:
    return GameRecord(
        id=game_id,
        game="toy",
        version=0,
        status=GameStatus.WAITING,
        state="{}",
        seats=[
            SeatRecord("Host", None, "h0"),
            SeatRecord("", open=True),
            SeatRecord("", open=True),
        ],
        options={},
        seed=1,
        tags=[],
        created_at="2030-01-01T00:00:00+00:00",
        updated_at="2030-01-01T00:00:00+00:00",
        creator="key:t",
        invites={1: f"{expires_ms}:code-one", 2: f"{expires_ms}:code-two"},
    )


@pytest.fixture
async def store(redis_url: str, key_prefix: str):
    client = open_redis(redis_url)
    yield GameStore(client, key_prefix, Lifetimes())
    await client.aclose()


async def fill(seats: OpenSeats, seat: int, who: str, code: str | None, now_ms: int = 0):
    return await seats.fill(
        "g1",
        seat,
        SeatRecord(who, None, f"hash-{who}"),
        code_hash=code,
        now_ms=now_ms,
        players=3,
        updated_at="2030-01-01T00:01:00+00:00",
        clock_if_started="",
        turn_if_started=[0, 2],
    )


async def test_twenty_clients_claiming_one_seat_at_once_fill_it_once(store, redis_url, key_prefix):
    await store.create(waiting_game("g1"))
    clients = [open_redis(redis_url) for _ in range(CLAIMERS)]
    try:
        desks = [OpenSeats(GameStore(client, key_prefix)) for client in clients]
        outcomes = await asyncio.gather(
            *(fill(desk, 1, f"p{n}", "code-one") for n, desk in enumerate(desks))
        )
    finally:
        await asyncio.gather(*(client.aclose() for client in clients))
    verdicts = Counter(outcome.verdict for outcome in outcomes)
    assert verdicts == {FillVerdict.FILLED: 1, FillVerdict.TAKEN: CLAIMERS - 1}
    winner = next(n for n, o in enumerate(outcomes) if o.verdict is FillVerdict.FILLED)
    stored = await store.load("g1")
    assert stored is not None
    assert stored.seats[1] == SeatRecord(f"p{winner}", None, f"hash-p{winner}")
    assert stored.invites == {2: f"{FAR_AHEAD_MS}:code-two"}
    assert stored.status is GameStatus.WAITING


async def test_the_last_seat_filled_starts_the_game(store):
    await store.create(waiting_game("g1"))
    seats = OpenSeats(store)
    assert (await fill(seats, 2, "bo", None)).verdict is FillVerdict.FILLED
    assert await seats.start_of("g1") is None
    last = await fill(seats, 1, "ann", "code-one")
    assert (last.verdict, last.status) == (FillVerdict.STARTED, "active")
    stored = await store.load("g1")
    assert stored is not None and stored.status is GameStatus.ACTIVE and stored.invites == {}
    start = GameStart(at="2030-01-01T00:01:00+00:00", turn=[0, 2])
    assert stored.started == start and await seats.start_of("g1") == start
    assert [seat.name for seat in stored.seats] == ["Host", "ann", "bo"]
    listed = (await store.list_games(creator="key:t")).games[0]
    assert [seat["name"] for seat in listed.seats] == ["Host", "ann", "bo"]


async def test_wrong_expired_unknown_and_closed_are_told_apart(store):
    await store.create(waiting_game("g1", expires_ms=1_000))
    seats = OpenSeats(store)
    assert (await fill(seats, 1, "x", "nope")).verdict is FillVerdict.WRONG_CODE
    assert (await fill(seats, 1, "x", "code-one", now_ms=2_000)).verdict is FillVerdict.EXPIRED
    assert (await fill(seats, 0, "x", "code-one")).verdict is FillVerdict.NOT_OPEN
    assert (await fill(seats, 1, "x", None, now_ms=2_000)).verdict is FillVerdict.FILLED
    await store.transition("g1", 0, [GameStatus.WAITING], GameStatus.ABORTED, "2030-01-02")
    closed = await fill(seats, 2, "y", "code-two", now_ms=500)
    assert (closed.verdict, closed.status) == (FillVerdict.CLOSED, "aborted")
    missing = await seats.fill(
        "nope",
        1,
        SeatRecord("z"),
        code_hash=None,
        now_ms=0,
        players=3,
        updated_at="",
        clock_if_started="",
        turn_if_started=[0, 2],
    )
    assert missing.verdict is FillVerdict.MISSING
