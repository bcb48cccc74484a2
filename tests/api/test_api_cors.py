"""Calls from web pages of other origins (CORS), as SKYPORT_CORS_ALLOW_ORIGINS allows them.
A real browser's side of it is in tests/browser/test_cross_origin.py."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from services.api.app import create_app
from services.api.cors import REQUEST_HEADERS, RESPONSE_HEADERS
from services.gameplay.settings import Settings

APP_ORIGIN = "https://app.example"
OTHER_ORIGIN = "https://elsewhere.example"
NEW_GAME = {"game": "hidden-numbers", "seats": [{"name": "A"}, {"name": "B"}]}


@pytest.fixture
def client_for(settings, games):
    from starlette.testclient import TestClient

    def make(origins: str, **more):
        changed = settings.model_copy(update={"cors_allow_origins": origins, **more})
        return TestClient(create_app(changed, games))

    return make


def preflight(client, path: str, origin: str, method: str = "POST", headers: str = ""):
    asked = {"Origin": origin, "Access-Control-Request-Method": method}
    if headers:
        asked["Access-Control-Request-Headers"] = headers
    return client.options(path, headers=asked)


def listed(value: str) -> set[str]:
    return {item.strip().lower() for item in value.split(",")}


def test_a_preflight_of_an_allowed_origin_allows_the_api_s_methods_and_headers(client_for):
    with client_for(f"{APP_ORIGIN}, https://other-app.example:8443") as client:
        answer = preflight(
            client,
            "/v1/games/g/moves",
            APP_ORIGIN,
            headers="authorization, content-type, idempotency-key, if-match, prefer",
        )
    assert answer.status_code == 200
    assert answer.headers["access-control-allow-origin"] == APP_ORIGIN
    assert {"get", "post"} <= listed(answer.headers["access-control-allow-methods"])
    assert {h.lower() for h in REQUEST_HEADERS} <= listed(
        answer.headers["access-control-allow-headers"]
    )
    assert int(answer.headers["access-control-max-age"]) >= 60
    assert "origin" in listed(answer.headers["vary"])


@pytest.mark.parametrize(
    ("origin", "method", "headers", "refused"),
    [
        (OTHER_ORIGIN, "POST", "authorization", ["origin"]),
        (APP_ORIGIN, "PUT", "", ["method"]),
        (APP_ORIGIN, "POST", "authorization, x-secret", ["headers"]),
    ],
)
def test_a_refused_preflight_is_a_problem_naming_what_was_refused(
    client_for, origin, method, headers, refused
):
    with client_for(APP_ORIGIN) as client:
        answer = preflight(client, "/v1/games", origin, method, headers)
    assert answer.status_code == 400
    assert answer.headers["content-type"] == "application/problem+json"
    problem = answer.json()
    assert problem["code"] == "cross_origin_refused" and problem["refused"] == refused
    assert "access-control-allow-origin" not in answer.headers or origin == APP_ORIGIN


def test_answers_to_an_allowed_origin_let_its_script_read_them(client_for):
    with client_for(APP_ORIGIN) as client:
        created = client.post("/v1/games", json=NEW_GAME, headers={"Origin": APP_ORIGIN})
        token = created.json()["seats"][0]["token"]
        game = client.get(
            created.headers["location"],
            headers={"Origin": APP_ORIGIN, "Authorization": f"Bearer {token}"},
        )
    for answer in (created, game):
        assert answer.headers["access-control-allow-origin"] == APP_ORIGIN
        assert {h.lower() for h in RESPONSE_HEADERS} <= listed(
            answer.headers["access-control-expose-headers"]
        )
        assert "access-control-allow-credentials" not in answer.headers
    assert created.status_code == 201 and game.status_code == 200
    assert {"authorization", "origin"} <= listed(game.headers["vary"])  # caches keep both apart


def test_problems_are_readable_too_including_the_rate_limit(client_for):
    with client_for(APP_ORIGIN, rate_limit_per_ip=2) as client:
        answers = [client.get("/v1/games/nope", headers={"Origin": APP_ORIGIN}) for _ in range(3)]
    assert [a.status_code for a in answers] == [404, 404, 429]
    for answer in answers:
        assert answer.headers["access-control-allow-origin"] == APP_ORIGIN
        assert "retry-after" in listed(answer.headers["access-control-expose-headers"])


def test_a_preflight_is_not_counted_by_the_rate_limit(client_for):
    with client_for(APP_ORIGIN, rate_limit_per_ip=2) as client:
        for _ in range(5):
            assert preflight(client, "/v1/games", APP_ORIGIN).status_code == 200
        assert client.get("/v1/catalog").status_code == 200


def test_an_origin_is_matched_as_browsers_write_it(client_for):
    origins = "HTTPS://App.Example:443, http://localhost:80, http://localhost:3000"
    assert Settings(cors_allow_origins=origins).cors_allow_origins == origins
    with client_for(origins) as client:
        for origin in (APP_ORIGIN, "http://localhost", "http://localhost:3000"):
            answer = client.get("/v1/catalog", headers={"Origin": origin})
            assert answer.headers["access-control-allow-origin"] == origin


def test_another_origin_gets_no_permission(client_for):
    with client_for(APP_ORIGIN) as client:
        answer = client.get("/v1/catalog", headers={"Origin": OTHER_ORIGIN})
    assert answer.status_code == 200  # the browser, not the server, withholds it from the page
    assert "access-control-allow-origin" not in answer.headers


def test_any_origin_with_a_star(client_for):
    with client_for("*") as client:
        answer = client.get("/v1/catalog", headers={"Origin": OTHER_ORIGIN})
        asked = preflight(client, "/v1/games", OTHER_ORIGIN, headers="authorization")
    assert answer.headers["access-control-allow-origin"] == "*"
    assert asked.status_code == 200 and asked.headers["access-control-allow-origin"] == "*"


def test_off_by_default(client_for):
    with client_for("") as client:
        answer = client.get("/v1/catalog", headers={"Origin": APP_ORIGIN})
        asked = preflight(client, "/v1/games", APP_ORIGIN, headers="authorization")
    assert "access-control-allow-origin" not in answer.headers
    assert "access-control-allow-origin" not in asked.headers
    assert Settings().cors_allow_origins == ""


@pytest.mark.parametrize(
    "origins",
    [
        "https://app.example/",
        "app.example",
        "https://app.example/path",
        "ftp://app.example",
        "*, https://app.example",
    ],
)
def test_an_origin_that_is_not_one_is_refused_at_start(origins):
    with pytest.raises(ValidationError, match="not a web origin"):
        Settings(cors_allow_origins=origins)


@pytest.mark.parametrize(
    "origins",
    ["https://app.example", "http://localhost:3000, https://[::1]:8443", "*", " "],
)
def test_origins_as_browsers_send_them_are_taken(origins):
    assert Settings(cors_allow_origins=origins).cors_allow_origins == origins
