"""Webhooks of real games reaching a local HTTP server: signed, with an event id, retried
after a 500, bounded — from a real worker, and in-process in embedded mode."""

from __future__ import annotations

import time
from types import SimpleNamespace

import orjson
import pytest
from starlette.testclient import TestClient
from worker_harness import PLATFORM_KEY, WebhookReceiver, wait_for

from services.api.app import create_app
from services.gameplay import seats as seats_module
from services.gameplay.commits import CommitPipeline
from services.gameplay.seats import SeatDesk
from services.gameplay.settings import Settings
from services.gameplay.webhooks import verify
from services.store.webhook_outbox import outbox_keys
from tests.conftest import crash

pytestmark = pytest.mark.timeout(120)

SECRET = "webhook-secret-for-tests"
FAST_RETRIES = {"webhook_backoff_seconds": 0.1, "webhook_backoff_max": 0.5}
LOCAL_RECEIVERS = {"webhook_allow_private": True}
"""The receivers listen on 127.0.0.1, which only this setting lets webhooks reach."""


def create(client: TestClient, **body: object) -> dict:
    response = client.post(
        "/v1/games",
        json={"game": "sky-islands", "seats": [{"name": "A", "bot": "random"}] * 2, **body},
        headers={"Authorization": f"Bearer {PLATFORM_KEY}"},
    )
    assert response.status_code == 201, response.text
    return response.json()


def finished(client: TestClient, game_id: str) -> dict:
    return wait_for(
        lambda: (doc := client.get(f"/v1/games/{game_id}").json())["status"] == "finished" and doc,
        60,
        "the game to finish",
    )


def check_finished_hook(receiver: WebhookReceiver, client: TestClient, doc: dict) -> dict:
    event_id = f"{doc['id']}:{doc['version']}:game.finished"
    headers, body = wait_for(lambda: receiver.delivered().get(event_id), 30, event_id)
    assert verify(SECRET, body, headers["skyport-signature"])
    assert not verify("another-secret", body, headers["skyport-signature"])
    assert headers["skyport-event-type"] == "game.finished"
    payload = orjson.loads(body)
    assert payload["id"] == event_id and payload["version"] == doc["version"]
    assert payload["result"] == client.get(f"/v1/games/{doc['id']}/result").json()
    return payload


def game_with_move_webhooks(client, url: str) -> tuple[str, dict[str, str], dict]:
    """A two-seat game sending `move` webhooks to `url`: its id, and the auth header and
    legal moves of the seat to move."""
    created = create(
        client, seats=[{"name": "Ann"}, {"name": "Bo"}], webhook_url=url, webhook_events=["move"]
    )
    game_id = created["id"]
    for seat in created["seats"]:
        auth = {"Authorization": f"Bearer {seat['token']}"}
        legal = client.get(f"/v1/games/{game_id}/legal-moves", headers=auth).json()
        if legal["moves"]:
            return game_id, auth, legal
    raise AssertionError("no seat has a move")


def test_a_worker_posts_signed_moves_and_the_finish_retrying_after_a_500(worker_setup) -> None:
    setup = worker_setup(webhook_secret=SECRET, **FAST_RETRIES, **LOCAL_RECEIVERS)
    setup.start_worker(**LOCAL_RECEIVERS)
    with (
        WebhookReceiver(fail_first=1) as receiver,
        TestClient(create_app(setup.settings)) as client,
    ):
        created = create(client, webhook_url=receiver.url, webhook_events=["move", "game.finished"])
        doc = finished(client, created["id"])
        check_finished_hook(receiver, client, doc)
        assert [
            status
            for _, _, status in receiver.attempts(f"{doc['id']}:{doc['version']}:game.finished")
        ][:2] == [500, 200]
        move_ids = {f"{doc['id']}:{v}:move" for v in range(1, doc["version"] + 1)}
        delivered = wait_for(
            lambda: (hooks := receiver.delivered()) and move_ids <= hooks.keys() and hooks,
            30,
            "every move's webhook",
        )
        for event_id in move_ids:
            headers, body = delivered[event_id]
            assert verify(SECRET, body, headers["skyport-signature"])
            entry = orjson.loads(body)["entry"]
            assert entry["move"] is None, "a move webhook shows what a spectator sees"
            assert f"{doc['id']}:{entry['version']}:move" == event_id


