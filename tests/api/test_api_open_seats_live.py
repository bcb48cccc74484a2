"""A game with open seats, watched over SSE while it waits: the stream gives its seats
(the lobby) as they are claimed, says when the last seat is filled that the game started
and whose turn it is (before any move, the same to every reader), resumes past the start
with Last-Event-ID, gives the start first to a reader who missed it, and ends when the
creator cancels the waiting game."""

from __future__ import annotations

import asyncio
import contextlib
import threading

import httpx
import pytest
from live_client import frames, play_one

from services.api.app import create_app

pytestmark = pytest.mark.anyio

SSE = {"Accept": "text/event-stream"}
OPEN = {"open": True}
CANCELLED = {
    "status": "aborted",
    "version": 0,
    "result": None,
    "reason": "cancelled by its creator",
}


@pytest.fixture
def server(settings, games, serve):
    # A long keep-alive: only the ring of the fill or the cancel can wake an idle stream.
    with serve(create_app(settings.model_copy(update={"stream_keepalive": 60.0}), games)) as up:
        yield up


async def create(http, seats: list[dict], rounds: int = 2) -> dict:
    body = {"game": "hidden-numbers", "seats": seats, "options": {"rounds": rounds}, "seed": 5}
    created = await http.post("/v1/games", json=body)
    assert created.status_code == 201, created.text
    return created.json()


async def claim(http, created: dict, seat: int, name: str) -> str:
    code = created["seats"][seat]["invite_code"]
    answer = await http.post(
        f"/v1/games/{created['id']}/seats/{seat}/claim", json={"code": code, "name": name}
    )
    assert answer.status_code == 200, answer.text
    return answer.json()["token"]


class Watcher:
    """Reads a game's SSE stream in the background until `count` events (or the end)."""

    def __init__(self, http, game_id: str, count: int, **headers: str) -> None:
        self.seen: list[tuple] = []
        self.connected = asyncio.Event()
        self.task = asyncio.create_task(self._read(http, game_id, count, headers))

    async def _read(self, http, game_id: str, count: int, headers: dict[str, str]) -> None:
        async with http.stream(
            "GET", f"/v1/games/{game_id}/events", headers={**SSE, **headers}
        ) as response:
            assert response.status_code == 200
            async for event_id, event, data in frames(response):
                if event == "comment":
                    self.connected.set()
                    continue
                self.seen.append((event_id, event, data))
                if len(self.seen) == count:
                    return

    async def seen_at_least(self, count: int) -> None:
        """Until `count` events came: a frame the stream sends once caught up (a lobby)
        tells the test that what it does next is live."""
        async with asyncio.timeout(10):
            while len(self.seen) < count:
                await asyncio.sleep(0.01)

    async def done(self) -> list[tuple]:
        await asyncio.wait_for(self.task, 20)
        return self.seen


async def read_events(http, game_id: str, count: int, **headers: str) -> list[tuple]:
    watcher = Watcher(http, game_id, count, **headers)
    return await watcher.done()


def names(frame: tuple) -> list[str]:
    """A lobby frame's seats: each name, or "open" for a seat still waiting."""
    event_id, event, data = frame
    assert (event_id, event) == (None, "lobby")
    return ["open" if seat["open"] else seat["name"] for seat in data["seats"]]


