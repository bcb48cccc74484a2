"""The commands the image runs, run here as subprocesses: `skyport serve` with the image's
CMD, the image's HEALTHCHECK against it, SIGTERM and a clean exit; `skyport worker` with
the Kubernetes liveness probe against it; and the builder stage itself - a clean virtualenv,
the pinned dependencies, the project wheel - serving from outside the source tree."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from skyport_deploy import (
    BASE,
    REPO,
    by_kind,
    dockerfile_instructions,
    exec_form,
    healthcheck_command,
    image_env,
    pod_spec,
    render,
)

BIN = Path(sys.executable).parent
SKYPORT = str(BIN / "skyport")
IMAGE_CMD = exec_form(dict(dockerfile_instructions())["CMD"])
STOP_SECONDS = 15  # SIGTERM to exit, with no client connected


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def clean_env(**extra: str) -> dict[str, str]:
    """The environment of a fresh container: no SKYPORT_ settings but the image's own, and
    no PYTHONPATH (a developer's would import the sources instead of what was installed)."""
    env = {
        k: v for k, v in os.environ.items() if not k.startswith("SKYPORT_") and k != "PYTHONPATH"
    }
    env.update({k: v for k, v in image_env().items() if k.startswith(("SKYPORT_", "PYTHON"))})
    env.update(extra)
    return env


def command_for(port: int) -> list[str]:
    """The image's CMD, bound to loopback on a free port instead of 0.0.0.0:8000."""
    command = list(IMAGE_CMD)
    command[command.index("--host") + 1] = "127.0.0.1"
    command[command.index("--port") + 1] = str(port)
    return command


def get(url: str, timeout: float = 3.0) -> tuple[int, bytes, str]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as answer:
            return answer.status, answer.read(), answer.headers.get("content-type", "")
    except urllib.error.HTTPError as error:
        return error.code, error.read(), error.headers.get("content-type", "")


@contextmanager
def running(argv: list[str], env: dict[str, str], cwd: Path) -> Iterator[subprocess.Popen]:
    """A process whose output goes to a file; killed at the end if it is still alive."""
    log = cwd / f"{Path(argv[0]).name}-{os.getpid()}-{time.monotonic_ns()}.log"
    with log.open("wb") as sink:
        process = subprocess.Popen(argv, env=env, cwd=cwd, stdout=sink, stderr=subprocess.STDOUT)
    process.log = log  # type: ignore[attr-defined]
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=10)


def output(process: subprocess.Popen) -> str:
    return process.log.read_text(errors="replace")[-4000:]  # type: ignore[attr-defined]


def wait_for_healthz(process: subprocess.Popen, base: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"the server exited with {process.returncode}:\n{output(process)}")
        try:
            if get(f"{base}/healthz", timeout=1)[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.1)
    pytest.fail(f"/healthz did not answer 200 within {timeout}s:\n{output(process)}")


def run_healthcheck(python: str, url: str) -> subprocess.CompletedProcess:
    """The image's HEALTHCHECK command, as Docker runs it (with the image's interpreter)."""
    _, command = healthcheck_command()
    assert command[0] == "python"
    return subprocess.run(
        [python, *command[1:]],
        env=clean_env(HEALTHCHECK_URL=url),
        capture_output=True,
        text=True,
        timeout=30,
    )


def stop(process: subprocess.Popen, seconds: float = STOP_SECONDS) -> int:
    started = time.monotonic()
    process.send_signal(signal.SIGTERM)
    try:
        code = process.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        pytest.fail(f"still running {seconds}s after SIGTERM:\n{output(process)}")
    assert time.monotonic() - started < seconds
    return code


# --- the console script --------------------------------------------------------------


