"""Rematches over real Redis: however many players ask at once, one rematch is made, and
each gets their own seat once."""

from __future__ import annotations

import asyncio
import json

import pytest

from services.gameplay.auth import Credentials
from services.gameplay.build import build_service
from services.gameplay.payloads import CreateGameRequest
from services.gameplay.problems import Problem
from services.gameplay.seats import ClaimSeatRequest
from services.gameplay.settings import Settings
from services.store import GameRecord, GameStatus

pytestmark = [pytest.mark.anyio, pytest.mark.timeout(60)]

PLAYERS = 4


@pytest.fixture
async def gameplay(settings: Settings, games):
    built = build_service(settings, games=games)
    yield built
    await built.close()


def player(token: str | None) -> Credentials:
    return Credentials(token, "127.0.0.1")


async def finished_game(gameplay) -> tuple[str, list[str]]:
    service = gameplay.service
    request = CreateGameRequest.model_validate(
        {
            "game": "hidden-numbers",
            "seats": [{"name": f"P{n}"} for n in range(PLAYERS)],
            "on_leave": "end_game",
        }
    )
    created, _ = await service.create_game(player(None), request, None)
    tokens = [seat.token or "" for seat in created.seats]
    await service.resign(created.id, player(tokens[0]), None, None)
    await scored(gameplay, created.id)
    return created.id, tokens


async def scored(gameplay, game_id: str) -> GameRecord:
    for _ in range(200):
        record = await gameplay.store.load(game_id)
        if record is not None and record.status == GameStatus.FINISHED:
            return record
        await asyncio.sleep(0.05)
    raise AssertionError("the game was not scored")


async def test_players_asking_at_once_make_one_rematch_and_each_gets_their_seat(gameplay):
    game_id, tokens = await finished_game(gameplay)
    rematches = gameplay.service.rematches
    asks = [rematches.join(game_id, player(token)) for token in tokens for _ in range(2)]
    answers = await asyncio.gather(*asks)

    assert len({answer.id for answer in answers}) == 1
    by_seat = {answer.seat: answer.token for answer in answers}
    assert sorted(by_seat) == list(range(PLAYERS))
    assert all(by_seat[answer.seat] == answer.token for answer in answers), "one token a seat"
    assert [answer.seat for answer in answers[::2]] == [3, 0, 1, 2]
    rematch = await gameplay.service.get_game(answers[0].id, player(by_seat[0]))
    assert rematch.status == GameStatus.ACTIVE and rematch.you == 0
    assert [seat.name for seat in rematch.seats] == ["P1", "P2", "P3", "P0"]


async def test_the_rematch_is_the_first_games_creation_played_again(settings, games):
    allowed = settings.model_copy(update={"webhook_allow_private": True})
    async with build_service(allowed, games=games) as gameplay:
        service = gameplay.service
        request = CreateGameRequest.model_validate(
            {
                "game": "hidden-numbers",
                "seats": [{"name": "Ann"}, {"open": True}, {"name": "Bot", "bot": "random"}],
                "options": {"rounds": 3},
                "tags": ["league", "week-3"],
                "webhook_url": "http://127.0.0.1:9/hooks",
                "webhook_events": ["game.finished", "game.started"],
                "clock": {"initial_seconds": 60, "increment_seconds": 1},
                "on_leave": "end_game",
                "leave_bot": "random",
            }
        )
        created, _ = await service.create_game(player(None), request, None)
        claim = ClaimSeatRequest(code=created.seats[1].invite_code or "", name="Guest")
        guest, _ = await service.seats.claim(created.id, 1, claim, None)
        await service.resign(created.id, player(guest.token), None, None)
        first = await scored(gameplay, created.id)
        ann = created.seats[0].token or ""
        joined = await service.rematches.join(created.id, player(ann))
        rematch = await gameplay.store.load(joined.id)

    assert rematch is not None and joined.seat == 2
    assert (rematch.game, rematch.options, rematch.tags) == (first.game, first.options, first.tags)
    assert rematch.webhooks == first.webhooks and rematch.webhook_events == first.webhook_events
    assert rematch.clock_rules == first.clock_rules
    assert rematch.leave_policy == first.leave_policy
    assert rematch.creator == first.creator
    assert rematch.creator_token_hash == first.creator_token_hash is not None
    assert rematch.seed != first.seed
    assert [(seat.name, seat.bot, seat.open) for seat in rematch.seats] == [
        ("", None, True),
        ("Bot", "random", False),
        ("Ann", None, False),
    ]


async def test_settings_this_release_no_longer_takes_refuse_the_rematch_clearly(gameplay):
    game_id, tokens = await finished_game(gameplay)
    record_key = gameplay.store.keys(game_id).record
    meta = json.loads(await gameplay.store.redis.hget(record_key, "meta"))
    meta["tags"] = ["a tag from an older release"]
    await gameplay.store.redis.hset(record_key, "meta", json.dumps(meta))
    with pytest.raises(Problem) as refused:
        await gameplay.service.rematches.join(game_id, player(tokens[1]))
    assert (refused.value.status, refused.value.code) == (409, "rematch_not_offered")
    assert "no longer accepted" in refused.value.detail
