"""Credentials in a GraphQL WebSocket's `connection_init`: `{"Authorization": ...}`, the
same inside `headers` (as Apollo's and urql's clients send them), or `{}` to watch as a
spectator. A payload in any other shape closes the socket with 4400 and a reason, rather
than leaving a client that meant to sign in watching as a spectator without knowing."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from services.api.app import create_app

PROTOCOL = ["graphql-transport-ws"]
YOU = "query($id: ID!) { game(id: $id) { you } }"


@pytest.fixture
def client(settings, games):
    with TestClient(create_app(settings, games)) as client:
        yield client


def created_game(client) -> tuple[str, str]:
    body = {"game": "hidden-numbers", "seats": [{"name": "A"}, {"name": "B"}], "seed": 5}
    created = client.post("/v1/games", json=body).json()
    return created["id"], created["seats"][0]["token"]


def seat_over_socket(client, payload: object, game_id: str) -> int | None:
    with client.websocket_connect("/graphql", subprotocols=PROTOCOL) as ws:
        ws.send_json({"type": "connection_init", "payload": payload})
        assert ws.receive_json()["type"] == "connection_ack"
        variables = {"id": game_id}
        ws.send_json(
            {"id": "1", "type": "subscribe", "payload": {"query": YOU, "variables": variables}}
        )
        message = ws.receive_json()
        assert message["type"] == "next", message
        return message["payload"]["data"]["game"]["you"]


@pytest.mark.parametrize(
    "shape",
    [
        lambda token: {"Authorization": f"Bearer {token}"},
        lambda token: {"authorization": f"Bearer {token}"},
        lambda token: {"headers": {"Authorization": f"Bearer {token}"}},
        lambda token: {"headers": {"authorization": f"Bearer {token}"}, "clientName": "app"},
    ],
    ids=["Authorization", "authorization", "headers", "headers-and-more"],
)
def test_a_seat_signs_in_with_each_shape_clients_send(client, shape):
    game_id, token = created_game(client)
    assert seat_over_socket(client, shape(token), game_id) == 0
    assert seat_over_socket(client, {}, game_id) is None, "{} watches as a spectator"


@pytest.mark.parametrize(
    "payload",
    [
        {"authToken": "sps_something"},
        {"token": "sps_something"},
        {"Authorization": 5},
        {"headers": "Bearer sps_something"},
        {"headers": {"X-Token": "sps_something"}},
        {"headers": {"Authorization": ["Bearer sps_something"]}},
    ],
)
def test_a_payload_in_another_shape_closes_the_socket_with_a_reason(client, payload):
    with client.websocket_connect("/graphql", subprotocols=PROTOCOL) as ws:
        ws.send_json({"type": "connection_init", "payload": payload})
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    assert closed.value.code == 4400
    assert "Authorization" in closed.value.reason and len(closed.value.reason.encode()) <= 123
