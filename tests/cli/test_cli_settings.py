"""A bad setting stops `skyport serve` and `skyport worker` with one line naming the
variable and what is wrong (exit 2), not a traceback, and never echoes the value."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("command", ["serve", "worker"])
def test_a_bad_setting_is_one_line_naming_its_variable(command):
    env = {
        "PATH": "/usr/bin:/bin",
        "PYTHONPATH": str(ROOT),
        "SKYPORT_API_KEYS": "short-secret",
        "SKYPORT_REDIS_URL": "redis://127.0.0.1:6379/0",
    }
    finished = subprocess.run(
        [sys.executable, "-c", "from services.cli import app; app()", command],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert finished.returncode == 2, finished.stderr
    lines = finished.stderr.strip().splitlines()
    assert lines == [
        "SKYPORT_API_KEYS: API key 1 is shorter than 16 characters; make one with "
        "`openssl rand -hex 32`"
    ]
    assert "short-secret" not in finished.stderr + finished.stdout
