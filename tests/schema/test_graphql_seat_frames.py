"""A seat's status through the gameEvents subscription: SeatChanged comes at once when a
seat leaves under bot_takes_over or its autopilot goes on or off (nothing is committed),
and once caught up for every seat a bot plays now, to a subscription that selects it; a
subscription written before SeatChanged existed gets none of them."""

from __future__ import annotations

import asyncio
import contextlib

import httpx
import pytest
from live_client import graphql_subscription

from services.api.app import create_app
from tests.api.test_api_seat_frames import auth, discard, set_autopilot
from tests.api.test_api_seat_frames import create as create_game

pytestmark = pytest.mark.anyio

WITH_SEATS = """
subscription Follow($id: ID!, $since: Int!) {
  gameEvents(gameId: $id, sinceVersion: $since) {
    __typename
    ... on LogEntry { version seat action }
    ... on SeatChanged { seat abandoned autopilot version at reason }
    ... on GameEnded { version status }
  }
}"""

WITH_SEATS_IN_A_FRAGMENT = """
subscription Follow($id: ID!, $since: Int!) {
  gameEvents(gameId: $id, sinceVersion: $since) { __typename ...Update }
}
fragment Update on GameUpdate {
  ... on LogEntry { version seat action }
  ... on SeatChanged { seat abandoned autopilot version at reason }
}"""

WITHOUT_SEATS = """
subscription Follow($id: ID!, $since: Int!) {
  gameEvents(gameId: $id, sinceVersion: $since) {
    ... on LogEntry { version seat action }
    ... on GameEnded { version status }
  }
}"""

PROMPTLY = 5.0


@pytest.fixture
def server(settings, games, serve):
    # A long keep-alive: only the ring of the change itself can wake the subscription.
    with serve(create_app(settings.model_copy(update={"stream_keepalive": 60.0}), games)) as up:
        yield up


async def create(http, seats: int = 3) -> tuple[str, list[str]]:
    return await create_game(http, seats, seed=4)


class Subscriber:
    """Follows gameEvents in the background, each update into a queue."""

    def __init__(self, server, game_id: str, query: str = WITH_SEATS, since: int = 0) -> None:
        self.updates: asyncio.Queue[dict] = asyncio.Queue()
        self.subscribed = asyncio.Event()
        variables = {"id": game_id, "since": since}
        self.task = asyncio.create_task(self._read(server, query, variables))

    async def _read(self, server, query: str, variables: dict) -> None:
        async with graphql_subscription(server.url, query, variables) as updates:
            self.subscribed.set()
            async for payload in updates:
                assert "errors" not in payload, payload
                await self.updates.put(payload["data"]["gameEvents"])

    async def next(self) -> dict:
        return await asyncio.wait_for(self.updates.get(), PROMPTLY)

    async def nothing_more(self, wait: float = 0.3) -> bool:
        await asyncio.sleep(wait)
        return self.updates.empty()

    async def close(self) -> None:
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.task


def seat_changed(update: dict) -> dict:
    """The update without `at` (checked to be there)."""
    assert update["__typename"] == "SeatChanged" and isinstance(update["at"], str), update
    return {key: value for key, value in update.items() if key not in ("at", "__typename")}


def status(seat: int, version: int, abandoned: bool = False, autopilot: bool = False) -> dict:
    reason = "resigned" if abandoned else None
    return {
        "seat": seat,
        "abandoned": abandoned,
        "autopilot": autopilot,
        "version": version,
        "reason": reason,
    }


@pytest.mark.timeout(60)
async def test_a_subscriber_learns_at_once_that_a_seat_left(server):
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        game_id, tokens = await create(http)
        assert await discard(http, game_id, tokens[2]) == 1
        subscriber = Subscriber(server, game_id)
        assert (await subscriber.next())["version"] == 1
        assert await subscriber.nothing_more()
        left = await http.post(f"/v1/games/{game_id}/resign", json={}, headers=auth(tokens[2]))
        assert left.json()["abandoned"] is True
        assert seat_changed(await subscriber.next()) == status(2, 1, abandoned=True)
        assert (await http.get(f"/v1/games/{game_id}")).json()["version"] == 1
        await subscriber.close()


@pytest.mark.timeout(60)
async def test_a_subscriber_learns_at_once_that_autopilot_went_on_and_off(server):
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        game_id, tokens = await create(http)
        assert await discard(http, game_id, tokens[1]) == 1
        subscriber = Subscriber(server, game_id, WITH_SEATS_IN_A_FRAGMENT)
        assert (await subscriber.next())["version"] == 1
        assert await subscriber.nothing_more()
        await set_autopilot(http, game_id, 1, tokens[1], True)
        assert seat_changed(await subscriber.next()) == status(1, 1, autopilot=True)
        await set_autopilot(http, game_id, 1, tokens[1], False)
        assert seat_changed(await subscriber.next()) == status(1, 1)
        assert await subscriber.nothing_more()
        await subscriber.close()


@pytest.mark.timeout(60)
async def test_a_later_subscriber_learns_each_seat_a_bot_plays_now(server):
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        game_id, tokens = await create(http)
        assert await discard(http, game_id, tokens[1]) == 1
        assert await discard(http, game_id, tokens[2]) == 2
        await set_autopilot(http, game_id, 1, tokens[1], True)
        left = await http.post(f"/v1/games/{game_id}/resign", json={}, headers=auth(tokens[2]))
        assert left.json()["abandoned"] is True

        later = Subscriber(server, game_id, since=2)  # had every version already
        assert [seat_changed(await later.next()) for _ in range(2)] == [
            status(1, 2, autopilot=True),
            status(2, 2, abandoned=True),
        ]
        assert await later.nothing_more()
        assert await discard(http, game_id, tokens[0]) == 3
        assert (await later.next())["version"] == 3
        await later.close()


@pytest.mark.timeout(60)
async def test_a_subscription_that_does_not_select_seat_changed_gets_none(server):
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        game_id, tokens = await create(http)
        assert await discard(http, game_id, tokens[1]) == 1
        assert await discard(http, game_id, tokens[2]) == 2
        await set_autopilot(http, game_id, 1, tokens[1], True)
        old_client = Subscriber(server, game_id, WITHOUT_SEATS)
        assert await old_client.next() == {"version": 1, "seat": 1, "action": "move"}
        assert await old_client.next() == {"version": 2, "seat": 2, "action": "move"}
        assert await old_client.nothing_more()
        left = await http.post(f"/v1/games/{game_id}/resign", json={}, headers=auth(tokens[2]))
        assert left.json()["abandoned"] is True
        await set_autopilot(http, game_id, 1, tokens[1], False)
        assert await old_client.nothing_more(), "no empty updates for a type it never asked for"
        assert await discard(http, game_id, tokens[0]) == 3
        assert await old_client.next() == {"version": 3, "seat": 0, "action": "move"}
        await old_client.close()
