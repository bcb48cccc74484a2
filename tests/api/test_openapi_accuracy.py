"""What a client generator (openapi-generator, openapi-typescript) or a validating client
reads in /openapi.json is what the server does: the headers its answers carry, the
headers it reads, who may call what, how operations group, the bodies it refuses and
the moves it takes."""

from __future__ import annotations

import re
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from schemathesis.specs.openapi.definitions import OPENAPI_31_VALIDATOR

from services.api.openapi import pascal
from services.api.preconditions import IF_MATCH_PATTERN
from services.gameplay.payloads import MAX_SEAT_NAME, MAX_VERSION

pytestmark = pytest.mark.timeout(120)

KEY = "platform-key-for-tests-0001"

CONTRACT_HEADERS = {
    "accept-encoding",
    "cache-control",
    "content-disposition",
    "etag",
    "idempotent-replayed",
    "location",
    "preference-applied",
    "ratelimit-limit",
    "ratelimit-policy",
    "ratelimit-remaining",
    "ratelimit-reset",
    "retry-after",
    "vary",
    "www-authenticate",
    "x-request-id",
}
"""The headers a client acts on: each one an answer carries must be declared on it."""


@pytest.fixture
def settings(settings):
    """Rate limits on (high), so that every answer carries its RateLimit-* headers."""
    return settings.model_copy(
        update={"rate_limit_per_ip": 1_000_000, "rate_limit_per_token": 1_000_000}
    )


@pytest.fixture
def document(client) -> dict[str, Any]:
    return client.get("/openapi.json").json()


def auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def operations(document: dict[str, Any]):
    for path, item in document["paths"].items():
        for method, operation in item.items():
            yield method, path, operation


def template_of(document: dict[str, Any], method: str, url: str) -> str:
    """The documented path `url` is an instance of (a literal path before a template)."""
    path = url.split("?", 1)[0]
    candidates = sorted(
        (template for template, item in document["paths"].items() if method in item),
        key=lambda template: template.count("{"),
    )
    for template in candidates:
        pattern = "^" + re.sub(r"\\{\w+\\}", "[^/]+", re.escape(template)) + "$"
        if re.match(pattern, path):
            return template
    raise AssertionError(f"{method.upper()} {path} is not documented")


def header_schema(document: dict[str, Any], declared: dict[str, Any]) -> dict[str, Any]:
    ref = declared.get("$ref")
    if ref:
        return document["components"]["headers"][ref.rsplit("/", 1)[1]]
    return declared


def check_headers(document: dict[str, Any], method: str, url: str, response) -> None:
    """Every contract header the answer carries is declared on its status, with a schema
    its value meets; every header declared required is there."""
    operation = document["paths"][template_of(document, method, url)][method]
    status = str(response.status_code)
    assert status in operation["responses"], f"{method} {url}: {status} is not documented"
    declared = {
        name.lower(): header_schema(document, header)
        for name, header in operation["responses"][status].get("headers", {}).items()
    }
    for name in CONTRACT_HEADERS & {name.lower() for name in response.headers}:
        assert name in declared, f"{method.upper()} {url} {status} sends {name}, undeclared"
        schema = declared[name]["schema"]
        value: Any = response.headers[name]
        if schema.get("type") == "integer":
            assert value.isdigit(), (name, value)
            value = int(value)
        Draft202012Validator(schema).validate(value)
    for name, header in declared.items():
        if header.get("required"):
            assert name in response.headers, f"{method.upper()} {url} {status} lacks {name}"


class Checked:
    """The test client, checking each answer's headers against the document."""

    def __init__(self, client, document: dict[str, Any]) -> None:
        self.client = client
        self.document = document
        self.seen: set[tuple[str, str, int]] = set()

    def __call__(self, method: str, url: str, **kwargs: Any):
        response = self.client.request(method.upper(), url, **kwargs)
        check_headers(self.document, method, url, response)
        template = template_of(self.document, method, url)
        self.seen.add((method, template, response.status_code))
        return response


