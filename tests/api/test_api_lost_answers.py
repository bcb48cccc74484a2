"""A move whose commit reached Redis but whose answer was lost (a timeout while Redis was
stalled) is settled from the log before the client is answered: made if the log holds
it, refused if another move holds its version, and otherwise `503 move_unconfirmed`, which
tells the client it may still land, never the plain "try again" that could make it twice."""

from __future__ import annotations

from dataclasses import replace

import redis.exceptions

from services.store import GameStore

LOST = redis.exceptions.TimeoutError("Timeout reading from socket")


def mover(api, created):
    game_id = created["id"]
    seat = api.game(game_id)["turn"][0]
    token = created["seats"][seat]["token"]
    return game_id, token, api.legal(game_id, token)[0]


def test_a_move_that_landed_though_its_answer_was_lost_is_answered_as_made(api, monkeypatch):
    game_id, token, move = mover(api, api.create(seats=2))
    commit = GameStore.commit

    async def answer_lost(store, made):
        await commit(store, made)
        raise LOST

    monkeypatch.setattr(GameStore, "commit", answer_lost)
    response = api.move(game_id, token, move)
    monkeypatch.undo()
    assert response.status_code == 200, response.text
    assert response.json()["version"] == 1
    entries = api.events(game_id, token)["entries"]
    assert [entry["version"] for entry in entries] == [1], "made once"


def test_a_move_redis_never_answered_is_503_move_unconfirmed_not_try_again(api, monkeypatch):
    game_id, token, move = mover(api, api.create(seats=2))

    async def no_answer(store, made):
        raise LOST

    monkeypatch.setattr(GameStore, "commit", no_answer)
    response = api.move(game_id, token, move)
    monkeypatch.undo()
    assert response.status_code == 503, response.text
    assert response.json()["code"] == "move_unconfirmed"
    assert int(response.headers["retry-after"]) > 0
    assert "Idempotency-Key" in response.json()["detail"]
    assert api.game(game_id, token)["version"] == 0


def test_a_lost_answer_where_another_move_took_the_version_is_a_conflict(api, monkeypatch):
    game_id, token, move = mover(api, api.create(seats=2))
    commit = GameStore.commit

    async def another_landed(store, made):
        other = replace(made.entry, at="2000-01-01T00:00:00.000+00:00")
        await commit(store, replace(made, entry=other))
        raise LOST

    monkeypatch.setattr(GameStore, "commit", another_landed)
    response = api.move(game_id, token, move, expected_version=0)
    monkeypatch.undo()
    assert response.status_code == 409, response.text
    assert response.json()["code"] == "version_conflict"
    assert response.json()["current_version"] == 1
