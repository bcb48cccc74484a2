"""Tournaments without transport: formats (round robin, Swiss, duplicate), rounds of
tables, results, standings and their CSV export — plain serialisable data and pure
functions over it."""

from .export import standings_csv
from .models import (
    Duplicate,
    InvalidTournament,
    Participant,
    Round,
    RoundRobin,
    ScheduledRound,
    Swiss,
    Table,
    Tournament,
    TournamentSpec,
)
from .standings import StandingRow, exact_returns, standings, tiebreak_name
from .tournament import (
    create_tournament,
    games_held,
    is_finished,
    needs_schedule,
    published,
    record_result,
    scheduled_games,
    seeds_in_play,
    set_game_id,
    start_next_round,
    table_of_game,
    total_rounds,
    with_schedule,
)

__all__ = [
    "Duplicate",
    "InvalidTournament",
    "Participant",
    "Round",
    "RoundRobin",
    "ScheduledRound",
    "StandingRow",
    "Swiss",
    "Table",
    "Tournament",
    "TournamentSpec",
    "create_tournament",
    "exact_returns",
    "is_finished",
    "needs_schedule",
    "record_result",
    "scheduled_games",
    "games_held",
    "published",
    "seeds_in_play",
    "set_game_id",
    "standings",
    "standings_csv",
    "start_next_round",
    "table_of_game",
    "tiebreak_name",
    "total_rounds",
    "with_schedule",
]
