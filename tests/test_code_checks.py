"""The code's own checks, run by the suite so that CI holds them as `make lint` does:
types (mypy, on the files pyproject.toml names) and ruff's lint and format."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINTED = ["services", "schema", "workers", "tests", "bench"]


def check(*command: str) -> None:
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    done = subprocess.run(
        [sys.executable, "-m", *command],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


def test_types_check(tmp_path: Path) -> None:
    check("mypy", "--cache-dir", str(tmp_path / "mypy"))


def test_lint_passes() -> None:
    check("ruff", "check", "--no-cache", *LINTED)


def test_code_is_formatted() -> None:
    check("ruff", "format", "--check", "--no-cache", *LINTED)
