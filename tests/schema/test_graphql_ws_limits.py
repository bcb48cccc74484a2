"""GraphQL over WebSocket is held to HTTP's rules: every operation counts against the
rate limits, operations per connection and connections per IP are capped, deep
variables are malformed JSON, and frames that break the protocol close with 4400 (with
a close frame, and no traceback in the log)."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
import os
import socket as socket_module

import pytest
from live_client import play_one
from log_capture import Captured, captured_logs
from starlette.testclient import WebSocketDenialResponse
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from services.api.app import create_app

PROTOCOL = ["graphql-transport-ws"]
CREATE = """mutation { createGame(input: {game: "hidden-numbers",
  seats: [{name: "A"}, {name: "B"}]}) { __typename } }"""
FOLLOW = "subscription($id: ID!) { gameEvents(gameId: $id) { __typename } }"


@pytest.fixture
def app_with(settings, games):
    from starlette.testclient import TestClient

    def make(**changes):
        return TestClient(create_app(settings.model_copy(update=changes), games))

    return make


@contextlib.contextmanager
def socket(client, token: str | None = None):
    with client.websocket_connect("/graphql", subprotocols=PROTOCOL) as ws:
        payload = {"Authorization": f"Bearer {token}"} if token else {}
        ws.send_json({"type": "connection_init", "payload": payload})
        assert ws.receive_json()["type"] == "connection_ack"
        yield ws


def run(ws, op_id: str, query: str, variables: dict | None = None) -> dict:
    """Sends one operation; its first answer (`next` or `error`)."""
    ws.send_json(
        {"id": op_id, "type": "subscribe", "payload": {"query": query, "variables": variables}}
    )
    message = ws.receive_json()
    if message["type"] == "next":
        assert ws.receive_json() == {"id": op_id, "type": "complete"}
    return message


def code_of(message: dict) -> str:
    assert message["type"] == "error", message
    return message["payload"][0]["extensions"]["code"]


def test_every_operation_over_a_websocket_counts_against_the_ip_limit(app_with):
    with app_with(rate_limit_per_ip=5, rate_limit_per_token=0) as client, socket(client) as ws:
        # the handshake was request 1
        answers = [run(ws, str(n), "{ catalog { id } }") for n in range(4)]
        assert [a["type"] for a in answers] == ["next"] * 4
        refused = run(ws, "5", CREATE)
        assert code_of(refused) == "rate_limited"
        assert refused["payload"][0]["extensions"]["retry_after"] == 30  # pinned mid-window
        assert code_of(run(ws, "6", "{ catalog { id } }")) == "rate_limited"
        assert client.get("/v1/catalog").status_code == 429  # one window for both


def test_operations_over_a_websocket_count_against_the_token_limit(app_with):
    with app_with(rate_limit_per_ip=1000, rate_limit_per_token=3) as client:
        created = client.post(
            "/v1/games", json={"game": "hidden-numbers", "seats": [{"name": "A"}, {"name": "B"}]}
        ).json()
        token = created["seats"][0]["token"]
        with socket(client, token) as ws:
            query = "query($id: ID!) { legalMoves(gameId: $id) { version } }"
            answers = [run(ws, str(n), query, {"id": created["id"]}) for n in range(4)]
        with socket(client, created["seats"][1]["token"]) as other:
            assert run(other, "1", query, {"id": created["id"]})["type"] == "next"
    assert [a["type"] for a in answers[:3]] == ["next"] * 3
    assert code_of(answers[3]) == "rate_limited"


def test_operations_per_connection_are_capped(app_with):
    with app_with(graphql_ws_max_subscriptions=2) as client:
        created = client.post(
            "/v1/games", json={"game": "hidden-numbers", "seats": [{"name": "A"}, {"name": "B"}]}
        ).json()
        with socket(client) as ws:
            for op_id in ("a", "b"):
                ws.send_json(
                    {
                        "id": op_id,
                        "type": "subscribe",
                        "payload": {"query": FOLLOW, "variables": {"id": created["id"]}},
                    }
                )
            third = run(ws, "c", "{ catalog { id } }")
            assert code_of(third) == "too_many_subscriptions"
            ws.send_json({"id": "a", "type": "complete"})
            assert run(ws, "d", "{ catalog { id } }")["type"] == "next"


def test_websockets_per_client_ip_are_capped(app_with):
    with app_with(graphql_ws_max_connections_per_ip=2) as client:
        with (
            socket(client),
            socket(client),
            pytest.raises(WebSocketDenialResponse) as denied,
            client.websocket_connect("/graphql", subprotocols=PROTOCOL),
        ):
            pytest.fail("a third connection was accepted")
        with socket(client) as again:  # closing them frees their places
            assert run(again, "1", "{ catalog { id } }")["type"] == "next"
    assert denied.value.status_code == 429
    assert denied.value.json()["code"] == "too_many_connections"


def test_deep_variables_over_a_websocket_are_malformed_json(client):
    deep = "[" * 1000 + "]" * 1000
    query = json.dumps("query($v: JSON) { catalog { id } }")
    with socket(client) as ws:
        ws.send_text(
            f'{{"id": "1", "type": "subscribe", "payload": {{"query": {query}, '
            f'"variables": {{"v": {deep}}}}}}}'
        )
        assert code_of(ws.receive_json()) == "malformed_json"
        assert run(ws, "2", "{ catalog { id } }")["type"] == "next"  # still open


def test_a_document_too_large_over_a_websocket_is_refused(client):
    with socket(client) as ws:
        refused = run(ws, "1", "{ catalog { " + "id " * 10_001 + "} }")
        assert code_of(refused) == "query_too_large"


def test_an_unknown_operation_name_over_a_websocket_is_unknown_operation(client):
    """It was masked as an unexpected error (internal_error, 500) and logged with its
    traceback: it is the client's, with HTTP's code, and the connection goes on."""
    with captured_logs() as logs, socket(client) as ws:
        ws.send_json(
            {
                "id": "1",
                "type": "subscribe",
                "payload": {"query": "query A { catalog { id } }", "operationName": "B"},
            }
        )
        refused = ws.receive_json()
        assert code_of(refused) == "unknown_operation"
        assert refused["payload"][0]["message"] == "The document has no operation named 'B'."
        assert refused["payload"][0]["extensions"]["status"] == 400
        assert run(ws, "2", "{ catalog { id } }")["type"] == "next"  # still open
    assert logs.errors() == []


def test_a_document_with_several_operations_and_no_name_is_refused_over_a_websocket(client):
    """As over HTTP: the first operation is not run by default (it was)."""
    several = "query A { catalog { id } } query B { catalog { title } }"
    with socket(client) as ws:
        ws.send_json({"id": "1", "type": "subscribe", "payload": {"query": several}})
        refused = ws.receive_json()
        assert code_of(refused) == "unknown_operation", refused
        assert refused["payload"][0]["message"] == (
            "Name the operation to run in `operationName` (the document has several)."
        )
        ws.send_json(
            {"id": "2", "type": "subscribe", "payload": {"query": several, "operationName": "B"}}
        )
        named = ws.receive_json()
        assert named["type"] == "next" and named["payload"]["data"]["catalog"][0]["title"]


# --- on a real server: close frames and logs --------------------------------------------


@pytest.fixture
def server(settings, games, serve):
    app = create_app(settings, games)
    with captured_logs() as handler, serve(app) as running:
        running.logs = handler
        yield running


async def opened(server):
    url = server.url.replace("http://", "ws://") + "/graphql"
    ws = await connect(url, subprotocols=PROTOCOL)
    await ws.send(json.dumps({"type": "connection_init", "payload": {}}))
    assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "connection_ack"
    return ws


@pytest.mark.anyio
@pytest.mark.parametrize(
    "frame",
    [
        "[1, 2, 3]",
        "5",
        "null",
        '"subscribe"',
        "[" * 2000 + "]" * 2000,
        '{"type": 5}',
        '{"type": "subscribe", "id": ["x"], "payload": {"query": "{ catalog { id } }"}}',
        '{"type": "subscribe", "id": "1", "payload": [1]}',
        '{"type": "subscribe", "id": "1", "payload": {"query": 5}}',
        '{"type": "complete", "id": {}}',
    ],
)
async def test_frames_that_break_the_protocol_close_with_4400_and_log_nothing(server, frame):
    ws = await opened(server)
    await ws.send(frame)
    with pytest.raises(ConnectionClosed) as closed:
        await asyncio.wait_for(ws.recv(), 10)
    assert closed.value.rcvd is not None, "closed without a close frame"
    assert closed.value.rcvd.code == 4400
    await asyncio.sleep(0.1)
    assert server.logs.errors() == []


@pytest.mark.anyio
async def test_a_client_closing_mid_operation_logs_no_error(server):
    import httpx

    async with httpx.AsyncClient(base_url=server.url) as http:
        created = (
            await http.post(
                "/v1/games",
                json={"game": "hidden-numbers", "seats": [{"name": "A"}, {"name": "B"}]},
            )
        ).json()
    for _ in range(3):
        ws = await opened(server)
        for n in range(3):
            payload = {"query": FOLLOW, "variables": {"id": created["id"]}}
            await ws.send(json.dumps({"id": str(n), "type": "subscribe", "payload": payload}))
        await ws.send(
            json.dumps({"id": "q", "type": "subscribe", "payload": {"query": "{ catalog { id } }"}})
        )
        await ws.close()
    await asyncio.sleep(1.0)  # past a keep-alive, when the feeds write to the gone socket
    assert server.logs.errors() == []


# --- a client that does not read its answers ----------------------------------------------

FOUR_CATALOGS = "{ " + " ".join(f"c{i}: catalog {{ components }}" for i in range(4)) + " }"
"""Within the cost limit, and about 330 KB of answer."""


class RawSocket:
    """A graphql-transport-ws client on a bare socket with a tiny receive buffer, which
    reads only when told to."""

    def __init__(self, port: int) -> None:
        self.sock = socket_module.socket()
        self.sock.setsockopt(socket_module.SOL_SOCKET, socket_module.SO_RCVBUF, 4096)
        self.sock.settimeout(15)
        self.sock.connect(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (
                "GET /graphql HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: graphql-transport-ws\r\n\r\n"
            ).encode()
        )
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            self.buffer += self.sock.recv(4096)
        self.buffer = self.buffer.split(b"\r\n\r\n", 1)[1]
        self.send({"type": "connection_init", "payload": {}})
        assert self.frame() == (1, b'{"type":"connection_ack"}')

    def send(self, message: dict) -> None:
        data = json.dumps(message).encode()
        mask = os.urandom(4)
        size = len(data)
        head = bytes([0x81]) + (
            bytes([0x80 | size]) if size < 126 else bytes([0x80 | 126]) + size.to_bytes(2, "big")
        )
        self.sock.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def _take(self, count: int) -> bytes:
        while len(self.buffer) < count:
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise EOFError
            self.buffer += chunk
        taken, self.buffer = self.buffer[:count], self.buffer[count:]
        return taken

    def frame(self) -> tuple[int, bytes]:
        """(opcode, payload) of the next frame from the server (never masked)."""
        first, second = self._take(2)
        size = second & 0x7F
        if size == 126:
            size = int.from_bytes(self._take(2), "big")
        elif size == 127:
            size = int.from_bytes(self._take(8), "big")
        return first & 0x0F, self._take(size)


@pytest.mark.anyio
async def test_a_client_that_leaves_answers_unread_is_closed_with_4413(server):
    # One that reads gets all its answers, ...
    reader = await opened(server)
    for n in range(20):
        payload = {"query": FOUR_CATALOGS}
        await reader.send(json.dumps({"id": str(n), "type": "subscribe", "payload": payload}))
    kinds = [json.loads(await asyncio.wait_for(reader.recv(), 30))["type"] for _ in range(40)]
    assert kinds.count("next") == 20
    await reader.close()
    # ... one that does not is closed once over 1 MiB waits, and what waited is dropped.
    slow = RawSocket(server.port)
    for n in range(20):
        slow.send({"id": str(n), "type": "subscribe", "payload": {"query": FOUR_CATALOGS}})
    for _ in range(300):  # the server decides while the client still reads nothing
        if any("graphql_ws_unread_answers" in m for m in server.logs.messages()):
            break
        await asyncio.sleep(0.1)
    answers = 0
    while True:
        opcode, payload = await asyncio.to_thread(slow.frame)
        if opcode == 8:
            break
        answers += json.loads(payload)["type"] == "next"
    assert int.from_bytes(payload[:2], "big") == 4413
    assert b"unread" in payload
    assert answers < 20
    slow.sock.close()
    await asyncio.sleep(0.1)
    assert server.logs.errors() == []


# --- handshakes refused with an HTTP answer -----------------------------------------------


@pytest.mark.anyio
async def test_a_handshake_refused_with_429_is_answered_and_logs_no_error(settings, games, serve):
    from websockets.exceptions import InvalidStatus

    app = create_app(settings.model_copy(update={"graphql_ws_max_connections_per_ip": 1}), games)
    logger = logging.getLogger("uvicorn.error")
    handler = Captured()
    with serve(app) as running:  # uvicorn has configured its loggers: attach to it now
        logger.addHandler(handler)
        try:
            first = await opened(running)
            for _ in range(3):
                with pytest.raises(InvalidStatus) as refused:
                    await opened(running)
                assert refused.value.response.status_code == 429
            await first.close()
            await asyncio.sleep(0.2)
        finally:
            logger.removeHandler(handler)
    assert "too_many_connections" in refused.value.response.body.decode()
    assert handler.errors() == []


@pytest.mark.anyio
async def test_sse_streams_and_subscriptions_share_one_budget_per_client_ip(settings, games, serve):
    """A subscription runs the same feed as an SSE stream (a Redis read per keep-alive),
    but was bounded only by sockets x subscriptions (1,000 per IP, against 50 streams)."""
    import httpx

    app = create_app(settings.model_copy(update={"sse_max_streams_per_ip": 2}), games)
    sse = {"Accept": "text/event-stream"}
    with serve(app) as server:
        async with httpx.AsyncClient(base_url=server.url, timeout=10) as http:
            created = (
                await http.post(
                    "/v1/games",
                    json={"game": "hidden-numbers", "seats": [{"name": "A"}, {"name": "B"}]},
                )
            ).json()
            tokens = [seat["token"] for seat in created["seats"]]
            await play_one(http, created["id"], tokens)  # a first answer for a subscription
            url, follow = f"/v1/games/{created['id']}/events", {"id": created["id"]}
            ws = await opened(server)

            async def subscribe(op_id: str) -> dict:
                payload = {"query": FOLLOW, "variables": follow}
                await ws.send(json.dumps({"id": op_id, "type": "subscribe", "payload": payload}))
                return json.loads(await asyncio.wait_for(ws.recv(), 10))

            async with http.stream("GET", url, headers=sse) as stream:
                assert stream.status_code == 200
                assert (await subscribe("1"))["type"] == "next"  # its second place
                refused = await subscribe("2")
                async with http.stream("GET", url, headers=sse) as third:
                    assert third.status_code == 429
                    await third.aread()
                assert third.json()["code"] == "too_many_connections"
            await ws.send(json.dumps({"id": "1", "type": "complete"}))
            for _ in range(100):  # the subscription and the stream give their places back
                async with (
                    http.stream("GET", url, headers=sse) as one,
                    http.stream("GET", url, headers=sse) as other,
                ):
                    statuses = (one.status_code, other.status_code)
                if statuses == (200, 200):
                    break
                await asyncio.sleep(0.05)
            assert statuses == (200, 200)
            await ws.close()
    errors = refused["payload"] if refused["type"] == "error" else refused["payload"]["errors"]
    assert errors[0]["extensions"]["code"] == "too_many_connections"
    assert errors[0]["extensions"]["status"] == 429
