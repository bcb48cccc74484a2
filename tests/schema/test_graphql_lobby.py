"""A waiting game's seats through the gameEvents subscription: LobbyChanged gives them once
caught up and again as each open seat is claimed, the last one just before GameStarted,
to a subscription that selects it; one written before LobbyChanged existed gets none."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from live_client import graphql_subscription

from services.api.app import create_app

pytestmark = pytest.mark.anyio

WITH_LOBBY = """
subscription Follow($id: ID!) {
  gameEvents(gameId: $id) {
    __typename
    ... on LobbyChanged { seats { seat name open } }
    ... on GameStarted { turn }
  }
}"""

WITHOUT_LOBBY = """
subscription Follow($id: ID!) {
  gameEvents(gameId: $id) { __typename ... on GameStarted { turn } }
}"""


@pytest.fixture
def server(settings, games, serve):
    # A long keep-alive: only the ring of a claim can wake the subscription.
    with serve(create_app(settings.model_copy(update={"stream_keepalive": 60.0}), games)) as up:
        yield up


async def follow(server, query: str, game_id: str, count: int, seen: list[dict]) -> list[dict]:
    async with graphql_subscription(server.url, query, {"id": game_id}) as updates:
        async for payload in updates:
            assert "errors" not in payload, payload
            seen.append(payload["data"]["gameEvents"])
            if len(seen) == count:
                return seen
    return seen


async def seen_at_least(seen: list[dict], count: int) -> None:
    """Until `count` updates came: the first lobby comes once the subscription caught up,
    so what the test does next is live."""
    async with asyncio.timeout(10):
        while len(seen) < count:
            await asyncio.sleep(0.01)


def lobby(*names: str) -> dict:
    seats = [
        {"seat": n, "name": "" if name == "open" else name, "open": name == "open"}
        for n, name in enumerate(names)
    ]
    return {"__typename": "LobbyChanged", "seats": seats}


@pytest.mark.timeout(60)
async def test_a_subscription_that_selects_the_lobby_sees_each_claim_then_the_start(server):
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        body = {
            "game": "hidden-numbers",
            "seats": [{"name": "Host"}, {"open": True}, {"open": True}],
            "options": {"rounds": 1},
        }
        created = (await http.post("/v1/games", json=body)).json()
        game_id = created["id"]
        updates: list[dict] = []
        with_lobby = asyncio.create_task(follow(server, WITH_LOBBY, game_id, 4, updates))
        # Without LobbyChanged nothing comes before the start, whenever it subscribes.
        without = asyncio.create_task(follow(server, WITHOUT_LOBBY, game_id, 1, []))
        for seat, name in ((1, "Ana"), (2, "Bruno")):
            await seen_at_least(updates, seat)
            code = created["seats"][seat]["invite_code"]
            claimed = await http.post(
                f"/v1/games/{game_id}/seats/{seat}/claim", json={"code": code, "name": name}
            )
            assert claimed.status_code == 200, claimed.text
        seen = await asyncio.wait_for(with_lobby, 20)
        plain = await asyncio.wait_for(without, 20)
    assert seen == [
        lobby("Host", "open", "open"),
        lobby("Host", "Ana", "open"),
        lobby("Host", "Ana", "Bruno"),
        {"__typename": "GameStarted", "turn": [0, 1, 2]},
    ]
    assert plain == [{"__typename": "GameStarted", "turn": [0, 1, 2]}]
