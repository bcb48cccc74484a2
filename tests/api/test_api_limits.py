"""Rate limits (per IP and per token, counted in Redis, shared by replicas) and
health, readiness, metrics and docs endpoints."""

from __future__ import annotations

import re
import socket

import pytest

from services.api.app import create_app


def test_requests_over_the_per_ip_limit_get_429_with_retry_after(limited):
    with limited(rate_limit_per_ip=5, rate_limit_per_token=0) as client:
        answers = [client.get("/v1/catalog") for _ in range(6)]
    assert [a.status_code for a in answers] == [200] * 5 + [429]
    assert [a.headers["ratelimit-remaining"] for a in answers[:5]] == ["4", "3", "2", "1", "0"]
    assert answers[0].headers["ratelimit-limit"] == "5"
    assert answers[0].headers["ratelimit-policy"] == '"ip";q=5;w=60'
    refused = answers[-1]
    assert refused.headers["content-type"] == "application/problem+json"
    assert refused.json()["code"] == "rate_limited"
    assert refused.headers["retry-after"] == "30"  # the pinned clock is half way through
    assert refused.headers["ratelimit-remaining"] == "0"


def test_the_per_token_limit_counts_each_token_apart(limited):
    with limited(rate_limit_per_ip=1000, rate_limit_per_token=3) as client:
        created = client.post(
            "/v1/games", json={"game": "hidden-numbers", "seats": [{"name": "A"}, {"name": "B"}]}
        ).json()
        url = f"/v1/games/{created['id']}"
        first = {"Authorization": f"Bearer {created['seats'][0]['token']}"}
        second = {"Authorization": f"Bearer {created['seats'][1]['token']}"}
        answers = [client.get(url, headers=first).status_code for _ in range(4)]
        other = client.get(url, headers=second)
    assert answers == [200, 200, 200, 429]
    assert other.status_code == 200 and other.headers["ratelimit-policy"].startswith('"token"')


def test_replicas_share_one_count(limited):
    with limited(rate_limit_per_ip=4) as one, limited(rate_limit_per_ip=4) as two:
        answers = [
            one.get("/v1/catalog").status_code,
            two.get("/v1/catalog").status_code,
            one.get("/v1/catalog").status_code,
            two.get("/v1/catalog").status_code,
            one.get("/v1/catalog").status_code,
        ]
    assert answers == [200, 200, 200, 200, 429]


def test_graphql_is_limited_too_but_health_is_not(limited):
    with limited(rate_limit_per_ip=1) as client:
        assert client.post("/graphql", json={"query": "{ catalog { id } }"}).status_code == 200
        assert client.post("/graphql", json={"query": "{ catalog { id } }"}).status_code == 429
        assert all(client.get("/healthz").status_code == 200 for _ in range(3))
        assert client.get("/metrics").status_code == 200


def test_health_and_readiness(client):
    assert client.get("/healthz").json() == {"status": "ok"}
    assert client.get("/readyz").json() == {"status": "ready", "store": "redis"}


def test_not_ready_when_redis_cannot_be_reached(settings, games):
    from starlette.testclient import TestClient

    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    nowhere = settings.model_copy(update={"redis_url": f"redis://127.0.0.1:{port}/0"})
    with TestClient(create_app(nowhere, games)) as client:
        assert client.get("/healthz").status_code == 200
        ready = client.get("/readyz")
    assert ready.status_code == 503 and ready.json()["status"] == "unavailable"


def test_metrics_count_requests_by_route_and_moves(api):
    created = api.create()
    token = created["seats"][0]["token"]
    api.move(created["id"], token, api.legal(created["id"], token)[0])
    metrics = api.client.get("/metrics").text
    assert (
        'skyport_http_requests_total{method="POST",route="/v1/games/{game_id}/moves",'
        'status="200"}' in metrics
    )
    assert 'skyport_moves_committed_total{by="human",game="hidden-numbers"}' in metrics
    assert "skyport_http_request_duration_seconds_bucket" in metrics


def test_openapi_is_3_1_and_docs_are_served(client):
    document = client.get("/openapi.json").json()
    assert document["openapi"] == "3.1.0"
    assert "/v1/games/{game_id}/moves" in document["paths"]
    assert "HiddenNumbersView" in document["components"]["schemas"]
    docs = client.get("/docs")
    assert docs.status_code == 200 and "/openapi.json" in docs.text


