"""Bots and scoring on real Celery workers (`skyport worker` subprocesses), real Redis,
and the real ASGI app sending the tasks (SKYPORT_TASKS=celery)."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from starlette.testclient import TestClient
from worker_harness import (
    FINAL,
    PLATFORM_KEY,
    WorkerSetup,
    kill_hard,
    stop_warm,
    wait_for,
    worker_output,
)

from services.api.app import create_app
from services.engine import all_games
from services.gameplay.dispatch import ADVANCE_TASK
from workers.tasks import delivery_key

pytestmark = pytest.mark.timeout(180)

GAMES = sorted(game.id for game in all_games())
BOT_LEVELS = {
    "sky-islands": ["mcts", "greedy"],
    "dominion": ["mcts", "greedy"],
    "sky-lanterns": ["mcts", "greedy"],
}
"""All-bot line-ups: every level plays every game."""


@contextmanager
def api(setup: WorkerSetup) -> Iterator[TestClient]:
    with TestClient(create_app(setup.settings)) as client:
        yield client


def bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def create(client: TestClient, game: str, seats: list[dict[str, Any]], **body: Any) -> dict:
    response = client.post(
        "/v1/games",
        json={"game": game, "seats": seats, "seed": 7, **body},
        headers=bearer(PLATFORM_KEY),
    )
    assert response.status_code == 201, response.text
    return response.json()


def game_doc(client: TestClient, game_id: str, token: str | None = None) -> dict:
    response = client.get(f"/v1/games/{game_id}", headers=bearer(token))
    assert response.status_code == 200, response.text
    return response.json()


def wait_final(client: TestClient, game_id: str, timeout: float) -> dict:
    return wait_for(
        lambda: (doc := game_doc(client, game_id))["status"] in FINAL and doc,
        timeout,
        f"game {game_id} to end",
    )


def log_versions(client: TestClient, game_id: str) -> list[int]:
    versions: list[int] = []
    while True:
        since = versions[-1] if versions else 0
        response = client.get(
            f"/v1/games/{game_id}/events",
            params={"since": since, "limit": 1000},
            headers=bearer(PLATFORM_KEY),
        )
        assert response.status_code == 200, response.text
        page = response.json()
        versions += [entry["version"] for entry in page["entries"]]
        if not page["more"]:
            return versions


def seats_that_moved(client: TestClient, game_id: str) -> set[int]:
    response = client.get(
        f"/v1/games/{game_id}/events",
        params={"since": 0, "limit": 1000},
        headers=bearer(PLATFORM_KEY),
    )
    return {entry["seat"] for entry in response.json()["entries"]}


def play_as_human(
    client: TestClient, game_id: str, seat: int, token: str, rng: random.Random, timeout: float
) -> dict:
    """Random legal moves for `seat` whenever it is prompted, until the game ends."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        doc = game_doc(client, game_id, token)
        if doc["status"] != "active":
            return wait_final(client, game_id, 30)
        if seat not in doc["turn"]:
            time.sleep(0.01)
            continue
        legal = client.get(f"/v1/games/{game_id}/legal-moves", headers=bearer(token)).json()
        if legal["version"] != doc["version"] or not legal["moves"]:
            continue
        response = client.post(
            f"/v1/games/{game_id}/moves",
            json={"move": rng.choice(legal["moves"]), "expected_version": legal["version"]},
            headers=bearer(token),
        )
        assert response.status_code in (200, 409), response.text
    pytest.fail(f"game {game_id} did not end in {timeout}s")


def assert_finished_with_standings(client: TestClient, doc: dict) -> None:
    assert doc["status"] == "finished", doc.get("status")
    result = client.get(f"/v1/games/{doc['id']}/result")
    assert result.status_code == 200, result.text
    standings = result.json()["standings"]
    assert len(standings) == len(doc["seats"])
    assert all(standing["breakdown"] for standing in standings)
    assert log_versions(client, doc["id"]) == list(range(1, doc["version"] + 1))


# --- whole games --------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_an_all_bot_game_is_played_to_finished_by_the_workers(worker_setup, game: str) -> None:
    setup = worker_setup()
    setup.start_worker()
    with api(setup) as client:
        seats = [{"name": f"{level} bot", "bot": level} for level in BOT_LEVELS[game]]
        created = create(client, game, seats)
        doc = wait_final(client, created["id"], 90)
        assert_finished_with_standings(client, doc)
        assert seats_that_moved(client, created["id"]) == {0, 1}


@pytest.mark.parametrize("game", GAMES)
def test_a_human_against_two_bots_plays_to_finished(worker_setup, game: str) -> None:
    setup = worker_setup()
    setup.start_worker()
    with api(setup) as client:
        seats = [{"name": "Ada"}, {"name": "G", "bot": "greedy"}, {"name": "R", "bot": "random"}]
        created = create(client, game, seats)
        token = created["seats"][0]["token"]
        doc = play_as_human(client, created["id"], 0, token, random.Random(3), 120)
        assert_finished_with_standings(client, doc)
        assert seats_that_moved(client, created["id"]) == {0, 1, 2}, "the human and both bots"


# --- scoring --------------------------------------------------------------------------


