"""Cost of game records and tournament planning, on one core.

    python bench/records_and_tournaments.py [--games 5] [--participants 64]

Prints, per game and player count, the size of a record of a random game and how many
versions per CPU second the replayer checks (each action applied, its events compared
and its state digested) — the cost of `skyport replay` and of stepping to a version of
a finished game. Then the CPU time to plan every round of tournaments of `participants`
(round robin, Swiss, duplicate) with made-up results, and to compute their standings.
Numbers are printed, never asserted.
"""

from __future__ import annotations

import platform
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import typer  # noqa: E402

from services.engine import Result, all_games  # noqa: E402
from services.gameplay.records import RecordedSeat, play_recorded, replay  # noqa: E402
from services.gameplay.tournaments import (  # noqa: E402
    Duplicate,
    Participant,
    RoundRobin,
    Swiss,
    TournamentSpec,
    create_tournament,
    is_finished,
    record_result,
    standings_csv,
    start_next_round,
)


def bench_records(games: int) -> None:
    print("records: game, players, mean versions, mean JSON bytes, replay versions/CPU s")
    for game in all_games():
        for players in range(game.min_players, game.max_players + 1):
            seats = [RecordedSeat(name=f"P{i}") for i in range(players)]
            records = [play_recorded(game, seats, seed=seed) for seed in range(games)]
            versions = sum(r.version for r in records)
            size = sum(len(r.to_json()) for r in records)
            started = time.process_time()
            for record in records:
                replay(record, game)
            spent = time.process_time() - started
            print(
                f"  {game.id:13} {players}  {versions / games:7.0f}  {size / games:10.0f}  "
                f"{versions / spent:9.0f}"
            )


def made_up(seats: int, rng: random.Random) -> Result:
    scores = [rng.randint(0, 9) for _ in range(seats)]
    return Result.rank({s: ({"points": v}, (v,)) for s, v in enumerate(scores)})


def bench_tournaments(participants: int) -> None:
    print(f"tournaments of {participants}: format, seats, rounds, planning CPU s, worst round s")
    people = [Participant(name=f"P{i}") for i in range(participants)]
    formats: list[tuple[RoundRobin | Swiss | Duplicate, int]] = [
        (RoundRobin(), 2),
        (RoundRobin(), 4),
        (Swiss(rounds=7), 2),
        (Swiss(rounds=7), 4),
        (Duplicate(), 4),
    ]
    for fmt, seats in formats:
        if isinstance(fmt, Duplicate) and participants % seats:
            continue
        rng = random.Random(1)
        spec = TournamentSpec(
            game="dominion", seats_per_table=seats, participants=people, format=fmt
        )
        started = time.process_time()
        tournament = create_tournament(spec)
        worst = 0.0
        while not is_finished(tournament):
            before = time.process_time()
            tournament, new_round = start_next_round(tournament)
            worst = max(worst, time.process_time() - before)
            for table in new_round.tables:
                tournament = record_result(
                    tournament, new_round.number, table.number, made_up(seats, rng)
                )
        standings_csv(tournament)
        spent = time.process_time() - started
        print(f"  {fmt.kind:11} {seats}  {len(tournament.rounds):3}  {spent:6.2f}  {worst:6.3f}")


def main(games: int = 5, participants: int = 64) -> None:
    print(f"{platform.python_implementation()} {platform.python_version()} on {platform.machine()}")
    bench_records(games)
    bench_tournaments(participants)


if __name__ == "__main__":
    typer.run(main)
