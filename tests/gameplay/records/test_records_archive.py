"""The archive keeps a record once: the referee that scored the game and a reader that
found the record missing may both keep it, and the listing must show it once."""

from __future__ import annotations

import asyncio

import pytest

from services.engine import get_game
from services.gameplay.archive import ArchivedRecord, RecordArchive, archived
from services.gameplay.records import RecordedSeat, play_recorded
from services.store import open_redis

pytestmark = pytest.mark.anyio


@pytest.fixture
async def archive(redis_url, key_prefix):
    redis = open_redis(redis_url)
    yield RecordArchive(redis, key_prefix, ttl_seconds=600)
    await redis.aclose()


def cup_record(finished_at: str) -> ArchivedRecord:
    game = get_game("sky-islands")
    record = play_recorded(game, [RecordedSeat(name="A"), RecordedSeat(name="B")], seed=3)
    record = record.model_copy(update={"tags": ["cup"]})
    return archived(record, "key:cup", [None, None], finished_at)


async def test_a_record_kept_twice_at_once_is_listed_once_with_the_first_end(archive) -> None:
    first = cup_record("2026-12-01T10:00:00.000+00:00")
    again = cup_record("2026-12-01T10:00:01.500+00:00")
    await asyncio.gather(archive.keep(first), archive.keep(again))
    await archive.keep(again)
    for tag in (None, "cup"):
        summaries, _ = await archive.listing("key:cup", tag, 10, None)
        assert [s.id for s in summaries] == [first.id]
    kept = await archive.load(first.id)
    assert kept is not None and kept.finished_at in (first.finished_at, again.finished_at)
    assert (await archive.listing("key:cup", None, 10, None))[0][0].finished_at == kept.finished_at
