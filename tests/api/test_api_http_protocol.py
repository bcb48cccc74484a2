"""The HTTP protocol `skyport serve` runs, on a real server. A request must arrive whole
within `request_receive_seconds`: a client that connects and says nothing, trickles its
headers (Slowloris) or stops sending its body cannot hold a connection, while slow but
timely requests, keep-alive, pipelining, live streams and WebSockets are untouched. And a
request's URL and headers are capped in size before they are gathered in memory."""

from __future__ import annotations

import asyncio
import json
import select
import socket
import time
from collections.abc import Iterator

import httpx
import pytest
from log_capture import captured_logs
from prometheus_client import REGISTRY
from websockets.asyncio.client import connect

from services.api.app import create_app
from services.api.http_protocol import MAX_HEAD_BYTES, GuardedHttpProtocol, guarded_protocol
from services.api.problems import CLIENT_CLOSED_REQUEST
from services.api.server import server_config

DEADLINE = 1.0
WAIT = 10.0  # far past the deadline: a connection still open then is held for good


@pytest.fixture
def server(settings, games, serve):
    app = create_app(settings.model_copy(update={"stream_keepalive": 0.2}), games)
    with captured_logs() as handler, serve(app, http=guarded_protocol(DEADLINE)) as running:
        running.logs = handler
        yield running


@pytest.fixture
def opened(server) -> Iterator:
    sockets: list[socket.socket] = []

    def open_one() -> socket.socket:
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=WAIT)
        sockets.append(sock)
        return sock

    yield open_one
    for sock in sockets:
        sock.close()


