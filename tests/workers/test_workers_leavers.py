"""Leavers on real Celery workers: a seat that resigns from a 3-player game is abandoned
and the workers' bot plays it to the end; the finished game's record, archived by the
worker that scored it, replays through the engine."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient
from worker_harness import FINAL, PLATFORM_KEY, wait_for

from services.api.app import create_app
from services.gameplay.records import load_record, replay

pytestmark = pytest.mark.timeout(180)


def bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def test_a_resigning_seat_is_played_to_the_end_by_the_workers(worker_setup) -> None:
    setup = worker_setup()
    setup.start_worker()
    with TestClient(create_app(setup.settings)) as client:
        seats = [
            {"name": "Ada"},
            {"name": "Bot 1", "bot": "random"},
            {"name": "Bot 2", "bot": "random"},
        ]
        response = client.post(
            "/v1/games",
            json={"game": "sky-islands", "seats": seats, "seed": 5, "leave_bot": "random"},
            headers=bearer(PLATFORM_KEY),
        )
        assert response.status_code == 201, response.text
        created = response.json()
        game_id, token = created["id"], created["seats"][0]["token"]
        left = client.post(f"/v1/games/{game_id}/resign", headers=bearer(token))
        assert left.status_code == 200 and left.json()["abandoned"] is True
        document = wait_for(
            lambda: (d := client.get(f"/v1/games/{game_id}").json())["status"] in FINAL and d,
            120,
            "the workers to play the game out",
        )
        assert document["status"] == "finished"
        assert document["seats"][0]["abandoned"]
        standings = {s["seat"]: s for s in document["result"]["standings"]}
        assert standings[0]["abandoned"] and not standings[0]["resigned"]
        record = client.get(f"/v1/games/{game_id}/record", headers=bearer(token))
        assert record.status_code == 200, record.text
        replayed = replay(load_record(record.content))
        assert replayed.record.seats[0].left_at_version == 0
        assert {action.seat for action in replayed.record.moves} == {0, 1, 2}
