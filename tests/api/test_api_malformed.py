"""Every malformed request gets a 4xx problem document and leaves the game untouched."""

from __future__ import annotations

import pytest

JSON = {"Content-Type": "application/json"}
TWO_SEATS = '"seats": [{"name": "A"}, {"name": "B"}]'

BAD_CREATIONS = [
    (b"{", JSON, 400, "malformed_json"),
    (b"", JSON, 400, "empty_body"),
    (b"\xff\xfe", JSON, 400, "malformed_json"),
    (
        b'{"game": "hidden-numbers", "seats": [{"name": "A"}], "x": NaN}',
        JSON,
        400,
        "malformed_json",
    ),
    (b"[]", JSON, 422, "invalid_request"),
    (b'"game"', JSON, 422, "invalid_request"),
    (b"null", JSON, 422, "invalid_request"),
    (b'{"game": "hidden-numbers"}', JSON, 422, "invalid_request"),
    (b'{"seats": [{"name": "A"}, {"name": "B"}]}', JSON, 422, "invalid_request"),
    (b'{"game": "hidden-numbers", "seats": []}', JSON, 422, "invalid_request"),
    (b'{"game": "hidden-numbers", "seats": [{"name": "A"}]}', JSON, 422, "player_count"),
    (
        b'{"game": "hidden-numbers", "seats": [{"name": "A"}, {"name": "B"}, {"name": "C"}, '
        b'{"name": "D"}, {"name": "E"}]}',
        JSON,
        422,
        "player_count",
    ),
    (('{"game": "no-such-game", ' + TWO_SEATS + "}").encode(), JSON, 422, "unknown_game"),
    (
        ('{"game": "hidden-numbers", ' + TWO_SEATS + ', "options": {"rounds": 99}}').encode(),
        JSON,
        422,
        "invalid_options",
    ),
    (
        ('{"game": "hidden-numbers", ' + TWO_SEATS + ', "options": {"colour": "red"}}').encode(),
        JSON,
        422,
        "invalid_options",
    ),
    (
        ('{"game": "hidden-numbers", ' + TWO_SEATS + ', "options": []}').encode(),
        JSON,
        422,
        "invalid_request",
    ),
    (
        ('{"game": "hidden-numbers", ' + TWO_SEATS + ', "seed": -1}').encode(),
        JSON,
        422,
        "invalid_request",
    ),
    (
        ('{"game": "hidden-numbers", ' + TWO_SEATS + ', "seed": "7"}').encode(),
        JSON,
        422,
        "invalid_request",
    ),
    (
        ('{"game": "hidden-numbers", ' + TWO_SEATS + ', "seed": 1.5}').encode(),
        JSON,
        422,
        "invalid_request",
    ),
    (
        ('{"game": "hidden-numbers", ' + TWO_SEATS + ', "seed": 99999999999999999999}').encode(),
        JSON,
        422,
        "invalid_request",
    ),
    (
        ('{"game": "hidden-numbers", ' + TWO_SEATS + ', "tags": ["no spaces"]}').encode(),
        JSON,
        422,
        "invalid_request",
    ),
    (
        ('{"game": "hidden-numbers", ' + TWO_SEATS + ', "extra": 1}').encode(),
        JSON,
        422,
        "invalid_request",
    ),
    (
        b'{"game": "hidden-numbers", "seats": [{"name": ""}, {"name": "B"}]}',
        JSON,
        422,
        "invalid_request",
    ),
    (
        b'{"game": "hidden-numbers", "seats": [{"name": "A", "bot": 3}, {"name": "B"}]}',
        JSON,
        422,
        "invalid_request",
    ),
    (
        b'{"game": "hidden-numbers", "seats": [{"name": "A", "bot": "god"}, {"name": "B"}]}',
        JSON,
        422,
        "unknown_bot_level",
    ),
    (
        b'{"game": "hidden-numbers", "seats": [{"name": "A"}, {"name": "B"}]}',
        {"Content-Type": "text/plain"},
        415,
        "unsupported_media_type",
    ),
    (
        # a body that says it is gzip is not read as plain JSON, whatever it holds
        b'{"game": "hidden-numbers", "seats": [{"name": "A"}, {"name": "B"}]}',
        {**JSON, "Content-Encoding": "gzip"},
        415,
        "unsupported_media_type",
    ),
    (
        b'{"game": "hidden-numbers", "seats": [{"name": "A"}, {"name": "B"}]}',
        {**JSON, "Authorization": "Basic YWJj"},
        401,
        "invalid_authorization",
    ),
    (
        b'{"game": "hidden-numbers", "seats": [{"name": "A"}, {"name": "B"}]}',
        {**JSON, "Authorization": "Bearer not-an-api-key"},
        401,
        "invalid_api_key",
    ),
    (b'{"game": "' + b"x" * 70_000 + b'"}', JSON, 413, "body_too_large"),
]