@pytest.mark.timeout(60)
async def test_watchers_of_a_waiting_game_see_each_claim_then_the_start(server):
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        created = await create(http, [{"name": "Host"}, OPEN, OPEN])
        game_id, host = created["id"], created["seats"][0]["token"]
        auth = {"Authorization": f"Bearer {host}"}
        seated, anyone = Watcher(http, game_id, 5, **auth), Watcher(http, game_id, 5)
        await seated.seen_at_least(1)
        await anyone.seen_at_least(1)
        ana = await claim(http, created, 1, "Ana")
        await seated.seen_at_least(2)
        await anyone.seen_at_least(2)
        for watcher in (seated, anyone):
            assert [names(frame) for frame in watcher.seen] == [
                ["Host", "open", "open"],
                ["Host", "Ana", "open"],
            ], "the lobby on connecting, then a seat claimed while another is open"
        bruno = await claim(http, created, 2, "Bruno")
        await play_one(http, game_id, [host, ana, bruno])
        for_seat, for_anyone = await seated.done(), await anyone.done()
        game = (await http.get(f"/v1/games/{game_id}")).json()

    start = ("0-start", "start", {"status": "active", "version": 0, "turn": [0, 1, 2]})
    for seen in (for_seat, for_anyone):
        assert names(seen[2]) == ["Host", "Ana", "Bruno"]  # the last claim, before the start
        assert seen[2][2]["seats"] == game["seats"]  # as the game shows them, nothing more
        event_id, event, data = seen[3]
        assert (event_id, event, {k: v for k, v in data.items() if k != "at"}) == start
        assert set(data) == {"status", "version", "turn", "at"}  # nothing anyone may not see
        assert seen[4][:2] == ("1", "move") and seen[4][2]["seat"] == 0
    assert for_seat[:4] == for_anyone[:4]  # the move itself is the seat's own
    assert for_seat[3][2]["at"] <= game["updated_at"]
    assert game["seats"][1]["name"] == "Ana"


@pytest.mark.timeout(60)
async def test_a_reissued_invite_and_a_late_reader_get_the_lobby_as_it_stands(server):
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        created = await create(http, [{"name": "Host"}, OPEN, OPEN])
        game_id = created["id"]
        await claim(http, created, 2, "Cleo")
        late = Watcher(http, game_id, 2)
        await late.seen_at_least(1)
        reissued = await http.post(
            f"/v1/games/{game_id}/seats/1/invite",
            json={"ttl_seconds": 7200},
            headers={"Authorization": f"Bearer {created['creator_token']}"},
        )
        assert reissued.status_code == 200, reissued.text
        first, second = await late.done()
    assert names(first) == names(second) == ["Host", "open", "Cleo"]
    expiry = reissued.json()["invite_expires_at"]
    assert first[2]["seats"][1]["invite_expires_at"] != expiry
    assert second[2]["seats"][1]["invite_expires_at"] == expiry


@pytest.mark.timeout(60)
async def test_a_stream_resumes_past_the_start_and_gives_it_to_a_reader_who_missed_it(server):
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        created = await create(http, [{"name": "Host"}, OPEN])
        game_id, host = created["id"], created["seats"][0]["token"]
        early = Watcher(http, game_id, 1)
        await asyncio.wait_for(early.connected.wait(), 10)
        early.task.cancel()  # the connection drops while the game waits: no id seen yet
        with contextlib.suppress(asyncio.CancelledError):
            await early.task
        guest = await claim(http, created, 1, "Guest")
        tokens = [host, guest]
        await play_one(http, game_id, tokens)

        from_scratch = await read_events(http, game_id, 2)
        assert [f[0] for f in from_scratch] == ["0-start", "1"]
        assert from_scratch[0][2]["turn"] == [0, 1]
        past_start = await read_events(http, game_id, 1, **{"Last-Event-ID": "0-start"})
        assert [f[0] for f in past_start] == ["1"]

        after_one = Watcher(http, game_id, 1, **{"Last-Event-ID": "1"})
        await asyncio.wait_for(after_one.connected.wait(), 10)
        await play_one(http, game_id, tokens)
        assert [f[0] for f in await after_one.done()] == ["2"]

        plain_game = await create(http, [{"name": "A"}, {"name": "B"}])
        plain_tokens = [seat["token"] for seat in plain_game["seats"]]
        await play_one(http, plain_game["id"], plain_tokens)
        never_waited = await read_events(http, plain_game["id"], 1)
        assert [f[0] for f in never_waited] == ["1"]  # no start: it never waited