def test_embedded_mode_delivers_in_process_to_the_game_and_its_api_key(redis_url: str) -> None:
    with WebhookReceiver(fail_first=1) as game_hooks, WebhookReceiver(fail_first=0) as key_hooks:
        settings = Settings(
            redis_url=None,
            api_keys=PLATFORM_KEY,
            api_key_webhooks={PLATFORM_KEY: key_hooks.url},
            webhook_secret=SECRET,
            rate_limit_per_ip=0,
            create_limit_per_ip=0,
            rate_limit_per_token=0,
            log_level="warning",
            **FAST_RETRIES,
            **LOCAL_RECEIVERS,
        )
        assert settings.task_mode == "inprocess"
        with TestClient(create_app(settings)) as client:
            created = create(client, webhook_url=game_hooks.url)
            doc = finished(client, created["id"])
            check_finished_hook(game_hooks, client, doc)
            check_finished_hook(key_hooks, client, doc)
            event_id = f"{doc['id']}:{doc['version']}:game.finished"
            assert [s for _, _, s in game_hooks.attempts(event_id)] == [500, 200]
            assert [s for _, _, s in key_hooks.attempts(event_id)] == [200]
            assert all(
                "move" not in h.get("skyport-event-type", "") for h, _, _ in game_hooks.received
            )


def test_a_webhook_is_given_up_after_its_retries() -> None:
    with WebhookReceiver(fail_first=None) as receiver:
        settings = Settings(
            redis_url=None,
            api_keys=PLATFORM_KEY,
            webhook_secret=SECRET,
            webhook_max_retries=2,
            rate_limit_per_ip=0,
            create_limit_per_ip=0,
            rate_limit_per_token=0,
            log_level="warning",
            **FAST_RETRIES,
            **LOCAL_RECEIVERS,
        )
        with TestClient(create_app(settings)) as client:
            created = create(client, webhook_url=receiver.url)
            doc = finished(client, created["id"])
            event_id = f"{doc['id']}:{doc['version']}:game.finished"
            wait_for(lambda: len(receiver.attempts(event_id)) == 3, 20, "three attempts")
            time.sleep(1.5)
            assert len(receiver.attempts(event_id)) == 3, "one try and two retries, no more"


def test_a_move_webhook_the_broker_could_not_take_reaches_the_platform_later(
    worker_setup,
) -> None:
    """The API's broker is unreachable when a move commits: the move's webhook is kept in
    Redis, and a worker's sweep hands it over once there is a broker to take it."""
    setup = worker_setup(webhook_secret=SECRET, **FAST_RETRIES, **LOCAL_RECEIVERS)
    cut_off = setup.settings.model_copy(update={"broker_url": "redis://127.0.0.1:9/0"})
    outbox_due = outbox_keys(setup.settings.key_prefix)[1]
    store = setup.store()
    with (
        WebhookReceiver(fail_first=0) as receiver,
        TestClient(create_app(cut_off)) as client,
    ):
        game_id, auth, legal = game_with_move_webhooks(client, receiver.url)
        moved = client.post(
            f"/v1/games/{game_id}/moves", json={"move": legal["moves"][0]}, headers=auth
        )
        assert moved.status_code == 200, moved.text
        event_id = f"{game_id}:{moved.json()['version']}:move"
        assert store.zcard(outbox_due) == 1, "kept while the broker is unreachable"
        assert receiver.received == []

        setup.start_worker("--beat", **LOCAL_RECEIVERS)  # a worker and its broker
        headers, body = wait_for(lambda: receiver.delivered().get(event_id), 30, event_id)
        assert verify(SECRET, body, headers["skyport-signature"])
        assert orjson.loads(body)["id"] == event_id
        wait_for(lambda: store.zcard(outbox_due) == 0, 10, "the outbox to empty")
        time.sleep(1.5)  # a few more sweeps
        assert len(receiver.attempts(event_id)) == 1, "sent once"
    store.close()


