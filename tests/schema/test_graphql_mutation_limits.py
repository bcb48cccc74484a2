"""Each mutation of a GraphQL operation past its first counts as one more request against
the rate limits, over HTTP and over a WebSocket, before any of them runs: thirty aliased
mutations in one document were thirty changes for the price of one request."""

from __future__ import annotations

import pytest

from schema.mutation_count import mutation_fields
from services.api.app import create_app

PLATFORM_KEY = "platform-key-for-tests-0001"  # the test apps' key (tests/conftest.py)
KEY = {"Authorization": f"Bearer {PLATFORM_KEY}"}
GAME = '{game: "hidden-numbers", seats: [{name: "A"}, {name: "B"}]}'


def creations(count: int) -> str:
    made = " ".join(f"c{n}: createGame(input: {GAME}) {{ __typename }}" for n in range(count))
    return "mutation { " + made + " }"


@pytest.fixture
def app_with(settings, games):
    from starlette.testclient import TestClient

    def make(**changes):
        return TestClient(create_app(settings.model_copy(update=changes), games))

    return make


def games_of(client) -> int:
    return len(client.get("/v1/games", headers=KEY).json()["games"])


def test_each_mutation_past_the_first_counts_as_a_request(app_with):
    with app_with(rate_limit_per_ip=10) as client:
        made = client.post("/graphql", json={"query": creations(5)}, headers=KEY)
        assert made.status_code == 200 and "errors" not in made.json(), made.text
        # That request and the four creations past its first: five of ten.
        assert client.get("/v1/catalog").headers["ratelimit-remaining"] == "4"
        assert games_of(client) == 5  # the 7th request: 3 left

        refused = client.post("/graphql", json={"query": creations(4)}, headers=KEY)
        assert refused.status_code == 200
        [error] = refused.json()["errors"]
        assert error["extensions"]["code"] == "rate_limited", error
        assert error["extensions"]["status"] == 429
        assert error["extensions"]["retry_after"] == 30  # pinned mid-window
        assert refused.json()["data"] is None
    with app_with() as unlimited:  # the same store: none of the four was made
        assert games_of(unlimited) == 5


def test_queries_and_a_single_mutation_count_once(app_with):
    with app_with(rate_limit_per_ip=10) as client:
        aliased = "{ " + " ".join(f"c{n}: catalog {{ id }}" for n in range(5)) + " }"
        assert "errors" not in client.post("/graphql", json={"query": aliased}).json()
        assert "errors" not in client.post("/graphql", json={"query": creations(1)}).json()
        assert client.get("/v1/catalog").headers["ratelimit-remaining"] == "7"


def test_mutations_over_a_websocket_count_as_requests_too(app_with):
    with app_with(rate_limit_per_ip=6) as client:
        with client.websocket_connect("/graphql", subprotocols=["graphql-transport-ws"]) as ws:
            ws.send_json({"type": "connection_init", "payload": {}})
            assert ws.receive_json()["type"] == "connection_ack"
            # The handshake, this operation and its 4 creations past the first: 6 of 6.
            ws.send_json({"id": "1", "type": "subscribe", "payload": {"query": creations(5)}})
            answer = ws.receive_json()
            assert answer["type"] == "next" and "errors" not in answer["payload"], answer
            assert ws.receive_json()["type"] == "complete"
        assert client.get("/v1/catalog").status_code == 429


def test_the_count_spreads_fragments_and_leaves_out_typename():
    from graphql import parse

    document = parse(
        """
        mutation Two { __typename a: cancelGame(gameId: "x") { __typename } ...More }
        fragment More on Mutation { ... on Mutation { b: cancelGame(gameId: "y") { __typename } } }
        query Read { catalog { id } }
        """
    )
    assert mutation_fields(document, "Two") == 2
    assert mutation_fields(document, "Read") == 0
    assert mutation_fields(parse("mutation { a: x b: y c: z }"), None) == 3
