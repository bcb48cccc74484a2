"""What a client generator (openapi-generator, openapi-typescript) or a validating client
reads in /openapi.json is what the server does: the headers its answers carry, the
headers it reads, who may call what, how operations group, the bodies it refuses and
the moves it takes."""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema import Draft202012Validator
from schemathesis.specs.openapi.definitions import OPENAPI_31_VALIDATOR

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def document(client) -> dict[str, Any]:
    return client.get("/openapi.json").json()


def auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def operations(document: dict[str, Any]):
    for path, item in document["paths"].items():
        for method, operation in item.items():
            yield method, path, operation


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


# --- security --------------------------------------------------------------------------


def test_every_operation_says_who_may_call_it(document):
    """An operation without `security` reads as "the document's default" — there is none,
    so public operations say so with an empty list."""
    for method, path, operation in operations(document):
        assert "security" in operation, (method, path)
    public = {(m, p) for m, p, o in operations(document) if o["security"] == []}
    assert ("get", "/v1/games/{game_id}/result") in public
    assert ("get", "/v1/games/{game_id}/states/{version}") in public
    assert ("get", "/v1/catalog") in public
    assert ("post", "/v1/games") not in public


def test_public_operations_answer_without_credentials(api, document):
    """result and states/{version} read no token: a spectator gets the same answer."""
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
