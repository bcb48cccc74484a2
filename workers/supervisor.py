"""`skyport worker` supervises its Celery worker: it runs it as a child process and starts
it again whenever it exits without having been asked to.

Why: when Redis restarts, kombu sometimes gives up while it puts unacknowledged messages
back (`Unrecoverable error: AttributeError("'NoneType' object has no attribute
'hostname'")`, raised from the Redis transport once its connection is gone) and the
Celery worker exits with status 0, as if it had been stopped. A worker killed outright
(SIGKILL, the OOM killer) is replaced the same way. Nothing is lost meanwhile: tasks are
acknowledged late, so whatever the dead worker held goes back to the queue.

Signals asking it to stop (SIGTERM, SIGQUIT) are passed on to the worker, and the
supervisor then exits with the worker's status. SIGINT (Ctrl-C) reaches the worker from
the terminal already, so it only stops the supervision. On Linux the worker also dies with
its supervisor, so no worker is left behind without one.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import structlog

log = structlog.get_logger(__name__)

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGQUIT)

RESTART_DELAYS = (0.2, 1.0, 2.0, 4.0)
"""Pause before each restart in a row (a worker that cannot start is not hammered); one
that ran HEALTHY_SECONDS starts the count again. Short: a recovery waits for it."""
HEALTHY_SECONDS = 30.0


def die_with_parent() -> None:
    """This process gets SIGTERM when its parent dies (Linux only): the Celery worker when
    its supervisor dies, and the embedded beat when its Celery worker dies, so none is left
    running without the process that watches it."""
    if sys.platform.startswith("linux"):
        import ctypes

        pr_set_pdeathsig = 1
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGTERM)


def supervise_worker(command: list[str], env_overrides: dict[str, str]) -> int:
    """Run `command` until a stop signal arrives; returns its last exit status."""
    env = {**os.environ, **env_overrides}
    stopping: list[int] = []
    child: subprocess.Popen | None = None

    def forward(signum: int, _frame: object) -> None:
        stopping.append(signum)
        if signum != signal.SIGINT and child is not None and child.poll() is None:
            child.send_signal(signum)

    for signum in STOP_SIGNALS:
        signal.signal(signum, forward)
    restarts = 0
    while True:
        started = time.monotonic()
        child = subprocess.Popen(command, env=env, preexec_fn=die_with_parent)
        status = _wait(child)
        if status < 0:  # killed by a signal: the shell's convention
            status = 128 - status
        if stopping:
            return status
        if time.monotonic() - started >= HEALTHY_SECONDS:
            restarts = 0
        delay = RESTART_DELAYS[min(restarts, len(RESTART_DELAYS) - 1)]
        restarts += 1
        log.error("worker_restarted", status=status, pid=child.pid, restarts=restarts, delay=delay)
        deadline = time.monotonic() + delay
        while not stopping and time.monotonic() < deadline:
            time.sleep(0.05)
        if stopping:
            return status


def _wait(child: subprocess.Popen) -> int:
    """The child's exit status, waiting through the signals the supervisor handles."""
    while True:
        try:
            return child.wait()
        except InterruptedError:  # pragma: no cover - PEP 475 retries wait() for us
            continue
