"""Helpers for the tournament tests: participants, made-up results, whole tournaments."""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

from services.engine import Result
from services.gameplay.tournaments import (
    Participant,
    Round,
    Table,
    Tournament,
    TournamentSpec,
    create_tournament,
    is_finished,
    record_result,
    start_next_round,
)

Scores = Callable[[Table], list[int]]
"""The score of each seat of a table's game."""


def people(n: int) -> list[Participant]:
    return [Participant(name=f"P{i}") for i in range(n)]


def result_of(scores: list[int]) -> Result:
    """The engine's result of a game whose seats scored `scores` (higher ranks first)."""
    return Result.rank({seat: ({"points": s}, (s,)) for seat, s in enumerate(scores)})


def play_out(spec: TournamentSpec, scores: Scores) -> Tournament:
    tournament = create_tournament(spec)
    while not is_finished(tournament):
        tournament, new_round = start_next_round(tournament)
        for table in new_round.tables:
            tournament = record_result(
                tournament, new_round.number, table.number, result_of(scores(table))
            )
    return tournament


def check_round_is_a_partition(round_: Round, participants: int, seats: int) -> None:
    """Everyone plays at exactly one table or sits out; every table is full."""
    seen = [p for table in round_.tables for p in table.seats] + list(round_.byes)
    assert sorted(seen) == list(range(participants)), round_
    assert all(len(table.seats) == seats for table in round_.tables)
    assert len(round_.byes) == participants % seats


def pairs_of(round_: Round) -> list[frozenset[int]]:
    return [frozenset(p) for table in round_.tables for p in combinations(table.seats, 2)]