@pytest.fixture
def call(client, document) -> Checked:
    return Checked(client, document)


# --- the document as such -----------------------------------------------------------


def test_the_document_is_valid_openapi_3_1_and_every_schema_valid_json_schema(document):
    OPENAPI_31_VALIDATOR.validate(document)
    for schema in document["components"]["schemas"].values():
        Draft202012Validator.check_schema(schema)


def test_every_operation_has_one_tag_the_document_lists(document):
    listed = [tag["name"] for tag in document["tags"]]
    assert {"games", "moves", "seats", "events", "records", "tournaments", "catalog"} <= set(listed)
    assert all(tag.get("description") for tag in document["tags"])
    used = set()
    for method, path, operation in operations(document):
        assert len(operation.get("tags", [])) == 1, (method, path)
        assert operation["tags"][0] in listed, (method, path)
        used.add(operation["tags"][0])
    assert used == set(listed), "a tag no operation uses"
    tag_of = {(m, p): o["tags"][0] for m, p, o in operations(document)}
    assert tag_of[("post", "/v1/games/{game_id}/moves")] == "moves"
    assert tag_of[("get", "/v1/games/{game_id}/events")] == "events"
    assert tag_of[("post", "/v1/games/{game_id}/seats/{seat}/claim")] == "seats"


# --- response headers ----------------------------------------------------------------


def test_every_header_an_answer_names_is_a_declared_component(document):
    components = document["components"]["headers"]
    for method, path, operation in operations(document):
        for status, answer in operation["responses"].items():
            headers = answer.get("headers", {})
            for name, header in headers.items():
                ref = header["$ref"].rsplit("/", 1)[1]
                assert ref == name and name in components, (method, path, status, name)
            assert {"RateLimit-Remaining", "X-Request-Id"} <= set(headers), (method, path, status)


def test_a_game_read_declares_its_etag_and_answers_304_as_documented(api, call, document):
    created = api.create()
    game = f"/v1/games/{created['id']}"
    first = call("get", game)
    assert first.status_code == 200 and first.headers["etag"].startswith('W/"v0-')
    again = call("get", game, headers={"If-None-Match": first.headers["etag"]})
    assert again.status_code == 304
    for status in ("200", "304"):
        headers = document["paths"]["/v1/games/{game_id}"]["get"]["responses"][status]["headers"]
        assert {"ETag", "Vary"} <= set(headers)


def test_the_board_picture_declares_if_none_match_and_its_etag(api, call, document):
    """board.svg honoured If-None-Match (304) but the document did not name the header."""
    created = api.create("sky-islands", 2)
    picture = f"/v1/games/{created['id']}/board.svg"
    first = call("get", picture)
    assert first.status_code == 200
    again = call("get", picture, headers={"If-None-Match": first.headers["etag"]})
    assert again.status_code == 304
    operation = document["paths"]["/v1/games/{game_id}/board.svg"]["get"]
    assert "If-None-Match" in [p["name"] for p in operation["parameters"] if p["in"] == "header"]
    assert "ETag" in operation["responses"]["200"]["headers"]
    assert "ETag" in operation["responses"]["304"]["headers"]