def test_the_move_webhook_of_a_commit_whose_api_died_before_its_hooks_reaches_the_platform(
    worker_setup, monkeypatch
) -> None:
    """The API process dies between a move's commit and its after-commit hooks (here: its
    hooks raise in the test's own process): the move stands, and a worker's sweep sends
    its webhook, once, as the hooks would have."""
    setup = worker_setup(webhook_secret=SECRET, task_stall_seconds=1.0, **LOCAL_RECEIVERS)
    with (
        WebhookReceiver(fail_first=0) as receiver,
        TestClient(create_app(setup.settings), raise_server_exceptions=False) as client,
    ):
        setup.start_worker("--beat", **LOCAL_RECEIVERS)
        game_id, auth, legal = game_with_move_webhooks(client, receiver.url)
        with monkeypatch.context() as dying:
            dying.setattr(CommitPipeline, "_after", crash)
            client.post(
                f"/v1/games/{game_id}/moves",
                json={"move": legal["moves"][0], "expected_version": legal["version"]},
                headers=auth,
            )
        assert client.get(f"/v1/games/{game_id}").json()["version"] == 1, "the move stands"
        event_id = f"{game_id}:1:move"
        headers, body = wait_for(lambda: receiver.delivered().get(event_id), 30, event_id)
        assert verify(SECRET, body, headers["skyport-signature"])
        payload = orjson.loads(body)
        assert (payload["type"], payload["version"], payload["entry"]["version"]) == ("move", 1, 1)
        assert payload["entry"]["move"] is None, "as a spectator sees it"
        time.sleep(2.5)  # a few more sweeps
        assert len(receiver.attempts(event_id)) == 1, "sent once"


def test_the_open_seats_webhooks_of_an_api_that_died_after_the_change_reach_the_platform(
    worker_setup, monkeypatch
) -> None:
    """The API process dies right after the claim that starts a game, and right after a
    cancel, before their webhooks (here: what follows each raises in the test's own
    process): each change stands, and a worker's sweep sends game.seat_claimed,
    game.started and game.cancelled, once each, as the API would have."""
    setup = worker_setup(webhook_secret=SECRET, task_stall_seconds=1.0, **LOCAL_RECEIVERS)
    with (
        WebhookReceiver(fail_first=0) as receiver,
        TestClient(create_app(setup.settings), raise_server_exceptions=False) as client,
    ):
        setup.start_worker("--beat", **LOCAL_RECEIVERS)
        hooks = {
            "webhook_url": receiver.url,
            "webhook_events": ["game.seat_claimed", "game.started", "game.cancelled"],
        }
        started = create(client, seats=[{"name": "Host"}, {"open": True}], **hooks)
        cancelled = create(client, seats=[{"name": "Host"}, {"open": True}], **hooks)
        game_id, code = started["id"], started["seats"][1]["invite_code"]
        with monkeypatch.context() as dying:
            dying.setattr(SeatDesk, "_after_fill", crash)
            claimed = client.post(
                f"/v1/games/{game_id}/seats/1/claim", json={"code": code, "name": "Ana"}
            )
            assert claimed.status_code == 500
        with monkeypatch.context() as dying:
            dying.setattr(seats_module, "log", SimpleNamespace(info=crash))
            auth = {"Authorization": f"Bearer {cancelled['creator_token']}"}
            assert client.post(f"/v1/games/{cancelled['id']}/cancel", headers=auth).is_error
        assert client.get(f"/v1/games/{game_id}").json()["status"] == "active", "it stands"
        assert client.get(f"/v1/games/{cancelled['id']}").json()["status"] == "aborted"

        owed = {
            f"{game_id}:0:game.seat_claimed:1": "game.seat_claimed",
            f"{game_id}:0:game.started": "game.started",
            f"{cancelled['id']}:0:game.cancelled": "game.cancelled",
        }
        for event_id, event_type in owed.items():
            headers, body = wait_for(lambda e=event_id: receiver.delivered().get(e), 30, event_id)
            assert verify(SECRET, body, headers["skyport-signature"])
            payload = orjson.loads(body)
            assert (payload["id"], payload["type"], payload["version"]) == (event_id, event_type, 0)
        payloads = {e: orjson.loads(receiver.delivered()[e][1]) for e in owed}
        claim = payloads[f"{game_id}:0:game.seat_claimed:1"]
        assert (claim["seat"], claim["name"], claim["bot"]) == (1, "Ana", None)
        seats = payloads[f"{game_id}:0:game.started"]["seats"]
        assert [(seat["name"], seat["open"]) for seat in seats] == [("Host", False), ("Ana", False)]
        assert "cancelled" in payloads[f"{cancelled['id']}:0:game.cancelled"]["reason"]
        time.sleep(2.5)  # a few more sweeps
        assert [len(receiver.attempts(event_id)) for event_id in owed] == [1, 1, 1], "sent once"
