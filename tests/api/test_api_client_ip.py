"""The client IP behind proxies: only trusted proxies' X-Forwarded-For is read, and then
its right-most untrusted entry, so a client cannot choose its own per-IP rate-limit
bucket by writing the header itself."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from starlette.testclient import TestClient

from services.api.app import create_app
from services.api.client_ip import TrustedProxies
from services.gameplay.settings import Settings

INGRESS = TrustedProxies("10.42.0.0/16, fd00:42::/64")


@pytest.mark.parametrize(
    "peer, forwarded_for, client",
    [
        # The ingress appends the address it saw; what the client wrote is left of it.
        ("10.42.0.7", ["198.51.100.9"], "198.51.100.9"),
        ("10.42.0.7", ["6.6.6.6, 198.51.100.9"], "198.51.100.9"),
        ("10.42.0.7", ["6.6.6.6", "198.51.100.9"], "198.51.100.9"),
        ("10.42.0.7", ["10.42.0.1, 198.51.100.9"], "198.51.100.9"),
        # Two trusted proxies in a row: both skipped.
        ("10.42.0.7", ["6.6.6.6, 198.51.100.9, 10.42.3.3"], "198.51.100.9"),
        ("fd00:42::5", ["[2001:db8::1]:4711"], "2001:db8::1"),
        ("10.42.0.7", ["198.51.100.9:5555"], "198.51.100.9"),
        # A peer that is not a trusted proxy: its header is the client's own, ignored.
        ("198.51.100.20", ["1.2.3.4"], "198.51.100.20"),
        ("10.43.0.1", ["1.2.3.4"], "10.43.0.1"),
        # No header, or nothing usable at its right end: the peer.
        ("10.42.0.7", [], "10.42.0.7"),
        ("10.42.0.7", ["1.2.3.4, unknown"], "10.42.0.7"),
        # Only trusted entries: the left-most one is the furthest known.
        ("10.42.0.7", ["10.42.9.9, 10.42.0.8"], "10.42.9.9"),
    ],
)
def test_the_client_is_the_right_most_untrusted_hop(peer, forwarded_for, client):
    assert INGRESS.client(peer, forwarded_for) == client


def test_star_trusts_the_peer_to_append_one_hop_and_no_hop_beyond():
    anyone = TrustedProxies("*")
    assert anyone.client("10.0.0.1", ["6.6.6.6, 198.51.100.9"]) == "198.51.100.9"
    assert anyone.client("10.0.0.1", ["10.0.0.2"]) == "10.0.0.2"


def test_an_entry_that_is_no_address_or_network_is_refused_at_start():
    with pytest.raises(ValueError, match="ingress"):
        Settings(forwarded_allow_ips="10.0.0.0/8, ingress")


def test_forwarded_headers_of_an_untrusted_peer_change_nothing(games):
    """The test client's peer is not an address, so no proxy can be trusted for it."""
    settings = Settings(redis_url=None, forwarded_allow_ips="10.0.0.0/8", rate_limit_per_ip=2)
    with TestClient(create_app(settings, games)) as client:
        answers = [
            client.get("/v1/catalog", headers={"X-Forwarded-For": f"7.7.7.{n}"}) for n in range(3)
        ]
    assert [answer.status_code for answer in answers] == [200, 200, 429]


# --- as served (`skyport serve`), with the Kubernetes configuration ----------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def served(tmp_path: Path, forwarded_allow_ips: str) -> Iterator[str]:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("SKYPORT_")}
    env.update(
        SKYPORT_FORWARDED_ALLOW_IPS=forwarded_allow_ips,
        SKYPORT_RATE_LIMIT_PER_IP="3",
        # a day-long window, so the four counted requests all but never straddle an edge
        SKYPORT_RATE_LIMIT_WINDOW="86400",
        SKYPORT_LOG_LEVEL="warning",
    )
    skyport = str(Path(sys.executable).parent / "skyport")
    log = tmp_path / f"serve-{port}.log"
    with log.open("wb") as sink:
        process = subprocess.Popen(
            [skyport, "serve", "--host", "127.0.0.1", "--port", str(port)],
            env=env,
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"skyport serve did not start:\n{log.read_text()[-3000:]}")
            try:
                if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=20)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("trusted", ["*", "127.0.0.0/8"])
def test_a_client_cannot_dodge_the_per_ip_limit_with_its_own_forwarded_for(tmp_path, trusted):
    """The proxy (here the test, from 127.0.0.1) appends the real client 203.0.113.7 to
    whatever the client sent; every request must count against that one client."""
    with served(tmp_path, trusted) as base:
        statuses = [
            httpx.get(
                f"{base}/v1/catalog",
                headers={"X-Forwarded-For": f"6.6.6.{n}, 203.0.113.7"},
                timeout=10,
            ).status_code
            for n in range(4)
        ]
        other = httpx.get(f"{base}/v1/catalog", headers={"X-Forwarded-For": "203.0.113.8"})
    assert statuses == [200, 200, 200, 429]
    assert other.status_code == 200, "another client has a bucket of its own"