def test_the_docs_page_loads_only_pinned_files_checked_by_their_hash(client):
    """A CDN that served other bytes would run script in the API's origin, where people
    paste their tokens: every file from elsewhere names one release and its hash."""
    page = client.get("/docs").text
    external = re.findall(r'<(?:script|link)\b[^>]*(?:src|href)="(https?://[^"]+)"[^>]*>', page)
    assert len(external) == 2
    for tag in re.findall(r"<(?:script|link)\b[^>]*https?://[^>]*>", page):
        assert re.search(r'integrity="sha384-[A-Za-z0-9+/=]{64}"', tag), tag
        assert 'crossorigin="anonymous"' in tag
    assert all(re.search(r"@\d+\.\d+\.\d+/", url) for url in external), external


def test_websocket_handshakes_count_against_the_per_ip_limit(limited):
    from starlette.testclient import WebSocketDenialResponse

    with limited(rate_limit_per_ip=2, rate_limit_per_token=0) as client:
        with client.websocket_connect("/graphql", subprotocols=["graphql-transport-ws"]) as ws:
            ws.send_json({"type": "connection_init"})
            assert ws.receive_json()["type"] == "connection_ack"
        assert client.get("/v1/catalog").status_code == 200
        with (
            pytest.raises(WebSocketDenialResponse) as denied,
            client.websocket_connect("/graphql", subprotocols=["graphql-transport-ws"]),
        ):
            pytest.fail("the third request of the window was let through")
    assert denied.value.status_code == 429
    assert denied.value.json()["code"] == "rate_limited"


# --- games created without an API key, per IP and hour ------------------------------------

RATE_LIMIT_HEADERS = (
    "ratelimit-limit",
    "ratelimit-remaining",
    "ratelimit-reset",
    "ratelimit-policy",
)
NEW_GAME = {"game": "hidden-numbers", "seats": [{"name": "A"}, {"name": "B"}]}
CREATE_MUTATION = """mutation { createGame(input: {game: "hidden-numbers",
  seats: [{name: "A"}, {name: "B"}]}) { __typename } }"""


def test_anonymous_creation_over_the_hourly_quota_is_429_at_both_doors(limited):
    with limited(create_limit_per_ip=2) as client:
        made = [client.post("/v1/games", json=NEW_GAME).status_code for _ in range(2)]
        refused = client.post("/v1/games", json=NEW_GAME)
        over_graphql = client.post("/graphql", json={"query": CREATE_MUTATION}).json()
        assert client.get("/v1/catalog").status_code == 200  # other requests go on
    assert made == [201, 201]
    assert refused.status_code == 429
    assert refused.json()["code"] == "too_many_games_created"
    assert refused.headers["retry-after"] == "1770"  # the pinned clock: 30 min 30 s in
    assert refused.json()["retry_after"] == 1770
    quota_headers = {name: refused.headers[name] for name in RATE_LIMIT_HEADERS}
    assert quota_headers == {
        "ratelimit-limit": "2",
        "ratelimit-remaining": "0",
        "ratelimit-reset": "1770",
        "ratelimit-policy": '"created";q=2;w=3600',
    }, "the hourly quota's, not the per-minute request limit's"
    [error] = over_graphql["errors"]
    assert error["extensions"]["code"] == "too_many_games_created"
    assert error["extensions"]["retry_after"] == 1770


def test_platforms_creating_with_an_api_key_are_not_counted(limited, settings):
    key = {"Authorization": f"Bearer {settings.api_keys[0].get_secret_value()}"}
    with limited(create_limit_per_ip=1) as client:
        made = [client.post("/v1/games", json=NEW_GAME, headers=key).status_code for _ in range(3)]
        anonymous = [client.post("/v1/games", json=NEW_GAME).status_code for _ in range(2)]
    assert made == [201, 201, 201]
    assert anonymous == [201, 429]


def test_a_retried_creation_gets_its_game_back_even_over_the_quota(limited):
    with limited(create_limit_per_ip=1) as client:
        first = client.post("/v1/games", json=NEW_GAME, headers={"Idempotency-Key": "retried-1"})
        again = client.post("/v1/games", json=NEW_GAME, headers={"Idempotency-Key": "retried-1"})
        other = client.post("/v1/games", json=NEW_GAME, headers={"Idempotency-Key": "another-2"})
    assert first.status_code == 201
    assert again.status_code == 201 and again.json()["id"] == first.json()["id"]  # the replay
    assert other.status_code == 429


def test_a_refused_creation_takes_nothing_from_the_quota(limited):
    with limited(create_limit_per_ip=1) as client:
        bad = client.post("/v1/games", json={**NEW_GAME, "game": "no-such-game"})
        good = client.post("/v1/games", json=NEW_GAME)
    assert bad.status_code == 422 and good.status_code == 201
