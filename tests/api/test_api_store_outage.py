"""While Redis cannot be reached the API says so: 503 with Retry-After and a
`store_unavailable` problem (REST) or error code (GraphQL), and /readyz fails — never a
500 with a ConnectionError. Uses a redis-server of its own, stopped mid-test."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Iterator

import httpx
import pytest
import redis
from own_redis import OwnRedis
from starlette.testclient import TestClient

from services.api.app import create_app
from services.gameplay.settings import Settings

pytestmark = pytest.mark.timeout(120)

PLATFORM_KEY = "platform-key-for-outage-tests"
AUTH = {"Authorization": f"Bearer {PLATFORM_KEY}"}


@pytest.fixture
def outage_client(own_redis: OwnRedis, games) -> Iterator[TestClient]:
    settings = Settings(
        redis_url=own_redis.url,
        key_prefix="skyport-outage",
        api_keys=PLATFORM_KEY,
        redis_pool_timeout=1.0,
        log_level="warning",
        tasks="inprocess",
    )
    with TestClient(create_app(settings, games), raise_server_exceptions=False) as client:
        yield client


def assert_store_unavailable(response) -> None:
    assert response.status_code == 503, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    assert int(response.headers["retry-after"]) > 0
    body = response.json()
    assert body["code"] == "store_unavailable"
    assert "ConnectionError" not in response.text


def test_rest_answers_503_with_retry_after_while_redis_is_down(
    own_redis: OwnRedis, outage_client: TestClient
) -> None:
    body = {"game": "hidden-numbers", "seats": [{"name": "A"}, {"name": "B"}]}
    created = outage_client.post("/v1/games", json=body, headers=AUTH)
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    assert outage_client.get("/readyz").status_code == 200

    own_redis.stop()

    assert_store_unavailable(outage_client.get(f"/v1/games/{game_id}"))
    assert_store_unavailable(outage_client.post("/v1/games", json=body, headers=AUTH))
    assert_store_unavailable(outage_client.get("/v1/games", headers=AUTH))
    assert_store_unavailable(outage_client.get(f"/v1/games/{game_id}/events"))
    ready = outage_client.get("/readyz")
    assert ready.status_code == 503
    assert ready.json()["status"] == "unavailable"
    assert outage_client.get("/healthz").status_code == 200, "the process itself is alive"
    documented = outage_client.get("/openapi.json").json()["paths"]["/v1/games/{game_id}"]
    assert "503" in documented["get"]["responses"]


def test_graphql_gives_the_store_unavailable_code_while_redis_is_down(
    own_redis: OwnRedis, outage_client: TestClient
) -> None:
    own_redis.stop()
    query = '{ game(id: "abcdefghijklmnopqrstuvwx") { id } }'
    response = outage_client.post("/graphql", json={"query": query})
    assert response.status_code in (200, 503), response.text
    errors = response.json()["errors"]
    assert [error["extensions"]["code"] for error in errors] == ["store_unavailable"]
    assert errors[0]["extensions"]["status"] == 503
    mutation = (
        'mutation { createGame(input: {game: "hidden-numbers", seats: [{name: "A"}, {name: "B"}]})'
        " { __typename } }"
    )
    answer = outage_client.post("/graphql", json={"query": mutation}, headers=AUTH).json()
    assert [error["extensions"]["code"] for error in answer["errors"]] == ["store_unavailable"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.parametrize("refusal", ["full", "read-only replica"])
def test_a_redis_that_takes_no_changes_answers_503_and_the_move_waits(
    own_redis: OwnRedis, outage_client: TestClient, refusal: str
) -> None:
    body = {"game": "hidden-numbers", "seats": [{"name": "A"}, {"name": "B"}]}
    created = outage_client.post("/v1/games", json=body, headers=AUTH).json()
    game_id, token = created["id"], created["seats"][0]["token"]
    seat_auth = {"Authorization": f"Bearer {token}"}
    legal = outage_client.get(f"/v1/games/{game_id}/legal-moves", headers=seat_auth).json()
    move = legal["moves"][0]
    admin = redis.Redis(port=own_redis.port)
    if refusal == "full":
        admin.config_set("maxmemory-policy", "noeviction")
        admin.config_set("maxmemory", 1)
    else:
        admin.replicaof("127.0.0.1", free_port())  # a failover left us on a replica

    moved = outage_client.post(f"/v1/games/{game_id}/moves", json={"move": move}, headers=seat_auth)
    assert_store_unavailable(moved)
    assert "script" not in moved.text.lower()
    assert_store_unavailable(outage_client.post("/v1/games", json=body, headers=AUTH))
    mutation = (
        "mutation M($id: ID!, $move: JSON!) { makeMove(gameId: $id, move: $move) { __typename } }"
    )
    answer = outage_client.post(
        "/graphql",
        json={"query": mutation, "variables": {"id": game_id, "move": move}},
        headers=seat_auth,
    ).json()
    assert [error["extensions"]["code"] for error in answer["errors"]] == ["store_unavailable"]
    ready = outage_client.get("/readyz")
    assert ready.status_code == 503, "Redis answers PING but takes no move: not ready"

    if refusal == "full":
        admin.config_set("maxmemory", 0)
    else:
        admin.replicaof("no", "one")
    assert outage_client.get("/readyz").status_code == 200
    game = outage_client.get(f"/v1/games/{game_id}", headers=seat_auth).json()
    assert game["version"] == 0, "nothing of the refused moves was kept"
    again = outage_client.post(f"/v1/games/{game_id}/moves", json={"move": move}, headers=seat_auth)
    assert again.status_code == 200, again.text
    assert again.json()["version"] == 1


@pytest.mark.anyio
async def test_once_redis_is_back_a_burst_of_requests_is_served(
    own_redis: OwnRedis, games, serve
) -> None:
    """After a Redis restart, each connection the pool held from before failed one
    request with a 503 (the background sweeps renew only the few on top of the pool, so
    a burst - every client reconnecting at once - met the rest): once Redis answers,
    reads and changes are served from the first."""
    settings = Settings(
        redis_url=own_redis.url,
        key_prefix="skyport-outage",
        api_keys=PLATFORM_KEY,
        rate_limit_per_ip=0,
        rate_limit_per_token=0,
        log_level="warning",
        tasks="inprocess",
    )
    body = {"game": "hidden-numbers", "seats": [{"name": "A"}, {"name": "B"}]}
    with serve(create_app(settings, games)) as server:
        async with httpx.AsyncClient(base_url=server.url, timeout=10) as http:
            created = (await http.post("/v1/games", json=body, headers=AUTH)).json()
            game = f"/v1/games/{created['id']}"

            async def burst() -> list[int]:
                answers = await asyncio.gather(
                    *(http.get(game) for _ in range(12)),
                    *(http.post("/v1/games", json=body, headers=AUTH) for _ in range(4)),
                )
                return [answer.status_code for answer in answers]

            assert await burst() == [200] * 12 + [201] * 4  # the pool holds many connections
            own_redis.stop(save=True)
            own_redis.start()
            assert await burst() == [200] * 12 + [201] * 4
