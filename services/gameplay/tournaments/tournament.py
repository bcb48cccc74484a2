"""A tournament's life: create it (checked against the game), start each round when the
last one is done, record each table's result, and read the standings.

Every function returns a new `Tournament` and leaves its argument alone, so a caller
can store the answer with compare-and-set.
"""

from __future__ import annotations

from collections import Counter

from services.ai.bot import levels_for
from services.engine import Game, GameError, Result, get_game

from . import duplicate, round_robin, swiss
from .models import (
    Duplicate,
    InvalidTournament,
    Round,
    RoundRobin,
    ScheduledRound,
    Swiss,
    Table,
    Tournament,
    TournamentSpec,
)


def create_tournament(spec: TournamentSpec, game: Game | None = None) -> Tournament:
    """A tournament with no rounds yet; `start_next_round` makes the first."""
    try:
        game = game or get_game(spec.game)
    except GameError as error:
        raise InvalidTournament(error.code, error.message) from None
    k = spec.seats_per_table
    n = len(spec.participants)
    if not game.min_players <= k <= game.max_players:
        raise InvalidTournament(
            "seats_per_table",
            f"{game.title} is for {game.min_players} to {game.max_players} players; "
            f"tables of {k} cannot play it.",
        )
    if n < k:
        raise InvalidTournament(
            "too_few_participants", f"{n} participants cannot fill a table of {k}."
        )
    if k < 2 and not isinstance(spec.format, Duplicate):
        raise InvalidTournament(
            "seats_per_table",
            f"A {spec.format.kind.replace('_', ' ')} needs at least two seats per table; "
            "solo games suit the duplicate format.",
        )
    if isinstance(spec.format, Duplicate) and n % k:
        raise InvalidTournament(
            "participant_count",
            f"A duplicate tournament seats everyone every round: {n} participants do not "
            f"fill tables of {k}.",
        )
    levels = levels_for(game)
    for participant in spec.participants:
        if participant.bot is not None and participant.bot not in levels:
            raise InvalidTournament(
                "unknown_bot_level",
                f"{game.title} has no bot level {participant.bot!r}; known: {', '.join(levels)}.",
            )
    try:
        game.setup(spec.options, k, spec.seed)
    except GameError as error:
        raise InvalidTournament(error.code, error.message, error.details) from None
    return with_schedule(Tournament(spec=spec))


def needs_schedule(tournament: Tournament) -> bool:
    """Whether the tournament is a round robin without its schedule (one stored before
    schedules were kept): `with_schedule` makes it, which takes a while at big tables."""
    return tournament.schedule is None and isinstance(tournament.spec.format, RoundRobin)


def with_schedule(tournament: Tournament) -> Tournament:
    """The tournament with the schedule of its rounds, if it is a round robin (made now
    if it has none); any other tournament as it is."""
    if not needs_schedule(tournament):
        return tournament
    return tournament.model_copy(update={"schedule": _schedule(tournament)})


def scheduled_games(tournament: Tournament) -> int | None:
    """How many games a round robin's schedule plays (None for the other formats)."""
    if not isinstance(tournament.spec.format, RoundRobin):
        return None
    return sum(len(r.tables) for r in _schedule(tournament))


def _schedule(tournament: Tournament) -> list[ScheduledRound]:
    if tournament.schedule is not None:
        return tournament.schedule
    spec = tournament.spec
    return round_robin.pairings(len(spec.participants), spec.seats_per_table)


def total_rounds(tournament: Tournament) -> int:
    spec = tournament.spec
    fmt = spec.format
    if isinstance(fmt, Swiss):
        return fmt.rounds
    if isinstance(fmt, Duplicate):
        return fmt.rounds or spec.seats_per_table
    return len(_schedule(tournament))


def is_finished(tournament: Tournament) -> bool:
    return len(tournament.rounds) == total_rounds(tournament) and all(
        r.done for r in tournament.rounds
    )


