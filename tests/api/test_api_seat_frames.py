"""A seat's status over SSE: a seat that leaves under bot_takes_over, or whose autopilot
goes on or off, commits nothing, yet a watcher learns it at once from an `event: seat`
frame (no `id:`, so resuming by version is as before); one who connects later learns the
status of every seat a bot plays now, once it has caught up with the log."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from live_client import frames

from services.api.app import create_app

pytestmark = pytest.mark.anyio

SSE = {"Accept": "text/event-stream"}
PROMPTLY = 5.0
"""Seconds a watcher may wait for a seat frame; the keep-alive (60 s) never wakes it."""


@pytest.fixture
def server(settings, games, serve):
    # A long keep-alive: only the ring of the change itself can wake an idle stream.
    quiet = settings.model_copy(update={"stream_keepalive": 60.0, "clock_sweep_seconds": 0.1})
    with serve(create_app(quiet, games)) as up:
        yield up


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def create(http, seats: list[dict] | int = 3, **extra) -> tuple[str, list[str]]:
    if isinstance(seats, int):
        seats = [{"name": f"P{n}"} for n in range(seats)]
    body = {"game": "hidden-numbers", "seats": seats, "options": {"rounds": 2}, "seed": 3}
    created = await http.post("/v1/games", json={**body, **extra})
    assert created.status_code == 201, created.text
    return created.json()["id"], [seat["token"] for seat in created.json()["seats"]]


async def discard(http, game_id: str, token: str) -> int:
    """The seat discards (everyone discards at once in hidden-numbers): afterwards it is
    not prompted until every seat has discarded, so a bot that takes it over waits."""
    moves = (await http.get(f"/v1/games/{game_id}/legal-moves", headers=auth(token))).json()
    answer = await http.post(
        f"/v1/games/{game_id}/moves", json={"move": moves["moves"][0]}, headers=auth(token)
    )
    assert answer.status_code == 200, answer.text
    return answer.json()["version"]


async def set_autopilot(http, game_id: str, seat: int, token: str, on: bool) -> None:
    answer = await http.post(
        f"/v1/games/{game_id}/seats/{seat}/autopilot", json={"on": on}, headers=auth(token)
    )
    assert answer.status_code == 200, answer.text


class Watcher:
    """Reads a game's SSE stream in the background, frame by frame, into a queue."""

    def __init__(self, http, game_id: str, **headers: str) -> None:
        self.frames: asyncio.Queue[tuple] = asyncio.Queue()
        self.task = asyncio.create_task(self._read(http, game_id, headers))

    async def _read(self, http, game_id: str, headers: dict[str, str]) -> None:
        async with http.stream(
            "GET", f"/v1/games/{game_id}/events", headers={**SSE, **headers}
        ) as response:
            assert response.status_code == 200
            async for frame in frames(response):
                if frame[1] != "comment":
                    await self.frames.put(frame)

    async def next(self, timeout: float = PROMPTLY) -> tuple:
        return await asyncio.wait_for(self.frames.get(), timeout)

    async def take(self, count: int) -> list[tuple]:
        return [await self.next() for _ in range(count)]

    async def nothing_more(self, wait: float = 0.3) -> bool:
        await asyncio.sleep(wait)
        return self.frames.empty()

    async def close(self) -> None:
        self.task.cancel()
        await asyncio.gather(self.task, return_exceptions=True)


def seat_status(frame: tuple) -> tuple:
    """(id, event, data without `at`), checking `at` is there."""
    event_id, event, data = frame
    assert isinstance(data.pop("at"), str)
    return event_id, event, data


def seat(
    number: int,
    version: int,
    abandoned: bool = False,
    autopilot: bool = False,
    reason: str | None = None,
) -> tuple:
    status = {"seat": number, "abandoned": abandoned, "autopilot": autopilot, "version": version}
    status["reason"] = reason or ("resigned" if abandoned else None)
    return None, "seat", status