def test_creations_declare_location_and_replays_idempotent_replayed(api, call, document):
    body = {"game": "hidden-numbers", "seats": [{"name": "A"}, {"name": "B"}]}
    key = {"Idempotency-Key": "created-once", **auth(KEY)}
    created = call("post", "/v1/games", json=body, headers=key)
    assert created.status_code == 201
    assert created.headers["location"] == f"/v1/games/{created.json()['id']}"
    replayed = call("post", "/v1/games", json=body, headers=key)
    assert replayed.status_code == 201 and replayed.headers["idempotent-replayed"] == "true"
    assert replayed.headers["location"] == created.headers["location"]
    tournament = {
        "game": "hidden-numbers",
        "participants": [{"name": "Ada"}, {"name": "Bo"}],
        "format": {"kind": "round_robin"},
    }
    made = call("post", "/v1/tournaments", json=tournament, headers=key)
    assert made.status_code == 201
    assert made.headers["location"] == f"/v1/tournaments/{made.json()['id']}"
    bulk = call("post", "/v1/games/bulk", json={"games": [body]}, headers=key)
    assert bulk.status_code == 201 and "location" not in bulk.headers
    for _method, path, operation in operations(document):
        takes_key = any(p["name"] == "Idempotency-Key" for p in operation.get("parameters", []))
        for status, answer in operation["responses"].items():
            if status.startswith("2"):
                assert ("Idempotent-Replayed" in answer["headers"]) == takes_key, (path, status)


IDEMPOTENT_JOIN = {"Idempotency-Key": "join-the-lobby-1"}


