"""The gameEvents subscription over graphql-transport-ws on a real server: it replays
what the client missed, streams live, survives a reconnect mid-game without missing
or repeating a version, and is fed from Redis so any replica can serve it."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
from live_client import graphql_subscription, play_one
from websockets.asyncio.client import connect

from services.api.app import create_app

pytestmark = pytest.mark.anyio

SUBSCRIBE = """
subscription Follow($id: ID!, $since: Int!) {
  gameEvents(gameId: $id, sinceVersion: $since) {
    __typename
    ... on LogEntry { version seat action events { kind seat data } }
    ... on GameEnded { version status result { winners } }
  }
}"""


def subscription(base_url: str, game_id: str, since: int, token: str | None = None):
    """Yields an async iterator over the subscription's payloads."""
    return graphql_subscription(base_url, SUBSCRIBE, {"id": game_id, "since": since}, token)


async def create(http, rounds=4):
    created = (
        await http.post(
            "/v1/games",
            json={
                "game": "hidden-numbers",
                "seats": [{"name": "A"}, {"name": "B"}],
                "options": {"rounds": rounds},
                "seed": 31,
            },
        )
    ).json()
    return created["id"], [seat["token"] for seat in created["seats"]]


async def play_to_end(http, game_id, tokens):
    while await play_one(http, game_id, tokens):
        await asyncio.sleep(0.01)


@pytest.fixture
def server(settings, games, serve):
    with serve(create_app(settings, games)) as running:
        yield running


async def test_a_subscription_replays_then_streams_live_to_the_end(server):
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        game_id, tokens = await create(http)
        for _ in range(3):
            await play_one(http, game_id, tokens)
        seen = []
        async with subscription(server.url, game_id, 0, tokens[0]) as updates:
            mover = asyncio.create_task(play_to_end(http, game_id, tokens))
            async for payload in updates:
                assert "errors" not in payload, payload
                seen.append(payload["data"]["gameEvents"])
            await mover
    versions = [u["version"] for u in seen if u["__typename"] == "LogEntry"]
    assert versions == list(range(1, 11))
    assert seen[-1]["__typename"] == "GameEnded" and seen[-1]["status"] == "FINISHED"
    assert seen[-1]["result"]["winners"]
    own_discard = next(u for u in seen if u["seat"] == 0 and u["action"] == "move")
    assert own_discard["events"][0]["data"]["card"]


async def test_a_dropped_subscription_resumes_from_its_last_version(server):
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        game_id, tokens = await create(http, rounds=5)
        versions: list[int] = []
        async with subscription(server.url, game_id, 0) as updates:
            await play_one(http, game_id, tokens)
            async for payload in updates:
                versions.append(payload["data"]["gameEvents"]["version"])
                if len(versions) == 3:
                    break  # the socket closes here, mid-game
                await play_one(http, game_id, tokens)
        for _ in range(3):
            await play_one(http, game_id, tokens)  # while the client is away
        async with subscription(server.url, game_id, versions[-1]) as updates:
            mover = asyncio.create_task(play_to_end(http, game_id, tokens))
            async for payload in updates:
                update = payload["data"]["gameEvents"]
                if update["__typename"] == "LogEntry":
                    versions.append(update["version"])
            await mover
        final = (await http.get(f"/v1/games/{game_id}")).json()
    assert versions == list(range(1, final["version"] + 1))


async def test_a_subscription_on_one_replica_streams_moves_made_on_another(settings, games, serve):
    settings = settings.model_copy(update={"stream_keepalive": 60.0})  # only pub/sub can wake it
    with serve(create_app(settings, games)) as one, serve(create_app(settings, games)) as two:
        async with httpx.AsyncClient(base_url=two.url, timeout=30) as http:
            game_id, tokens = await create(http, rounds=1)
            seen = []
            async with subscription(one.url, game_id, 0) as updates:
                mover = asyncio.create_task(play_to_end(http, game_id, tokens))
                async for payload in updates:
                    seen.append(payload["data"]["gameEvents"]["version"])
                await mover
    assert seen == [1, 2, 3, 4, 4]


async def test_subscribing_to_an_unknown_game_is_an_error_with_its_code(server):
    url = server.url.replace("http://", "ws://") + "/graphql"
    async with connect(url, subprotocols=["graphql-transport-ws"]) as socket:
        await socket.send(json.dumps({"type": "connection_init", "payload": {}}))
        assert json.loads(await socket.recv())["type"] == "connection_ack"
        await socket.send(
            json.dumps(
                {
                    "id": "9",
                    "type": "subscribe",
                    "payload": {
                        "query": SUBSCRIBE,
                        "variables": {"id": "aaaaaaaaaaaaaaaaaaaaaaaa", "since": 0},
                    },
                }
            )
        )
        message = json.loads(await asyncio.wait_for(socket.recv(), 10))
    errors = message["payload"] if message["type"] == "error" else message["payload"]["errors"]
    assert errors[0]["extensions"]["code"] == "game_not_found"


async def test_a_wrong_token_in_connection_init_is_refused(server):
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        game_id, _ = await create(http)
    async with subscription(server.url, game_id, 0, "sps_wrong") as updates:
        payload = await anext(updates)
    assert payload["errors"][0]["extensions"]["code"] == "invalid_token"