@pytest.mark.timeout(60)
async def test_a_watcher_learns_at_once_that_a_seat_left_and_a_bot_plays_on(server):
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        game_id, tokens = await create(http)
        assert await discard(http, game_id, tokens[2]) == 1
        watcher = Watcher(http, game_id, **auth(tokens[0]))
        assert (await watcher.next())[:2] == ("1", "move")
        assert await watcher.nothing_more()  # caught up, every seat in play: it waits
        left = await http.post(f"/v1/games/{game_id}/resign", json={}, headers=auth(tokens[2]))
        assert left.status_code == 200 and left.json()["abandoned"] is True
        frame = seat_status(await watcher.next())
        assert frame == seat(2, version=1, abandoned=True)
        game = (await http.get(f"/v1/games/{game_id}")).json()
        assert game["version"] == 1, "nothing was committed"
        assert game["seats"][2]["abandoned"] is True  # the same status the game shows
        assert await watcher.nothing_more()
        await watcher.close()


@pytest.mark.timeout(60)
async def test_a_watcher_learns_at_once_that_a_seat_went_on_and_off_autopilot(server):
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        game_id, tokens = await create(http)
        assert await discard(http, game_id, tokens[1]) == 1
        watcher = Watcher(http, game_id)  # anyone who may read the game
        assert (await watcher.next())[:2] == ("1", "move")
        assert await watcher.nothing_more()
        await set_autopilot(http, game_id, 1, tokens[1], True)
        assert seat_status(await watcher.next()) == seat(1, version=1, autopilot=True)
        await set_autopilot(http, game_id, 1, tokens[1], False)
        assert seat_status(await watcher.next()) == seat(1, version=1)
        assert (await http.get(f"/v1/games/{game_id}")).json()["version"] == 1
        assert await watcher.nothing_more()
        # Moves go on as before, with their ids: a seat frame is no place to resume from.
        assert await discard(http, game_id, tokens[0]) == 2
        assert (await watcher.next())[:2] == ("2", "move")
        await watcher.close()


@pytest.mark.timeout(60)
async def test_a_watcher_who_connects_later_learns_each_seat_a_bot_plays_now(server):
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        game_id, tokens = await create(http, seats=4)
        assert await discard(http, game_id, tokens[1]) == 1
        assert await discard(http, game_id, tokens[2]) == 2
        assert await discard(http, game_id, tokens[3]) == 3
        await set_autopilot(http, game_id, 1, tokens[1], True)
        left = await http.post(f"/v1/games/{game_id}/resign", json={}, headers=auth(tokens[2]))
        assert left.json()["abandoned"] is True
        await set_autopilot(http, game_id, 3, tokens[3], True)
        await set_autopilot(http, game_id, 3, tokens[3], False)  # back: nothing to tell

        from_scratch = Watcher(http, game_id)
        seen = await from_scratch.take(5)
        assert [frame[:2] for frame in seen[:3]] == [("1", "move"), ("2", "move"), ("3", "move")]
        assert [seat_status(frame) for frame in seen[3:]] == [
            seat(1, version=3, autopilot=True),
            seat(2, version=3, abandoned=True),
        ]
        assert await from_scratch.nothing_more()

        resumed = Watcher(http, game_id, **{"Last-Event-ID": "3"})  # had every entry
        assert [seat_status(frame) for frame in await resumed.take(2)] == [
            seat(1, version=3, autopilot=True),
            seat(2, version=3, abandoned=True),
        ]
        assert await resumed.nothing_more()

        # A move after a seat frame has the next version, for every reader.
        assert await discard(http, game_id, tokens[0]) == 4
        for watcher in (from_scratch, resumed):
            frame = await watcher.next()
            assert frame[:2] == ("4", "move"), frame
            await watcher.close()


@pytest.mark.timeout(60)
async def test_a_seat_whose_clock_runs_out_under_bot_takes_over_has_a_seat_frame(server):
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        bots = [{"name": f"Bot {n}", "bot": "random"} for n in (1, 2)]
        game_id, _ = await create(http, [{"name": "Ada"}, *bots], clock={"initial_seconds": 0.5})
        watcher = Watcher(http, game_id)
        seen = []
        while not seen or seen[-1][1] != "end":
            seen.append(await watcher.next(timeout=20))
        await watcher.close()
    statuses = [seat_status(frame) for frame in seen if frame[1] == "seat"]
    assert len(statuses) == 1, statuses  # once, however many moves its bot made after
    at_version = statuses[0][2]["version"]  # the bots' discards may come first
    assert statuses == [seat(0, version=at_version, abandoned=True, reason="timeout")]
    assert 0 <= at_version < seen[-1][2]["version"]
    assert {frame[1] for frame in seen if frame[1] != "seat"} == {"move", "end"}
