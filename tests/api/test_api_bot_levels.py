"""Bot levels a game offers of its own (Dominion's Big Money and expert): listed in the
catalog, playable through the API, refused with a 422 for a game that lacks them."""

from __future__ import annotations

from services.ai.bot import levels_for
from services.engine import get_game


def test_the_catalog_lists_each_games_own_bot_levels(api):
    catalog = {game["id"]: game for game in api.client.get("/v1/catalog").json()["games"]}
    dominion = catalog["dominion"]["bot_levels"]
    assert dominion == levels_for(get_game("dominion"))
    assert {"big-money", "big-money-ultimate", "expert"} <= set(dominion)
    assert "expert" not in catalog["sky-islands"]["bot_levels"]


def test_a_dominion_game_of_expert_and_big_money_bots_plays_to_the_end(api):
    created = api.create(
        game="dominion",
        seats=[{"name": "E", "bot": "expert"}, {"name": "B", "bot": "big-money-ultimate"}],
        options={"recommended": "Heading East"},
    )
    final = api.wait_until(created["id"], lambda d: d["status"] == "finished", timeout=60)
    assert final["result"]["winners"]


def test_a_level_the_game_does_not_offer_is_refused_with_422(api):
    response = api.client.post(
        "/v1/games",
        json={"game": "sky-islands", "seats": [{"name": "A"}, {"name": "B", "bot": "big-money"}]},
    )
    assert response.status_code == 422
    problem = response.json()
    assert problem["code"] == "unknown_bot_level"
    assert "no bot level 'big-money'" in problem["detail"]