@pytest.mark.timeout(60)
async def test_the_start_comes_before_the_moves_of_bots_that_play_at_once(server):
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        created = await create(http, [{"name": "Bot", "bot": "random"}, OPEN], rounds=1)
        game_id = created["id"]
        watcher = Watcher(http, game_id, 100)
        await asyncio.wait_for(watcher.connected.wait(), 10)
        filled = await http.post(
            f"/v1/games/{game_id}/seats/1/bot",
            json={"bot": "random"},
            headers={"Authorization": f"Bearer {created['creator_token']}"},
        )
        assert filled.status_code == 200 and filled.json()["status"] == "active"
        seen = await watcher.done()  # the bots play it to the end
    assert names(seen[0]) == ["Bot", "open"]
    assert names(seen[1]) == ["Bot", "Bot (random)"]
    seen = seen[2:]
    ids = [f[0] for f in seen]
    assert ids[0] == "0-start" and seen[0][2]["turn"] == [0, 1]
    last = len(ids) - 2
    assert ids[1:] == [str(v) for v in range(1, last + 1)] + [f"{last}-end"]
    assert seen[-1][2]["status"] == "finished" and seen[-1][2]["reason"] is None


@pytest.mark.timeout(60)
async def test_a_watcher_of_a_waiting_game_sees_its_cancellation_and_the_stream_ends(server):
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        created = await create(http, [{"name": "Host"}, OPEN])
        game_id = created["id"]
        watcher = Watcher(http, game_id, 100)  # ends only when the server ends the stream
        await asyncio.wait_for(watcher.connected.wait(), 10)
        cancelled = await http.post(
            f"/v1/games/{game_id}/cancel",
            headers={"Authorization": f"Bearer {created['creator_token']}"},
        )
        assert cancelled.status_code == 200
        lobby, *rest = await watcher.done()
        assert names(lobby) == ["Host", "open"]
        assert rest == [("0-end", "end", CANCELLED)]
        assert await read_events(http, game_id, 100) == [("0-end", "end", CANCELLED)]
        stop = await http.get(
            f"/v1/games/{game_id}/events", headers={**SSE, "Last-Event-ID": "0-end"}
        )
        assert stop.status_code == 204


@pytest.mark.timeout(60)
async def test_the_start_comes_before_moves_made_while_a_reader_was_looking(settings, games, serve):
    """The last seat is filled and moves commit after a reader saw no start yet but before
    it read the log: the start still comes first, as version 0 (it came after the moves,
    as `2-start`, with the turn of version 0)."""
    app = create_app(settings.model_copy(update={"stream_keepalive": 60.0}), games)
    with serve(app) as server:
        open_seats = app.state.service.seats.open_seats
        looked, go_on = threading.Event(), threading.Event()
        read_start = open_seats.start_of

        async def start_of(game_id: str):
            start = await read_start(game_id)
            if start is None and not looked.is_set():
                looked.set()  # the reader saw no start: hold it here
                await asyncio.to_thread(go_on.wait, 10)
            return start

        open_seats.start_of = start_of
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
            created = await create(http, [{"name": "Host"}, OPEN])
            game_id = created["id"]
            watcher = Watcher(http, game_id, 3 + 1)  # (a lobby may come first)
            assert await asyncio.to_thread(looked.wait, 10)
            tokens = [created["seats"][0]["token"], await claim(http, created, 1, "Ana")]
            for _ in range(2):
                await play_one(http, game_id, tokens)
            go_on.set()
            async with asyncio.timeout(20):
                while len([f for f in watcher.seen if f[1] != "lobby"]) < 3:
                    await asyncio.sleep(0.01)
            watcher.task.cancel()
    events = [(event_id, event) for event_id, event, _ in watcher.seen if event != "lobby"]
    assert events[:3] == [("0-start", "start"), ("1", "move"), ("2", "move")]
    start = next(data for _, event, data in watcher.seen if event == "start")
    assert start["version"] == 0