def test_every_operation_answers_with_the_headers_it_declares(api, call):
    """A tour of the API with rate limits on: every answer's headers are checked."""
    key = auth(KEY)
    body = {"game": "hidden-numbers", "seats": [{"name": "A"}, {"name": "B"}], "seed": 3}
    created = call("post", "/v1/games", json=body).json()
    assert call("post", "/v1/games/bulk", json={"games": [body]}, headers=key).status_code == 201
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"]]
    game = f"/v1/games/{game_id}"
    assert call("get", "/v1/catalog").status_code == 200
    assert call("get", "/v1/games", headers=key).status_code == 200
    assert call("get", "/v1/games").status_code == 401
    assert call("get", "/v1/records", headers=key).status_code == 200
    assert call("get", f"{game}/result").status_code == 409
    assert call("get", f"{game}/events").status_code == 200
    assert call("get", f"{game}/events", params={"since": "x"}).status_code == 400
    turn = api.game(game_id)["turn"][0]
    legal = call("get", f"{game}/legal-moves", headers=auth(tokens[turn]))
    assert legal.status_code == 200
    moved = call(
        "post",
        f"{game}/moves",
        json={"move": legal.json()["moves"][0]},
        headers={
            **auth(tokens[turn]),
            "Prefer": "return=minimal",
            "Idempotency-Key": "move-once-1",
        },
    )
    assert moved.status_code == 200 and moved.headers["preference-applied"] == "return=minimal"
    stale = call(
        "post",
        f"{game}/moves",
        json={"move": legal.json()["moves"][0], "expected_version": 0},
        headers=auth(tokens[turn]),
    )
    assert stale.status_code in (403, 409, 422)
    squeezed = call(
        "post",
        f"{game}/resign",
        content=b"{}",
        headers={**auth(tokens[0]), "Content-Type": "application/json", "Content-Encoding": "gzip"},
    )
    assert squeezed.status_code == 415 and squeezed.headers["accept-encoding"] == "identity"
    resigned = call("post", f"{game}/resign", json={}, headers=auth(tokens[0]))
    assert resigned.status_code == 200
    assert call("get", f"{game}/result").status_code == 200
    assert call("get", f"{game}/states/0").status_code == 200
    assert call("get", f"{game}/record", headers=auth(tokens[1])).status_code == 200
    assert call("post", f"{game}/rematch", headers=auth(tokens[1])).status_code == 200
    assert call("get", f"{game}/rematch").status_code == 200
    page = call("get", "/v1/lobby/hidden-numbers")
    assert page.status_code == 200
    polled = call(
        "get", "/v1/lobby/hidden-numbers", headers={"If-None-Match": page.headers["etag"]}
    )
    assert polled.status_code == 304
    assert call("get", "/v1/lobby/no-such-game").status_code == 404
    join = {"name": "Jo"}
    assert call("post", "/v1/lobby/hidden-numbers/join", json=join).status_code == 404
    api.create(seats=[{"name": "Host"}, {"open": True}], lobby=True)
    joined = call("post", "/v1/lobby/hidden-numbers/join", json=join, headers=IDEMPOTENT_JOIN)
    assert joined.status_code == 200
    again = call("post", "/v1/lobby/hidden-numbers/join", json=join, headers=IDEMPOTENT_JOIN)
    assert again.headers["idempotent-replayed"] == "true"
    ended = call(
        "get",
        f"{game}/events",
        headers={
            "Accept": "text/event-stream",
            "Last-Event-ID": f"{resigned.json()['version']}-end",
        },
    )
    assert ended.status_code == 204
    stream = call("get", f"{game}/events", headers={"Accept": "text/event-stream"})
    assert stream.status_code == 200 and "event: end" in stream.text
    # Open seats: claimed, filled with a bot, given a new invite; a waiting game cancelled.
    waiting = api.create(seats=[{"open": True}, {"open": True}, {"name": "Host"}])
    host = {**auth(waiting["creator_token"])}
    seats = f"/v1/games/{waiting['id']}/seats"
    claimed = call(
        "post", f"{seats}/0/claim", json={"code": waiting["seats"][0]["invite_code"], "name": "Cy"}
    )
    assert claimed.status_code == 200
    reissued = call("post", f"{seats}/1/invite", headers=host)
    assert reissued.status_code == 200
    other = api.create(seats=[{"open": True}, {"name": "Host"}])
    filled = call(
        "post",
        f"/v1/games/{other['id']}/seats/0/bot",
        json={"bot": "random"},
        headers=auth(other["creator_token"]),
    )
    assert filled.status_code == 200
    cancelled = call("post", f"/v1/games/{waiting['id']}/cancel", headers=host)
    assert cancelled.status_code == 200
    autopilot = call(
        "post",
        f"/v1/games/{other['id']}/seats/1/autopilot",
        json={"on": True},
        headers=auth(other["seats"][1]["token"]),
    )
    assert autopilot.status_code in (200, 409)
    replaced = call(
        "post",
        f"/v1/games/{other['id']}/seats/1/token",
        headers={**auth(other["seats"][1]["token"]), "Idempotency-Key": "new-token-1"},
    )
    assert replaced.status_code == 200
    tournament = call(
        "post",
        "/v1/tournaments",
        json={
            "game": "hidden-numbers",
            "participants": [{"name": "Ada"}, {"name": "Bo"}],
            "format": {"kind": "round_robin"},
        },
        headers=key,
    ).json()
    where = f"/v1/tournaments/{tournament['id']}"
    assert call("get", where).status_code == 200
    csv = call("get", f"{where}/standings.csv")
    assert csv.status_code == 200 and "attachment" in csv.headers["content-disposition"]
    mine = call("get", f"{where}/me", headers=auth(tournament["participants"][0]["token"]))
    assert mine.status_code == 200
    rotated = call(
        "post",
        f"{where}/participants/1/token",
        headers={**auth(tournament["participants"][1]["token"]), "Idempotency-Key": "rotate-1"},
    )
    assert rotated.status_code == 200
    assert call("get", "/v1/games/" + "a" * 24).status_code == 404
    touched = {(method, template) for method, template, _ in call.seen}
    every = {(method, path) for method, path, _ in operations(call.document)}
    assert every - touched <= {("get", "/v1/games/{game_id}/board.svg")}, every - touched


def test_a_refusal_over_the_rate_limit_declares_retry_after(client, document, settings, games):
    from starlette.testclient import TestClient

    from services.api.app import create_app

    tight = settings.model_copy(
        update={"rate_limit_per_ip": 2, "key_prefix": settings.key_prefix + "-tight"}
    )
    with TestClient(create_app(tight, games)) as limited:
        answers = [limited.get("/v1/catalog") for _ in range(3)]
    assert [a.status_code for a in answers] == [200, 200, 429]
    refused = answers[-1]
    assert int(refused.headers["retry-after"]) >= 0
    check_headers(document, "get", "/v1/catalog", refused)
    for method, path, operation in operations(document):
        assert "Retry-After" in operation["responses"]["429"]["headers"], (method, path)


