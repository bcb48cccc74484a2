"""`skyport play --bots`: each game's own bot levels, and a clear refusal of the others."""

from __future__ import annotations

import orjson
from typer.testing import CliRunner

from services.cli import app

runner = CliRunner()


def test_dominions_own_levels_play_from_the_command_line() -> None:
    result = runner.invoke(
        app,
        ["play", "dominion", "--bots", "expert,big-money-ultimate", "--json", "-n", "2"],
    )
    assert result.exit_code == 0, result.output
    games = [orjson.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    assert len(games) == 2 and all(game["winners"] for game in games)


def test_a_level_the_game_lacks_is_refused_with_the_games_levels() -> None:
    result = runner.invoke(app, ["play", "sky-islands", "--bots", "big-money"])
    assert result.exit_code != 0
    assert "no bot level(s) ['big-money']" in result.output
    assert "'mcts'" in result.output