def start_next_round(tournament: Tournament, secret: str | None = None) -> tuple[Tournament, Round]:
    """The tournament with its next round added, and that round. Refused while a table
    of the current round has no result, and once every round has been played.

    `secret` keys the new tables' seeds (`seating.derive_seed`): the service passes the
    tournament's stored secret, so a published seed reveals nothing of other tables'.
    Rounds made before are left as they are (their games were dealt their seeds)."""
    if tournament.rounds and not tournament.rounds[-1].done:
        waiting = [t.number for t in tournament.rounds[-1].tables if not t.done]
        raise InvalidTournament(
            "round_not_finished",
            f"Round {len(tournament.rounds)} is still being played at tables {waiting}.",
        )
    if len(tournament.rounds) >= total_rounds(tournament):
        raise InvalidTournament("tournament_over", "Every round has been played.")
    spec = tournament.spec
    fmt = spec.format
    index = len(tournament.rounds)
    if isinstance(fmt, Swiss):
        new_round = swiss.next_round(tournament, secret)
    elif isinstance(fmt, Duplicate):
        new_round = duplicate.round_of(
            len(spec.participants), spec.seats_per_table, index, spec.seed, secret
        )
    else:
        assert isinstance(fmt, RoundRobin)
        new_round = round_robin.round_of(_schedule(tournament)[index], index, spec.seed, secret)
    updated = tournament.model_copy(update={"rounds": [*tournament.rounds, new_round]})
    return updated, new_round


def seeds_in_play(tournament: Tournament) -> set[int]:
    """The seeds of the tables still being played. A seed reveals its game's hidden
    information, and duplicate deals one seed at every table of a round: a seed may be
    shown only when it is in none of these."""
    return {table.seed for round_ in tournament.rounds for table in round_.tables if not table.done}


def published(tournament: Tournament) -> Tournament:
    """The tournament with the results anyone may read: a finished table's result is
    withheld (as if still playing) while another table plays its deal, since its scores
    tell those players what the deal yields. Standings made from it count a duplicate
    round's deal once every table dealt it has finished."""
    in_play = seeds_in_play(tournament)
    if not any(t.result and t.seed in in_play for r in tournament.rounds for t in r.tables):
        return tournament
    rounds = [
        round_.model_copy(
            update={
                "tables": [
                    table.model_copy(update={"result": None})
                    if table.result is not None and table.seed in in_play
                    else table
                    for table in round_.tables
                ]
            }
        )
        for round_ in tournament.rounds
    ]
    return tournament.model_copy(update={"rounds": rounds})


def games_held(tournament: Tournament) -> frozenset[str]:
    """The games whose deal (seed) another table still plays - with or without its game
    yet: nobody but their own seats may read them."""
    tables = [table for round_ in tournament.rounds for table in round_.tables]
    playing = Counter(table.seed for table in tables if not table.done)
    return frozenset(
        table.game_id
        for table in tables
        if table.game_id is not None and playing[table.seed] > (0 if table.done else 1)
    )


def table_of_game(tournament: Tournament, game_id: str) -> Table | None:
    """The table whose game is `game_id`, if any."""
    for round_ in tournament.rounds:
        for table in round_.tables:
            if table.game_id == game_id:
                return table
    return None


def set_game_id(tournament: Tournament, round_number: int, table: int, game_id: str) -> Tournament:
    """Note which service game plays a table."""
    return _with_table(tournament, round_number, table, {"game_id": game_id})


def record_result(
    tournament: Tournament, round_number: int, table: int, result: Result | None
) -> Tournament:
    """The table's game ended with `result` (its engine standings, resigned seats already
    demoted), or with none (aborted: the table is void and scores nobody). Recording the
    same outcome again changes nothing; a different one is refused."""
    current = _table(tournament, round_number, table)
    seats = len(current.seats)
    if result is not None and sorted(s.seat for s in result.standings) != list(range(seats)):
        raise InvalidTournament(
            "result_mismatch",
            f"Table {table} of round {round_number} has {seats} seats; the result ranks seats "
            f"{sorted(s.seat for s in result.standings)}.",
        )
    if current.done:
        if current.result == result and current.void == (result is None):
            return tournament
        raise InvalidTournament(
            "result_recorded",
            f"Table {table} of round {round_number} already has a different result.",
        )
    return _with_table(tournament, round_number, table, {"result": result, "void": result is None})


def _table(tournament: Tournament, round_number: int, table: int) -> Table:
    if not 1 <= round_number <= len(tournament.rounds):
        raise InvalidTournament("no_such_round", f"There is no round {round_number} yet.")
    tables = tournament.rounds[round_number - 1].tables
    if not 1 <= table <= len(tables):
        raise InvalidTournament(
            "no_such_table", f"Round {round_number} has tables 1 to {len(tables)}, not {table}."
        )
    return tables[table - 1]


def _with_table(tournament: Tournament, round_number: int, table: int, update: dict) -> Tournament:
    _table(tournament, round_number, table)
    rounds = list(tournament.rounds)
    old_round = rounds[round_number - 1]
    tables = list(old_round.tables)
    tables[table - 1] = tables[table - 1].model_copy(update=update)
    rounds[round_number - 1] = old_round.model_copy(update={"tables": tables})
    return tournament.model_copy(update={"rounds": rounds})