BAD_MOVES = [
    (b'{"move": "discard"}', 422, "invalid_request"),
    (b'{"move": null}', 422, "invalid_request"),
    (b'{"move": []}', 422, "invalid_request"),
    (b"{}", 422, "invalid_request"),
    (b'{"move": {}}', 422, "malformed_move"),
    (b'{"move": {"kind": "fly"}}', 422, "malformed_move"),
    (b'{"move": {"kind": "discard"}}', 422, "malformed_move"),
    (b'{"move": {"kind": "discard", "card": 5}}', 422, "malformed_move"),
    (b'{"move": {"kind": "discard", "card": "c01", "extra": true}}', 422, "malformed_move"),
    (b'{"move": {"kind": "discard", "card": "c99"}}', 422, "not_in_hand"),
    (b'{"move": {"kind": "play", "card": "c01"}}', 422, "wrong_phase"),
    (
        b'{"move": {"kind": "discard", "card": "c01"}, "expected_version": -1}',
        422,
        "invalid_request",
    ),
    (
        b'{"move": {"kind": "discard", "card": "c01"}, "expected_version": "0"}',
        422,
        "invalid_request",
    ),
    (
        b'{"move": {"kind": "discard", "card": "c01"}, "expected_version": true}',
        422,
        "invalid_request",
    ),
    (
        b'{"move": {"kind": "discard", "card": "c01"}, "expected_version": 5}',
        409,
        "version_conflict",
    ),
    (b'{"move": {"kind": "discard"', 400, "malformed_json"),
    (b"[" * 2000 + b"]" * 2000, 400, "malformed_json"),
]

BAD_READS = [
    ("GET", "/v1/games/NOT-AN-ID", {}, 404, "game_not_found"),
    ("GET", "/v1/games/aaaaaaaaaaaaaaaaaaaaaaaa/legal-moves", {}, 404, "game_not_found"),
    ("GET", "/v1/nowhere", {}, 404, "not_found"),
    ("DELETE", "/v1/games", {}, 405, "method_not_allowed"),
    ("PUT", "/v1/catalog", {}, 405, "method_not_allowed"),
    ("GET", "/v1/games?status=bogus", {"platform": True}, 400, "invalid_query"),
    ("GET", "/v1/games?limit=0", {"platform": True}, 400, "invalid_query"),
    ("GET", "/v1/games?limit=abc", {"platform": True}, 400, "invalid_query"),
    ("GET", "/v1/games?cursor=%27%3B", {"platform": True}, 400, "invalid_query"),
]


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [
        ("DELETE", "/v1/games", "GET, HEAD, POST"),  # two routes on one path
        ("OPTIONS", "/v1/games/g/moves", "POST"),
        ("PUT", "/v1/catalog", "GET, HEAD"),
        ("PATCH", "/graphql", "GET, HEAD, POST"),
    ],
)
def test_a_method_not_allowed_names_every_method_the_path_serves(api, method, path, allowed):
    answer = api.client.request(method, path)
    assert_problem(answer, 405, "method_not_allowed")
    assert answer.headers["allow"] == allowed


