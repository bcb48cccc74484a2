"""Server-Sent Events: replay since a version, stream live, resume after a dropped
connection with Last-Event-ID without missing or repeating anything — across replicas."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from live_client import frames, play_one

from services.api.app import create_app

pytestmark = pytest.mark.anyio

SSE = {"Accept": "text/event-stream"}


async def create(http, seats=2, rounds=5):
    created = await http.post(
        "/v1/games",
        json={
            "game": "hidden-numbers",
            "seats": [{"name": f"P{n}"} for n in range(seats)],
            "options": {"rounds": rounds},
            "seed": 77,
        },
    )
    assert created.status_code == 201
    body = created.json()
    return body["id"], [seat["token"] for seat in body["seats"]]


@pytest.fixture
def server(settings, games, serve):
    with serve(create_app(settings, games)) as running:
        yield running


async def test_a_stream_replays_then_follows_live_to_the_end(server):
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        game_id, tokens = await create(http)
        for _ in range(3):
            await play_one(http, game_id, tokens)
        seen: list = []

        async def read():
            async with http.stream(
                "GET",
                f"/v1/games/{game_id}/events",
                headers={**SSE, "Authorization": f"Bearer {tokens[0]}"},
            ) as response:
                assert response.headers["content-type"].startswith("text/event-stream")
                async for frame in frames(response):
                    seen.append(frame)

        reader = asyncio.create_task(read())
        while await play_one(http, game_id, tokens):
            await asyncio.sleep(0.01)
        await asyncio.wait_for(reader, 20)
    entries = [f for f in seen if f[1] in ("move", "resign")]
    assert [int(f[0]) for f in entries] == list(range(1, 13))
    assert [f[2]["version"] for f in entries] == list(range(1, 13))
    assert seen[-1][1] == "end" and seen[-1][0] == "12-end"
    assert seen[-1][2]["status"] == "finished" and seen[-1][2]["result"]["winners"]


async def test_a_dropped_stream_resumes_with_last_event_id_missing_nothing(server):
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        game_id, tokens = await create(http)
        received: list[int] = []
        last_id = None
        async with http.stream("GET", f"/v1/games/{game_id}/events", headers=SSE) as response:
            async for event_id, event, _ in frames(response):
                if event == "comment":
                    if len(received) < 3:
                        await play_one(http, game_id, tokens)
                    continue
                received.append(int(event_id))
                last_id = event_id
                if len(received) == 3:
                    break  # the connection drops here
                await play_one(http, game_id, tokens)
        for _ in range(4):  # the game goes on while the client is away
            await play_one(http, game_id, tokens)
        mover = asyncio.create_task(_play_to_end(http, game_id, tokens))
        async with http.stream(
            "GET", f"/v1/games/{game_id}/events", headers={**SSE, "Last-Event-ID": last_id}
        ) as response:
            async for event_id, event, _ in frames(response):
                if event in ("move", "resign"):
                    received.append(int(event_id))
                elif event == "end":
                    break
        await mover
        final = (await http.get(f"/v1/games/{game_id}")).json()
    assert received == list(range(1, final["version"] + 1))


async def _play_to_end(http, game_id, tokens):
    while await play_one(http, game_id, tokens):
        await asyncio.sleep(0.02)


async def test_after_the_end_last_event_id_gets_204_so_eventsource_stops(server):
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        game_id, tokens = await create(http, rounds=1)
        await _play_to_end(http, game_id, tokens)
        ended = await http.get(
            f"/v1/games/{game_id}/events", headers={**SSE, "Last-Event-ID": "4-end"}
        )
        assert ended.status_code == 204


async def test_an_end_id_for_a_game_still_playing_is_refused_not_204(server):
    """EventSource stops for good on a 204, so it must not get one while the game goes on."""
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        game_id, tokens = await create(http, rounds=1)
        early = await http.get(
            f"/v1/games/{game_id}/events", headers={**SSE, "Last-Event-ID": "0-end"}
        )
        assert early.status_code == 400
        assert early.json()["code"] == "invalid_last_event_id"
        assert "not ended" in early.json()["detail"]
        unknown = await http.get(
            "/v1/games/g_doesnotexist0000/events", headers={**SSE, "Last-Event-ID": "4-end"}
        )
        assert unknown.status_code == 404
        stranger = await http.get(
            f"/v1/games/{game_id}/events",
            headers={**SSE, "Last-Event-ID": "4-end", "Authorization": "Bearer not-a-seat"},
        )
        assert stranger.status_code == 401


async def test_a_place_past_the_games_version_is_refused_not_silently_waited_out(server):
    """A stream resumed past the game would send nothing until the game caught up, and
    then skip what it had missed: refused instead, saying where the game is."""
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        game_id, tokens = await create(http)
        await play_one(http, game_id, tokens)
        ahead = await http.get(f"/v1/games/{game_id}/events", headers={**SSE, "Last-Event-ID": "7"})
        assert ahead.status_code == 400 and ahead.json()["code"] == "invalid_last_event_id"
        assert ahead.json()["version"] == 1
        query = await http.get(f"/v1/games/{game_id}/events?since=7", headers=SSE)
        assert query.status_code == 400 and query.json()["code"] == "invalid_query"
        resumed = {**SSE, "Last-Event-ID": "1"}
        async with http.stream("GET", f"/v1/games/{game_id}/events", headers=resumed) as up:
            assert up.status_code == 200  # the game's own version is a place to resume at


async def test_an_idle_stream_sends_keepalives(server):
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        game_id, _ = await create(http)
        comments = []
        async with http.stream("GET", f"/v1/games/{game_id}/events", headers=SSE) as response:
            async for _, event, text in frames(response):
                if event == "comment":
                    comments.append(text)
                if comments.count("keepalive") == 2:
                    break
        assert comments[0] == "connected"


async def test_a_stream_on_one_replica_sees_moves_made_on_another(settings, games, serve):
    # A long keep-alive: only the Redis pub/sub ring can wake the idle stream in time.
    settings = settings.model_copy(update={"stream_keepalive": 60.0})
    with serve(create_app(settings, games)) as one, serve(create_app(settings, games)) as two:
        async with (
            httpx.AsyncClient(base_url=one.url, timeout=30) as first,
            httpx.AsyncClient(base_url=two.url, timeout=30) as second,
        ):
            game_id, tokens = await create(second, rounds=1)
            seen: list[str] = []

            async def read():
                async with first.stream(
                    "GET", f"/v1/games/{game_id}/events", headers=SSE
                ) as response:
                    async for event_id, event, _ in frames(response):
                        if event != "comment":
                            seen.append(event_id)
                        if event == "end":
                            return

            reader = asyncio.create_task(read())
            await asyncio.sleep(0.2)  # the stream is open and idle before anything happens
            await _play_to_end(second, game_id, tokens)
            await asyncio.wait_for(reader, 10)
    assert seen == ["1", "2", "3", "4", "4-end"]


async def test_a_stream_of_an_unknown_game_is_a_404_problem(server):
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        answer = await http.get("/v1/games/aaaaaaaaaaaaaaaaaaaaaaaa/events", headers=SSE)
        assert answer.status_code == 404
        assert answer.headers["content-type"] == "application/problem+json"


async def test_closing_streams_releases_them(server):
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        game_id, _ = await create(http)
        for _ in range(5):
            async with http.stream("GET", f"/v1/games/{game_id}/events", headers=SSE) as r:
                async for _frame in frames(r):
                    break
        metrics = ""
        for _ in range(100):
            metrics = (await http.get("/metrics")).text
            if 'skyport_live_streams{kind="sse"} 0.0' in metrics:
                break
            await asyncio.sleep(0.05)
        assert 'skyport_live_streams{kind="sse"} 0.0' in metrics


async def test_shutting_down_ends_open_streams_so_clients_reconnect_elsewhere(
    settings, games, serve
):
    app = create_app(settings.model_copy(update={"stream_keepalive": 60.0}), games)
    with serve(app) as server:
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
            game_id, _ = await create(http)
            seen = []
            async with http.stream("GET", f"/v1/games/{game_id}/events", headers=SSE) as r:
                async for _, event, text in frames(r):
                    seen.append((event, text))
                    if text == "connected":
                        app.state.close_streams()  # what SIGTERM does
    assert seen == [("comment", "connected")]  # ended without an `end` event


async def test_streams_per_client_ip_are_capped_and_given_back_however_they_end(
    settings, games, serve
):
    app = create_app(settings.model_copy(update={"sse_max_streams_per_ip": 2}), games)
    with serve(app) as server:
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
            game_id, _ = await create(http)
            url = f"/v1/games/{game_id}/events"
            for _ in range(3):  # refused before streaming: no place taken
                missing = await http.get("/v1/games/nope/events", headers=SSE)
                assert missing.status_code == 404
            async with (
                http.stream("GET", url, headers=SSE) as first,
                http.stream("GET", url, headers=SSE) as second,
            ):
                assert first.status_code == second.status_code == 200
                async with http.stream("GET", url, headers=SSE) as third:
                    assert third.status_code == 429  # (a stream, so that a 200 fails here)
                    assert third.headers["content-type"] == "application/problem+json"
                    await third.aread()
                assert third.json()["code"] == "too_many_connections"
                assert (await http.get(url)).status_code == 200  # a JSON page is no stream
            for _ in range(100):  # the two closed streams gave both places back
                async with (
                    http.stream("GET", url, headers=SSE) as one,
                    http.stream("GET", url, headers=SSE) as other,
                ):
                    statuses = {one.status_code, other.status_code}
                if statuses == {200}:
                    break
                await asyncio.sleep(0.05)
            assert statuses == {200}


async def test_an_empty_last_event_id_is_no_id_so_since_applies(server):
    """EventSource's last event id is empty until an event sets one, and some clients and
    proxies send the header anyway: it means "none yet", not a bad id (it was a 400,
    which stops EventSource for good)."""
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        game_id, tokens = await create(http)
        for _ in range(2):
            await play_one(http, game_id, tokens)
        empty = {**SSE, "Last-Event-ID": ""}
        async with http.stream(
            "GET", f"/v1/games/{game_id}/events?since=1", headers=empty
        ) as response:
            assert response.status_code == 200
            async for event_id, event, _ in frames(response):
                if event != "comment":
                    assert event_id == "2"
                    break


async def test_head_answers_the_streams_head_and_opens_no_stream(settings, games, serve):
    """A HEAD answer has no body: a stream opened for it never ended, the next request on
    its connection waited behind it for ever, and it kept one of the client's places."""
    app = create_app(settings.model_copy(update={"sse_max_streams_per_ip": 1}), games)
    with serve(app) as server:
        async with httpx.AsyncClient(base_url=server.url, timeout=5) as http:
            game_id, _ = await create(http)
            url = f"/v1/games/{game_id}/events"
            for _ in range(3):  # one keep-alive connection: each answer must have ended
                head = await http.head(url, headers=SSE)
                assert head.status_code == 200
                assert head.headers["content-type"].startswith("text/event-stream")
                assert "content-length" not in head.headers
            assert (await http.head("/v1/games/nope/events", headers=SSE)).status_code == 404
            async with http.stream("GET", url, headers=SSE) as stream:
                assert stream.status_code == 200, "a HEAD kept the client's only place"
