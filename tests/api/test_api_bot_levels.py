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


def described_default(description: str, levels: list[str]) -> str:
    """The level a description of leave_bot's default names first among `levels`."""
    default = description[description.index("default") :]
    named = {default.find(level): level for level in levels if level in default}
    return named[min(named)]


def test_a_seat_stepping_away_gets_the_leave_bot_the_api_describes(api, gql):
    """OpenAPI and GraphQL both describe leave_bot's default; a seat of a game created
    without one that switches autopilot on is played by that level: expert in Dominion,
    greedy in Sky Islands, random where a game offers nothing else."""
    request = api.client.get("/openapi.json").json()["components"]["schemas"]["CreateGameRequest"]
    fields = gql.data('{ __type(name: "CreateGameInput") { inputFields { name description } } }')
    descriptions = [
        request["properties"]["leave_bot"]["description"],
        next(f["description"] for f in fields["__type"]["inputFields"] if f["name"] == "leaveBot"),
    ]
    catalog = {game["id"]: game for game in api.client.get("/v1/catalog").json()["games"]}
    played_by = {}
    for game in ("dominion", "sky-islands", "hidden-numbers"):
        created = api.create(game=game, seats=2)
        seat = created["seats"][0]
        switched = api.client.post(
            f"/v1/games/{created['id']}/seats/0/autopilot",
            json={"on": True},
            headers=api.auth(seat["token"]),
        )
        assert switched.status_code == 200, switched.text
        played_by[game] = switched.json()["bot"]
        levels = catalog[game]["bot_levels"]
        for description in descriptions:
            assert described_default(description, levels) == played_by[game], description
    assert played_by == {"dominion": "expert", "sky-islands": "greedy", "hidden-numbers": "random"}