def assert_problem(response, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    problem = response.json()
    assert problem["code"] == code and problem["status"] == status
    assert problem["type"] == f"urn:skyport:problem:{code}"
    assert problem["title"] and problem["detail"]


@pytest.mark.parametrize("body,headers,status,code", BAD_CREATIONS)
def test_a_malformed_creation_is_a_problem(api, body, headers, status, code):
    assert_problem(api.client.post("/v1/games", content=body, headers=headers), status, code)


@pytest.fixture
def started(api):
    created = api.create()
    token = created["seats"][0]["token"]
    return created["id"], token, api.game(created["id"], token)


@pytest.mark.parametrize("body,status,code", BAD_MOVES)
def test_a_malformed_move_is_a_problem_and_changes_nothing(api, started, body, status, code):
    game_id, token, before = started
    response = api.client.post(
        f"/v1/games/{game_id}/moves", content=body, headers={**JSON, **api.auth(token)}
    )
    assert_problem(response, status, code)
    assert api.game(game_id, token) == before


@pytest.mark.parametrize("since", ["-1", "abc", "1.5", "99999999999999999999"])
def test_a_bad_since_is_400(api, started, since):
    game_id, token, _ = started
    response = api.client.get(f"/v1/games/{game_id}/events?since={since}")
    assert_problem(response, 400, "invalid_query")


def test_a_since_past_the_game_is_400_as_in_the_stream(api, gql, started):
    """A version the game never reached is refused by the page as by the SSE stream, not
    answered with an empty page that a poller would read as "nothing new"."""
    game_id, token, _ = started
    version = api.game(game_id, token)["version"]
    page = api.client.get(f"/v1/games/{game_id}/events?since={version + 5}")
    assert_problem(page, 400, "invalid_query")
    assert f"at version {version}" in page.json()["detail"]
    assert api.client.get(f"/v1/games/{game_id}/events?since={version}").status_code == 200
    query = "query($id: ID!, $s: Int!) { events(gameId: $id, sinceVersion: $s) { version } }"
    answer = gql(query, {"id": game_id, "s": version + 5})
    assert [e["extensions"]["code"] for e in answer["errors"]] == ["invalid_query"]


def test_a_bad_last_event_id_is_400(api, started):
    game_id, _, _ = started
    response = api.client.get(
        f"/v1/games/{game_id}/events",
        headers={"Accept": "text/event-stream", "Last-Event-ID": "x; y"},
    )
    assert_problem(response, 400, "invalid_last_event_id")


@pytest.mark.parametrize("method,path,options,status,code", BAD_READS)
def test_bad_addresses_and_queries_are_problems(api, method, path, options, status, code):
    headers = api.auth(api.platform_key) if options.get("platform") else {}
    assert_problem(api.client.request(method, path, headers=headers), status, code)


def test_a_resign_with_a_bad_body_changes_nothing(api, started):
    game_id, token, before = started
    for body, status, code in [
        (b"{", 400, "malformed_json"),
        (b'{"expected_version": "x"}', 422, "invalid_request"),
        (b'{"expected_version": 3}', 409, "version_conflict"),
    ]:
        response = api.client.post(
            f"/v1/games/{game_id}/resign", content=body, headers={**JSON, **api.auth(token)}
        )
        assert_problem(response, status, code)
    assert api.game(game_id, token) == before


def test_an_oversized_move_is_413_and_changes_nothing(api, started):
    game_id, token, before = started
    body = b'{"move": {"kind": "discard", "card": "' + b"c" * 100_000 + b'"}}'
    response = api.client.post(
        f"/v1/games/{game_id}/moves", content=body, headers={**JSON, **api.auth(token)}
    )
    assert_problem(response, 413, "body_too_large")
    assert api.game(game_id, token) == before


def test_an_oversized_body_without_a_length_is_413(api, started):
    game_id, token, before = started

    def chunks():
        yield b'{"move": {"kind": "discard", "card": "'
        for _ in range(100):
            yield b"c" * 1000
        yield b'"}}'

    response = api.client.post(
        f"/v1/games/{game_id}/moves", content=chunks(), headers={**JSON, **api.auth(token)}
    )
    assert_problem(response, 413, "body_too_large")
    assert api.game(game_id, token) == before


HUGE_ID = "q" * 10_000


@pytest.mark.parametrize(
    "method, suffix", [("GET", ""), ("GET", "/legal-moves"), ("POST", "/moves"), ("GET", "/events")]
)
def test_a_huge_unknown_game_id_is_a_short_404(api, method, suffix):
    response = api.client.request(
        method, f"/v1/games/{HUGE_ID}{suffix}", json={"move": {}} if method == "POST" else None
    )
    assert response.status_code == 404
    assert response.json()["code"] == "game_not_found"
    assert len(response.content) < 1000, "the id is not echoed back in full"
    assert "q" * 128 not in response.text


def test_a_huge_unknown_game_id_is_a_short_graphql_error(gql):
    answer = gql("query($id: ID!) { game(id: $id) { id } }", {"id": HUGE_ID})
    assert answer["errors"][0]["extensions"]["code"] == "game_not_found"
    assert "q" * 100 not in str(answer)


@pytest.mark.parametrize(
    "seats, message",
    [
        (["Ann", "Bob"], "Input should be an object"),
        ([{}, {"name": "Bob"}], "a seat needs a name, or open: true"),
    ],
)
def test_a_refused_field_is_explained_in_json_terms(api, seats, message):
    """Each error names where and why in the words of the JSON sent: no Python class
    (`SeatRequest`), no "Value error, " before the service's own sentence."""
    response = api.client.post("/v1/games", json={"game": "hidden-numbers", "seats": seats})
    assert response.status_code == 422, response.text
    messages = [error["message"] for error in response.json()["errors"]]
    assert messages[0] == message, messages
    assert not any("SeatRequest" in m or m.startswith("Value error") for m in messages)
