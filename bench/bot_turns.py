"""Worker CPU per bot turn: what a Celery worker spends on one `skyport.advance` task, less
the broker. The referee plays games of bots only, turn after turn, on real Redis: it reads
the record, plays the prompted bot, commits, and reads again for the next turn. Printed:
CPU milliseconds (user + system of this process, the bots' threads included) per
committed bot move, for `random` bots, so that the rules and the service's own work are
what is measured, not a search.

    python bench/bot_turns.py [--games 20] [--game sky-islands,dominion]
        [--redis-url redis://127.0.0.1:6379/15]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.service_run import arguments, own_service, run_prefix  # noqa: E402
from services.gameplay.auth import Credentials  # noqa: E402
from services.gameplay.build import Gameplay  # noqa: E402
from services.gameplay.payloads import CreateGameRequest  # noqa: E402
from services.store import GameStatus  # noqa: E402

ANYONE = Credentials(None, "127.0.0.1")
PREFIX = run_prefix("bots")
"""This run's own keys, deleted at the end."""


async def play_to_the_end(gameplay: Gameplay, game: str, seed: int) -> tuple[int, float]:
    """Moves committed and CPU seconds spent on one game of random bots."""
    seats = [{"name": f"Bot {n}", "bot": "random"} for n in range(2)]
    request = CreateGameRequest(game=game, seats=seats, seed=seed)
    created, _ = await gameplay.service.create_game(ANYONE, request, None)
    record = await gameplay.store.load(created.id)
    assert record is not None
    started = time.process_time()
    while record.status not in (GameStatus.FINISHED, GameStatus.ABORTED):
        await gameplay.referee.advance(record.id, record.version)
        record = await gameplay.store.load(record.id)
        assert record is not None
    return record.version, time.process_time() - started


async def measure(args: argparse.Namespace) -> dict[str, float]:
    """CPU milliseconds per bot move, by game."""
    per_move: dict[str, float] = {}
    async with own_service(args.redis_url, PREFIX) as gameplay:
        for game in args.game.split(","):
            moves, seconds = 0, 0.0
            for seed in range(args.games):
                made, spent = await play_to_the_end(gameplay, game, seed)
                moves, seconds = moves + made, seconds + spent
            per_move[game] = seconds / moves * 1000
            print(
                f"{game:<14} {args.games:>4} games {moves:>7} bot moves   "
                f"{seconds / moves * 1000:6.3f} ms CPU per bot move"
            )
    return per_move


def main(argv: list[str] | None = None) -> dict[str, float]:
    args = arguments(__doc__.splitlines()[0], argv)
    print("Worker CPU per bot turn (referee.advance turn after turn, random bots, 2 players)")
    return asyncio.run(measure(args))


if __name__ == "__main__":
    main()
