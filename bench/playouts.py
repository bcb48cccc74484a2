"""Random-playout speed of every registered game, on one core.

    python bench/playouts.py [--seconds 10]

Prints the machine, then games per second and moves per second of random bots playing
whole games through the game contract (setup, prompts, legal_moves, apply, result).
"""

from __future__ import annotations

import os
import platform
import time
from pathlib import Path

import typer

from services.ai import RandomBot, play_match
from services.engine import all_games


def cpu_model() -> str:
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown"


def machine() -> str:
    return (
        f"{platform.python_implementation()} {platform.python_version()} on "
        f"{platform.system()} {platform.machine()}, {cpu_model()}, {os.cpu_count()} cores "
        f"(benchmark uses one)"
    )


def measure(game, players: int, seconds: float) -> tuple[int, int, float]:
    games = moves = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        bots = [RandomBot(games * 7 + s) for s in range(players)]
        moves += len(play_match(game, bots, seed=games).moves)
        games += 1
    return games, moves, time.perf_counter() - start


def main(
    seconds: float = typer.Option(10.0, help="seconds spent on each game and player count"),
) -> None:
    print(machine())
    print(f"{'game':<14}{'players':>8}{'games':>8}{'games/s':>10}{'moves/s':>10}")
    for game in all_games():
        for players in range(game.min_players, game.max_players + 1):
            games, moves, elapsed = measure(game, players, seconds)
            rates = f"{games / elapsed:>10.1f}{moves / elapsed:>10.0f}"
            print(f"{game.id:<14}{players:>8}{games:>8}{rates}")


if __name__ == "__main__":
    typer.run(main)
