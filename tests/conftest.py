"""Shared fixtures: a real Redis server, a unique key prefix per run, a small test game
with hidden hands, the real ASGI app (Starlette TestClient) with REST and GraphQL
drivers, and a real uvicorn server for tests that need sockets.

Redis: SKYPORT_TEST_REDIS_URL if set, else 127.0.0.1:6379 if reachable, else a
`redis-server` started for the session on a free port in a temporary directory
(SKYPORT_TEST_REDIS_URL=start forces that).
Every key the tests write starts with a prefix unique to the run, and only those keys
are deleted afterwards.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import pytest
import redis as sync_redis
from hidden_numbers import HIDDEN_NUMBERS, HiddenNumbers

from services.api.app import create_app
from services.engine import (
    Game,
    Seat,
    all_games,
)
from services.gameplay.settings import Settings


def pytest_configure(config: pytest.Config) -> None:
    # Starlette's TestClient asks for httpx2; the pinned httpx works the same for us.
    config.addinivalue_line(
        "filterwarnings", "ignore::starlette.exceptions.StarletteDeprecationWarning"
    )


if TYPE_CHECKING:
    from starlette.testclient import TestClient


# --- Redis ---------------------------------------------------------------------------


def _reachable(host: str, port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection((host, port), timeout=0.3):
        return True
    return False


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    configured = os.environ.get("SKYPORT_TEST_REDIS_URL")
    if configured and configured != "start":
        yield configured
        return
    if configured != "start" and _reachable("127.0.0.1", 6379):
        yield "redis://127.0.0.1:6379/0"
        return
    yield from _private_redis_server()


def _private_redis_server() -> Iterator[str]:
    """A redis-server of our own on a free port, in a temporary directory."""
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.fail("no Redis reachable and no redis-server on PATH to start one")
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="skyport-redis-") as workdir:
        process = subprocess.Popen(
            [
                binary,
                "--port",
                str(port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                workdir,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            deadline = time.monotonic() + 10
            while not _reachable("127.0.0.1", port):
                if time.monotonic() > deadline or process.poll() is not None:
                    pytest.fail("redis-server did not start")
                time.sleep(0.05)
            yield f"redis://127.0.0.1:{port}/0"
        finally:
            process.terminate()
            process.wait(timeout=10)


@pytest.fixture(scope="session")
def run_prefix(redis_url: str) -> Iterator[str]:
    """A key prefix unique to this test run; its keys are deleted at the end."""
    prefix = f"skyport-test-{uuid.uuid4().hex[:10]}"
    yield prefix
    client = sync_redis.Redis.from_url(redis_url)
    try:
        batch = []
        for key in client.scan_iter(match=f"{prefix}*", count=1000):
            batch.append(key)
            if len(batch) >= 500:
                client.delete(*batch)
                batch.clear()
        if batch:
            client.delete(*batch)
    finally:
        client.close()


@pytest.fixture
def key_prefix(run_prefix: str) -> str:
    """A prefix unique to one test (under the run's prefix)."""
    return f"{run_prefix}-{uuid.uuid4().hex[:8]}"


@pytest.fixture(autouse=True)
def mid_window_rate_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rate limits count in fixed 60-second windows, and game creation in hour-long ones; a
    test that crossed a window's edge would see its count reset. Every in-process app
    counts 30 s into a minute and 30 min 30 s into an hour."""
    from services.store import counters

    monkeypatch.setattr(counters, "clock", lambda: 1_800_001_830.0)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="session")
def hidden_numbers() -> HiddenNumbers:
    return HIDDEN_NUMBERS


@pytest.fixture(scope="session")
def games() -> dict[str, Game]:
    """The games the test apps serve: every registered game plus Hidden Numbers."""
    return {**{g.id: g for g in all_games()}, HIDDEN_NUMBERS.id: HIDDEN_NUMBERS}


def secret_cards(game: HiddenNumbers, state_json: str, seat: Seat) -> set[str]:
    """What only `seat` may know now: its hand and its discard."""
    state = game.load_state(state_json)
    secrets = set(state.hands[seat])
    if state.discards[seat] is not None:
        secrets.add(state.discards[seat])
    return secrets


@pytest.fixture(scope="session")
def hidden_cards_of():
    return secret_cards


# --- a real server ---------------------------------------------------------------------


class ServerThread:
    """uvicorn serving an ASGI app on a free loopback port, in a background thread."""

    def __init__(self, app: Any, **options: Any) -> None:
        import uvicorn

        self.port = free_port()
        config = uvicorn.Config(
            app,
            host="127.0.0.1",
            port=self.port,
            **{
                "log_level": "warning",
                "lifespan": "on",
                "ws": "websockets-sansio",
                "timeout_graceful_shutdown": 5,  # as in `skyport serve`: a stop is bounded
                **options,
            },
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> ServerThread:
        self.thread.start()
        deadline = time.monotonic() + 15
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=15)


@pytest.fixture(scope="session")
def serve():
    """serve(app, **uvicorn_options) -> context manager running it under uvicorn; yields
    the ServerThread."""
    return ServerThread


# --- the app under test ----------------------------------------------------------------

PLATFORM_KEY = "platform-key-for-tests-0001"
OTHER_PLATFORM_KEY = "platform-key-for-tests-0002"
"""Another platform's key: it must neither list nor read in full PLATFORM_KEY's games."""


@pytest.fixture
def settings(redis_url: str, key_prefix: str) -> Settings:
    return Settings(
        redis_url=redis_url,
        key_prefix=key_prefix,
        api_keys=f"{PLATFORM_KEY},{OTHER_PLATFORM_KEY}",
        rate_limit_per_ip=0,
        create_limit_per_ip=0,
        rate_limit_per_token=0,
        stream_keepalive=0.5,
        log_level="warning",
        tasks="inprocess",
    )


class Crash(Exception):
    """The replica dies here: the change is stored, nothing after it runs."""


def crash(*args, **kwargs):
    raise Crash


class Driver:
    """Thin helpers over the REST API, so tests read like the rules they check."""

    platform_key = PLATFORM_KEY
    other_platform_key = OTHER_PLATFORM_KEY

    def __init__(self, client: TestClient) -> None:
        self.client = client

    @staticmethod
    def auth(token: str | None) -> dict[str, str]:
        return {"Authorization": f"Bearer {token}"} if token else {}

    def create(
        self,
        game: str = "hidden-numbers",
        seats: list[dict[str, Any]] | int = 2,
        *,
        options: dict[str, Any] | None = None,
        seed: int | None = 11,
        headers: dict[str, str] | None = None,
        **extra: Any,
    ) -> dict[str, Any]:
        if isinstance(seats, int):
            seats = [{"name": f"Player {n}"} for n in range(seats)]
        body: dict[str, Any] = {"game": game, "seats": seats, "options": options or {}, **extra}
        if seed is not None:
            body["seed"] = seed
        response = self.client.post("/v1/games", json=body, headers=headers or {})
        assert response.status_code == 201, response.text
        return response.json()

    def game(self, game_id: str, token: str | None = None) -> dict[str, Any]:
        response = self.client.get(f"/v1/games/{game_id}", headers=self.auth(token))
        assert response.status_code == 200, response.text
        return response.json()

    def legal(self, game_id: str, token: str) -> list[dict[str, Any]]:
        response = self.client.get(f"/v1/games/{game_id}/legal-moves", headers=self.auth(token))
        assert response.status_code == 200, response.text
        return response.json()["moves"]

    def move(self, game_id: str, token: str, move: dict[str, Any], **body: Any):
        return self.client.post(
            f"/v1/games/{game_id}/moves",
            json={"move": move, **body},
            headers=self.auth(token),
        )

    def events(self, game_id: str, token: str | None = None, since: int = 0) -> dict[str, Any]:
        response = self.client.get(
            f"/v1/games/{game_id}/events", params={"since": since}, headers=self.auth(token)
        )
        assert response.status_code == 200, response.text
        return response.json()

    def wait_until(
        self, game_id: str, done: Callable[[dict[str, Any]], bool], timeout: float = 20
    ) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            document = self.game(game_id)
            if done(document):
                return document
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out; last status {document['status']}")
            time.sleep(0.01)

    def play_out(self, created: dict[str, Any], pick: Callable[[list], dict] | None = None) -> int:
        """Play every human seat with its first (or picked) legal move until the game
        ends. Returns the number of moves the test made."""
        tokens = {seat["seat"]: seat["token"] for seat in created["seats"] if seat["token"]}
        made = 0
        while True:
            document = self.wait_until(
                created["id"],
                lambda d: d["status"] != "active" or any(s in tokens for s in d["turn"]),
            )
            if document["status"] != "active":
                return made
            seat = next(s for s in document["turn"] if s in tokens)
            moves = self.legal(created["id"], tokens[seat])
            chosen = pick(moves) if pick else moves[0]
            response = self.move(created["id"], tokens[seat], chosen)
            if response.status_code == 409:
                continue
            assert response.status_code == 200, response.text
            made += 1


@pytest.fixture
def client(settings: Settings, games) -> Iterator[TestClient]:
    from starlette.testclient import TestClient  # imported late: see the warning filter

    with TestClient(create_app(settings, games)) as test_client:
        yield test_client


@pytest.fixture
def api(client: TestClient) -> Driver:
    return Driver(client)


class GraphQLDriver:
    """POSTs GraphQL documents to /graphql of the test app."""

    def __init__(self, client: TestClient) -> None:
        self.client = client

    def __call__(
        self, query: str, variables: dict[str, Any] | None = None, token: str | None = None
    ) -> dict[str, Any]:
        response = self.client.post(
            "/graphql",
            json={"query": query, "variables": variables or {}},
            headers={"Authorization": f"Bearer {token}"} if token else {},
        )
        assert response.status_code == 200, response.text
        return response.json()

    def data(
        self, query: str, variables: dict[str, Any] | None = None, token: str | None = None
    ) -> dict[str, Any]:
        answer = self(query, variables, token)
        assert not answer.get("errors"), answer["errors"]
        return answer["data"]


@pytest.fixture
def gql(client: TestClient) -> GraphQLDriver:
    return GraphQLDriver(client)