def test_skyport_help_lists_serve_and_worker() -> None:
    out = subprocess.run([SKYPORT, "--help"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "serve" in out.stdout


def test_serve_help_names_the_options_the_image_passes() -> None:
    out = subprocess.run([SKYPORT, "serve", "--help"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    for option in IMAGE_CMD[1:]:
        if option.startswith("--"):
            assert option in out.stdout


def test_worker_help() -> None:
    out = subprocess.run([SKYPORT, "worker", "--help"], capture_output=True, text=True, timeout=60)
    if out.returncode != 0 and "No such command" in out.stdout + out.stderr:
        pytest.skip("`skyport worker` does not exist yet")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "--no-beat" in out.stdout  # the sweep is on unless turned off


# --- skyport serve, as the container runs it -------------------------------------------------


def test_image_command_serves_health_and_stops_cleanly_on_sigterm(tmp_path: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = clean_env()  # no SKYPORT_REDIS_URL: the embedded store
    with running([SKYPORT, *command_for(port)], env, tmp_path) as server:
        wait_for_healthz(server, base)
        assert get(f"{base}/readyz")[0] == 200
        status, body, content_type = get(f"{base}/metrics")
        assert status == 200 and content_type.startswith("text/plain")
        assert b"skyport_http_requests_total" in body

        check = run_healthcheck(sys.executable, f"{base}/healthz")
        assert check.returncode == 0, check.stderr

        assert stop(server) == 0, output(server)
    # The same health check now reports the container unhealthy.
    assert run_healthcheck(sys.executable, f"{base}/healthz").returncode != 0


def test_image_command_logs_json_lines(tmp_path: Path) -> None:
    """The image sets SKYPORT_LOG_JSON=true: what the server prints is one JSON object a line."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with running([SKYPORT, *command_for(port)], clean_env(), tmp_path) as server:
        wait_for_healthz(server, base)
        get(f"{base}/v1/games/no-such-game")
        assert stop(server) == 0
    lines = [line for line in output(server).splitlines() if line.strip()]
    assert lines, "the server logged nothing"
    for line in lines:
        record = json.loads(line)
        assert isinstance(record, dict), line


def create_game(base: str) -> str:
    """A game of the first catalog game with human seats only, so nothing moves by itself."""
    with urllib.request.urlopen(f"{base}/v1/catalog", timeout=10) as answer:
        game = json.load(answer)["games"][0]
    body = {"game": game["id"], "seats": [{"name": f"p{i}"} for i in range(game["min_players"])]}
    request = urllib.request.Request(
        f"{base}/v1/games", data=json.dumps(body).encode(), headers=JSON_HEADERS
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.load(answer)["id"]


JSON_HEADERS = {"content-type": "application/json"}
STREAM_END_SECONDS = 10  # SIGTERM to the end of an open live stream


def test_sigterm_ends_open_event_streams_and_the_server_exits(tmp_path: Path) -> None:
    """A rolling update must not wait for the kill: on SIGTERM an SSE stream ends (the
    client's EventSource reconnects to another replica with Last-Event-ID, after the
    `retry:` the stream announced) and the process exits by itself."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with running([SKYPORT, *command_for(port)], clean_env(), tmp_path) as server:
        wait_for_healthz(server, base)
        game = create_game(base)
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        connection.request(
            "GET", f"/v1/games/{game}/events", headers={"accept": "text/event-stream"}
        )
        stream = connection.getresponse()
        assert stream.status == 200
        assert stream.getheader("content-type", "").startswith("text/event-stream")
        first = b""
        while not first.endswith(b"\n\n"):
            first += stream.read1(1024)  # type: ignore[attr-defined]
        assert b"retry:" in first, "the stream tells clients how soon to reconnect"

        ended = threading.Event()

        def read_to_the_end() -> None:
            with contextlib.suppress(OSError, http.client.HTTPException):
                while stream.read1(1024):  # type: ignore[attr-defined]
                    pass
            ended.set()

        reader = threading.Thread(target=read_to_the_end, daemon=True)
        reader.start()
        server.send_signal(signal.SIGTERM)
        if not ended.wait(STREAM_END_SECONDS):
            pytest.fail(f"the event stream was still open {STREAM_END_SECONDS}s after SIGTERM")
        connection.close()
        assert stop(server) == 0, output(server)  # already stopping: this only waits


def test_sigterm_closes_open_websockets_with_a_reconnect_code(tmp_path: Path) -> None:
    """GraphQL over graphql-transport-ws: on SIGTERM the socket is closed with 1012 (service
    restart) or 1001 (going away), which clients take as "reconnect", and the process exits."""
    from websockets.exceptions import ConnectionClosed, InvalidStatus
    from websockets.sync.client import connect

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with running([SKYPORT, *command_for(port)], clean_env(), tmp_path) as server:
        wait_for_healthz(server, base)
        try:
            socket_ = connect(
                f"ws://127.0.0.1:{port}/graphql",
                subprotocols=["graphql-transport-ws"],
                open_timeout=10,
            )
        except InvalidStatus as error:
            if error.response.status_code == 404:
                pytest.skip("no /graphql yet")
            raise
        with socket_:
            socket_.send(json.dumps({"type": "connection_init", "payload": {}}))
            assert json.loads(socket_.recv(timeout=10))["type"] == "connection_ack"
            started = time.monotonic()
            server.send_signal(signal.SIGTERM)
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    socket_.recv(timeout=STREAM_END_SECONDS)
            assert time.monotonic() - started < STREAM_END_SECONDS
            assert closed.value.rcvd is not None, "closed without a close frame"
            assert closed.value.rcvd.code in (1001, 1012), closed.value.rcvd
        assert stop(server) == 0, output(server)


# --- skyport worker, with the Kubernetes liveness probe --------------------------------


def worker_probe() -> str:
    worker = by_kind(render(BASE), "Deployment")["skyport-worker"]
    (container,) = pod_spec(worker)["containers"]
    command = container["livenessProbe"]["exec"]["command"]
    assert command[:2] == ["sh", "-c"]
    return command[2]


def test_worker_starts_answers_its_liveness_probe_and_stops_warm(
    tmp_path: Path, redis_url: str
) -> None:
    if not (REPO / "workers" / "celery_app.py").exists():
        pytest.skip("workers/celery_app.py does not exist yet")
    # A database of its own, so this worker takes no task from other tests.
    parts = urlsplit(redis_url)
    url = urlunsplit(parts._replace(path="/13"))
    # Celery names the node celery@<host name>; in a pod, $HOSTNAME is that host name.
    env = clean_env(
        SKYPORT_REDIS_URL=url,
        HOSTNAME=socket.gethostname(),
        PATH=f"{BIN}:{os.environ['PATH']}",
    )
    probe = worker_probe()
    with running([SKYPORT, "worker"], env, tmp_path) as worker:
        deadline = time.monotonic() + 60
        while True:
            if worker.poll() is not None:
                pytest.fail(f"the worker exited with {worker.returncode}:\n{output(worker)}")
            check = subprocess.run(
                ["sh", "-c", probe],
                env=env,
                cwd=tmp_path,
                capture_output=True,
                text=True,
                timeout=60,
            )
            if check.returncode == 0:
                break
            if time.monotonic() > deadline:
                pytest.fail(
                    f"liveness probe kept failing:\n{check.stdout}{check.stderr}\n{output(worker)}"
                )
            time.sleep(1)
        assert stop(worker, 60) == 0, output(worker)


# --- the builder stage, then the runtime, outside the source tree ---------------------------


@pytest.mark.timeout(900)
def test_image_build_steps_give_a_venv_that_serves(tmp_path: Path) -> None:
    """What the Dockerfile's builder does - a clean venv, the pinned requirements, the project
    wheel from the build context - then the runtime's CMD and HEALTHCHECK with that venv, from
    a directory without the sources. Catches package data missing from the wheel, an
    unpinned or unresolvable dependency, an import of something only the dev venv has."""
    context = tmp_path / "context"
    context.mkdir()
    for name in ("pyproject.toml", "README.md", "constraints.txt"):
        if (REPO / name).exists():
            shutil.copy2(REPO / name, context / name)
    for package in ("services", "schema", "workers"):
        shutil.copytree(
            REPO / package, context / package, ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
        )
    venv = tmp_path / "venv"
    python = str(venv / "bin" / "python")
    builder = [
        args for kw, args in dockerfile_instructions() if kw == "RUN" and "pip install" in args
    ]
    assert len(builder) == 2, "the builder installs the requirements, then the project"

    def sh(script: str) -> None:
        out = subprocess.run(
            ["sh", "-c", script],
            cwd=context,
            env={
                **clean_env(),
                "PATH": f"{venv / 'bin'}:{os.environ['PATH']}",
                "VIRTUAL_ENV": str(venv),
                "PIP_DISABLE_PIP_VERSION_CHECK": "1",
            },
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert out.returncode == 0, f"{script}\n{out.stdout[-3000:]}\n{out.stderr[-3000:]}"

    sh(f"{shlex.quote(sys.executable)} -m venv {shlex.quote(str(venv))}")
    for step in builder:
        sh(step.replace("/opt/venv", str(venv)))  # `python`, `pip`: the venv's, as in the image

    runtime = tmp_path / "home"
    runtime.mkdir()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with running(
        [str(venv / "bin" / "skyport"), *command_for(port)], clean_env(), runtime
    ) as server:
        wait_for_healthz(server, base)
        check = run_healthcheck(python, f"{base}/healthz")
        assert check.returncode == 0, check.stderr
        assert stop(server) == 0, output(server)
    # Every module imports with only the runtime dependencies (a dev-only package used at
    # run time would pass every other test and break the container).
    every_module = (
        "import importlib, pkgutil, services, schema, workers\n"
        "for package in (services, schema, workers):\n"
        "    for module in pkgutil.walk_packages(package.__path__, package.__name__ + '.'):\n"
        "        importlib.import_module(module.name)\n"
    )
    imported = subprocess.run(
        [python, "-c", every_module],
        cwd=runtime,
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert imported.returncode == 0, imported.stderr[-3000:]
    where = subprocess.run(
        [python, "-c", "import services, schema, workers; print(services.__file__)"],
        cwd=runtime,
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert where.stdout.strip().startswith(str(venv)), "imported the sources, not the wheel"
