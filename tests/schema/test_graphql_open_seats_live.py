"""A game with open seats, watched through the gameEvents subscription while it waits:
it says when the last seat is claimed that the game started (GameStarted, with the seats
prompted first) before any move, and ends with the reason when the creator cancels."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from live_client import graphql_subscription, play_one

from services.api.app import create_app

pytestmark = pytest.mark.anyio

SUBSCRIBE = """
subscription Follow($id: ID!, $since: Int!) {
  gameEvents(gameId: $id, sinceVersion: $since) {
    __typename
    ... on GameStarted { version status turn at }
    ... on LogEntry { version seat action }
    ... on GameEnded { version status result { winners } reason }
  }
}"""

CREATE = """
mutation Create($input: CreateGameInput!) {
  createGame(input: $input) {
    ... on GameCreated { id creatorToken seats { token inviteCode } }
  }
}"""

CLAIM = """
mutation Claim($id: ID!, $seat: Int!, $code: String!, $name: String!) {
  claimSeat(gameId: $id, seat: $seat, code: $code, name: $name) {
    ... on SeatTaken { token status }
  }
}"""

CANCEL = """
mutation Cancel($id: ID!) { cancelGame(gameId: $id) { ... on GameCancelled { status } } }
"""


@pytest.fixture
def server(settings, games, serve):
    # A long keep-alive: only the ring of the claim or the cancel can wake the subscription.
    with serve(create_app(settings.model_copy(update={"stream_keepalive": 60.0}), games)) as up:
        yield up


async def graphql(http, query: str, variables: dict, token: str | None = None) -> dict:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    answer = await http.post(
        "/graphql", json={"query": query, "variables": variables}, headers=headers
    )
    assert answer.status_code == 200 and "errors" not in answer.json(), answer.text
    return answer.json()["data"]


async def create_waiting(http, open_seats: int) -> dict:
    seats = [{"name": "Host"}, *({"open": True} for _ in range(open_seats))]
    game = {"game": "hidden-numbers", "seats": seats, "options": {"rounds": 2}, "seed": 9}
    return (await graphql(http, CREATE, {"input": game}))["createGame"]


async def updates_of(server, game_id: str, count: int, started: asyncio.Event, since: int = 0):
    """The first `count` updates (or all until the end); `started` is set once subscribed."""
    seen = []
    async with graphql_subscription(server.url, SUBSCRIBE, {"id": game_id, "since": since}) as up:
        started.set()
        async for payload in up:
            assert "errors" not in payload, payload
            seen.append(payload["data"]["gameEvents"])
            if len(seen) == count:
                break
    return seen


async def reading(server, game_id: str, count: int, since: int = 0) -> asyncio.Task:
    """A subscription reading `updates_of` the game, once it is subscribed."""
    subscribed = asyncio.Event()
    reader = asyncio.create_task(updates_of(server, game_id, count, subscribed, since=since))
    await asyncio.wait_for(subscribed.wait(), 10)
    return reader


@pytest.mark.timeout(60)
async def test_a_subscriber_of_a_waiting_game_sees_it_start_then_its_moves(server):
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        created = await create_waiting(http, open_seats=2)
        game_id = created["id"]
        reader = await reading(server, game_id, 2)
        await asyncio.sleep(0.2)  # the subscription is reading before anyone claims
        tokens = [created["seats"][0]["token"]]
        for seat in (1, 2):
            code = created["seats"][seat]["inviteCode"]
            asked = {"id": game_id, "seat": seat, "code": code, "name": f"Guest {seat}"}
            tokens.append((await graphql(http, CLAIM, asked))["claimSeat"]["token"])
        await play_one(http, game_id, tokens)
        start, first = await asyncio.wait_for(reader, 20)
        resumed = await reading(server, game_id, 1, since=1)
        await play_one(http, game_id, tokens)
        after_one = await asyncio.wait_for(resumed, 20)
    assert start["__typename"] == "GameStarted" and start["at"]
    assert {k: v for k, v in start.items() if k != "at"} == {
        "__typename": "GameStarted",
        "version": 0,
        "status": "ACTIVE",
        "turn": [0, 1, 2],
    }
    assert first == {"__typename": "LogEntry", "version": 1, "seat": 0, "action": "move"}
    assert [u["__typename"] for u in after_one] == ["LogEntry"]  # no start after version 1
    assert after_one[0]["version"] == 2


@pytest.mark.timeout(60)
async def test_a_subscriber_of_a_waiting_game_sees_its_cancellation(server):
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        created = await create_waiting(http, open_seats=1)
        game_id = created["id"]
        reader = await reading(server, game_id, 100)
        await asyncio.sleep(0.2)
        cancelled = await graphql(http, CANCEL, {"id": game_id}, created["creatorToken"])
        assert cancelled["cancelGame"]["status"] == "ABORTED"
        seen = await asyncio.wait_for(reader, 20)
    assert seen == [
        {
            "__typename": "GameEnded",
            "version": 0,
            "status": "ABORTED",
            "result": None,
            "reason": "cancelled by its creator",
        }
    ]
