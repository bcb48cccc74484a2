"""Game options are checked against the JSON types their `options_schema` publishes: an
integer option takes a JSON integer (not `true`, `"1"` or `1.0`), a boolean one a JSON
boolean (not `"yes"` or `1`). A wrong type is refused like any bad option - `422
invalid_options` naming the option, over REST, GraphQL and bulk creation - instead of
being read as something else (`"turn_limit": true` played as a one-turn game). The refusal
locates the option as a refused request body does: REST's `errors`, GraphQL's
`details.errors`."""

from __future__ import annotations

import pytest

KEY = {"Authorization": "Bearer platform-key-for-tests-0001"}

CASES = [
    # game, seats, options as the catalog and README describe them, the same options
    # with one of them of a JSON type its schema does not allow, and that option.
    (
        "dominion",
        2,
        {"card_sets": ["base", "intrigue"], "max_events": 0, "turn_limit": 5},
        {"card_sets": ["base", "intrigue"], "max_events": 0, "turn_limit": True},
        "turn_limit",
    ),
    (
        "dominion",
        2,
        {"kingdom": "heading-east", "turn_limit": 1},
        {"kingdom": "heading-east", "turn_limit": "1"},
        "turn_limit",
    ),
    ("dominion", 3, {"max_events": 1}, {"max_events": 1.0}, "max_events"),
    ("sky-islands", 2, {"starting_player": 1}, {"starting_player": "1"}, "starting_player"),
    ("sky-islands", 3, {"starting_player": None}, {"starting_player": True}, "starting_player"),
    (
        "sky-lanterns",
        3,
        {"first_player": 2, "teapot_market": True, "unique_player_boards": True},
        {"first_player": 2, "teapot_market": "yes", "unique_player_boards": True},
        "teapot_market",
    ),
    (
        "sky-lanterns",
        2,
        {"starting_card_draft": False},
        {"starting_card_draft": 0},
        "starting_card_draft",
    ),
    ("sky-lanterns", 4, {"first_player": 0}, {"first_player": "0"}, "first_player"),
    (
        "sky-lanterns",
        1,
        {"scenario": "burning-hut", "challenge": True},
        {"scenario": "burning-hut", "challenge": "true"},
        "challenge",
    ),
    ("hidden-numbers", 2, {"rounds": 3}, {"rounds": "3"}, "rounds"),
]

IDS = [f"{game}-{name}-{n}" for n, (game, _, _, _, name) in enumerate(CASES)]

CREATE = """
mutation($input: CreateGameInput!) {
  createGame(input: $input) {
    __typename
    ... on GameCreated { id }
    ... on Error { code message }
    ... on Rejected { details }
  }
}"""

CREATE_MANY = """
mutation($games: [CreateGameInput!]!) {
  createGames(games: $games) {
    __typename
    ... on GamesCreated { games { id } }
    ... on Error { code message }
  }
}"""


def body(game: str, seats: int, options: dict) -> dict:
    return {
        "game": game,
        "seats": [{"name": f"P{n}"} for n in range(seats)],
        "options": options,
        "seed": 7,
    }


@pytest.mark.parametrize(("game", "seats", "good", "bad", "name"), CASES, ids=IDS)
def test_rest_refuses_an_option_of_the_wrong_json_type(api, game, seats, good, bad, name):
    accepted = api.client.post("/v1/games", json=body(game, seats, good))
    assert accepted.status_code == 201, accepted.text
    refused = api.client.post("/v1/games", json=body(game, seats, bad))
    assert refused.status_code == 422, refused.text
    problem = refused.json()
    assert problem["code"] == "invalid_options" and problem["title"] == "Invalid game options"
    assert problem["detail"].startswith(f"{name}: ")
    assert [error["location"] for error in problem["errors"]] == [["options", name]]


@pytest.mark.parametrize(("game", "seats", "good", "bad", "name"), CASES, ids=IDS)
def test_graphql_refuses_an_option_of_the_wrong_json_type(gql, game, seats, good, bad, name):
    accepted = gql.data(CREATE, {"input": body(game, seats, good)})["createGame"]
    assert accepted["__typename"] == "GameCreated", accepted
    refused = gql.data(CREATE, {"input": body(game, seats, bad)})["createGame"]
    assert refused["__typename"] == "Rejected" and refused["code"] == "invalid_options"
    assert refused["message"].startswith(f"{name}: ")
    assert [error["location"] for error in refused["details"]["errors"]] == [["options", name]]


def test_bulk_creation_refuses_an_option_of_the_wrong_json_type(api, gql):
    games = [body(game, seats, good) for game, seats, good, _, _ in CASES]
    assert api.client.post("/v1/games/bulk", json={"games": games}, headers=KEY).status_code == 201
    for index, (game, seats, _, bad, name) in enumerate(CASES):
        batch = [*games[:index], body(game, seats, bad), *games[index + 1 :]]
        refused = api.client.post("/v1/games/bulk", json={"games": batch}, headers=KEY)
        assert refused.status_code == 422, refused.text
        problem = refused.json()
        assert problem["code"] == "invalid_options" and problem["index"] == index
        assert problem["detail"].startswith(f"Game {index}: {name}: ")
        assert problem["errors"][0]["location"] == ["options", name]
        answer = gql.data(CREATE_MANY, {"games": batch}, token=KEY["Authorization"][7:])
        assert answer["createGames"]["__typename"] == "Rejected"
        assert answer["createGames"]["code"] == "invalid_options"
        assert name in answer["createGames"]["message"]


@pytest.mark.parametrize(
    ("game", "seats", "good", "bad", "name"),
    [case for case in CASES if case[1] > 1],  # a table of one is another tournament format
    ids=[id_ for id_, case in zip(IDS, CASES, strict=True) if case[1] > 1],
)
def test_a_tournament_refuses_an_option_of_the_wrong_json_type(api, game, seats, good, bad, name):
    tournament = {
        "game": game,
        "participants": [{"name": f"B{n}", "bot": "random"} for n in range(seats)],
        "seats_per_table": seats,
        "format": {"kind": "round_robin"},
    }
    accepted = api.client.post("/v1/tournaments", json={**tournament, "options": good}, headers=KEY)
    assert accepted.status_code == 201, accepted.text
    refused = api.client.post("/v1/tournaments", json={**tournament, "options": bad}, headers=KEY)
    assert refused.status_code == 422, refused.text
    problem = refused.json()
    assert problem["code"] == "invalid_options" and problem["detail"].startswith(f"{name}: ")
    assert problem["errors"][0]["location"] == ["options", name]
