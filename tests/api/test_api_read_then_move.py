"""A move right after its client read the game: a replica may validate it against the
record it read last (`RecentRecords`) instead of reading it again. Every answer must
still be the one the stored game gives, whatever another replica changed in between.
Two apps on one Redis play the two replicas. Their bot turns go to a Celery queue that
no worker reads, so nothing moves unless a test moves it."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import urlsplit, urlunsplit

import pytest
import redis
from starlette.testclient import TestClient

from services.api.app import create_app
from tests.conftest import Driver

BROKER_DB = 12
"""The Redis database the worker tests' brokers use, apart from the games'."""


@pytest.fixture
def settings(settings, redis_url: str, key_prefix: str):
    broker_url = urlunsplit(urlsplit(redis_url)._replace(path=f"/{BROKER_DB}"))
    queue = f"{key_prefix}.tasks"
    yield settings.model_copy(
        update={"tasks": "celery", "broker_url": broker_url, "task_queue": queue}
    )
    broker = redis.Redis.from_url(broker_url)
    broker.delete(queue, f"_kombu.binding.{queue}")
    broker.close()


@pytest.fixture
def other(settings, games) -> Iterator[Driver]:
    """A second replica of the service, on the same Redis as `api`."""
    with TestClient(create_app(settings, games)) as client:
        yield Driver(client)


def tokens_of(created: dict) -> dict[int, str]:
    return {seat["seat"]: seat["token"] for seat in created["seats"]}


def into_play_phase(api: Driver, created: dict) -> tuple[int, int]:
    """Both seats discard. Returns (the seat whose turn it is, the other)."""
    tokens = tokens_of(created)
    for seat in (0, 1):
        card = api.game(created["id"], tokens[seat])["view"]["hand"][0]
        assert api.move(created["id"], tokens[seat], {"kind": "discard", "card": card}).is_success
    mover = api.game(created["id"])["turn"][0]
    return mover, 1 - mover


def read_then_other_replica_moves(api: Driver, other: Driver) -> tuple[str, str, dict, dict]:
    """The waiting seat reads the game on `api` (kept there); then the seat whose turn it
    is moves on `other`. Returns the game id, the waiter's token, what it read, and a move
    it can make now."""
    created = api.create(seats=2)
    game_id, tokens = created["id"], tokens_of(created)
    mover, waiter = into_play_phase(api, created)
    read = api.game(game_id, tokens[waiter])
    assert read["turn"] == [mover]  # not the waiter's turn when it read
    assert other.move(game_id, tokens[mover], other.legal(game_id, tokens[mover])[0]).is_success
    return game_id, tokens[waiter], read, {"kind": "play", "card": read["view"]["hand"][0]}


def test_a_move_read_before_another_replica_took_a_turn_is_judged_on_the_game_now(api, other):
    game_id, token, read, move = read_then_other_replica_moves(api, other)
    answer = api.move(game_id, token, move)
    assert answer.status_code == 200, answer.text
    assert answer.json()["version"] == read["version"] + 2


def test_an_old_expected_version_is_a_conflict_with_the_stored_version(api, other):
    game_id, token, read, move = read_then_other_replica_moves(api, other)
    old = api.move(game_id, token, move, expected_version=read["version"])
    assert old.status_code == 409 and old.json()["code"] == "version_conflict"
    assert old.json()["current_version"] == read["version"] + 1


def test_a_stale_read_does_not_turn_a_current_version_into_a_conflict(api, other):
    game_id, token, read, move = read_then_other_replica_moves(api, other)
    answer = api.move(game_id, token, move, expected_version=read["version"] + 1)
    assert answer.status_code == 200, answer.text


def test_a_seat_on_autopilot_since_its_read_cannot_move(api, other):
    """Autopilot changes the record but not its version; no bot has moved yet."""
    created = api.create(seats=2)
    game_id, tokens = created["id"], tokens_of(created)
    moves = api.legal(game_id, tokens[0])
    switched = other.client.post(
        f"/v1/games/{game_id}/seats/0/autopilot", json={"on": True}, headers=other.auth(tokens[0])
    )
    assert switched.status_code == 200, switched.text
    assert other.game(game_id)["version"] == 0

    move = api.move(game_id, tokens[0], moves[0])
    assert move.status_code == 409 and move.json()["code"] == "autopilot_on"
    assert other.game(game_id)["version"] == 0


def test_a_seat_that_left_on_another_replica_cannot_move_on_this_one(api, other):
    """With three seats a resignation abandons the seat: its record changes, its version
    does not. The legal moves read before must not let the seat move after."""
    created = api.create(seats=3)
    game_id, tokens = created["id"], tokens_of(created)
    moves = api.legal(game_id, tokens[2])
    resigned = other.client.post(
        f"/v1/games/{game_id}/resign", json={}, headers=other.auth(tokens[2])
    )
    assert resigned.status_code == 200 and resigned.json()["abandoned"] is True

    move = api.move(game_id, tokens[2], moves[0])
    assert move.status_code == 409 and move.json()["code"] == "seat_abandoned"
    assert all(s["abandoned"] == (s["seat"] == 2) for s in api.game(game_id)["seats"])


def test_moves_made_one_after_another_read_the_game_once(api):
    """The record a commit leaves is kept for the next move: the second seat's move is
    judged on it, without reading the game again."""
    created = api.create(seats=2)
    game_id, tokens = created["id"], tokens_of(created)
    service = api.client.app.state.service
    loads = []
    load = service.store.load

    async def counted(game: str):
        loads.append(game)
        return await load(game)

    service.store.load = counted
    try:
        hands = {seat: api.legal(game_id, tokens[seat]) for seat in (0, 1)}
        loads.clear()
        for seat in (0, 1):
            answer = api.move(game_id, tokens[seat], hands[seat][0])
            assert answer.status_code == 200, answer.text
    finally:
        service.store.load = load
    assert loads == [], "the second move was judged on the record the first one left"
    assert api.game(game_id)["version"] == 2


def test_a_move_after_another_replica_moved_past_a_kept_commit_is_judged_on_the_game_now(
    api, other
):
    created = api.create(seats=2)
    game_id, tokens = created["id"], tokens_of(created)
    discard = {seat: api.legal(game_id, tokens[seat])[0] for seat in (0, 1)}
    assert api.move(game_id, tokens[0], discard[0]).is_success  # `api` keeps version 1
    assert other.move(game_id, tokens[1], discard[1]).is_success  # the play phase begins
    mover = other.game(game_id)["turn"][0]
    play = other.legal(game_id, tokens[mover])[0]
    answer = api.move(game_id, tokens[mover], play)  # not a move at version 1
    assert answer.status_code == 200, answer.text
    assert answer.json()["version"] == 3
