"""Listing games for platforms: newest first, filtered, paged, expired ones pruned."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from services.store import (
    Commit,
    EventViews,
    GameRecord,
    GameStatus,
    GameStore,
    Lifetimes,
    LogEntry,
    SeatRecord,
    open_redis,
)

pytestmark = pytest.mark.anyio


@pytest.fixture
async def store(redis_url: str, key_prefix: str):
    client = open_redis(redis_url)
    yield GameStore(client, key_prefix, Lifetimes())
    await client.aclose()


KEY = "key:one"
"""The scope of the API key whose games these are (an `acting_for` of a tournament is
the same scope: its tables are listed for the key)."""


def record(
    n: int, *, game: str = "toy", tags: list[str] | None = None, creator: str = KEY
) -> GameRecord:
    created = (datetime(2030, 1, 1, tzinfo=UTC) + timedelta(seconds=n)).isoformat()
    return GameRecord(
        id=f"g{n:02d}",
        game=game,
        version=0,
        status=GameStatus.ACTIVE,
        state="{}",
        seats=[SeatRecord("Ann")],
        options={},
        seed=1,
        tags=tags or [],
        created_at=created,
        updated_at=created,
        creator=creator,
    )


async def test_games_list_newest_first_in_pages(store: GameStore):
    for n in range(7):
        await store.create(record(n))
    first = await store.list_games(creator=KEY, limit=3)
    assert [g.id for g in first.games] == ["g06", "g05", "g04"]
    second = await store.list_games(creator=KEY, limit=3, cursor=first.next_cursor)
    assert [g.id for g in second.games] == ["g03", "g02", "g01"]
    third = await store.list_games(creator=KEY, limit=3, cursor=second.next_cursor)
    assert [g.id for g in third.games] == ["g00"] and third.next_cursor is None


async def test_each_listed_game_has_the_cursor_that_resumes_right_after_it(store: GameStore):
    for n in range(5):
        await store.create(record(n))
    page = await store.list_games(creator=KEY, limit=3)
    assert page.cursors[-1] == page.next_cursor and len(page.cursors) == 3
    resumed = await store.list_games(creator=KEY, limit=3, cursor=page.cursors[0])
    assert [g.id for g in resumed.games] == ["g03", "g02", "g01"]


async def test_games_filter_by_game_tag_and_status(store: GameStore):
    await store.create(record(1, game="a", tags=["cup"]))
    await store.create(record(2, game="b", tags=["cup", "final"]))
    await store.create(record(3, game="b"))
    await store.transition("g03", 0, [GameStatus.ACTIVE], GameStatus.ABORTED, "2030-01-02")
    assert [g.id for g in (await store.list_games(creator=KEY, game="b")).games] == ["g03", "g02"]
    assert [g.id for g in (await store.list_games(creator=KEY, tag="cup")).games] == ["g02", "g01"]
    assert [g.id for g in (await store.list_games(creator=KEY, tag="cup", game="a")).games] == [
        "g01"
    ]
    aborted = await store.list_games(creator=KEY, status=GameStatus.ABORTED)
    assert [g.id for g in aborted.games] == ["g03"]


async def test_expired_games_drop_out_of_the_list(store: GameStore):
    await store.create(record(1))
    await store.create(record(2))
    await store.redis.delete(store.keys("g02").record)
    assert [g.id for g in (await store.list_games(creator=KEY)).games] == ["g01"]
    assert await store.redis.zcard(store.index.all(KEY)) == 1


def resign_commit(game_id: str, version: int, seat: int) -> Commit:
    entry = LogEntry(
        version=version + 1,
        seat=seat,
        action="resign",
        move=None,
        events=EventViews(full=[], spectator=[]),
        status=GameStatus.ACTIVE,
        at="2030-01-01T00:00:09+00:00",
    )
    return Commit(game_id, version, "{}", GameStatus.ACTIVE, entry)


async def test_listed_seats_show_who_resigned(store: GameStore):
    game = replace(record(1), seats=[SeatRecord("Ann"), SeatRecord("Bo"), SeatRecord("Cy")])
    await store.create(game)
    assert [s["resigned"] for s in (await store.list_games(creator=KEY)).games[0].seats] == [
        False
    ] * 3
    await store.commit(resign_commit(game.id, 0, 2))
    await store.commit(resign_commit(game.id, 1, 0))
    listed = (await store.list_games(creator=KEY)).games[0]
    assert listed.version == 2
    assert [s["resigned"] for s in listed.seats] == [True, False, True]


async def test_a_filter_that_few_games_match_pages_on_within_the_scan_budget(store: GameStore):
    """A page looks at a bounded number of games: a status that few match ends a page
    early, with where to go on, and following those cursors finds every match once."""
    for n in range(12):
        await store.create(record(n))
    for n in (9, 2):
        await store.transition(f"g{n:02d}", 0, [GameStatus.ACTIVE], GameStatus.ABORTED, "2030")
    seen: list[str] = []
    pages = 0
    cursor = None
    while True:
        page = await store.list_games(
            creator=KEY, status=GameStatus.ABORTED, limit=5, cursor=cursor, scan_limit=3
        )
        pages += 1
        seen += [g.id for g in page.games]
        if page.resume is None:
            break
        assert page.next_cursor == page.resume
        cursor = page.resume
    assert seen == ["g09", "g02"]
    assert pages > 1


async def test_an_unfiltered_page_fills_past_the_scan_budget(store: GameStore):
    for n in range(7):
        await store.create(record(n))
    page = await store.list_games(creator=KEY, limit=5, scan_limit=3)
    assert [g.id for g in page.games] == ["g06", "g05", "g04", "g03", "g02"]
    assert page.resume is None


async def test_a_key_lists_only_the_games_it_created(store: GameStore):
    """Each key has its own indexes: another key's games are not in its listing, by any
    filter, and games created without a key are listed by nobody (in no index)."""
    await store.create(record(1, game="a", tags=["cup"]))
    await store.create(record(2, game="a", tags=["cup"], creator="key:two"))
    await store.create(record(3, game="a", tags=["cup"], creator="anonymous:127.0.0.1"))
    for creator, ids in ((KEY, ["g01"]), ("key:two", ["g02"]), ("anonymous:127.0.0.1", [])):
        for filters in ({}, {"game": "a"}, {"tag": "cup"}, {"status": GameStatus.ACTIVE}):
            page = await store.list_games(creator=creator, **filters)  # type: ignore[arg-type]
            assert [g.id for g in page.games] == ids, (creator, filters)
    assert not await store.redis.exists(store.index.all("anonymous:127.0.0.1"))


async def test_the_lobby_holds_listed_waiting_games_oldest_first_whoever_created_them(
    store: GameStore,
):
    waiting = {"status": GameStatus.WAITING, "lobby": True}
    await store.create(replace(record(1, creator="anonymous:1.2.3.4"), **waiting))
    await store.create(replace(record(2), **waiting))
    await store.create(replace(record(3), status=GameStatus.WAITING))  # not listed
    await store.create(replace(record(4), lobby=True))  # listed, but created active
    members = await store.in_lobby("toy", None, 10)
    assert [member.split(":", 1)[1] for member in members] == ["g01", "g02"]
    assert [m.split(":", 1)[1] for m in await store.in_lobby("toy", members[0], 10)] == ["g02"]
    await store.unlist("toy", members[:1])
    assert await store.in_lobby("toy", None, 10) == members[1:]


async def test_listed_records_are_the_records_without_their_state(store: GameStore):
    full = replace(
        record(1),
        status=GameStatus.WAITING,
        seats=[SeatRecord("Ann"), SeatRecord("", open=True)],
        invites={1: "99999999999999:abc"},
        lobby=True,
        clock_rules={"initial_seconds": 60.0, "increment_seconds": 0.0, "on_timeout": "forfeit"},
    )
    await store.create(full)
    listed, gone = await store.load_listed(["g01", "g99"])
    assert gone is None and listed is not None
    assert listed == replace(await store.load("g01"), state="", created="", create_fingerprint="")
    assert listed.lobby and listed.invites == {1: "99999999999999:abc"}
