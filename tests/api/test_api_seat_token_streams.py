"""A live stream opened with a seat's token stops once that token is replaced: it ends
with the same problem a request with the old token gets (401 invalid_token), before it
sends anything committed after the swap; a stream opened with the new token follows the
seat's own events."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from live_client import frames, graphql_subscription

from services.api.app import create_app

pytestmark = pytest.mark.anyio

SSE = {"Accept": "text/event-stream"}
EVENTS = """subscription($id: ID!) {
  gameEvents(gameId: $id, sinceVersion: 0) { __typename ... on LogEntry { version seat } }
}"""


@pytest.fixture
def server(settings, games, serve):
    with serve(create_app(settings, games)) as running:
        yield running


async def create(http) -> tuple[str, list[str]]:
    created = await http.post(
        "/v1/games",
        json={"game": "hidden-numbers", "seats": [{"name": "A"}, {"name": "B"}], "seed": 5},
    )
    assert created.status_code == 201
    body = created.json()
    return body["id"], [seat["token"] for seat in body["seats"]]


async def discard(http, game_id: str, token: str) -> None:
    auth = {"Authorization": f"Bearer {token}"}
    moves = (await http.get(f"/v1/games/{game_id}/legal-moves", headers=auth)).json()["moves"]
    made = await http.post(f"/v1/games/{game_id}/moves", json={"move": moves[0]}, headers=auth)
    assert made.status_code == 200, made.text


async def replace(http, game_id: str, seat: int, token: str) -> str:
    answer = await http.post(
        f"/v1/games/{game_id}/seats/{seat}/token", headers={"Authorization": f"Bearer {token}"}
    )
    assert answer.status_code == 200, answer.text
    return answer.json()["token"]


async def test_an_sse_stream_of_the_old_token_ends_with_invalid_token_at_the_swap(server):
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        game_id, tokens = await create(http)
        await discard(http, game_id, tokens[0])
        seen: list = []
        headers = {**SSE, "Authorization": f"Bearer {tokens[0]}"}
        async with http.stream("GET", f"/v1/games/{game_id}/events", headers=headers) as stream:
            async for frame in frames(stream):
                seen.append(frame)
                if frame[1] == "move":
                    new = await replace(http, game_id, 0, tokens[0])
                    await discard(http, game_id, tokens[1])  # committed after the swap
        moves = [frame for frame in seen if frame[1] == "move"]
        assert [frame[0] for frame in moves] == ["1"], "nothing after the swap reaches it"
        assert moves[0][2]["events"], "before the swap it read as the seat"
        _, event, problem = seen[-1]
        assert event == "problem"
        assert problem["code"] == "invalid_token" and problem["status"] == 401
        assert "replaced" in problem["detail"]

        reopened = await http.get(f"/v1/games/{game_id}/events", headers=headers)
        assert reopened.status_code == 401 and reopened.json()["code"] == "invalid_token"
        fresh = {**SSE, "Authorization": f"Bearer {new}"}
        async with http.stream("GET", f"/v1/games/{game_id}/events", headers=fresh) as stream:
            versions = []
            async for event_id, event, _ in frames(stream):
                if event == "move":
                    versions.append(event_id)
                if len(versions) == 2:
                    break
        assert versions == ["1", "2"]


async def test_a_stream_of_another_seat_or_a_spectator_goes_on(server):
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        game_id, tokens = await create(http)
        other = {**SSE, "Authorization": f"Bearer {tokens[1]}"}
        versions: list[str] = []
        async with http.stream("GET", f"/v1/games/{game_id}/events", headers=other) as stream:
            async for event_id, event, _ in frames(stream):
                if event == "comment" and not versions:
                    await replace(http, game_id, 0, tokens[0])
                    await discard(http, game_id, tokens[1])
                if event == "move":
                    versions.append(event_id)
                    break
                assert event != "problem"
        assert versions == ["1"]


async def test_a_graphql_subscription_of_the_old_token_ends_with_invalid_token(server):
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        game_id, tokens = await create(http)
        await discard(http, game_id, tokens[0])
        payloads = []
        async with graphql_subscription(
            server.url, EVENTS, {"id": game_id}, token=tokens[0]
        ) as updates:
            async for payload in updates:
                payloads.append(payload)
                if payload.get("data") and payload["data"]["gameEvents"]["version"] == 1:
                    await replace(http, game_id, 0, tokens[0])
                    await discard(http, game_id, tokens[1])
        assert [p["data"]["gameEvents"]["version"] for p in payloads[:-1]] == [1]
        error = payloads[-1]["errors"][0]
        assert error["extensions"]["code"] == "invalid_token"
        assert error["extensions"]["status"] == 401


async def test_a_stream_whose_token_is_replaced_while_idle_ends_without_waiting_for_a_move(
    server,
):
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        game_id, tokens = await create(http)
        headers = {**SSE, "Authorization": f"Bearer {tokens[0]}"}
        events: list[str] = []

        async def read() -> None:
            async with http.stream("GET", f"/v1/games/{game_id}/events", headers=headers) as stream:
                async for _, event, _ in frames(stream):
                    events.append(event)

        reader = asyncio.create_task(read())
        await asyncio.sleep(0.3)
        await replace(http, game_id, 0, tokens[0])
        await asyncio.wait_for(reader, 10)
        assert events[-1] == "problem"
