"""A record says why things happened where the service, not the engine, decided it: why
each resignation was committed (the seat chose to, or its clock ran out), why each seat
that left did, and the time control and leave policy the game was played under. Records
and log entries written before these fields existed still load, read as they always
did, and replay."""

from __future__ import annotations

from dataclasses import replace

import orjson
import pytest
from pydantic import ValidationError

from services.engine import get_game
from services.gameplay.archive import left_at, left_reasons
from services.gameplay.records import (
    RecordedAction,
    RecordedSeat,
    RecordWriter,
    load_record,
    record_from_store,
    replay,
)
from tests.gameplay.records.test_records_from_store import stored_game


def seats(players: int) -> list[RecordedSeat]:
    return [RecordedSeat(name=f"Player {i + 1}") for i in range(players)]


def test_a_resignation_on_time_is_recorded_as_timeout_and_replays():
    game = get_game("sky-islands")
    writer = RecordWriter(game, seats(2), seed=4)
    seat = game.prompts(writer.state)[0].seat
    writer.move(seat, game.legal_moves(writer.state, seat)[0])
    writer.resign(game.prompts(writer.state)[0].seat, "timeout")
    record = load_record(writer.finish().to_json())
    assert [m.reason for m in record.moves] == [None, "timeout"]
    assert replay(record).result == record.result


def test_a_leaver_on_time_is_recorded_with_its_reason():
    game = get_game("sky-islands")
    writer = RecordWriter(game, seats(3), seed=2)
    writer.leave(2, "greedy", "timeout")
    record = load_record(writer.finish().to_json())
    assert (record.seats[2].left_at_version, record.seats[2].left_reason) == (0, "timeout")
    assert record.seats[0].left_reason is None


def test_a_record_from_the_store_carries_the_games_settings_and_reasons():
    game, _, stored, log = stored_game()
    clock = {"initial_seconds": 60.0, "increment_seconds": 2.0, "on_timeout": "forfeit"}
    policy = {"on_leave": "bot_takes_over", "leave_bot": "greedy"}
    away = {
        0: {"why": "abandoned", "bot": "greedy", "since": 12, "reason": "timeout"},
        1: {"why": "abandoned", "bot": "greedy", "since": 20},  # left before reasons
        2: {"why": "autopilot", "bot": "greedy", "since": 5},  # stepped away: not a leaver
    }
    stored = replace(stored, clock_rules=clock, leave_policy=policy, away=away)
    log = [*log[:-1], replace(log[-1], action="resign", move=None, reason="timeout")]
    record = record_from_store(
        stored, log, game, left_at=left_at(stored), left_reasons=left_reasons(stored)
    )
    assert record.clock is not None and record.clock.model_dump() == clock
    assert (record.on_leave, record.leave_bot) == ("bot_takes_over", "greedy")
    assert [(s.left_at_version, s.left_reason) for s in record.seats] == [
        (12, "timeout"),
        (20, None),
        (None, None),
    ]
    assert record.moves[-1].reason == "timeout"
    assert {m.reason for m in record.moves[:-1]} == {None}
    again = load_record(record.to_json())
    assert again == record


def test_an_untimed_game_from_before_leave_policies_has_no_settings():
    game, _, stored, log = stored_game("sky-islands", 2)
    record = record_from_store(stored, log, game)
    assert (record.clock, record.on_leave, record.leave_bot) == (None, None, None)
    shown = orjson.loads(record.to_json())
    assert shown["clock"] is None and shown["on_leave"] is None


def test_a_record_written_before_reasons_and_settings_still_loads_and_replays():
    game = get_game("dominion")
    writer = RecordWriter(game, seats(3), seed=5)
    for _ in range(6):
        seat = game.prompts(writer.state)[0].seat
        writer.move(seat, game.legal_moves(writer.state, seat)[0])
    writer.leave(0, "greedy")
    writer.resign(1)
    raw = orjson.loads(writer.finish().to_json())
    for name in ("clock", "on_leave", "leave_bot"):
        del raw[name]
    for seat in raw["seats"]:
        del seat["left_reason"]
    for move in raw["moves"]:
        del move["reason"]
    old = load_record(orjson.dumps(raw))
    assert old.moves[-1].action == "resign" and old.moves[-1].reason == "resigned"
    assert old.seats[0].left_at_version == 6 and old.seats[0].left_reason is None
    assert old.clock is None and old.on_leave is None
    assert replay(old).result is not None  # checked against the recorded one


def test_only_a_resignation_has_a_reason_and_only_a_leaver_a_left_reason():
    with pytest.raises(ValidationError, match="only a resignation has a reason"):
        RecordedAction(version=1, seat=0, action="move", move={}, at="t", reason="timeout")
    with pytest.raises(ValidationError, match="left_reason is for a seat that left"):
        RecordedSeat(name="Ann", left_reason="resigned")
    with pytest.raises(ValidationError):
        RecordedAction(version=1, seat=0, action="resign", at="t", reason="bored")
