"""Records of random games of every registered game replay through the engine; a record
changed in any way that matters does not, and the replay says where and why."""

from __future__ import annotations

import os

import orjson
import pytest

from services.engine import all_games, get_game
from services.gameplay.records import (
    Record,
    RecordedSeat,
    RecordWriter,
    ReplayMismatch,
    load_record,
    play_recorded,
    replay,
    state_at,
    state_sha256,
)

GAMES = all_games()
ROUNDS = int(os.environ.get("SKYPORT_RECORD_GAMES", "2"))


def seats(players: int) -> list[RecordedSeat]:
    return [RecordedSeat(name=f"Player {i + 1}") for i in range(players)]


def cases():
    for game in GAMES:
        for players in range(game.min_players, game.max_players + 1):
            for round_ in range(ROUNDS):
                yield pytest.param(game.id, players, round_, id=f"{game.id}-{players}p-{round_}")


@pytest.mark.parametrize(("game_id", "players", "seed"), list(cases()))
def test_a_random_game_replays_from_its_json_record(game_id, players, seed):
    game = get_game(game_id)
    record = play_recorded(game, seats(players), seed=1000 + seed)
    assert record.result is not None
    assert [m.version for m in record.moves] == list(range(1, len(record.moves) + 1))
    loaded = load_record(record.to_json())
    replayed = replay(loaded)
    assert replayed.result == record.result
    assert state_sha256(game, replayed.state) == record.final_state_sha256


def sky_islands_record(seed: int = 7, players: int = 3) -> Record:
    return play_recorded(get_game("sky-islands"), seats(players), seed=seed)


def tampered(record: Record, change) -> Record:
    raw = orjson.loads(record.to_json())
    change(raw)
    return load_record(raw)


def mismatch_of(record: Record) -> ReplayMismatch:
    with pytest.raises(ReplayMismatch) as caught:
        replay(record)
    return caught.value


def test_a_move_the_engine_refuses_is_named_with_its_version_and_rule():
    record = sky_islands_record()

    def other_seat(raw):
        raw["moves"][4]["seat"] = (raw["moves"][4]["seat"] + 1) % 3

    error = mismatch_of(tampered(record, other_seat))
    assert (error.code, error.version) == ("illegal_move", 5)
    assert "not_your_turn" in error.message
    assert "at version 5" in str(error)


def test_another_legal_move_is_caught_by_its_events_or_state():
    game = get_game("sky-islands")
    record = sky_islands_record()
    before = state_at(record, 9)
    seat = record.moves[9].seat
    other = next(
        m for m in game.legal_moves(before, seat) if game.dump_move(m) != record.moves[9].move
    )

    def swap(raw):
        raw["moves"][9]["move"] = game.dump_move(other)

    error = mismatch_of(tampered(record, swap))
    assert error.version == 10
    assert error.code in {"events_differ", "state_differs"}


def test_a_missing_version_is_a_gap():
    error = mismatch_of(tampered(sky_islands_record(), lambda raw: raw["moves"].pop(3)))
    assert (error.code, error.version) == ("version_gap", 4)
    assert "says version 5" in error.message


def test_a_changed_event_is_caught():
    record = sky_islands_record()
    index = next(i for i, m in enumerate(record.moves) if m.events)

    def change(raw):
        raw["moves"][index]["events"][0]["seat"] = 99

    error = mismatch_of(tampered(record, change))
    assert (error.code, error.version) == ("events_differ", index + 1)


def test_a_changed_state_digest_is_caught():
    def change(raw):
        raw["moves"][2]["state_sha256"] = "0" * 64

    error = mismatch_of(tampered(sky_islands_record(), change))
    assert (error.code, error.version) == ("state_differs", 3)


def test_a_changed_result_is_caught():
    record = sky_islands_record()

    def change(raw):
        raw["result"]["winners"] = [s for s in range(3) if s not in raw["result"]["winners"]]

    error = mismatch_of(tampered(record, change))
    assert (error.code, error.version) == ("result_differs", record.version)
    assert "winners" in error.message


def test_a_record_cut_short_is_not_over():
    record = sky_islands_record()

    def cut(raw):
        raw["moves"].pop()
        raw["final_state_sha256"] = None

    error = mismatch_of(tampered(record, cut))
    assert (error.code, error.version) == ("not_over", record.version - 1)
    assert "still to act" in error.message


def test_another_seed_does_not_replay():
    def reseed(raw):
        raw["seed"] += 1
        raw["seed_text"] = str(raw["seed"])

    error = mismatch_of(tampered(sky_islands_record(), reseed))
    assert error.code in {"illegal_move", "events_differ", "state_differs"}


def test_unreadable_and_unknown_records_are_refused_clearly():
    with pytest.raises(ReplayMismatch, match="malformed_record: The record is not JSON"):
        load_record(b"{not json")
    with pytest.raises(ReplayMismatch, match="malformed_record: Not a game record: seed"):
        load_record({"id": "x", "game": "sky-islands", "seats": [{"name": "A"}]})
    record = sky_islands_record()
    error = mismatch_of(record.model_copy(update={"game": "chess"}))
    assert error.code == "unknown_game"
    assert "no game called 'chess'" in error.message


def test_a_resignation_is_recorded_and_replayed():
    game = get_game("dominion")
    writer = RecordWriter(game, seats(3), seed=5)
    for _ in range(6):
        seat = game.prompts(writer.state)[0].seat
        writer.move(seat, game.legal_moves(writer.state, seat)[0])
    writer.resign(1)
    record = writer.finish()
    assert record.moves[-1].action == "resign"
    assert record.moves[-1].events == [{"kind": "resigned", "seat": 1, "private_to": []}]
    assert record.result is not None and 1 not in record.result.winners
    assert replay(load_record(record.to_json())).result == record.result


def test_a_leaver_is_marked_and_its_bot_recorded():
    game = get_game("sky-islands")
    writer = RecordWriter(game, seats(3), seed=2)
    seat = game.prompts(writer.state)[0].seat
    writer.move(seat, game.legal_moves(writer.state, seat)[0])
    writer.leave(2, "greedy")
    record = writer.finish()
    assert record.seats[2].model_dump() == {
        "name": "Player 3",
        "bot": "greedy",
        "left_at_version": 1,
        "left_reason": "resigned",
    }
    assert record.result is None  # not over yet
    assert replay(record).result is None


def test_state_at_steps_through_every_version():
    game = get_game("sky-lanterns")
    record = play_recorded(game, seats(2), seed=3)
    for version in (0, 1, record.version // 2, record.version):
        state = state_at(record, version)
        expected = record.moves[version - 1].state_sha256 if version else None
        if expected:
            assert state_sha256(game, state) == expected
    with pytest.raises(ReplayMismatch, match="no_such_version"):
        state_at(record, record.version + 1)


def test_options_stored_before_they_were_checked_strictly_still_replay():
    """Games created before options were checked against their JSON types keep what was
    sent: `"turn_limit": true` was played as 1 turn, and its record replays as it was."""
    game = get_game("dominion")
    record = play_recorded(game, seats(2), seed=4, options={"turn_limit": 1})

    def as_sent_then(raw):
        raw["options"] = {"turn_limit": True}

    replayed = replay(tampered(record, as_sent_then))
    assert replayed.result == record.result
    assert state_sha256(game, replayed.state) == record.final_state_sha256
