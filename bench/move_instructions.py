"""Instructions per committed REST move inside the service, counted by valgrind's
callgrind: the same count for the same code whatever else the machine runs, where CPU
time moves by ±20 % from one run to the next. For telling whether a change to the
service helps: run it on both trees and compare.

A move here is what `move_parts.py` plays: the mover's legal moves, then the move
answered with the view, in-process on real Redis without HTTP (the Redis client's side
is counted; the server is not). Each game type is played in two child processes under
callgrind, one with `--games` games and one with twice as many; the difference in
instructions over the difference in moves is the count per move, without start-up,
imports and warm-up. Both children run at once (callgrind counts the same either way).
Needs valgrind (Debian's `valgrind`); about 2 minutes per game type by default.

    python bench/move_instructions.py [--games 4] [--game sky-islands,dominion]
        [--redis-url redis://127.0.0.1:6379/15]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.move_parts import Parts, play  # noqa: E402
from bench.service_run import own_service, run_prefix  # noqa: E402

GAMES = {"sky-islands": 4, "dominion": 1}
"""Games per child by default (Dominion's random games run to hundreds of moves)."""
COLLECTED = re.compile(r"Collected : (\d+)")
MOVES = re.compile(r"^moves (\d+)$", re.MULTILINE)


@dataclass
class Counting:
    """A child process playing games under callgrind, which writes to `scratch`."""

    game: str
    process: subprocess.Popen[str]
    scratch: str

    def stop(self) -> None:
        """End the child early (its twin failed) and drop its scratch files."""
        self.process.kill()
        self.process.communicate()
        shutil.rmtree(self.scratch, ignore_errors=True)

    def result(self) -> tuple[int, int]:
        """(instructions, moves), once the child ends."""
        out, err = self.process.communicate()
        shutil.rmtree(self.scratch, ignore_errors=True)
        collected, moves = COLLECTED.search(err), MOVES.search(out)
        if self.process.returncode != 0 or collected is None or moves is None:
            raise SystemExit(f"the {self.game} child failed:\n{err[-2000:]}")
        return int(collected.group(1)), int(moves.group(1))


async def child(redis_url: str, game: str, games: int) -> None:
    """Play `games` games (seeds 0, 1, ...) and print how many moves they took."""
    async with own_service(redis_url, run_prefix(f"instructions-{game}")) as gameplay:
        moves, rng = 0, random.Random(1)
        for seed in range(games):
            moves += await play(gameplay, game, seed, Parts(), rng)
    print(f"moves {moves}")


def counting(redis_url: str, game: str, games: int) -> Counting:
    scratch = tempfile.mkdtemp(prefix="skyport-callgrind-")
    command = [
        "valgrind",
        "--tool=callgrind",
        f"--callgrind-out-file={scratch}/out",
        sys.executable,
        __file__,
        "--child",
        f"--game={game}",
        f"--games={games}",
        f"--redis-url={redis_url}",
    ]
    # The same hash seed in every child: set and dict layouts then cost the same.
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    process = subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    return Counting(game, process, scratch)


def per_move(redis_url: str, game: str, games: int) -> tuple[float, int]:
    """Instructions per move, and the moves they were counted over."""
    short, long = counting(redis_url, game, games), counting(redis_url, game, 2 * games)
    try:
        few, fewer_moves = short.result()
    except SystemExit:
        long.stop()  # not left running under valgrind for minutes after its twin failed
        raise
    many, more_moves = long.result()
    moves = more_moves - fewer_moves
    if moves <= 0:
        raise SystemExit(f"{game}: the longer run played no more moves ({more_moves})")
    return (many - few) / moves, moves


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", type=int, help="games in the shorter child (default: 4, Dominion 1)"
    )
    parser.add_argument("--game", default="sky-islands,dominion", help="comma-separated")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/15")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> dict[str, float]:
    args = parse(argv)
    if args.child:
        asyncio.run(child(args.redis_url, args.game, args.games))
        return {}
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian: apt-get install valgrind)")
    print("Instructions per committed REST move, service in-process (callgrind)")
    numbers = {}
    for game in args.game.split(","):
        games = args.games or GAMES.get(game, 4)
        numbers[game], moves = per_move(args.redis_url, game, games)
        print(f"  {game:<14} {numbers[game] / 1e6:7.3f} M instructions per move ({moves} moves)")
    return numbers


if __name__ == "__main__":
    main()