# --- request headers -------------------------------------------------------------------


def header_parameter(document: dict[str, Any], method: str, path: str, name: str) -> dict:
    listed = document["paths"][path][method].get("parameters", [])
    found = [p for p in listed if p["in"] == "header" and p["name"] == name]
    assert found, f"{method.upper()} {path} does not declare {name}"
    return found[0]


@pytest.mark.parametrize("value", ["0", "17", "0-start", "12-end", "999999999999"])
def test_last_event_id_is_declared_with_each_form_the_stream_takes(document, value):
    declared = header_parameter(document, "get", "/v1/games/{game_id}/events", "Last-Event-ID")
    assert re.search(declared["schema"]["pattern"], value)


@pytest.mark.parametrize("value", ["abc", "1-begin", "-1", "1.5", "1234567890123", "7 end"])
def test_a_last_event_id_the_document_refuses_the_stream_refuses(api, document, value):
    declared = header_parameter(document, "get", "/v1/games/{game_id}/events", "Last-Event-ID")
    assert not re.search(declared["schema"]["pattern"], value)
    created = api.create()
    answer = api.client.get(
        f"/v1/games/{created['id']}/events",
        headers={"Accept": "text/event-stream", "Last-Event-ID": value},
    )
    assert answer.status_code == 400 and answer.json()["code"] == "invalid_last_event_id"
    assert "400" in document["paths"]["/v1/games/{game_id}/events"]["get"]["responses"]


def test_if_match_is_declared_with_the_servers_own_pattern(document):
    for path in ("/v1/games/{game_id}/moves", "/v1/games/{game_id}/resign"):
        declared = header_parameter(document, "post", path, "If-Match")
        assert declared["schema"]["pattern"] == IF_MATCH_PATTERN
        for taken in ("*", 'W/"v3"', '"v3"', 'W/"v3-0a1b2c3d"'):
            assert re.search(declared["schema"]["pattern"], taken)
        for refused in ("v3", 'W/"3"', "anything"):
            assert not re.search(declared["schema"]["pattern"], refused)


# --- request bodies ---------------------------------------------------------------------


def schema_validator(document: dict[str, Any], name: str) -> Draft202012Validator:
    """A validator of `#/components/schemas/<name>`, as a validating client holds it."""
    root = {"$ref": f"#/components/schemas/{name}", "components": document["components"]}
    return Draft202012Validator(root)


SEATS = [
    ({}, False),
    ({"open": False}, False),
    ({"bot": "random"}, False),
    ({"name": None}, False),
    ({"name": ""}, False),
    ({"name": "x" * (MAX_SEAT_NAME + 1)}, False),
    ({"open": True, "name": "Ada"}, False),
    ({"open": True, "bot": "random"}, False),
    ({"name": "Ada", "open": None}, False),
    ({"name": "Ada"}, True),
    ({"name": "x" * MAX_SEAT_NAME}, True),
    ({"name": "Ada", "bot": "random"}, True),
    ({"name": "Ada", "open": False, "bot": None}, True),
    ({"open": True}, True),
    ({"open": True, "name": None, "bot": None}, True),
]


@pytest.mark.parametrize(("seat", "taken"), SEATS, ids=[repr(seat) for seat, _ in SEATS])
def test_a_seat_the_document_allows_is_a_seat_the_server_takes(api, document, seat, taken):
    """SeatRequest allowed {} (neither name nor open) and names of 256 characters; the
    server refuses both."""
    body = {"game": "hidden-numbers", "seats": [seat, {"name": "Other"}]}
    assert schema_validator(document, "CreateGameRequest").is_valid(body) == taken
    answer = api.client.post("/v1/games", json=body)
    assert answer.status_code == (201 if taken else 422), answer.text


