"""A fuzzing pass over GraphQL, as schemathesis is for REST: random documents built from
the schema's own fields (hypothesis-graphql, valid and invalid), garbage documents and
random variables, over HTTP and over a WebSocket. Nothing may answer 5xx, and a
WebSocket may only end with a close code.

A few hundred cases by default; set SKYPORT_GRAPHQL_FUZZ_CASES for a longer run (each of
the three tests runs that many)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_graphql import Mode, mutations, nodes, queries
from starlette.websockets import WebSocketDisconnect

CASES = int(os.environ.get("SKYPORT_GRAPHQL_FUZZ_CASES", "100"))
LONG_RUN = "SKYPORT_GRAPHQL_FUZZ_CASES" in os.environ
"""The default run draws the same cases every time (a stable suite); a long run new ones."""
SDL = (Path(__file__).parents[2] / "schema" / "schema.graphql").read_text()
SCALARS = {"JSON": st.one_of(st.text(max_size=20), st.integers()).map(nodes.String)}

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=20,
)
documents = st.one_of(
    queries(SDL, custom_scalars=SCALARS),
    queries(SDL, custom_scalars=SCALARS, mode=Mode.NEGATIVE),
    mutations(SDL, custom_scalars=SCALARS),
    mutations(SDL, custom_scalars=SCALARS, mode=Mode.NEGATIVE),
    st.text(max_size=200),
    st.text(alphabet='{}()[]:$@!.=,#"\\ \nqueryfragmentonsubscription_', max_size=200),
)
variables = st.one_of(st.none(), st.dictionaries(st.text(max_size=10), json_values, max_size=4))
fuzz = settings(
    max_examples=CASES,
    deadline=None,
    database=None,
    derandomize=not LONG_RUN,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@fuzz
@given(document=documents, values=variables)
def test_random_documents_over_http_never_answer_5xx(client, document, values):
    answer = client.post("/graphql", json={"query": document, "variables": values})
    assert answer.status_code < 500, answer.text
    body = answer.json()
    for error in body.get("errors", []):
        assert error["extensions"]["code"] != "internal_error", error
    if answer.status_code >= 400:
        assert body["code"]


bodies = st.one_of(
    st.text(max_size=100),
    json_values.map(json.dumps),
    st.fixed_dictionaries(
        {"query": json_values, "variables": json_values, "operationName": json_values}
    ).map(json.dumps),
)


@fuzz
@given(body=bodies, content_type=st.sampled_from(["application/json", "text/plain", ""]))
def test_random_bodies_over_http_are_refused_with_a_code(client, body, content_type):
    headers = {"content-type": content_type} if content_type else {}
    answer = client.post("/graphql", content=body.encode(), headers=headers)
    assert answer.status_code < 500, answer.text
    if answer.status_code >= 400:
        assert answer.json()["code"]


frames = st.one_of(
    st.builds(
        lambda document, values: {
            "id": "op",
            "type": "subscribe",
            "payload": {"query": document, "variables": values},
        },
        documents,
        variables,
    ),
    json_values,
    st.fixed_dictionaries({"type": json_values, "id": json_values, "payload": json_values}),
)


@fuzz
@given(frame=frames)
def test_random_frames_over_a_websocket_are_answered_or_closed_with_a_code(client, frame):
    with client.websocket_connect("/graphql", subprotocols=["graphql-transport-ws"]) as ws:
        ws.send_json({"type": "connection_init", "payload": {}})
        assert ws.receive_json()["type"] == "connection_ack"
        ws.send_text(json.dumps(frame))
        try:
            ws.send_json({"type": "ping"})
            while (message := ws.receive_json())["type"] != "pong":
                assert message["type"] in ("next", "error", "complete"), message
                payload = message.get("payload")
                errors = payload if message["type"] == "error" else (payload or {}).get("errors")
                for error in errors or []:
                    assert error.get("extensions", {}).get("code") != "internal_error", error
        except WebSocketDisconnect as closed:
            assert closed.code in (4400, 4409), closed
