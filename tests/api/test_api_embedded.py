"""Embedded mode: with no Redis URL the service runs on an in-process store with the
same code (Lua scripts, streams, pub/sub) — a whole game, bots, SSE and GraphQL."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from services.api.app import create_app
from services.gameplay.settings import Settings


@pytest.fixture
def embedded(games):
    from starlette.testclient import TestClient

    settings = Settings(redis_url=None, log_level="warning", stream_keepalive=0.5)
    with TestClient(create_app(settings, games)) as client:
        yield client


def test_embedded_mode_plays_a_whole_game_with_a_bot(embedded):
    assert embedded.get("/readyz").json() == {"status": "ready", "store": "embedded"}
    created = embedded.post(
        "/v1/games",
        json={
            "game": "sky-islands",
            "seats": [{"name": "Ann"}, {"name": "Bot", "bot": "random"}],
            "seed": 9,
        },
    ).json()
    token = created["seats"][0]["token"]
    auth = {"Authorization": f"Bearer {token}"}
    for _ in range(5000):
        game = embedded.get(f"/v1/games/{created['id']}", headers=auth).json()
        if game["status"] != "active":
            break
        if 0 in game["turn"]:
            move = embedded.get(f"/v1/games/{created['id']}/legal-moves", headers=auth).json()[
                "moves"
            ][0]
            answer = embedded.post(
                f"/v1/games/{created['id']}/moves", json={"move": move}, headers=auth
            )
            assert answer.status_code in (200, 409)
    for _ in range(5000):
        if embedded.get(f"/v1/games/{created['id']}").json()["status"] == "finished":
            break
    result = embedded.get(f"/v1/games/{created['id']}/result")
    assert result.status_code == 200 and len(result.json()["standings"]) == 2
    stream = embedded.get(
        f"/v1/games/{created['id']}/events", headers={"Accept": "text/event-stream"}
    ).text
    assert "event: end" in stream and '"status":"finished"' in stream
    graphql = embedded.post(
        "/graphql",
        json={
            "query": "query($id: ID!) { game(id: $id) { status result { winners } } }",
            "variables": {"id": created["id"]},
        },
    ).json()
    assert graphql["data"]["game"]["status"] == "FINISHED"


def test_settings_come_from_skyport_environment_variables(monkeypatch):
    monkeypatch.setenv("SKYPORT_REDIS_URL", "redis://example:6379/2")
    monkeypatch.setenv("SKYPORT_API_KEYS", " platform-key-one , platform-key-two,")
    monkeypatch.setenv("SKYPORT_RATE_LIMIT_PER_IP", "7")
    settings = Settings()
    assert settings.redis_url == "redis://example:6379/2" and not settings.embedded
    keys = [k.get_secret_value() for k in settings.api_keys]
    assert keys == ["platform-key-one", "platform-key-two"]
    assert settings.rate_limit_per_ip == 7
    assert "key-one" not in repr(settings)


@pytest.mark.parametrize(
    ("setting", "value", "why"),
    [
        ("SKYPORT_API_KEYS", "change-me-api-key-1,change-me-api-key-2", "API key 1 is still"),
        ("SKYPORT_API_KEYS", "a-long-enough-platform-key, my-key", "API key 2 is shorter"),
        ("SKYPORT_WEBHOOK_SECRET", "change-me-webhook-secret", "webhook secret is still"),
        ("SKYPORT_WEBHOOK_SECRET", "hunter2", "webhook secret is shorter"),
    ],
)
def test_a_secret_anyone_could_know_stops_start_up_without_being_logged(
    monkeypatch, setting, value, why
):
    """The shipped templates' placeholders (k8s/) and short words are refused; the error
    names the secret by its place, never by its value (start-up errors go to logs)."""
    monkeypatch.setenv(setting, value)
    with pytest.raises(ValidationError, match=why) as refused:
        Settings()
    assert "openssl rand" in str(refused.value)
    for part in value.split(","):
        assert part.strip() not in str(refused.value)


def test_a_bad_setting_s_value_is_not_repeated_in_the_error(monkeypatch):
    monkeypatch.setenv("SKYPORT_REDIS_URL", "redis://:hunter2-password@redis:6379/0")
    monkeypatch.setenv("SKYPORT_WORKER_CONCURRENCY", "hunter2-password")
    with pytest.raises(ValidationError) as refused:
        Settings()
    assert "worker_concurrency" in str(refused.value)
    assert "hunter2" not in str(refused.value)


def test_no_redis_url_means_embedded(monkeypatch):
    monkeypatch.delenv("SKYPORT_REDIS_URL", raising=False)
    assert Settings().embedded


def test_a_key_prefix_that_would_break_hash_tags_is_refused():
    with pytest.raises(ValueError):
        Settings(key_prefix="sky{port}")
