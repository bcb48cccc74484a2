"""A bearer that is not an API key gets the same answer wherever only an API key is
taken - creating a game, in bulk or a tournament, listing games or records, over REST
and GraphQL: `401 invalid_api_key`. A mistyped key got it when creating a game but
`403 api_key_required` when listing, as if it were a key that may not list. Without a
bearer the answer stays `401 api_key_required` (creating a game without one is
anonymous)."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from services.api.app import create_app

MISTYPED = "platform-key-for-tests-000l"
"""PLATFORM_KEY (tests/conftest.py) with its last digit mistyped."""

GAME = {"game": "hidden-numbers", "seats": [{"name": "A"}, {"name": "B"}]}
TOURNAMENT = {
    "game": "hidden-numbers",
    "participants": [{"name": "Bot 0", "bot": "random"}, {"name": "Bot 1", "bot": "random"}],
    "format": {"kind": "round_robin"},
}
KEY_ONLY = [
    ("GET", "/v1/games", None),
    ("GET", "/v1/records", None),
    ("POST", "/v1/games/bulk", {"games": [GAME]}),
    ("POST", "/v1/tournaments", TOURNAMENT),
]
"""The REST endpoints only an API key may call."""

GRAPHQL_KEY_ONLY = {
    "games": "{ games { edges { node { id } } } }",
    "records": "{ records { edges { node { id } } } }",
    "createGames": """mutation($games: [CreateGameInput!]!) {
      createGames(games: $games) { __typename } }""",
    "createTournament": """mutation($input: CreateTournamentInput!) {
      createTournament(input: $input) { __typename } }""",
}
GRAPHQL_VARIABLES: dict[str, dict[str, Any]] = {
    "createGames": {"games": [GAME]},
    "createTournament": {"input": TOURNAMENT},
}
CREATE_GAME = """mutation($input: CreateGameInput!) {
  createGame(input: $input) { __typename ... on GameCreated { id } } }"""


def _send(api, method: str, path: str, body: Any, token: str | None):
    return api.client.request(method, path, json=body, headers=api.auth(token))


@pytest.mark.parametrize(("method", "path", "body"), KEY_ONLY)
def test_a_mistyped_api_key_is_401_invalid_api_key(api, method, path, body):
    answer = _send(api, method, path, body, MISTYPED)
    assert answer.status_code == 401, answer.text
    assert answer.json()["code"] == "invalid_api_key"
    assert answer.headers["WWW-Authenticate"] == 'Bearer realm="skyport"'


@pytest.mark.parametrize(("method", "path", "body"), KEY_ONLY)
def test_a_seat_token_is_not_an_api_key_either(api, method, path, body):
    seat = api.create()["seats"][0]["token"]
    answer = _send(api, method, path, body, seat)
    assert answer.status_code == 401, answer.text
    assert answer.json()["code"] == "invalid_api_key"


@pytest.mark.parametrize(("method", "path", "body"), KEY_ONLY)
def test_no_api_key_is_still_401_api_key_required(api, method, path, body):
    answer = _send(api, method, path, body, None)
    assert answer.status_code == 401, answer.text
    assert answer.json()["code"] == "api_key_required"


def test_creating_a_game_with_a_mistyped_api_key_is_the_same_401(api):
    answer = api.client.post("/v1/games", json=GAME, headers=api.auth(MISTYPED))
    assert answer.status_code == 401 and answer.json()["code"] == "invalid_api_key"
    assert api.client.post("/v1/games", json=GAME).status_code == 201  # anonymous


def test_without_anonymous_creation_no_key_is_api_key_required(settings, games):
    app = create_app(settings.model_copy(update={"anonymous_create": False}), games)
    with TestClient(app) as client:
        missing = client.post("/v1/games", json=GAME)
        assert missing.status_code == 401 and missing.json()["code"] == "api_key_required"
        wrong = client.post("/v1/games", json=GAME, headers={"Authorization": f"Bearer {MISTYPED}"})
        assert wrong.status_code == 401 and wrong.json()["code"] == "invalid_api_key"


def test_the_right_api_key_is_taken_everywhere(api):
    """The same requests with the key itself go through: the refusals above are the key's."""
    for method, path, body in KEY_ONLY:
        answer = _send(api, method, path, body, api.platform_key)
        assert answer.status_code in (200, 201), (path, answer.text)


@pytest.mark.parametrize("field", sorted(GRAPHQL_KEY_ONLY))
def test_graphql_answers_a_mistyped_api_key_the_same(gql, field):
    variables = GRAPHQL_VARIABLES.get(field)
    answer = gql(GRAPHQL_KEY_ONLY[field], variables, MISTYPED)
    assert answer["data"] is None or answer["data"][field] is None
    assert answer["errors"][0]["path"] == [field]
    assert answer["errors"][0]["extensions"] == {"code": "invalid_api_key", "status": 401}
    missing = gql(GRAPHQL_KEY_ONLY[field], variables)
    assert missing["errors"][0]["extensions"] == {"code": "api_key_required", "status": 401}


def test_graphql_create_game_with_a_mistyped_api_key(gql):
    answer = gql(CREATE_GAME, {"input": GAME}, MISTYPED)
    assert answer["errors"][0]["extensions"] == {"code": "invalid_api_key", "status": 401}
    anonymous = gql.data(CREATE_GAME, {"input": GAME})
    assert anonymous["createGame"]["__typename"] == "GameCreated"
