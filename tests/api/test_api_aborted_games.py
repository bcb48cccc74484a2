"""A game that ends without standings (its bot kept failing) says so: a game.aborted
webhook (to those told of game.finished too), and its result and record answer 409
game_aborted with the reason instead of "not finished" for ever."""

from __future__ import annotations

import pytest
from pydantic import SecretStr

from services.gameplay import referee as referee_module

BOTS = [{"name": "Bot", "bot": "random"}, {"name": "Bot 2", "bot": "random"}]


@pytest.fixture
def settings(settings):
    update = {"webhook_secret": SecretStr("hook-secret-for-tests"), "webhook_allow_private": True}
    return settings.model_copy(update=update)


@pytest.fixture
def failing_bots(monkeypatch):
    async def broken(*args, **kwargs):
        raise RuntimeError("the bot crashed")

    monkeypatch.setattr(referee_module.Referee, "_bot_choice", broken)


@pytest.mark.parametrize("events", [["game.finished"], ["game.aborted"]])
def test_an_aborted_game_is_told_by_webhook_and_says_why_it_has_no_result(
    api, receiver, failing_bots, events
):
    created = api.create(seats=BOTS, webhook_url=receiver.url, webhook_events=events)
    game_id = created["id"]
    ended = api.wait_until(game_id, lambda d: d["status"] != "active")
    assert ended["status"] == "aborted" and "could not move" in ended["abort_reason"]
    (told,) = receiver.wait_for("game.aborted")
    assert told["game_id"] == game_id and told["reason"] == ended["abort_reason"]
    assert told["id"] == f"{game_id}:{ended['version']}:game.aborted"
    assert receiver.of_type("game.finished") == []

    for path in ("result", "record"):
        answer = api.client.get(f"/v1/games/{game_id}/{path}", headers=api.auth(api.platform_key))
        assert answer.status_code == 409, answer.text
        problem = answer.json()
        assert (
            problem["code"] == "game_aborted" and problem["abort_reason"] == ended["abort_reason"]
        )
        assert "never finish" in problem["detail"]


def test_a_game_not_told_of_its_end_gets_no_game_aborted(api, receiver, failing_bots):
    created = api.create(seats=BOTS, webhook_url=receiver.url, webhook_events=["move"])
    api.wait_until(created["id"], lambda d: d["status"] != "active")
    other = api.create(seats=BOTS, webhook_url=receiver.url, webhook_events=["game.aborted"])
    api.wait_until(other["id"], lambda d: d["status"] != "active")
    receiver.wait_for("game.aborted")
    assert [body["game_id"] for body in receiver.bodies] == [other["id"]]