def read_until_closed(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (a socket timeout,
    if it never does, fails the test). A server that closes with bytes of ours unread
    resets the connection instead: that ends it too, with what had arrived."""
    received = b""
    try:
        while chunk := sock.recv(65536):
            received += chunk
    except ConnectionResetError:
        pass
    return received


def trickle(sock: socket.socket, piece: bytes, every: float = 0.2) -> tuple[float, bytes]:
    """Send `piece` every `every` seconds until the server answers or cuts the connection:
    the seconds that took, and the answer. Sending stops as soon as an answer is there
    (sending on after the server closed would reset the connection, losing the answer)."""
    start = time.monotonic()
    while time.monotonic() - start < WAIT:
        readable, _, _ = select.select([sock], [], [], every)
        if readable:
            return time.monotonic() - start, read_until_closed(sock)
        try:
            sock.sendall(piece)
        except OSError:
            return time.monotonic() - start, b""
    raise AssertionError(f"the connection was still open after {WAIT} s")


def problem_of(answer: bytes) -> tuple[str, dict]:
    head, _, body = answer.partition(b"\r\n\r\n")
    return head.decode(), json.loads(body)


def test_a_connection_that_sends_nothing_is_closed_without_an_answer(opened):
    sock = opened()
    start = time.monotonic()
    assert read_until_closed(sock) == b""
    assert time.monotonic() - start >= DEADLINE * 0.9


def test_headers_that_trickle_in_are_answered_408_and_the_connection_closed(opened, server):
    sock = opened()
    sock.sendall(b"GET /v1/catalog HTTP/1.1\r\nHost: skyport\r\n")
    took, answer = trickle(sock, b"X-Slow: 1\r\n")
    assert took < WAIT / 2
    head, problem = problem_of(answer)
    assert head.startswith("HTTP/1.1 408 ")
    assert "content-type: application/problem+json" in head.lower()
    assert "connection: close" in head.lower()
    assert problem["code"] == "request_timeout" and problem["status"] == 408
    assert any("request_timed_out" in m and "headers" in m for m in server.logs.messages())


def test_a_body_that_stops_coming_is_cut_off_and_logged_as_499_not_500(opened, server):
    sock = opened()
    sock.sendall(
        b"POST /v1/games HTTP/1.1\r\nHost: skyport\r\nContent-Type: application/json\r\n"
        b"Content-Length: 500\r\n\r\n{"
    )
    took, answer = trickle(sock, b" ")
    assert took < WAIT / 2 and answer == b""
    assert any("request_timed_out" in m and "body" in m for m in server.logs.messages())
    counted = {"method": "POST", "route": "/v1/games", "status": str(CLIENT_CLOSED_REQUEST)}
    start = time.monotonic()
    while not REGISTRY.get_sample_value("skyport_http_requests_total", counted):
        assert time.monotonic() - start < WAIT, "the cut-off request was never counted"
        time.sleep(0.05)
    assert server.logs.errors() == []
    assert httpx.get(f"{server.url}/healthz", timeout=WAIT).status_code == 200


def test_a_slow_but_timely_request_and_the_next_on_the_same_connection_are_answered(opened):
    sock = opened()
    request = b"GET /healthz HTTP/1.1\r\nHost: skyport\r\n\r\n"
    for piece in (request[:10], request[10:25], request[25:]):
        sock.sendall(piece)
        time.sleep(DEADLINE / 4)
    first = sock.recv(65536)
    assert first.startswith(b"HTTP/1.1 200 ")
    time.sleep(DEADLINE / 2)
    sock.sendall(request)
    assert sock.recv(65536).startswith(b"HTTP/1.1 200 ")


def test_pipelined_requests_are_all_answered(opened):
    sock = opened()
    sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: skyport\r\n\r\n" * 3)
    received = b""
    while received.count(b"HTTP/1.1 200 ") < 3:
        chunk = sock.recv(65536)
        assert chunk, f"closed after {received.count(b'HTTP/1.1 200 ')} answers"
        received += chunk


def test_a_live_stream_outlasts_the_deadline(server):
    with httpx.Client(base_url=server.url, timeout=WAIT) as http:
        created = http.post(
            "/v1/games",
            json={"game": "hidden-numbers", "seats": [{"name": "A"}, {"name": "B"}]},
        ).json()
        start, frames = time.monotonic(), 0
        with http.stream(
            "GET", f"/v1/games/{created['id']}/events", headers={"Accept": "text/event-stream"}
        ) as stream:
            for line in stream.iter_lines():
                frames += line.startswith(":")
                if time.monotonic() - start > DEADLINE * 3:
                    break
    assert frames >= 5  # keep-alives every 0.2 s, well past the deadline


@pytest.mark.anyio
async def test_a_websocket_outlasts_the_deadline(server):
    url = server.url.replace("http://", "ws://") + "/graphql"
    async with connect(url, subprotocols=["graphql-transport-ws"]) as ws:
        await ws.send(json.dumps({"type": "connection_init", "payload": {}}))
        assert json.loads(await asyncio.wait_for(ws.recv(), WAIT))["type"] == "connection_ack"
        await asyncio.sleep(DEADLINE * 2.5)
        await ws.send(json.dumps({"type": "ping"}))
        assert json.loads(await asyncio.wait_for(ws.recv(), WAIT))["type"] == "pong"


def test_skyport_serve_runs_the_protocol_with_the_configured_deadline(settings, games):
    app = create_app(settings, games)
    config = server_config(app, settings.model_copy(update={"request_receive_seconds": 7}), "", 0)
    assert isinstance(config.http, type) and issubclass(config.http, GuardedHttpProtocol)
    assert config.http.receipt_seconds == 7


@pytest.mark.parametrize(
    "start",
    [
        b"GET /v1/catalog?q=",  # the URL
        b"GET /v1/catalog HTTP/1.1\r\nHost: skyport\r\nX-Big: ",  # one header
    ],
)
def test_a_head_over_the_cap_is_answered_431_before_it_is_gathered(opened, server, start):
    sock = opened()
    sock.sendall(start + b"a" * (MAX_HEAD_BYTES + 8192))  # and no end: 408 without the cap
    head, problem = problem_of(read_until_closed(sock))
    assert head.startswith("HTTP/1.1 431 ")
    assert problem["code"] == "request_head_too_large"
    assert any("request_head_too_large" in m for m in server.logs.messages())


def test_a_big_head_under_the_cap_is_served(opened):
    sock = opened()
    big = b"X-Big: " + b"a" * (MAX_HEAD_BYTES - 1024) + b"\r\n"
    sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: skyport\r\n" + big + b"\r\n")
    assert sock.recv(65536).startswith(b"HTTP/1.1 200 ")