def test_every_seat_name_is_documented_with_the_servers_limit(document):
    schemas = document["components"]["schemas"]
    names = [
        schemas["SeatRequest"]["properties"]["name"]["anyOf"][0],
        schemas["ClaimSeatRequest"]["properties"]["name"],
        schemas["FillSeatRequest"]["properties"]["name"]["anyOf"][0],
        schemas["ParticipantRequest"]["properties"]["name"],
    ]
    for name in names:
        assert (name["minLength"], name["maxLength"]) == (1, MAX_SEAT_NAME), name


def test_a_claimed_name_over_the_limit_is_refused_as_documented(api, document):
    created = api.create(seats=[{"open": True}, {"name": "Host"}])
    code = created["seats"][0]["invite_code"]
    long = {"code": code, "name": "x" * (MAX_SEAT_NAME + 1)}
    assert not schema_validator(document, "ClaimSeatRequest").is_valid(long)
    claim = f"/v1/games/{created['id']}/seats/0/claim"
    assert api.client.post(claim, json=long).status_code == 422
    fits = {"code": code, "name": "x" * MAX_SEAT_NAME}
    assert schema_validator(document, "ClaimSeatRequest").is_valid(fits)
    assert api.client.post(claim, json=fits).status_code == 200


@pytest.mark.parametrize("schema", ["MoveRequest", "ResignRequest"])
def test_expected_version_is_documented_as_the_server_checks_it(api, document, schema):
    documented = document["components"]["schemas"][schema]["properties"]["expected_version"]
    whole = documented["anyOf"][0]
    assert (whole["type"], whole["minimum"], whole["maximum"]) == ("integer", 0, MAX_VERSION)
    # JSON Schema counts 12.0 as an integer; the server does not: the description says so.
    assert "not 12.0" in documented["description"]
    created = api.create()
    tokens = [seat["token"] for seat in created["seats"]]
    turn = api.game(created["id"])["turn"][0]
    path = f"/v1/games/{created['id']}/" + ("moves" if schema == "MoveRequest" else "resign")
    move = api.legal(created["id"], tokens[turn])[0]
    for version in (MAX_VERSION + 1, 0.0, -1):
        body = {"expected_version": version}
        if schema == "MoveRequest":
            body["move"] = move
        answer = api.client.post(path, json=body, headers=auth(tokens[turn]))
        assert answer.status_code == 422, (version, answer.text)
        assert not schema_validator(document, schema).is_valid(body) or version == 0.0
    assert api.game(created["id"])["version"] == 0


# --- moves ------------------------------------------------------------------------------


def referenced(document: dict[str, Any]) -> set[str]:
    """Every component schema a path reaches, through $refs and discriminator mappings."""
    schemas = document["components"]["schemas"]
    found: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for value in node.values():
                if isinstance(value, str) and value.startswith("#/components/schemas/"):
                    name = value.rsplit("/", 1)[1]
                    if name not in found:
                        found.add(name)
                        walk(schemas[name])
                else:
                    walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(document["paths"])
    walk(document["components"]["headers"])
    return found


def test_no_schema_is_an_orphan(document):
    """Each game's move schemas were components nothing named: generated clients typed
    moves as free objects."""
    orphans = set(document["components"]["schemas"]) - referenced(document)
    assert not orphans


def test_no_schema_is_named_after_its_python_module(document):
    """Two models of one name (each game's EndTurn) got `services__games__..._EndTurn`,
    which a generator turns into a class name."""
    names = list(document["components"]["schemas"])
    assert not [name for name in names if "__" in name]
    assert {"DominionEndTurn", "SkyIslandsEndTurn"} <= set(names)


