"""Names that never answer cannot jam the webhook URL check: a lookup holds its thread
until the resolver gives up, so each client may have only a few running, the pool is never
queued behind (a busy pool answers 503 at once), and a batch checks each of its few URLs
once. DNS is replaced here: "stuck" hosts block until the test lets them go."""

from __future__ import annotations

import asyncio
import threading

import pytest

from services.gameplay import webhook_targets
from services.gameplay.problems import Problem

PUBLIC = "93.184.215.14"
KEY = {"Authorization": "Bearer platform-key-for-tests-0001"}


class StuckDNS:
    """Hosts under stuck.example answer only once released; the rest at once."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.asked: list[str] = []

    def __call__(self, host: str, port: int) -> list[str]:
        self.asked.append(host)
        if host.endswith(".stuck.example"):
            self.release.wait(10)
        return [PUBLIC]


@pytest.fixture
def dns(monkeypatch):
    stuck = StuckDNS()
    monkeypatch.setattr(webhook_targets, "resolve", stuck)
    monkeypatch.setattr(webhook_targets, "RESOLVE_SECONDS", 0.2)
    monkeypatch.setattr(webhook_targets, "LOOKUP_THREADS", 3)
    yield stuck
    stuck.release.set()


async def check(url: str, client: str) -> None:
    await webhook_targets.check_webhook_url(url, allow_private=False, client=client)


async def refused(url: str, client: str) -> Problem:
    with pytest.raises(Problem) as caught:
        await check(url, client)
    return caught.value


async def wait_until_free() -> None:
    async with asyncio.timeout(5):
        while webhook_targets._running:
            await asyncio.sleep(0.01)


@pytest.mark.anyio
async def test_a_client_whose_lookups_hang_is_held_to_two_and_others_go_on(dns):
    for n in range(2):
        problem = await refused(f"https://h{n}.stuck.example/", "10.0.0.1")
        assert problem.code == "webhook_url_not_allowed" and "cannot be resolved" in problem.detail
    third = await refused("https://h2.stuck.example/", "10.0.0.1")
    assert third.status == 429 and third.code == "too_many_webhook_checks"
    assert third.headers["Retry-After"]
    await check("https://hooks.example.com/", "10.0.0.2")  # another client is not held up
    assert dns.asked.count("h2.stuck.example") == 0, "refused before any lookup"

    filler = await refused("https://h3.stuck.example/", "10.0.0.3")  # the pool's last thread
    assert filler.code == "webhook_url_not_allowed"
    busy = await refused("https://hooks.example.com/", "10.0.0.4")
    assert busy.status == 503 and busy.code == "webhook_check_busy"
    assert busy.headers["Retry-After"]

    dns.release.set()  # the resolver gives up at last: the threads are free again
    await wait_until_free()
    await check("https://hooks.example.com/", "10.0.0.1")
    await check("https://hooks.example.com/", "10.0.0.4")


def test_a_batch_checks_each_of_its_webhook_urls_once_and_names_few(api, dns):
    def spec(n: int, url: str) -> dict:
        return {
            "game": "hidden-numbers",
            "seats": [{"name": "A"}, {"name": "B"}],
            "webhook_url": url,
        }

    games = [spec(n, "https://hooks.example.com/h") for n in range(20)]
    created = api.client.post("/v1/games/bulk", json={"games": games}, headers=KEY)
    assert created.status_code == 201, created.text
    assert dns.asked == ["hooks.example.com"]

    many = [spec(n, f"https://hooks.example.com/h{n}") for n in range(5)]
    refused = api.client.post("/v1/games/bulk", json={"games": many}, headers=KEY)
    assert refused.status_code == 422 and refused.json()["code"] == "too_many_webhook_urls"
    assert refused.json()["limit"] == 4
