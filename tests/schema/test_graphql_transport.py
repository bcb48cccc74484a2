"""GraphQL over HTTP refuses what is not a GraphQL request with a problem document and a
stable code, as REST does; bad variable values are the client's error, logged as such."""

from __future__ import annotations

import urllib.parse

import pytest
from log_capture import captured_logs

CATALOG = "{ catalog { id } }"
MOVE = "mutation($id: ID!, $m: JSON!) { makeMove(gameId: $id, move: $m) { __typename } }"


def problem(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    body = response.json()
    assert body["code"] == code and body["status"] == status and body["detail"]
    return body


def deep_array(levels: int) -> str:
    return "[" * levels + "]" * levels


@pytest.mark.parametrize("levels", [100, 1000, 2000])
def test_deeply_nested_variables_are_malformed_json_like_rest(client, levels):
    body = f'{{"query": "{MOVE}", "variables": {{"id": "x", "m": {deep_array(levels)}}}}}'
    answer = client.post("/graphql", content=body, headers={"content-type": "application/json"})
    problem(answer, 400, "malformed_json")


def test_deeply_nested_variables_in_a_get_are_malformed_json(client):
    query = urllib.parse.urlencode({"query": CATALOG, "variables": f'{{"a": {deep_array(1000)}}}'})
    problem(client.get(f"/graphql?{query}"), 400, "malformed_json")


def test_variables_nested_a_little_are_fine(client):
    body = {"query": MOVE, "variables": {"id": "aaaaaaaaaaaaaaaaaaaaaaaa", "m": [[[[1]]]]}}
    answer = client.post("/graphql", json=body)
    assert answer.status_code == 200, answer.text
    assert answer.json()["data"]["makeMove"]["__typename"] == "Rejected"


@pytest.mark.parametrize(
    ("content", "content_type", "status", "code"),
    [
        ("not json", "application/json", 400, "malformed_json"),
        ("", "application/json", 400, "empty_body"),
        ('{"query": 5}', "application/json", 422, "invalid_request"),
        ('{"query": "{ catalog { id } }", "variables": [1]}', "application/json", 422,
         "invalid_request"),
        ("5", "application/json", 422, "invalid_request"),
        ('[{"query": "{ catalog { id } }"}]', "application/json", 400, "batching_not_supported"),
        ("{ catalog { id } }", "text/plain", 415, "unsupported_media_type"),
        ('{"variables": {}}', "application/json", 400, "missing_query"),
        ('{"query": "query A { catalog { id } }", "operationName": "B"}',
         "application/json", 400, "unknown_operation"),
        ('{"query": "subscription { gameEvents(gameId: \\"x\\") { __typename } }"}',
         "application/json", 400, "subscription_over_http"),
    ],
)  # fmt: skip
def test_transport_errors_are_problem_documents_with_a_code(
    client, content, content_type, status, code
):
    answer = client.post("/graphql", content=content, headers={"content-type": content_type})
    problem(answer, status, code)


SEVERAL = [
    "query A { catalog { id } } query B { catalog { title } }",
    'query A { catalog { id } } mutation B { resign(gameId: "x") { __typename } }',
]


@pytest.mark.parametrize("document", SEVERAL)
def test_a_document_with_several_operations_needs_an_operation_name(client, document):
    """Strawberry fell back to the first operation, and ran it: the GraphQL spec makes a
    document with several operations and no operationName an error."""
    for answer in (
        client.post("/graphql", json={"query": document}),
        client.get("/graphql?" + urllib.parse.urlencode({"query": document})),
    ):
        body = problem(answer, 400, "unknown_operation")
        assert body["detail"] == (
            "Name the operation to run in `operationName` (the document has several)."
        )
    named = client.post("/graphql", json={"query": document, "operationName": "A"})
    assert named.status_code == 200 and named.json()["data"]["catalog"][0]["id"], named.text
    # One operation needs no name, named or not.
    for alone in ("query A { catalog { id } }", "{ catalog { id } }"):
        assert client.post("/graphql", json={"query": alone}).json()["data"]["catalog"]


def test_a_mutation_sent_with_get_is_405(client):
    query = urllib.parse.urlencode({"query": 'mutation { resign(gameId: "x") { __typename } }'})
    answer = client.get(f"/graphql?{query}")
    problem(answer, 405, "method_not_allowed")
    assert answer.headers["allow"] == "POST"


@pytest.fixture
def logs(client):
    """Log records of the app (attached after it configured logging)."""
    with captured_logs() as handler:
        yield handler


@pytest.mark.parametrize(
    ("query", "variables"),
    [
        ("query($id: ID!) { game(id: $id) { id } }", {"id": {"a": 1}}),
        ("query($s: GameStatus) { games(status: $s) { pageInfo { endCursor } } }", {"s": "nope"}),
        ('query($n: Int!) { events(gameId: "x", sinceVersion: $n) { version } }', {"n": 2**40}),
    ],
)
def test_a_bad_variable_is_a_client_error_not_an_unexpected_one(client, logs, query, variables):
    answer = client.post("/graphql", json={"query": query, "variables": variables}).json()
    [error] = answer["errors"]
    assert error["extensions"] == {"code": "invalid_variables", "status": 400}
    assert error["message"].startswith("Variable '$")
    assert logs.errors() == []
