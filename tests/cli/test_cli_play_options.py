"""`skyport play --option key=value`: game options from the command line, for every game."""

from __future__ import annotations

import orjson
import pytest
from typer.testing import CliRunner

from services import cli
from services.cli import app, parse_options
from services.engine import UnknownGame
from services.games.sky_lanterns import game as sky_lanterns

runner = CliRunner()


@pytest.fixture(autouse=True)
def only_sky_lanterns(monkeypatch: pytest.MonkeyPatch) -> None:
    """Look the game up directly, so these tests do not depend on every other game
    package importing (discovery imports them all)."""

    def get_game(game_id: str):
        if game_id != sky_lanterns.id:
            raise UnknownGame(game_id, [sky_lanterns.id])
        return sky_lanterns

    monkeypatch.setattr(cli, "get_game", get_game)


def play(*args: str):
    return runner.invoke(app, ["play", *args])


def test_values_are_json_when_they_parse_and_strings_otherwise() -> None:
    assert parse_options(["a=true", "b=3", 'c="x"', "d=[1, 2]", "e=dead-mine", "f="]) == {
        "a": True,
        "b": 3,
        "c": "x",
        "d": [1, 2],
        "e": "dead-mine",
        "f": "",
    }


def test_an_option_changes_the_games_played() -> None:
    plain = play("sky-lanterns", "-p", "3", "-n", "1", "--json")
    varied = play(
        "sky-lanterns", "-p", "3", "-n", "1", "--json", "--option", "unique_player_boards=true"
    )
    assert plain.exit_code == 0, plain.output
    assert varied.exit_code == 0, varied.output
    assert orjson.loads(plain.stdout) != orjson.loads(varied.stdout)


def test_options_repeat_and_combine() -> None:
    result = play(
        "sky-lanterns",
        "-p",
        "4",
        "-n",
        "2",
        "--json",
        "--option",
        "unique_player_boards=true",
        "-o",
        "first_player=2",
        "--option",
        "teapot_market=true",
    )
    assert result.exit_code == 0, result.output
    lines = [orjson.loads(line) for line in result.stdout.splitlines()]
    assert [line["seed"] for line in lines] == [1, 2]
    assert all(line["players"] == 4 for line in lines)


def test_an_unknown_option_is_refused_before_any_game() -> None:
    result = play("sky-lanterns", "-p", "3", "--json", "--option", "no_such_thing=1")
    assert result.exit_code == 2
    assert "no_such_thing" in result.output
    assert "seed" not in result.stdout


def test_a_wrongly_typed_value_is_refused() -> None:
    result = play("sky-lanterns", "-p", "3", "--option", "first_player=[1]")
    assert result.exit_code == 2
    assert "first_player" in result.output


def test_an_option_without_equals_sign_is_refused() -> None:
    result = play("sky-lanterns", "-p", "3", "--option", "unique_player_boards")
    assert result.exit_code == 2
    assert "key=value" in result.output


def test_an_option_given_twice_is_refused() -> None:
    result = play("sky-lanterns", "-p", "3", "-o", "teapot_market=true", "-o", "teapot_market=0")
    assert result.exit_code == 2
    assert "twice" in result.output


def test_a_solo_game_takes_its_scenario_as_an_option() -> None:
    result = play(
        "sky-lanterns",
        "-p",
        "1",
        "-n",
        "2",
        "--json",
        "-o",
        "scenario=burning-hut",
        "-o",
        "challenge=true",
    )
    assert result.exit_code == 0, result.output
    lines = [orjson.loads(line) for line in result.stdout.splitlines()]
    assert [line["players"] for line in lines] == [1, 1]
    refused = play("sky-lanterns", "-p", "1", "-o", "scenario=haunted-house")
    assert refused.exit_code == 2 and "scenario" in refused.output


def test_without_options_every_game_still_plays() -> None:
    result = play("sky-lanterns", "-p", "3", "-n", "1")
    assert result.exit_code == 0, result.output
    assert "wins" in result.output
