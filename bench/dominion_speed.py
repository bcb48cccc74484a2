"""Dominion speed benchmark: Big Money vs Big Money, two players, Skyport vs pyminion.

Skyport plays through the public contract (`play_match`: prompts, legal moves, apply),
as any bot or the service does. `pyminion`, a plain callback-based Python Dominion
engine, is installed into a throwaway virtualenv outside the project (never a project
dependency) and runs in a child process.

The two engines run interleaved, in chunks of a few games each, both pinned to the same
core, and each chunk is timed in CPU seconds of the process that played it. Whatever else
loads the machine then hits both engines alike, so the printed RATIO is what to read
(pyminion alone measured anywhere from 279 to 632 games/s from one run to the next).
Also printed: average turns per player (published simulators put Big Money mirrors at
17.1–17.8 turns).

    python bench/dominion_speed.py [--games 1000] [--chunk 50] [--no-pyminion]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from services.ai import play_match  # noqa: E402
from services.games.dominion import game  # noqa: E402
from services.games.dominion.big_money import BigMoneyBot  # noqa: E402
from services.games.dominion.cards import KINGDOM_CARDS, OMENS  # noqa: E402
from services.games.dominion.state import DominionState  # noqa: E402

KINGDOM = [card for card in KINGDOM_CARDS if card not in OMENS][:10]
"""No Omen, so no Prophecy; Big Money buys none of them anyway."""
PYMINION_VENV = Path("/tmp/pyminion-venv")
PYMINION_SERVER = """
import logging, sys, time
logging.disable(logging.CRITICAL)
from pyminion.bots.examples import BigMoney
from pyminion.expansions.base import base_set
from pyminion.game import Game
for line in sys.stdin:
    games, turns = int(line), 0.0
    start = time.process_time()
    for _ in range(games):
        players = [BigMoney(player_id="a"), BigMoney(player_id="b")]
        Game(players=players, expansions=[base_set], log_stdout=False).play()
        turns += sum(p.turns for p in players) / 2
    print(time.process_time() - start, turns, flush=True)
"""


@dataclass
class Tally:
    games: int = 0
    seconds: float = 0.0
    turns: float = 0.0

    def add(self, games: int, seconds: float, turns: float) -> None:
        self.games += games
        self.seconds += seconds
        self.turns += turns

    @property
    def rate(self) -> float:
        return self.games / self.seconds

    @property
    def turns_per_player(self) -> float:
        return self.turns / self.games


def one_core() -> None:
    """Pin this process (and the pyminion child it starts) to a single core."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def skyport_chunk(first_seed: int, games: int) -> tuple[float, float]:
    """CPU seconds and total turns per player for `games` Big Money mirrors."""
    turns = 0.0
    start = time.process_time()
    for seed in range(first_seed, first_seed + games):
        record = play_match(game, [BigMoneyBot(), BigMoneyBot()], seed, {"kingdom": KINGDOM})
        assert isinstance(record.state, DominionState)
        turns += sum(p.turns for p in record.state.player_states) / 2
    return time.process_time() - start, turns


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


class Pyminion:
    """A pyminion child process that plays a chunk of games whenever asked."""

    def __init__(self, python: Path) -> None:
        self.process = subprocess.Popen(
            [str(python), "-c", PYMINION_SERVER],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def chunk(self, games: int) -> tuple[float, float]:
        assert self.process.stdin and self.process.stdout
        self.process.stdin.write(f"{games}\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        if not answer:
            raise RuntimeError(f"pyminion stopped (exit code {self.process.wait()})")
        seconds, turns = (float(x) for x in answer.split())
        return seconds, turns

    def close(self) -> None:
        if self.process.stdin:
            self.process.stdin.close()
        self.process.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per engine")
    parser.add_argument("--chunk", type=int, default=50, help="games per interleaved chunk")
    parser.add_argument("--no-pyminion", action="store_true")
    args = parser.parse_args()
    one_core()
    print("Dominion — Big Money vs Big Money, 2 players, one core, CPU time")
    pyminion: Pyminion | None = None
    if not args.no_pyminion:
        python, why = pyminion_python()
        if python is None:
            print(f"pyminion: not measured — it could not be installed ({why})")
        else:
            pyminion = Pyminion(python)
    skyport, other = Tally(), Tally()
    try:
        for first in range(0, args.games, args.chunk):
            games = min(args.chunk, args.games - first)
            skyport.add(games, *skyport_chunk(first, games))
            if pyminion is not None:
                other.add(games, *pyminion.chunk(games))
    finally:
        if pyminion is not None:
            pyminion.close()
    print(
        f"skyport dominion engine:          {skyport.rate:8.1f} games/s   "
        f"{skyport.turns_per_player:5.2f} turns per player over {skyport.games} games "
        "(published simulators: 17.1–17.8)"
    )
    if pyminion is not None:
        print(
            f"pyminion (callback-based engine): {other.rate:8.1f} games/s   "
            f"{other.turns_per_player:5.2f} turns per player (its Big Money buys no Duchies)"
        )
        print(
            f"RATIO skyport / pyminion:         {skyport.rate / other.rate:8.2f}×   "
            f"(interleaved in chunks of {args.chunk} games; target ≥ 2×)"
        )


if __name__ == "__main__":
    main()