def test_the_game_says_scoring_until_a_worker_scores_it(worker_setup) -> None:
    """No worker runs while two humans play to the end: the last move leaves the game in
    `scoring`; a worker started afterwards scores it and marks it `finished`."""
    setup = worker_setup()
    with api(setup) as client:
        created = create(client, "sky-islands", [{"name": "Ada"}, {"name": "Grace"}])
        game_id = created["id"]
        tokens = [seat["token"] for seat in created["seats"]]
        rng = random.Random(5)
        doc = game_doc(client, game_id)
        while doc["status"] == "active":
            seat = doc["turn"][0]
            moves = client.get(
                f"/v1/games/{game_id}/legal-moves", headers=bearer(tokens[seat])
            ).json()["moves"]
            response = client.post(
                f"/v1/games/{game_id}/moves",
                json={"move": rng.choice(moves), "expected_version": doc["version"]},
                headers=bearer(tokens[seat]),
            )
            assert response.status_code == 200, response.text
            doc = game_doc(client, game_id)
        assert doc["status"] == "scoring"
        time.sleep(0.5)
        assert game_doc(client, game_id)["status"] == "scoring"
        assert client.get(f"/v1/games/{game_id}/result").json()["code"] == "not_finished"

        setup.start_worker()
        finished = wait_final(client, game_id, 30)
        assert finished["version"] == doc["version"]
        assert_finished_with_standings(client, finished)


# --- idempotent tasks ------------------------------------------------------------------


def send_advance(setup: WorkerSetup, game_id: str, version: int) -> None:
    from workers.celery_app import make_celery

    celery = make_celery(setup.settings)
    try:
        celery.send_task(ADVANCE_TASK, args=[game_id, version], queue=setup.settings.task_queue)
    finally:
        celery.close()


def deliveries(setup: WorkerSetup, game_id: str, version: int) -> int:
    store = setup.store()
    try:
        return int(store.get(delivery_key(setup.settings, ADVANCE_TASK, game_id, version)) or 0)
    finally:
        store.close()


def snapshot(setup: WorkerSetup, game_id: str) -> dict[str, str]:
    store = setup.store()
    try:
        return store.hgetall(f"{setup.settings.key_prefix}:{{{game_id}}}:game")
    finally:
        store.close()


def test_stale_and_duplicate_tasks_change_nothing(worker_setup) -> None:
    setup = worker_setup()
    setup.start_worker()
    with api(setup) as client:
        # A finished all-bot game: every one of its tasks again, and the scoring again.
        done = create(client, "sky-islands", [{"name": "A", "bot": "random"}] * 2)
        finished = wait_final(client, done["id"], 60)
        assert finished["status"] == "finished"
        before = snapshot(setup, done["id"])
        counts = {v: deliveries(setup, done["id"], v) for v in range(finished["version"] + 1)}
        assert all(count == 1 for count in counts.values()), counts
        # A live game where the human is prompted: the current version (no bot is due)
        # and a stale one.
        live = create(
            client,
            "sky-islands",
            [{"name": "Ada"}, {"name": "Bot", "bot": "random"}],
            options={"starting_player": 0},
        )
        live_doc = game_doc(client, live["id"])
        assert live_doc["turn"] == [0] and live_doc["version"] == 0
        live_before = snapshot(setup, live["id"])

        for version in range(finished["version"] + 1):
            send_advance(setup, done["id"], version)
        send_advance(setup, done["id"], finished["version"] + 5)
        send_advance(setup, live["id"], 0)
        send_advance(setup, live["id"], 3)

        wait_for(
            lambda: (
                all(deliveries(setup, done["id"], v) == 2 for v in range(finished["version"] + 1))
                and deliveries(setup, live["id"], 0) >= 1
                and deliveries(setup, live["id"], 3) == 1
                and deliveries(setup, done["id"], finished["version"] + 5) == 1
            ),
            30,
            "the repeated tasks to run",
        )
        broker = setup.broker()
        try:
            wait_for(lambda: broker.llen(setup.settings.task_queue) == 0, 10, "an empty queue")
        finally:
            broker.close()
        time.sleep(0.3)
        assert snapshot(setup, done["id"]) == before
        assert snapshot(setup, live["id"]) == live_before
        assert log_versions(client, done["id"]) == list(range(1, finished["version"] + 1))
        assert log_versions(client, live["id"]) == []


# --- a worker killed in the middle of a task ---------------------------------------------


def test_a_worker_killed_mid_turn_is_replaced_and_the_game_finishes(worker_setup) -> None:
    """The first worker's mcts thinks for 3 s a move; it is SIGKILLed while it thinks.
    The unacknowledged task comes back to a replacement worker (a quick one) within the
    visibility timeout, and the game finishes with every version logged once."""
    setup = worker_setup(task_visibility_timeout=4)
    slow = setup.start_worker(bot_mcts_seconds=3, bot_mcts_iterations=1_000_000)
    with api(setup) as client:
        created = create(
            client,
            "sky-islands",
            [{"name": "Thinker", "bot": "mcts"}, {"name": "Quick", "bot": "random"}],
            options={"starting_player": 0},
        )
        game_id = created["id"]
        doc = wait_for(
            lambda: b"received" in slow.log.read_bytes() and game_doc(client, game_id),
            20,
            "the first bot turn to start",
        )
        time.sleep(1.0)
        assert game_doc(client, game_id)["version"] == doc["version"] == 0, "still thinking"
        kill_hard(slow)
        killed_at = time.monotonic()
        time.sleep(1.0)
        assert game_doc(client, game_id)["version"] == 0, "the killed task did not commit"

        replacement = setup.start_worker(bot_mcts_seconds=0.05, bot_mcts_iterations=10)
        wait_for(
            lambda: game_doc(client, game_id)["version"] >= 1,
            20,
            "the redelivered turn",
        )
        assert time.monotonic() - killed_at < 15
        doc = wait_final(client, game_id, 90)
        assert_finished_with_standings(client, doc)
        assert deliveries(setup, game_id, 0) == 2, "delivered to the killed and the new worker"
        assert stop_warm(replacement) == 0, worker_output(replacement)
