"""Webhook URLs may not target this cluster (SSRF): refused at creation with 422
`webhook_url_not_allowed` over REST and GraphQL, and checked again — and pinned to the
checked address — at delivery. DNS is replaced by a table here (the tests have no
network); SKYPORT_WEBHOOK_ALLOW_PRIVATE=true loosens it for local development."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from starlette.testclient import TestClient

from services.api.app import create_app
from services.gameplay import webhook_targets
from services.gameplay.problems import Problem
from services.gameplay.webhooks import DeliveryRefused, Webhook, deliver

PUBLIC = "93.184.215.14"
DNS = {
    "hooks.example.com": [PUBLIC, "2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
    "private.example.com": ["192.168.1.5"],
    "rebind.example.com": [PUBLIC, "10.0.0.7"],
    "metadata.example.com": ["169.254.169.254"],
    "mapped.example.com": ["::ffff:127.0.0.1"],
    "sixtofour.example.com": ["2002:7f00:1::"],
}

REFUSED = [
    "http://127.0.0.1:6379/",
    "http://127.0.0.1:9000/hook",
    "http://169.254.169.254/latest/meta-data/",
    "http://[::1]:8000/",
    "http://10.0.0.1/",
    "http://172.16.5.4/",
    "http://192.168.0.10/",
    "http://100.64.0.1/",
    "http://0.0.0.0:8000/",
    "http://[::]/",
    "http://224.0.0.1/",
    "http://[fd00::1]/",
    "http://[fe80::1%25eth0]/",
    "http://[::ffff:127.0.0.1]/",
    "http://redis:6379/",
    "http://2130706433/",
    "http://localhost:8000/",
    "http://LOCALHOST./",
    "http://api.skyport.svc/",
    "http://kubernetes.default.svc.cluster.local/",
    "http://metadata.google.internal/computeMetadata/v1/",
    "https://private.example.com/hook",
    "https://rebind.example.com/hook",
    "https://metadata.example.com/",
    "https://mapped.example.com/",
    "https://unknown.example.com/hook",
    "http://hooks.example.com:99999/",
    # IPv6 addresses that carry a non-public IPv4 address, and site-local IPv6
    "http://[2002:7f00:1::]:18799/",
    "http://[2002:a9fe:a9fe::]/latest/meta-data/",
    "http://[2002:a00:1::]/",
    "http://[fec0::1]/",
    "http://[2606:4700::5efe:7f00:1]/",
    "https://sixtofour.example.com/",
]


def fake_resolve(host: str, port: int) -> list[str]:
    if host in DNS:
        return DNS[host]
    raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")


@pytest.fixture(autouse=True)
def table_dns(monkeypatch):
    monkeypatch.setattr(webhook_targets, "resolve", fake_resolve)


def body(url: str) -> dict:
    return {"game": "hidden-numbers", "seats": [{"name": "A"}, {"name": "B"}], "webhook_url": url}


@pytest.mark.parametrize("url", REFUSED)
def test_rest_refuses_a_webhook_url_into_the_cluster(api, url):
    response = api.client.post("/v1/games", json=body(url))
    assert response.status_code == 422, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    problem = response.json()
    assert problem["code"] == "webhook_url_not_allowed"
    assert "not allowed" in problem["detail"]


def test_the_refusal_says_why(api):
    detail = api.client.post("/v1/games", json=body("http://169.254.169.254/")).json()["detail"]
    assert "169.254.169.254 is a link-local address" in detail
    detail = api.client.post("/v1/games", json=body("http://redis:6379/")).json()["detail"]
    assert "single-label" in detail
    detail = api.client.post("/v1/games", json=body("https://rebind.example.com/")).json()["detail"]
    assert "resolves to 10.0.0.7 is a private address" in detail


@pytest.mark.parametrize(
    ("url", "internal"),
    [
        ("http://localhost:9000/hook", True),
        ("http://127.0.0.1:9000/hook", True),
        ("http://redis:6379/", True),
        ("ftp://example.com/hook", False),
    ],
)
def test_an_internal_target_names_the_setting_for_local_development(api, url, internal):
    """A developer pointing webhooks at their own machine learns how to allow it; a URL
    refused for another reason does not mention it."""
    detail = api.client.post("/v1/games", json=body(url)).json()["detail"]
    assert ("SKYPORT_WEBHOOK_ALLOW_PRIVATE=true" in detail) is internal, detail


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("http://[2002:7f00:1::]/", "6to4 address of 127.0.0.1, a loopback address"),
        ("http://[2002:a9fe:a9fe::]/", "6to4 address of 169.254.169.254, a link-local address"),
        ("http://[fec0::1]/", "fec0::1 is a site-local address"),
        (
            "http://[2001:0:5db8:d70e:0:ffff:80ff:fffe]/",
            "Teredo address of 127.0.0.1, a loopback address",
        ),
        (
            "http://[2001:0:7f00:1:0:ffff:a246:2b1f]/",
            "Teredo address with server 127.0.0.1, a loopback address",
        ),
        (
            "http://[2606:4700::200:5efe:a00:1]/",
            "ISATAP address of 10.0.0.1, a private address",
        ),
        ("https://sixtofour.example.com/", "resolves to 2002:7f00:1:: is a 6to4 address"),
    ],
)
def test_an_ipv6_address_is_refused_for_the_ipv4_address_it_carries(api, url, why):
    response = api.client.post("/v1/games", json=body(url))
    assert response.status_code == 422, response.text
    assert response.json()["code"] == "webhook_url_not_allowed"
    assert why in response.json()["detail"]


def test_6to4_is_judged_by_the_ipv4_address_it_carries(api):
    refused = api.client.post("/v1/games", json=body("http://[2002:7f00:1::]/hook"))
    assert refused.status_code == 422, refused.text
    public = api.client.post("/v1/games", json=body("http://[2002:5db8:d70e::1]/hook"))
    assert public.status_code == 201, public.text


@pytest.mark.parametrize("url", ["ftp://example.com/hook", "file:///etc/passwd", "gopher://x/"])
def test_only_http_and_https_urls_are_accepted(api, url):
    response = api.client.post("/v1/games", json=body(url))
    assert response.status_code == 422
    assert response.json()["errors"][0]["location"] == ["webhook_url"]


CREATE = """
mutation($input: CreateGameInput!) {
  createGame(input: $input) { __typename ... on Rejected { code message } }
}
"""


@pytest.mark.parametrize(
    "url", ["http://127.0.0.1:9/hook", "http://169.254.169.254/", "http://redis:6379/"]
)
def test_graphql_refuses_a_webhook_url_into_the_cluster(gql, url):
    graphql_body = {**body(url), "webhookUrl": url}
    del graphql_body["webhook_url"]
    result = gql.data(CREATE, {"input": graphql_body})["createGame"]
    assert result == {
        "__typename": "Rejected",
        "code": "webhook_url_not_allowed",
        "message": result["message"],
    }
    assert "not allowed" in result["message"]


@pytest.mark.parametrize(
    "url",
    [
        f"http://{PUBLIC}:8080/hook",
        "https://hooks.example.com/hook?x=1",
        "https://Hooks.Example.COM./h",
    ],
)
def test_public_hosts_are_accepted(api, url):
    response = api.client.post("/v1/games", json=body(url))
    assert response.status_code == 201, response.text


def test_allow_private_lets_local_development_use_loopback(settings, games):
    loose = settings.model_copy(update={"webhook_allow_private": True})
    with TestClient(create_app(loose, games)) as client:
        for url in ("http://127.0.0.1:9000/hook", "http://localhost:9000/", "http://redis:6379/"):
            response = client.post("/v1/games", json=body(url))
            assert response.status_code == 201, response.text
        assert client.post("/v1/games", json=body("ftp://127.0.0.1/")).status_code == 422


@pytest.mark.anyio
async def test_a_slow_dns_answer_is_refused_without_blocking_the_event_loop(monkeypatch):
    def slow_resolve(host: str, port: int) -> list[str]:
        time.sleep(1.0)
        return [PUBLIC]

    monkeypatch.setattr(webhook_targets, "resolve", slow_resolve)
    monkeypatch.setattr(webhook_targets, "RESOLVE_SECONDS", 0.3)
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    ticker = asyncio.create_task(tick())
    started = time.monotonic()
    with pytest.raises(Problem) as refused:
        await webhook_targets.check_webhook_url("https://slow.example.com/", allow_private=False)
    ticker.cancel()
    assert refused.value.code == "webhook_url_not_allowed"
    assert "cannot be resolved" in refused.value.detail
    assert time.monotonic() - started < 0.9, "refused at the time limit, not after the lookup"
    assert ticks >= 10, "the event loop kept running while DNS was asked"


# --- at delivery ----------------------------------------------------------------------


class Receiver:
    """An HTTP endpoint on 127.0.0.1 recording the Host header of each POST."""

    def __init__(self) -> None:
        self.hosts: list[str] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                self.rfile.read(int(self.headers["Content-Length"]))
                receiver.hosts.append(self.headers["Host"])
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args):
                return None

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_port
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver():
    made = Receiver()
    yield made
    made.close()


def hook(url: str) -> Webhook:
    return Webhook(event_id="g:1:move", event_type="move", url=url, payload={"id": "g:1:move"})


def test_delivery_refuses_a_host_that_now_resolves_to_a_private_address(receiver, monkeypatch):
    """Accepted at creation (public), rebound before delivery (loopback): nothing is sent."""
    answers = iter([[PUBLIC], ["127.0.0.1"]])
    monkeypatch.setattr(webhook_targets, "resolve", lambda host, port: next(answers))
    url = f"http://rebinding.example.com:{receiver.port}/hook"
    asyncio.run(webhook_targets.check_webhook_url(url, allow_private=False))
    with pytest.raises(DeliveryRefused, match="127.0.0.1 is a loopback address"):
        deliver(hook(url), "secret", timeout=2)
    assert receiver.hosts == []


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:{port}/hook",
        "http://localhost:{port}/",
        "http://[2002:7f00:1::]:{port}/hook",
        "http://[fec0::1]:{port}/hook",
    ],
)
def test_delivery_refuses_private_urls_without_the_setting(receiver, url):
    with pytest.raises(DeliveryRefused):
        deliver(hook(url.format(port=receiver.port)), "secret", timeout=2)
    assert receiver.hosts == []


def test_delivery_connects_to_the_address_it_checked(receiver, monkeypatch):
    """The host is resolved once; the POST goes to that address with the name in Host, so
    a second, different DNS answer is never used. (127.0.0.1 stands in for a public
    address here: the receiver has to listen somewhere this test can reach.)"""
    lookups: list[str] = []

    def resolve_then_rebind(host: str, port: int) -> list[str]:
        lookups.append(host)
        return ["127.0.0.1"] if len(lookups) == 1 else ["10.0.0.7"]

    real_refusal = webhook_targets.address_refusal
    monkeypatch.setattr(webhook_targets, "resolve", resolve_then_rebind)
    monkeypatch.setattr(
        webhook_targets,
        "address_refusal",
        lambda address: None if str(address) == "127.0.0.1" else real_refusal(address),
    )
    url = f"http://hooks.example.net:{receiver.port}/hook"
    assert deliver(hook(url), "secret", timeout=2) == 204
    assert lookups == ["hooks.example.net"]
    assert receiver.hosts == [f"hooks.example.net:{receiver.port}"]
