"""Helpers for running real Celery workers (`skyport worker` subprocesses) against real Redis.

Every worker test gets its own key prefix and its own Celery queue, and the broker lives
in a Redis database of its own (index 12), so workers of different tests (or other test
sessions) never take each other's tasks.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import redis as sync_redis

from services.gameplay.settings import Settings

SKYPORT = str(Path(sys.executable).parent / "skyport")
BROKER_DB = 12
PLATFORM_KEY = "platform-key-for-worker-tests"
FINAL = ("finished", "aborted")


@dataclass
class WorkerSetup:
    """The settings the API under test and its workers share."""

    settings: Settings
    logs: Path
    workers: list[subprocess.Popen] = field(default_factory=list)

    def env(self, **overrides: Any) -> dict[str, str]:
        """The environment of a worker with these settings (plus `overrides`)."""
        values = {
            "redis_url": self.settings.redis_url,
            "broker_url": self.settings.broker_url,
            "key_prefix": self.settings.key_prefix,
            "task_queue": self.settings.task_queue,
            "task_visibility_timeout": self.settings.task_visibility_timeout,
            "task_max_deliveries": self.settings.task_max_deliveries,
            "bot_mcts_seconds": self.settings.bot_mcts_seconds,
            "bot_mcts_iterations": self.settings.bot_mcts_iterations,
            "worker_concurrency": self.settings.worker_concurrency,
            "clock_sweep_seconds": self.settings.clock_sweep_seconds,
            "task_stall_seconds": self.settings.task_stall_seconds,
            "task_retry_seconds": self.settings.task_retry_seconds,
            "webhook_secret": secret.get_secret_value()
            if (secret := self.settings.webhook_secret)
            else None,
            "webhook_max_retries": self.settings.webhook_max_retries,
            "webhook_backoff_seconds": self.settings.webhook_backoff_seconds,
            "webhook_backoff_max": self.settings.webhook_backoff_max,
            "log_level": "info",
            **overrides,
        }
        env = {k: v for k, v in os.environ.items() if not k.startswith("SKYPORT_")}
        env.update(
            {
                f"SKYPORT_{name.upper()}": str(value)
                for name, value in values.items()
                if value is not None
            }
        )
        return env

    def start_worker(
        self, *args: str, wait: bool = True, as_shipped: bool = False, **overrides: Any
    ) -> subprocess.Popen:
        """A `skyport worker [args]` in a process group of its own, ready to take tasks
        (or only started, with `wait=False`). Without the sweep unless `args` ask for it
        (`--beat`), so that a test of tasks alone sees no turn sent again behind its back;
        `as_shipped` leaves the command's own default (the sweep on)."""
        if not as_shipped and "--beat" not in args:
            args = ("--no-beat", *args)
        log = self.logs / f"worker-{len(self.workers)}.log"
        with log.open("wb") as sink:
            process = subprocess.Popen(
                [SKYPORT, "worker", *args],
                env=self.env(**overrides),
                stdout=sink,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        process.log = log  # type: ignore[attr-defined]
        self.workers.append(process)
        if not wait:
            return process
        deadline = time.monotonic() + 60
        while b" ready." not in log.read_bytes():
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"the worker did not start:\n{worker_output(process)}")
            time.sleep(0.1)
        return process

    def broker(self) -> sync_redis.Redis:
        return sync_redis.Redis.from_url(self.settings.broker_url or "")

    def store(self) -> sync_redis.Redis:
        return sync_redis.Redis.from_url(self.settings.redis_url or "", decode_responses=True)


def worker_output(process: subprocess.Popen) -> str:
    return process.log.read_text(errors="replace")[-6000:]  # type: ignore[attr-defined]


def kill_hard(process: subprocess.Popen) -> None:
    """SIGKILL the worker and its pool processes (its whole process group)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=10)


def stop_warm(process: subprocess.Popen, seconds: float = 30) -> int:
    process.send_signal(signal.SIGTERM)
    return process.wait(timeout=seconds)


def wait_for(check: Callable[[], Any], timeout: float, what: str, interval: float = 0.05) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout}s waiting for {what}")
        time.sleep(interval)


class WebhookReceiver:
    """A local HTTP server that records every POST; it answers 500 to the first
    `fail_first` attempts of each event id (all of them when `fail_first` is None)."""

    def __init__(self, fail_first: int | None = 1) -> None:
        import http.server
        import threading

        self.fail_first = fail_first
        self.received: list[tuple[dict[str, str], bytes, int]] = []
        self._lock = threading.Lock()
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                headers = {key.lower(): value for key, value in self.headers.items()}
                with receiver._lock:
                    event_id = headers.get("skyport-event-id", "")
                    tries = sum(
                        1 for h, _, _ in receiver.received if h.get("skyport-event-id") == event_id
                    )
                    failing = receiver.fail_first is None or tries < receiver.fail_first
                    status = 500 if failing else 200
                    receiver.received.append((headers, body, status))
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/hooks"

    def __enter__(self) -> WebhookReceiver:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    def attempts(self, event_id: str) -> list[tuple[dict[str, str], bytes, int]]:
        with self._lock:
            return [r for r in self.received if r[0].get("skyport-event-id") == event_id]

    def delivered(self) -> dict[str, tuple[dict[str, str], bytes]]:
        """Event id -> the first accepted (2xx) delivery."""
        with self._lock:
            out: dict[str, tuple[dict[str, str], bytes]] = {}
            for headers, body, status in self.received:
                if status < 300:
                    out.setdefault(headers.get("skyport-event-id", ""), (headers, body))
            return out


# --- the processes of a supervised worker -----------------------------------------------


def children(pid: int) -> list[int]:
    """The live child processes of `pid` (from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(entry.name))
    return sorted(found)


def celery_main(process: subprocess.Popen) -> int | None:
    """The Celery worker that `skyport worker` (the supervisor, `process`) runs now."""
    found = children(process.pid)
    return found[0] if found else None


def pool_processes(setup: WorkerSetup, node: str) -> list[int]:
    """The pids of the pool of worker `node` (asked over the broker; [] if no answer)."""
    from workers.celery_app import make_celery

    celery = make_celery(setup.settings)
    try:
        stats = celery.control.inspect(destination=[node], timeout=1.0).stats() or {}
    except Exception:  # the broker is down or the worker restarting: no answer
        return []
    finally:
        celery.close()
    return list(stats.get(node, {}).get("pool", {}).get("processes", []))
