"""After a failover the API follows the store's address to the new primary. The old
primary, now a replica, answers every write READONLY; the connections the pool holds to it
must not keep the service refusing moves (503) once the address leads elsewhere. Two
redis-servers of the test's own behind a TCP relay play the address that moves."""

from __future__ import annotations

import contextlib
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from own_redis import OwnRedis
from starlette.testclient import TestClient

from services.api.app import create_app
from services.gameplay.settings import Settings

pytestmark = pytest.mark.timeout(120)

PLATFORM_KEY = "platform-key-for-failover-tests"
AUTH = {"Authorization": f"Bearer {PLATFORM_KEY}"}


class Relay:
    """The store's address: each new connection goes to the port `target` names then,
    and a connection already made stays with the server it reached."""

    def __init__(self, target: int) -> None:
        self.target = target
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        self._closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            server = socket.create_connection(("127.0.0.1", self.target))
            for source, sink in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        try:
            while chunk := source.recv(65536):
                sink.sendall(chunk)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                with contextlib.suppress(OSError):
                    end.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        self._closed = True
        self._listener.close()


@pytest.fixture
def two_redis() -> Iterator[tuple[OwnRedis, OwnRedis]]:
    with tempfile.TemporaryDirectory(prefix="skyport-failover-") as workdir:
        for name in ("a", "b"):
            (Path(workdir) / name).mkdir()
        first = OwnRedis(Path(workdir) / "a")
        second = OwnRedis(Path(workdir) / "b")
        try:
            yield first, second
        finally:
            first.stop()
            second.stop()


def fail_over(old: OwnRedis, new: OwnRedis) -> None:
    """`new` takes `old`'s data and becomes the primary; `old` becomes its replica."""
    promoted = redis.Redis(port=new.port)
    promoted.replicaof("127.0.0.1", old.port)
    deadline = time.monotonic() + 20
    while promoted.info("replication").get("master_link_status") != "up":
        assert time.monotonic() < deadline, "the new primary never synced"
        time.sleep(0.05)
    promoted.replicaof("no", "one")
    redis.Redis(port=old.port).replicaof("127.0.0.1", new.port)


def test_moves_go_to_the_new_primary_once_the_address_points_to_it(two_redis, games):
    old, new = two_redis
    relay = Relay(old.port)
    settings = Settings(
        redis_url=f"redis://127.0.0.1:{relay.port}/0",
        key_prefix="skyport-failover",
        api_keys=PLATFORM_KEY,
        redis_pool_timeout=1.0,
        log_level="warning",
        tasks="inprocess",
    )
    try:
        with TestClient(create_app(settings, games), raise_server_exceptions=False) as client:
            body = {"game": "hidden-numbers", "seats": [{"name": "A"}, {"name": "B"}]}
            created = client.post("/v1/games", json=body, headers=AUTH).json()
            seat = {"Authorization": f"Bearer {created['seats'][0]['token']}"}
            moves = client.get(f"/v1/games/{created['id']}/legal-moves", headers=seat).json()

            fail_over(old, new)
            relay.target = new.port

            moved = client.post(
                f"/v1/games/{created['id']}/moves", json={"move": moves["moves"][0]}, headers=seat
            )
            assert moved.status_code == 200, moved.text
            assert moved.json()["version"] == 1
            assert client.post("/v1/games", json=body, headers=AUTH).status_code == 201
            assert client.get("/readyz").status_code == 200
        stored = redis.Redis(port=new.port, decode_responses=True)
        assert stored.keys(f"skyport-failover:*{created['id']}*"), "the move is on the new primary"
    finally:
        relay.close()
