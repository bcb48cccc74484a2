"""Tournaments whose tables are real games: bots play every table through the engine,
and the standings agree with the games' own results."""

from __future__ import annotations

from collections import defaultdict

from tournament_play import people

from services.engine import get_game
from services.gameplay.records import (
    RecordedSeat,
    play_recorded,
    replay,
    state_at,
    state_sha256,
)
from services.gameplay.tournaments import (
    Duplicate,
    RoundRobin,
    Swiss,
    TournamentSpec,
    create_tournament,
    is_finished,
    record_result,
    standings,
    start_next_round,
)


def play_tournament(spec: TournamentSpec):
    game = get_game(spec.game)
    tournament = create_tournament(spec)
    records = []
    while not is_finished(tournament):
        tournament, new_round = start_next_round(tournament)
        for table in new_round.tables:
            seats = [
                RecordedSeat(name=spec.participants[p].name, bot=spec.participants[p].bot)
                for p in table.seats
            ]
            bot_seed = sum((p + 1) * 7**seat for seat, p in enumerate(table.seats))
            record = play_recorded(
                game,
                seats,
                table.seed,
                spec.options,
                game_id=f"r{new_round.number}t{table.number}",
                bot_seed=bot_seed,
            )
            records.append((table, record))
            tournament = record_result(tournament, new_round.number, table.number, record.result)
    return tournament, records


def expected_points(tournament, records) -> dict[int, float]:
    points: dict[int, float] = defaultdict(float)
    for round_ in tournament.rounds:
        for p in round_.byes:
            points[p] += 1
    for table, record in records:
        for seat, share in enumerate(record.result.returns()):
            points[table.seats[seat]] += share
    return points


def check_standings(tournament, records) -> None:
    expected = expected_points(tournament, records)
    rows = standings(tournament)
    for row in rows:
        assert abs(row.points - expected[row.participant]) < 1e-6
    assert [row.points for row in rows] == sorted((row.points for row in rows), reverse=True)
    for _table, record in records:
        assert replay(record).result == record.result


def test_a_round_robin_of_four_bots():
    spec = TournamentSpec(
        game="sky-islands",
        participants=[*people(2), *(p.model_copy(update={"bot": "greedy"}) for p in people(2))],
        format=RoundRobin(),
        seed=1,
    )
    tournament, records = play_tournament(spec)
    assert len(tournament.rounds) == 3 and len(records) == 6
    check_standings(tournament, records)


def test_a_swiss_of_eight_over_three_rounds():
    spec = TournamentSpec(
        game="sky-islands", participants=people(8), format=Swiss(rounds=3), seed=2
    )
    tournament, records = play_tournament(spec)
    assert len(records) == 12
    met = [frozenset(table.seats) for table, _ in records]
    assert len(set(met)) == len(met)
    check_standings(tournament, records)


def test_a_duplicate_deals_the_same_game_at_every_table():
    spec = TournamentSpec(
        game="dominion", seats_per_table=2, participants=people(4), format=Duplicate(), seed=3
    )
    tournament, records = play_tournament(spec)
    game = get_game("dominion")
    by_round = defaultdict(list)
    for _table, record in records:
        by_round[record.id.split("t")[0]].append(record)
    assert len(by_round) == 2
    for round_records in by_round.values():
        first, second = round_records
        assert first.seed == second.seed
        assert state_sha256(game, state_at(first, 0)) == state_sha256(game, state_at(second, 0))
        assert first.moves != second.moves  # different players, different games
    check_standings(tournament, records)
