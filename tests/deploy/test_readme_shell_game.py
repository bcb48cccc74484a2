"""The README's game against a bot from the shell runs as written: each command, against a
live server, down to the move it posts (only the address differs)."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from services.api.app import create_app

README = Path(__file__).resolve().parents[2] / "README.md"


def shell_game() -> str:
    text = README.read_text()
    start = text.index("A game against a bot from the shell:")
    block = re.search(r"```sh\n(.*?)```", text[start:], re.DOTALL)
    assert block is not None, "the README lost its shell game"
    return block.group(1)


def documents(output: str) -> list[dict]:
    """The JSON documents curl printed, one after another (without newlines between)."""
    decoder, found, at = json.JSONDecoder(), [], 0
    while at < len(output.rstrip()):
        document, at = decoder.raw_decode(output, at)
        found.append(document)
        while at < len(output) and output[at].isspace():
            at += 1
    return found


@pytest.fixture
def server(settings, games, serve):
    with serve(create_app(settings, games)) as running:
        yield running


def test_the_readme_shell_game_makes_a_move(server):
    script = shell_game().replace("localhost:8000", server.url.removeprefix("http://"))
    ran = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert ran.returncode == 0, ran.stderr
    legal, answer = documents(ran.stdout)
    assert legal["moves"], legal
    assert answer.get("version", 0) >= 1, answer
    assert "code" not in answer, answer
