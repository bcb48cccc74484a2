"""A record made from the store's game and move log, as the service keeps them, replays."""

from __future__ import annotations

import orjson
import pytest

from services.engine import get_game
from services.gameplay.records import (
    RecordedSeat,
    ReplayMismatch,
    load_record,
    play_recorded,
    record_from_store,
    replay,
    state_at,
)
from services.store import EventViews, GameRecord, GameStatus, LogEntry, SeatRecord


def stored_game(game_id: str = "dominion", players: int = 3):
    """A finished game as the store would hold it: built from an engine-played record
    (events redacted for spectators as well, as the service logs them)."""
    game = get_game(game_id)
    played = play_recorded(game, [RecordedSeat(name=f"S{i}") for i in range(players)], seed=9)
    final = state_at(played, played.version)
    stored = GameRecord(
        id="g1",
        game=game.id,
        version=played.version,
        status=GameStatus.FINISHED,
        state=game.dump_state(final),
        seats=[SeatRecord(f"S{i}", "greedy" if i == 2 else None, None) for i in range(players)],
        options={},
        seed=9,
        tags=["cup"],
        created_at="2026-12-01T00:00:00.000+00:00",
        updated_at="2026-12-01T00:10:00.000+00:00",
        creator="anonymous",
    )
    log = [
        LogEntry(
            version=m.version,
            seat=m.seat,
            action=m.action,
            move=m.move,
            events=EventViews(full=m.events, spectator=[{"redacted": True}] * len(m.events)),
            status=GameStatus.SCORING if m.version == played.version else GameStatus.ACTIVE,
            at=m.at,
        )
        for m in played.moves
    ]
    return game, played, stored, log


def test_a_stored_game_becomes_a_record_that_replays():
    game, played, stored, log = stored_game()
    record = record_from_store(stored, log, game, left_at={2: 40})
    final = state_at(played, played.version)
    assert record.result == game.standings(final, left=[2])  # seat 2 left: ranked last
    assert record.result is not None and record.result.standings[-1].seat == 2
    assert [s.bot for s in record.seats] == [None, None, "greedy"]
    assert record.seats[2].left_at_version == 40
    assert record.tags == ["cup"]
    assert [m.events for m in record.moves] == [m.events for m in played.moves]
    replayed = replay(load_record(orjson.dumps(record.model_dump(mode="json"))))
    assert replayed.result == record.result
    # A record made before the seats that left were ranked last still replays.
    before = record.model_copy(update={"result": played.result})
    assert replay(load_record(orjson.dumps(before.model_dump(mode="json")))).result


def test_a_log_with_a_version_missing_does_not_replay():
    game, _, stored, log = stored_game("sky-islands", 2)
    record = record_from_store(stored, [*log[:5], *log[6:]], game)
    with pytest.raises(ReplayMismatch, match="version_gap at version 6"):
        replay(record)
