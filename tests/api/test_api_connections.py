"""Connections one address may hold open to `skyport serve`, and the open-files limit it
runs with. Before the cap, one client that opened 1,100 idle connections to a server
limited to 1,024 open files left it answering no one."""

from __future__ import annotations

import contextlib
import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest
from prometheus_client import REGISTRY
from websockets.sync.client import connect

from services.api.app import create_app
from services.api.client_ip import TrustedProxies
from services.api.http_protocol import REFUSAL_LINGER_SECONDS, PeerConnections, guarded_protocol
from services.api.server import server_config

CAP = 3
WAIT = 10.0
HEALTHZ = b"GET /healthz HTTP/1.1\r\nHost: skyport\r\n\r\n"
OTHER_ADDRESS = "127.0.0.2"  # loopback too, on Linux: another client as the server sees it


def serving(settings, games, serve, trusted: str):
    app = create_app(settings.model_copy(update={"forwarded_allow_ips": trusted}), games)
    peers = PeerConnections(CAP, TrustedProxies(trusted))
    return serve(app, http=guarded_protocol(30.0, peers))


@pytest.fixture
def server(settings, games, serve):
    """A server that trusts no proxy: every local connection counts against the cap."""
    with serving(settings, games, serve, trusted="") as running:
        yield running


@pytest.fixture
def connect_from(server) -> Iterator:
    sockets: list[socket.socket] = []

    def open_one(address: str = "127.0.0.1") -> socket.socket:
        sock = socket.create_connection(
            ("127.0.0.1", server.port), timeout=WAIT, source_address=(address, 0)
        )
        sockets.append(sock)
        return sock

    yield open_one
    for sock in sockets:
        sock.close()


def answer(sock: socket.socket, request: bytes = HEALTHZ) -> bytes:
    """The server's whole answer to `request`, up to its end or the connection's."""
    sock.sendall(request)
    received = b""
    while b"\r\n\r\n" not in received or not received.endswith((b"}", b"\n")):
        chunk = sock.recv(65536)
        if not chunk:
            break
        received += chunk
    return received


def served(sock: socket.socket) -> bool:
    return answer(sock).startswith(b"HTTP/1.1 200 ")


def refusals() -> float:
    sample = REGISTRY.get_sample_value(
        "skyport_http_connections_refused_total", {"reason": "too_many_connections"}
    )
    return sample or 0.0


def test_a_connection_over_the_cap_is_answered_429_and_closed(connect_from):
    held = [connect_from() for _ in range(CAP)]
    before = refusals()
    refused = connect_from()
    received = answer(refused)
    head, _, body = received.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 429 "), received
    assert b"retry-after: 1" in head.lower() and b"connection: close" in head.lower()
    problem = json.loads(body)
    assert problem["code"] == "too_many_connections" and problem["retry_after"] == 1
    assert str(CAP) in problem["detail"]
    start = time.monotonic()
    assert refused.recv(65536) == b""  # closed by the server, soon
    assert time.monotonic() - start < REFUSAL_LINGER_SECONDS + 2
    assert refusals() == before + 1
    assert all(served(sock) for sock in held)  # the connections it holds work as before


def test_a_closed_connection_gives_its_place_back(connect_from):
    held = [connect_from() for _ in range(CAP)]
    assert all(served(sock) for sock in held)
    held[0].close()
    start = time.monotonic()
    while True:  # the server sees the close a moment later
        if served(connect_from()):
            break
        assert time.monotonic() - start < WAIT, "the closed connection's place never came back"
        time.sleep(0.05)


def test_other_addresses_are_served_while_one_is_at_its_cap(connect_from):
    for _ in range(CAP + 2):
        connect_from()
    assert served(connect_from(OTHER_ADDRESS))


def test_many_requests_over_few_connections_are_not_limited(connect_from):
    held = [connect_from() for _ in range(CAP)]
    assert all(served(sock) for _ in range(20) for sock in held)


def test_a_trusted_proxy_is_not_capped(settings, games, serve):
    with serving(settings, games, serve, trusted="127.0.0.1") as running:
        sockets = [socket.create_connection(("127.0.0.1", running.port)) for _ in range(CAP * 3)]
        try:
            assert all(served(sock) for sock in sockets)
        finally:
            for sock in sockets:
                sock.close()


def test_websockets_leave_the_count_once_upgraded(server, connect_from):
    url = server.url.replace("http://", "ws://") + "/graphql"
    with contextlib.ExitStack() as stack:
        for _ in range(CAP):
            ws = stack.enter_context(connect(url, subprotocols=["graphql-transport-ws"]))
            ws.send(json.dumps({"type": "connection_init", "payload": {}}))
            assert json.loads(ws.recv(WAIT))["type"] == "connection_ack"
        assert served(connect_from())  # they are capped by the app (per client), not here


def test_skyport_serve_caps_connections_as_configured(settings, games):
    app = create_app(settings, games)
    changed = settings.model_copy(update={"max_connections_per_ip": 9, "forwarded_allow_ips": ""})
    protocol = server_config(app, changed, "", 0).http
    assert isinstance(protocol, type) and protocol.peers is not None
    assert protocol.peers.limit == 9 and protocol.peers.counts("10.1.2.3")
    trusting = settings.model_copy(update={"forwarded_allow_ips": "10.0.0.0/8"})
    protocol = server_config(app, trusting, "", 0).http
    assert protocol.peers is not None and not protocol.peers.counts("10.1.2.3")
    assert protocol.peers.counts("192.0.2.1")


def test_skyport_serve_raises_its_open_files_limit_to_the_hard_limit():
    code = (
        "import resource\n"
        "from services.api.server import open_files_as_allowed\n"
        "print(open_files_as_allowed(), resource.getrlimit(resource.RLIMIT_NOFILE)[0])\n"
    )
    child = subprocess.run(
        ["prlimit", "--nofile=512:4096", sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
    )
    assert child.stdout.split() == ["4096", "4096"]
