"""Dominion speed benchmark: Big Money vs Big Money, two players, on one core.

Prints games per second and the average number of turns per player for the Skyport
Dominion: Rising Sun engine (published simulators put Big Money mirrors at 17.1–17.8
turns), and the same games per second for `pyminion`, a plain callback-based Python
Dominion engine, when it can be installed into a throwaway virtualenv outside the project
(never a project dependency).

    python bench/dominion_speed.py [--games 2000] [--pyminion-games 2000] [--no-pyminion]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from services.ai import play_match  # noqa: E402
from services.games.dominion import game  # noqa: E402
from services.games.dominion.big_money import BigMoneyBot  # noqa: E402
from services.games.dominion.cards import KINGDOM_CARDS, OMENS  # noqa: E402

KINGDOM = [card for card in KINGDOM_CARDS if card not in OMENS][:10]
"""No Omen, so no Prophecy; Big Money buys none of them anyway."""
PYMINION_VENV = Path("/tmp/pyminion-venv")
PYMINION_GAMES = """
import logging, sys, time
logging.disable(logging.CRITICAL)
from pyminion.bots.examples import BigMoney
from pyminion.expansions.base import base_set
from pyminion.game import Game
games, turns = int(sys.argv[1]), 0
start = time.perf_counter()
for _ in range(games):
    players = [BigMoney(player_id="a"), BigMoney(player_id="b")]
    Game(players=players, expansions=[base_set], log_stdout=False).play()
    turns += sum(p.turns for p in players) / 2
print(games / (time.perf_counter() - start), turns / games)
"""


def one_core() -> None:
    """Pin this process (and the pyminion child it starts) to a single core."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def skyport_big_money(games: int) -> tuple[float, float]:
    turns = 0.0
    start = time.perf_counter()
    for seed in range(games):
        record = play_match(game, [BigMoneyBot(), BigMoneyBot()], seed, {"kingdom": KINGDOM})
        turns += sum(p.turns for p in record.state.player_states) / 2
    return games / (time.perf_counter() - start), turns / games


def pyminion_python() -> tuple[Path | None, str]:
    """The throwaway venv's python with pyminion installed, or why there is none."""
    python = PYMINION_VENV / "bin" / "python"
    check = [str(python), "-c", "import pyminion"]
    if python.exists() and subprocess.run(check, capture_output=True).returncode == 0:
        return python, ""
    steps = [
        [sys.executable, "-m", "venv", str(PYMINION_VENV)],
        [str(python), "-m", "pip", "install", "--quiet", "pyminion"],
    ]
    for step in steps:
        done = subprocess.run(step, capture_output=True, text=True)
        if done.returncode != 0:
            why = (done.stderr or done.stdout).strip().splitlines()[-3:]
            return None, f"`{' '.join(step)}` failed: {' / '.join(why)}"
    return python, ""


def pyminion_big_money(games: int) -> str:
    python, why = pyminion_python()
    if python is None:
        return f"pyminion: not measured — it could not be installed ({why})"
    run = subprocess.run(
        [str(python), "-c", PYMINION_GAMES, str(games)], capture_output=True, text=True
    )
    if run.returncode != 0:
        return f"pyminion: not measured — it failed to run: {run.stderr.strip()[-300:]}"
    rate, turns = (float(x) for x in run.stdout.split())
    return (
        f"pyminion (callback-based engine): {rate:8.1f} games/s   {turns:5.2f} turns per "
        f"player over {games} games (its Big Money buys no Duchies)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--pyminion-games", type=int, default=2000)
    parser.add_argument("--no-pyminion", action="store_true")
    args = parser.parse_args()
    one_core()
    print("Dominion — Big Money vs Big Money, 2 players, one core")
    rate, turns = skyport_big_money(args.games)
    print(
        f"skyport dominion engine:          {rate:8.1f} games/s   {turns:5.2f} turns per "
        f"player over {args.games} games (published simulators: 17.1–17.8)"
    )
    if not args.no_pyminion:
        print(pyminion_big_money(args.pyminion_games))


if __name__ == "__main__":
    main()
