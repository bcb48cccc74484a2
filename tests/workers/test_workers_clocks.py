"""Clocks: a time bank per seat plus an increment per move, enforced by the sweep (in
the app's process in embedded mode, by `skyport worker --beat` with workers)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from starlette.testclient import TestClient
from worker_harness import PLATFORM_KEY, wait_for

from services.api.app import create_app
from services.gameplay.settings import Settings

pytestmark = pytest.mark.timeout(120)

TWO_HUMANS = [{"name": "Ada"}, {"name": "Grace"}]


@contextmanager
def embedded(**overrides: object) -> Iterator[TestClient]:
    values: dict = {
        "redis_url": None,
        "api_keys": PLATFORM_KEY,
        "rate_limit_per_ip": 0,
        "create_limit_per_ip": 0,
        "rate_limit_per_token": 0,
        "clock_sweep_seconds": 0.1,
        "log_level": "warning",
        **overrides,
    }
    settings = Settings(**values)
    with TestClient(create_app(settings)) as client:
        yield client


def create(client: TestClient, clock: dict, seats: list[dict] = TWO_HUMANS) -> dict:
    response = client.post(
        "/v1/games",
        json={
            "game": "sky-islands",
            "seats": seats,
            "seed": 4,
            "options": {"starting_player": 0},
            "clock": clock,
        },
    )
    assert response.status_code == 201, response.text
    return response.json()


def doc(client: TestClient, game_id: str) -> dict:
    response = client.get(f"/v1/games/{game_id}")
    assert response.status_code == 200, response.text
    return response.json()


def first_legal(client: TestClient, game_id: str, token: str) -> dict:
    return client.get(
        f"/v1/games/{game_id}/legal-moves", headers={"Authorization": f"Bearer {token}"}
    ).json()["moves"][0]


def move(client: TestClient, game_id: str, token: str, body: dict):
    return client.post(
        f"/v1/games/{game_id}/moves", json=body, headers={"Authorization": f"Bearer {token}"}
    )


def entries(client: TestClient, game_id: str) -> list[dict]:
    response = client.get(
        f"/v1/games/{game_id}/events",
        params={"since": 0},
        headers={"Authorization": f"Bearer {PLATFORM_KEY}"},
    )
    return response.json()["entries"]


def test_the_view_shows_each_seats_time_running_down_and_the_increment() -> None:
    with embedded() as client:
        created = create(client, {"initial_seconds": 30, "increment_seconds": 5})
        game_id, token = created["id"], created["seats"][0]["token"]
        first = doc(client, game_id)["clock"]
        assert first["running"] == [0] and first["on_timeout"] == "forfeit"
        time.sleep(0.3)
        later = doc(client, game_id)["clock"]
        assert later["remaining"][0] <= 30 - 0.3 and later["remaining"][1] == 30
        assert move(
            client, game_id, token, {"move": first_legal(client, game_id, token)}
        ).is_success
        after = doc(client, game_id)["clock"]
        # Ada paid her thinking time and got the 5 s increment; Grace's clock now runs.
        assert 30 < after["remaining"][0] <= 35 - 0.3 and after["running"] == [1]


def test_forfeit_on_timeout_the_seat_loses_and_the_others_are_scored() -> None:
    with embedded() as client:
        created = create(client, {"initial_seconds": 0.5, "on_timeout": "forfeit"})
        game_id = created["id"]
        finished = wait_for(
            lambda: (d := doc(client, game_id))["status"] == "finished" and d, 10, "the forfeit"
        )
        (entry,) = entries(client, game_id)
        assert entry["seat"] == 0 and entry["action"] == "resign"
        assert finished["result"]["winners"] == [1]
        loser = next(s for s in finished["result"]["standings"] if s["seat"] == 0)
        assert loser["resigned"] is True
        assert finished["clock"]["remaining"][0] == 0 and finished["clock"]["running"] == []


def test_bot_on_timeout_a_bot_moves_for_the_seat_which_then_plays_on_its_increment() -> None:
    with embedded() as client:
        created = create(
            client, {"initial_seconds": 0.4, "increment_seconds": 20, "on_timeout": "bot"}
        )
        game_id = created["id"]
        tokens = [seat["token"] for seat in created["seats"]]
        wait_for(lambda: doc(client, game_id)["version"] >= 1, 10, "the bot's move for Ada")
        (entry,) = entries(client, game_id)
        assert entry["seat"] == 0 and entry["action"] == "move"
        state = doc(client, game_id)
        assert state["status"] == "active" and state["clock"]["remaining"][0] == 20
        # Grace moves at once; then Ada, back in time, plays her own move.
        while 0 not in state["turn"]:
            seat = state["turn"][0]
            legal = first_legal(client, game_id, tokens[seat])
            assert move(client, game_id, tokens[seat], {"move": legal}).is_success
            state = doc(client, game_id)
        mine = move(client, game_id, tokens[0], {"move": first_legal(client, game_id, tokens[0])})
        assert mine.status_code == 200, mine.text
        assert entries(client, game_id)[-1]["seat"] == 0
        assert doc(client, game_id)["status"] == "active"


def test_a_move_after_the_time_ran_out_is_refused() -> None:
    # A sweep that never comes in time: the refusal is the API's own check.
    with embedded(clock_sweep_seconds=3600) as client:
        created = create(client, {"initial_seconds": 0.2})
        game_id, token = created["id"], created["seats"][0]["token"]
        legal = first_legal(client, game_id, token)
        time.sleep(0.4)
        refused = move(client, game_id, token, {"move": legal})
        assert refused.status_code == 422 and refused.json()["code"] == "out_of_time"
        assert doc(client, game_id)["version"] == 0
        assert doc(client, game_id)["clock"]["remaining"][0] == 0


def test_a_worker_enforces_the_clock_by_default(worker_setup) -> None:
    """`skyport worker` with no option runs the sweep: a worker started without it would
    let no clock run out (and, before the sweep was the default, the shipped deployments
    had to remember `--beat`)."""
    setup = worker_setup(clock_sweep_seconds=0.5)
    setup.start_worker(as_shipped=True)
    with TestClient(create_app(setup.settings)) as client:
        created = create(
            client,
            {"initial_seconds": 1, "on_timeout": "forfeit"},
            seats=[{"name": "Ada"}, {"name": "Bot", "bot": "random"}],
        )
        finished = wait_for(
            lambda: (d := doc(client, created["id"]))["status"] == "finished" and d,
            20,
            "the worker's sweep to forfeit Ada",
        )
        assert finished["result"]["winners"] == [1]
        assert entries(client, created["id"])[-1]["action"] == "resign"
