"""A tournament run by real Celery workers: every round after the first is started by
the worker that scores the round's last game, the standings add up from the games'
results, and the workers deliver the tournament's webhooks (retrying after a 500)."""

from __future__ import annotations

from collections import defaultdict

import orjson
import pytest
from starlette.testclient import TestClient
from worker_harness import PLATFORM_KEY, WebhookReceiver, wait_for

from services.api.app import create_app
from services.gameplay.webhooks import verify

pytestmark = pytest.mark.timeout(240)

SECRET = "tournament-webhook-secret"
LOCAL_RECEIVERS = {"webhook_allow_private": True}
FAST_RETRIES = {"webhook_backoff_seconds": 0.1, "webhook_backoff_max": 0.5}
KEY = {"Authorization": f"Bearer {PLATFORM_KEY}"}


def test_celery_workers_play_a_swiss_of_bots_round_after_round(worker_setup) -> None:
    setup = worker_setup(webhook_secret=SECRET, **FAST_RETRIES, **LOCAL_RECEIVERS)
    setup.start_worker(**LOCAL_RECEIVERS)
    setup.start_worker(**LOCAL_RECEIVERS)
    with (
        WebhookReceiver(fail_first=1) as receiver,
        TestClient(create_app(setup.settings)) as client,
    ):
        response = client.post(
            "/v1/tournaments",
            json={
                "game": "sky-islands",
                "participants": [{"name": f"Bot {n}", "bot": "random"} for n in range(8)],
                "format": {"kind": "swiss", "rounds": 3},
                "seed": 21,
                "webhook_url": receiver.url,
            },
            headers=KEY,
        )
        assert response.status_code == 201, response.text
        tournament_id = response.json()["id"]
        document = wait_for(
            lambda: (
                (d := client.get(f"/v1/tournaments/{tournament_id}").json())["status"] == "finished"
                and d
            ),
            180,
            "the workers to play every round",
            interval=0.2,
        )
        assert [len(r["tables"]) for r in document["rounds"]] == [4, 4, 4]
        points: dict[int, float] = defaultdict(float)
        scores: dict[int, int] = defaultdict(int)
        for round_ in document["rounds"]:
            for table in round_["tables"]:
                result = client.get(f"/v1/games/{table['game_id']}/result").json()
                ranks = {s["seat"]: s for s in result["standings"]}
                for seat, p in enumerate(table["participants"]):
                    other = ranks[1 - seat]["rank"]
                    mine = ranks[seat]["rank"]
                    points[p] += 1 if mine < other else 0.5 if mine == other else 0
                    scores[p] += ranks[seat]["score"]
        for row in document["standings"]:
            assert row["points"] == points[row["participant"]]
            assert row["score"] == scores[row["participant"]]
        wanted = {f"{tournament_id}:round:{n}:tournament.round_started" for n in (1, 2, 3)}
        wanted.add(f"{tournament_id}:tournament.finished")
        delivered = wait_for(
            lambda: (hooks := receiver.delivered()) and wanted <= hooks.keys() and hooks,
            60,
            "the tournament's webhooks",
        )
        headers, body = delivered[f"{tournament_id}:tournament.finished"]
        assert verify(SECRET, body, headers["skyport-signature"])
        assert [row["participant"] for row in orjson.loads(body)["standings"]] == [
            row["participant"] for row in document["standings"]
        ]
        assert receiver.attempts(f"{tournament_id}:tournament.finished")[0][2] == 500
