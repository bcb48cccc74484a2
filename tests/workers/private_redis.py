"""A redis-server of a test's own, on a free port, that the test may restart or kill.

Append-only file on (fsync every second), as in production, so a restart keeps the data.
Never the shared Redis: tests that restart Redis use only this.
"""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _reachable(port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.3):
        return True
    return False


class PrivateRedis:
    def __init__(self, workdir: Path) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.skip("no redis-server on PATH to start a private Redis")
        self.binary = binary
        self.workdir = workdir
        self.port = _free_port()
        self.process: subprocess.Popen | None = None

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                self.binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "yes",
                "--appendfsync",
                "everysec",
                "--dir",
                str(self.workdir),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 15
        while not self._answers():
            if self.process.poll() is not None or time.monotonic() > deadline:
                pytest.fail("the private redis-server did not start")
            time.sleep(0.05)

    def _answers(self) -> bool:
        import redis

        if not _reachable(self.port):
            return False
        client = redis.Redis(port=self.port, socket_timeout=1)
        try:
            return bool(client.ping())
        except redis.RedisError:  # still loading the append-only file
            return False
        finally:
            client.close()

    def stop(self) -> None:
        """A clean stop: SIGTERM (Redis flushes its append-only file first)."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=20)

    def restart(self, down_seconds: float = 1.0) -> None:
        self.stop()
        time.sleep(down_seconds)
        self.start()
