"""Workers survive Redis restarts and their own Celery process dying.

`skyport worker` supervises its Celery worker and starts it again when it exits without
having been asked to: kombu sometimes gives up while restoring unacknowledged messages
after a Redis restart (`Unrecoverable error: AttributeError("'NoneType' object has no
attribute 'hostname'")`) and the worker exits with status 0. Tested over a Redis of the
test's own (append-only), never the shared one.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import redis as sync_redis
from starlette.testclient import TestClient
from worker_harness import (
    FINAL,
    PLATFORM_KEY,
    WorkerSetup,
    celery_main,
    stop_warm,
    wait_for,
    worker_output,
)

from services.api.app import create_app

pytestmark = pytest.mark.timeout(240)

ALL_BOTS = [{"name": "A", "bot": "random"}, {"name": "B", "bot": "greedy"}]


@contextmanager
def api(setup: WorkerSetup) -> Iterator[TestClient]:
    with TestClient(create_app(setup.settings)) as client:
        yield client


def create(client: TestClient, seed: int, **body: Any) -> str:
    """Creates a game, retried (with an idempotency key) as a client would while the API's
    pooled Redis connections, closed by the restart, fail once each."""
    headers = {"Authorization": f"Bearer {PLATFORM_KEY}", "Idempotency-Key": f"create-{seed}"}
    for _ in range(20):
        try:
            response = client.post(
                "/v1/games",
                json={"game": "sky-islands", "seats": ALL_BOTS, "seed": seed, **body},
                headers=headers,
            )
        except sync_redis.ConnectionError:
            continue  # the test client re-raises the API's unhandled errors
        if response.status_code < 500:
            break
    assert response.status_code == 201, response.text
    return response.json()["id"]


def stored(setup: WorkerSetup, game_id: str) -> tuple[int, str] | None:
    """(version, status) from Redis; None while Redis is unreachable."""
    store = setup.store()
    try:
        version, status = store.hmget(
            f"{setup.settings.key_prefix}:{{{game_id}}}:game", "version", "status"
        )
        return int(version), status
    except sync_redis.ConnectionError:
        return None
    finally:
        store.close()


def ended(setup: WorkerSetup, game_id: str) -> bool:
    now = stored(setup, game_id)
    return now is not None and now[1] in FINAL


def orphans(worker: Any) -> list[int]:
    """Processes of the worker's process group whose parent died (adopted by init)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        state, ppid, pgid = stat[stat.rindex(")") + 2 :].split()[:3]
        if int(pgid) == worker.pid and int(ppid) == 1 and state != "Z":
            found.append(int(entry.name))
    return found


def full_log(process: Any) -> str:
    return process.log.read_text(errors="replace")


def log_ids(setup: WorkerSetup, game_id: str) -> list[str]:
    store = setup.store()
    try:
        entries = store.xrange(f"{setup.settings.key_prefix}:{{{game_id}}}:log")
    finally:
        store.close()
    return [entry_id for entry_id, _ in entries]


def test_a_worker_whose_celery_process_dies_is_started_again(worker_setup) -> None:
    """SIGKILL, and an exit with status 0 that nobody asked for (what kombu's unrecoverable
    error does): both times the worker comes back and takes tasks; SIGTERM to
    `skyport worker` still stops it warmly, with status 0."""
    setup = worker_setup()
    worker = setup.start_worker("--beat")
    with api(setup) as client:
        for how in (signal.SIGKILL, signal.SIGTERM):
            main = celery_main(worker)
            assert main is not None
            os.kill(main, how)
            wait_for(lambda main=main: celery_main(worker) not in (None, main), 30, "a new worker")
            wait_for(lambda: not orphans(worker), 15, "nothing left behind by the old worker")
            assert worker.poll() is None, worker_output(worker)
            game_id = create(client, seed=int(how))
            wait_for(lambda game_id=game_id: ended(setup, game_id), 60, "a game played by it")
            assert stored(setup, game_id)[1] == "finished"
        assert full_log(worker).count("worker_restarted") == 2
    assert stop_warm(worker) == 0, worker_output(worker)


def test_workers_keep_working_across_redis_restarts(private_redis, private_worker_setup) -> None:
    setup = private_worker_setup()
    workers = [
        setup.start_worker("--beat", "--hostname=one@%h"),
        setup.start_worker("--beat", "--hostname=two@%h"),
    ]
    with api(setup) as client:
        games = [create(client, seed) for seed in range(3)]
        for _ in range(3):
            time.sleep(1.5)
            private_redis.restart(down_seconds=2)
        restarted_at = time.monotonic()
        for process in workers:
            assert process.poll() is None, worker_output(process)
        wait_for(lambda: all(ended(setup, g) for g in games), 120, "the games to end")
        recovered = time.monotonic() - restarted_at
        late = create(client, seed=9)
        wait_for(lambda: ended(setup, late), 60, "a game created after the restarts")
        for game_id in [*games, late]:
            version, status = stored(setup, game_id)
            assert status == "finished"
            assert log_ids(setup, game_id) == [f"{v}-0" for v in range(1, version + 1)]
    outputs = [full_log(process) for process in workers]
    print(
        f"games ended {recovered:.1f}s after the last restart; "
        f"unrecoverable errors: {sum(o.count('Unrecoverable error') for o in outputs)}, "
        f"worker restarts: {sum(o.count('worker_restarted') for o in outputs)}"
    )
    for process in workers:
        assert process.poll() is None, worker_output(process)
