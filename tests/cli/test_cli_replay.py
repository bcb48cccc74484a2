"""`skyport replay FILE`: OK for a true record, the first mismatch and a failing exit code
for a changed one."""

from __future__ import annotations

from pathlib import Path

import orjson
from typer.testing import CliRunner

from services.cli import app
from services.engine import get_game
from services.gameplay.records import RecordedSeat, play_recorded

runner = CliRunner()


def write_record(path: Path, change=None) -> Path:
    record = play_recorded(
        get_game("sky-islands"), [RecordedSeat(name="Ann"), RecordedSeat(name="Bo")], seed=11
    )
    raw = orjson.loads(record.to_json())
    if change is not None:
        change(raw)
    path.write_bytes(orjson.dumps(raw))
    return path


def test_a_true_record_replays_ok(tmp_path: Path) -> None:
    result = runner.invoke(app, ["replay", str(write_record(tmp_path / "game.json"))])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("OK sky-islands local: ")
    assert "versions replayed" in result.stdout


def test_a_changed_record_prints_the_first_mismatch_and_fails(tmp_path: Path) -> None:
    def move_out_of_turn(raw):
        raw["moves"][2]["seat"] = 1 - raw["moves"][2]["seat"]
        raw["moves"][5]["seat"] = 1 - raw["moves"][5]["seat"]

    result = runner.invoke(
        app, ["replay", str(write_record(tmp_path / "bad.json", move_out_of_turn))]
    )
    assert result.exit_code == 1
    assert result.stdout.startswith("MISMATCH illegal_move at version 3: ")
    assert "not_your_turn" in result.stdout


def test_a_file_that_is_not_a_record_fails(tmp_path: Path) -> None:
    path = tmp_path / "notes.json"
    path.write_text('{"hello": "world"}')
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 1
    assert result.stdout.startswith("MISMATCH malformed_record: Not a game record")


def test_a_missing_file_is_an_error(tmp_path: Path) -> None:
    result = runner.invoke(app, ["replay", str(tmp_path / "absent.json")])
    assert result.exit_code == 2
    assert "cannot read" in result.output


def test_records_with_and_without_the_reasons_and_settings_replay_ok(tmp_path: Path) -> None:
    """A record that says why (a resignation on time, the clock, the leave policy) and
    one written before records did both replay."""

    def timed(raw):
        raw["clock"] = {"initial_seconds": 60, "increment_seconds": 1, "on_timeout": "forfeit"}
        raw["on_leave"], raw["leave_bot"] = "end_game", "greedy"

    def older(raw):
        for name in ("clock", "on_leave", "leave_bot"):
            raw.pop(name)
        for part in [*raw["seats"], *raw["moves"]]:
            part.pop("left_reason", None)
            part.pop("reason", None)

    for name, change in (("timed", timed), ("older", older)):
        path = write_record(tmp_path / f"{name}.json", change)
        result = runner.invoke(app, ["replay", str(path)])
        assert result.exit_code == 0, (name, result.output)
        assert result.stdout.startswith("OK sky-islands local: ")
