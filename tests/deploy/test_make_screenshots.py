"""The browser tooling around the playground: `make test` installs Debian's chromium when
it is missing (and only then), and the board screenshots the README shows are the ones
`make screenshots` writes, one per game."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
MAKE = shutil.which("make")
PNG = b"\x89PNG\r\n\x1a\n"

pytestmark = pytest.mark.skipif(MAKE is None, reason="make is not installed")


def run_chromium_target(tmp_path: Path, with_chromium: bool) -> list[str]:
    """`make chromium` with a PATH holding only what its recipe needs and an apt-get that
    writes down its arguments instead of installing; returns the apt-get calls."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(parents=True)
    for tool in ("cat", "cksum", "cut"):  # the Makefile's own $(shell ...) lines
        found = shutil.which(tool)
        assert found, tool
        (bin_dir / tool).symlink_to(found)
    calls = tmp_path / "apt-get.calls"
    apt_get = bin_dir / "apt-get"
    apt_get.write_text(f'#!/bin/sh\necho "$*" >> {calls}\n')
    apt_get.chmod(0o755)
    if with_chromium:
        chromium = bin_dir / "chromium"
        chromium.write_text("#!/bin/sh\nexit 0\n")
        chromium.chmod(0o755)
    assert MAKE is not None
    done = subprocess.run(
        [MAKE, "--no-print-directory", "chromium"],
        cwd=REPO,
        env={"PATH": str(bin_dir), "HOME": os.environ.get("HOME", "/")},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return calls.read_text().splitlines() if calls.exists() else []


def test_make_chromium_installs_debians_package_only_when_it_is_missing(tmp_path: Path):
    assert run_chromium_target(tmp_path / "missing", with_chromium=False) == [
        "update -qq",
        "install -y -qq chromium",
    ]
    assert run_chromium_target(tmp_path / "present", with_chromium=True) == []


def dry_run(target: str) -> list[str]:
    assert MAKE is not None
    done = subprocess.run(
        [MAKE, "-n", "--no-print-directory", target],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return done.stdout.splitlines()


@pytest.mark.parametrize("target", ["test", "screenshots"])
def test_the_target_makes_sure_of_chromium_before_running_pytest(target: str):
    lines = dry_run(target)
    installs = [i for i, line in enumerate(lines) if "apt-get install -y -qq chromium" in line]
    runs = [i for i, line in enumerate(lines) if " -m pytest" in line]
    assert installs and runs and installs[0] < runs[-1], lines


def test_make_screenshots_runs_the_browser_tests_into_docs_screenshots():
    (command,) = [line for line in dry_run("screenshots") if " -m pytest" in line]
    assert command.startswith("SKYPORT_SCREENSHOTS_DIR=docs/screenshots ")
    assert command.endswith(" tests/browser")


def test_the_readme_shows_each_games_board_as_made_by_the_browser_tests():
    readme = (REPO / "README.md").read_text()
    shown = re.findall(r"\]\((docs/screenshots/[^)]+\.png)\)", readme)
    browser_tests = (REPO / "tests" / "browser" / "test_playground.py").read_text()
    for game in ("sky-islands", "dominion", "sky-lanterns"):
        assert f"docs/screenshots/{game}.png" in shown, game
    for path in shown:
        assert (REPO / path).read_bytes().startswith(PNG), path
        assert f'shots / "{Path(path).name}"' in browser_tests, f"{path} is not a screenshot"


@pytest.mark.timeout(120)
def test_the_playground_files_are_package_data(tmp_path: Path):
    """`/play` serves files read from the installed package: setuptools' build (what goes
    into the wheel) must carry every one of them, not only the Python modules."""
    source = tmp_path / "source"
    source.mkdir()
    shutil.copy2(REPO / "pyproject.toml", source)
    shutil.copy2(REPO / "README.md", source)
    for package in ("services", "schema", "workers"):
        shutil.copytree(
            REPO / package, source / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    built = tmp_path / "lib"
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "from setuptools import setup; setup()",
            "-q",
            "build_py",
            "--build-lib",
            str(built),
        ],
        cwd=source,
        capture_output=True,
        text=True,
        timeout=110,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    playground = REPO / "services" / "api" / "playground"
    shipped = {p.name for p in (built / "services" / "api" / "playground").iterdir()}
    assert shipped == {p.name for p in playground.iterdir()} >= {"index.html", "play.js"}
