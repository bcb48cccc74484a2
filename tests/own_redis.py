"""A redis-server of a test's own, on a free loopback port, that the test may stop or
reconfigure (make it a replica, fill it) without touching the shared one."""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis


class OwnRedis:
    """A redis-server on a free loopback port that a test may stop, and start again."""

    def __init__(self, workdir: Path) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.skip("no redis-server on PATH")
        self.binary = binary
        self.workdir = workdir
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            self.port = sock.getsockname()[1]
        self.start()

    def start(self) -> None:
        """Start the server (again, on the same port: with the data a `stop(save=True)` kept)."""
        self.process = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
            + ["--appendonly", "no", "--dir", str(self.workdir)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while not self._answers():
            if time.monotonic() > deadline or self.process.poll() is not None:
                pytest.fail("redis-server did not start")
            time.sleep(0.05)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def _answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.3):
                return True
        except OSError:
            return False

    def stop(self, *, save: bool = False) -> None:
        """Stop the server; with `save`, its data is written first, for `start` to load."""
        if self.process.poll() is None:
            if save:
                with redis.Redis(port=self.port) as client:
                    client.save()
            self.process.terminate()
            self.process.wait(timeout=10)


@pytest.fixture
def own_redis() -> Iterator[OwnRedis]:
    with tempfile.TemporaryDirectory(prefix="skyport-own-redis-") as workdir:
        server = OwnRedis(Path(workdir))
        try:
            yield server
        finally:
            server.stop()