def test_the_move_body_and_the_legal_moves_name_every_games_moves(document, games):
    schemas = document["components"]["schemas"]
    move = {"$ref": "#/components/schemas/Move"}
    assert schemas["MoveRequest"]["properties"]["move"]["$ref"] == move["$ref"]
    assert schemas["LegalMovesDocument"]["properties"]["moves"]["items"] == move
    assert move in schemas["LogEntryDocument"]["properties"]["move"]["anyOf"]
    assert move in schemas["RecordedAction"]["properties"]["move"]["anyOf"]
    unions = {option["$ref"].rsplit("/", 1)[1] for option in schemas["Move"]["anyOf"]}
    assert unions == {f"{pascal(game)}Move" for game in games}
    for union in unions - {"HiddenNumbersMove"}:
        assert schemas[union]["discriminator"]["propertyName"] == "kind"
        for option in schemas[union]["oneOf"]:
            member = schemas[option["$ref"].rsplit("/", 1)[1]]
            assert "kind" in member["required"], union
            assert member["properties"]["label"]["type"] == "string"


@pytest.mark.parametrize("game", ["hidden-numbers", "sky-islands", "dominion", "sky-lanterns"])
def test_legal_moves_are_documented_moves_and_go_back_verbatim(api, document, game):
    created = api.create(game, 2)
    tokens = [seat["token"] for seat in created["seats"]]
    turn = api.game(created["id"])["turn"][0]
    legal = api.client.get(f"/v1/games/{created['id']}/legal-moves", headers=auth(tokens[turn]))
    assert legal.status_code == 200 and legal.json()["moves"]
    schema_validator(document, "LegalMovesDocument").validate(legal.json())
    own = schema_validator(document, f"{pascal(game)}Move")
    for move in legal.json()["moves"]:
        own.validate(move)
    body = {"move": legal.json()["moves"][0]}
    schema_validator(document, "MoveRequest").validate(body)
    moved = api.client.post(
        f"/v1/games/{created['id']}/moves", json=body, headers=auth(tokens[turn])
    )
    assert moved.status_code == 200, moved.text
    made = api.events(created["id"], tokens[turn])["entries"][0]["move"]
    own.validate(made)


def test_a_move_no_game_has_is_refused_by_the_document_and_the_server(api, document):
    created = api.create()
    tokens = [seat["token"] for seat in created["seats"]]
    turn = api.game(created["id"])["turn"][0]
    for move in ({"kind": "no_such_move"}, {"kind": 5}, {"kind": "end_turn", "extra": 1}):
        assert not schema_validator(document, "MoveRequest").is_valid({"move": move})
        refused = api.move(created["id"], tokens[turn], move)
        assert refused.status_code == 422, refused.text


# --- security --------------------------------------------------------------------------


def test_every_operation_says_who_may_call_it(document):
    """An operation without `security` reads as "the document's default" — there is none,
    so public operations say so with an empty list."""
    for method, path, operation in operations(document):
        assert "security" in operation, (method, path)
    public = {(m, p) for m, p, o in operations(document) if o["security"] == []}
    anyone = {(m, p) for m, p, o in operations(document) if {} in o["security"]}
    assert ("get", "/v1/games/{game_id}/result") in anyone - public  # a table's own seats
    assert ("get", "/v1/games/{game_id}/states/{version}") in public
    assert ("get", "/v1/catalog") in public
    assert ("post", "/v1/games") not in public


def test_public_operations_answer_without_credentials(api, document):
    """result (outside tournaments) and states/{version} answer a spectator as a seat."""
    created = api.create()
    tokens = [seat["token"] for seat in created["seats"]]
    game = f"/v1/games/{created['id']}"
    assert api.client.post(f"{game}/resign", json={}, headers=auth(tokens[0])).status_code == 200
    for path in (f"{game}/result", f"{game}/states/0"):
        anonymous = api.client.get(path)
        seated = api.client.get(path, headers=auth(tokens[1]))
        assert anonymous.status_code == seated.status_code == 200
        assert anonymous.json() == seated.json()
    for method, path, operation in operations(document):
        if operation["security"] == []:
            assert "401" not in operation["responses"], (method, path)
