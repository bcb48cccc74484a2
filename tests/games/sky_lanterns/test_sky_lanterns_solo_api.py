"""A solo game through the REST API: one seat (a human's token or any bot level), the usual
prompts, and the virtual opponent's steps in the event log."""

from __future__ import annotations

import pytest

from services.ai.bot import levels_for
from services.gameplay.settings import Settings
from services.games.sky_lanterns import game


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """Quick MCTS: the strength is the bench's business, here only that it plays."""
    return settings.model_copy(update={"bot_mcts_iterations": 3, "bot_mcts_seconds": 0.05})


def opponent_steps(api, game_id: str, token: str | None = None) -> list[str]:
    entries = api.events(game_id, token)["entries"]
    return [
        event["text"]
        for entry in entries
        for event in entry["events"]
        if event["kind"] == "opponent_acted"
    ]


@pytest.mark.parametrize("level", levels_for(game))
def test_every_bot_level_plays_a_solo_game_through_the_api(api, level):
    created = api.create(
        "sky-lanterns", [{"name": "Solo", "bot": level}], options={"scenario": "burning-hut"}
    )
    final = api.wait_until(
        created["id"], lambda d: d["status"] in ("finished", "aborted"), timeout=120
    )
    assert final["status"] == "finished"
    result = final["result"]
    assert [s["seat"] for s in result["standings"]] == [0]
    assert result["winners"] in ([], [0])
    assert result["opponent"]["name"] == "The Raiders"
    assert result["summary"].startswith("You won" if result["winners"] else "You lost")
    steps = opponent_steps(api, created["id"])
    assert any(step.startswith("the Raiders reveal SM") for step in steps)


def test_a_human_plays_solo_with_a_seat_token_and_sees_the_opponent(api):
    created = api.create("sky-lanterns", 1, options={"scenario": "dead-mine", "challenge": True})
    token = created["seats"][0]["token"]
    document = api.game(created["id"], token)
    assert document["turn"] == [0]
    opponent = document["view"]["opponent"]
    assert opponent["scenario"] == "dead-mine" and opponent["resources"]["indigo"] == 2
    assert opponent["next_card"] is None  # the ghost's deck is face down
    assert {m["kind"] for m in api.legal(created["id"], token)} >= {"decline", "era_contract"}
    api.play_out(created)
    final = api.wait_until(created["id"], lambda d: d["status"] == "finished")
    assert final["result"]["standings"][0]["seat"] == 0
    steps = opponent_steps(api, created["id"], token)
    assert sum(step.startswith("the ghost reveals SM") for step in steps) >= 12
