"""Live streams ride out a Redis outage: an SSE stream and a GraphQL subscription keep
their connection (and SSE its keep-alives) while Redis is down, and once it is back go
on from where they were, missing nothing. An outage past `stream_outage_limit` ends them
cleanly: SSE's body ends whole, the subscription with a `store_unavailable` error. It cut
every stream of the replica at the first failed read (SSE mid-body, with a logged 500),
and EventSource's reconnect, refused 503 meanwhile, stopped it for good. Uses a
redis-server of its own."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from live_client import graphql_subscription, play_one
from log_capture import Captured, captured_logs
from own_redis import OwnRedis

from services.api.app import create_app
from services.gameplay.settings import Settings

pytestmark = [pytest.mark.anyio, pytest.mark.timeout(60)]

SSE = {"Accept": "text/event-stream"}
FOLLOW = """subscription($id: ID!) { gameEvents(gameId: $id) {
  __typename ... on LogEntry { version } ... on GameEnded { version } } }"""


@pytest.fixture
def outage_server(own_redis: OwnRedis, games, serve):
    @contextlib.contextmanager
    def start(outage_limit: float) -> Iterator[tuple[Any, Captured]]:
        settings = Settings(
            redis_url=own_redis.url,
            key_prefix="skyport-live-outage",
            rate_limit_per_ip=0,
            rate_limit_per_token=0,
            create_limit_per_ip=0,
            stream_keepalive=0.3,
            stream_outage_limit=outage_limit,
            log_level="warning",
            tasks="inprocess",
        )
        app = create_app(settings, games)  # (it sets up logging: capture after it)
        with captured_logs() as logs, serve(app) as server:
            yield server, logs
        # The background sweeps fail while Redis is down, as they should say.
        errors = [m for m in logs.errors() if "_sweep_failed" not in m]
        assert errors == [], "a stream's failure was logged as an error (a 500)"

    return start


async def create(http: httpx.AsyncClient) -> tuple[str, list[str]]:
    body = {
        "game": "hidden-numbers",
        "seats": [{"name": "A"}, {"name": "B"}],
        "options": {"rounds": 1},
        "seed": 3,
    }
    created = (await http.post("/v1/games", json=body)).json()
    return created["id"], [seat["token"] for seat in created["seats"]]


class SseReader:
    """Reads a stream in the background: its lines, and how its body ended."""

    def __init__(self, http: httpx.AsyncClient, game_id: str) -> None:
        self.lines: list[str] = []
        self.task = asyncio.create_task(self._read(http, game_id))

    async def _read(self, http: httpx.AsyncClient, game_id: str) -> None:
        async with http.stream("GET", f"/v1/games/{game_id}/events", headers=SSE) as response:
            assert response.status_code == 200
            async for line in response.aiter_lines():
                self.lines.append(line)

    def ids(self) -> list[str]:
        return [line.removeprefix("id: ") for line in self.lines if line.startswith("id: ")]

    def comments(self) -> list[str]:
        return [line.removeprefix(": ") for line in self.lines if line.startswith(":")]

    async def until_id(self, event_id: str) -> None:
        async with asyncio.timeout(10):
            while event_id not in self.ids():
                await asyncio.sleep(0.02)


class Subscriber:
    """Follows the GraphQL subscription in the background: every payload, to the end."""

    def __init__(self, base_url: str, game_id: str) -> None:
        self.payloads: list[dict] = []
        self.task = asyncio.create_task(self._read(base_url, game_id))

    async def _read(self, base_url: str, game_id: str) -> None:
        async with graphql_subscription(base_url, FOLLOW, {"id": game_id}) as updates:
            async for payload in updates:
                self.payloads.append(payload)


async def test_streams_keep_their_connection_through_an_outage_and_miss_nothing(
    own_redis: OwnRedis, outage_server
) -> None:
    with outage_server(outage_limit=30.0) as (server, _):
        async with httpx.AsyncClient(base_url=server.url, timeout=20) as http:
            game_id, tokens = await create(http)
            sse, graphql = SseReader(http, game_id), Subscriber(server.url, game_id)
            await play_one(http, game_id, tokens)
            await sse.until_id("1")

            own_redis.stop(save=True)
            kept_alive = len(sse.comments())
            await asyncio.sleep(1.5)
            assert len(sse.comments()) > kept_alive, "keep-alives go on while Redis is down"
            assert not sse.task.done() and not graphql.task.done()
            own_redis.start()

            while await play_one(http, game_id, tokens):
                pass
            await asyncio.wait_for(asyncio.gather(sse.task, graphql.task), 15)
            version = (await http.get(f"/v1/games/{game_id}")).json()["version"]
    moves = [str(v) for v in range(1, version + 1)]
    assert sse.ids() == [*moves, f"{version}-end"]
    updates = [payload["data"]["gameEvents"] for payload in graphql.payloads]
    assert [update["version"] for update in updates] == [*range(1, version + 1), version]
    assert updates[-1]["__typename"] == "GameEnded"


async def test_an_outage_past_the_limit_ends_streams_cleanly_saying_when_to_come_back(
    own_redis: OwnRedis, outage_server
) -> None:
    with outage_server(outage_limit=1.0) as (server, _):
        async with httpx.AsyncClient(base_url=server.url, timeout=20) as http:
            game_id, tokens = await create(http)
            sse, graphql = SseReader(http, game_id), Subscriber(server.url, game_id)
            await play_one(http, game_id, tokens)
            await sse.until_id("1")

            own_redis.stop()
            # The body ends whole: a cut one raises in the reader (incomplete chunked read).
            await asyncio.wait_for(asyncio.gather(sse.task, graphql.task), 15)
    last = [line for line in sse.lines if line][-3:]
    assert last[:2] == ["retry: 5000", "event: problem"]
    assert '"code":"store_unavailable"' in last[2] and '"status":503' in last[2]
    errors = graphql.payloads[-1]["errors"]
    assert [error["extensions"]["code"] for error in errors] == ["store_unavailable"]
    assert errors[0]["extensions"]["retry_after"] == 5


async def test_a_stream_opened_during_an_outage_is_told_when_to_come_back_not_refused(
    own_redis: OwnRedis, outage_server
) -> None:
    with outage_server(outage_limit=30.0) as (server, _):
        async with httpx.AsyncClient(base_url=server.url, timeout=20) as http:
            game_id, _tokens = await create(http)
            own_redis.stop(save=True)
            # EventSource fails for good on any status but 200: this one reconnects.
            opened = await http.get(f"/v1/games/{game_id}/events", headers=SSE)
            page = await http.get(f"/v1/games/{game_id}/events")
            own_redis.start()
            resumed = await http.get(
                f"/v1/games/{game_id}/events", headers={**SSE, "Last-Event-ID": "0-end"}
            )
    assert opened.status_code == 200
    assert opened.headers["content-type"].startswith("text/event-stream")
    lines = opened.text.splitlines()
    assert lines[:2] == ["retry: 5000", "event: problem"]
    assert '"code":"store_unavailable"' in lines[2] and '"status":503' in lines[2]
    assert page.status_code == 503, "a JSON read still says 503"
    assert resumed.status_code == 400, "once Redis is back, the stream's checks apply again"
