"""Where a REST move's CPU goes inside the service: the parts of one committed move (the
mover's `GET legal-moves`, then its `POST moves` answered with the view), timed in this
process on real Redis, without HTTP. The HTTP layer (uvicorn, middlewares, routing) is
what `bench/load.py` adds on top; this bench splits the rest.

Each part is the CPU of this thread (`time.thread_time`) spent inside the named calls,
counted once where they nest (the outermost timed call owns the time). Redis round
trips, by command, are the client's side of each (packing, the socket calls, parsing);
"other service code" is the move's total less every named part. A timed call costs
about a microsecond more than it would untimed, so the parts called once per legal move
(moves to JSON, labels) read somewhat high.

    python bench/move_parts.py [--games 20] [--game sky-islands,dominion]
        [--redis-url redis://127.0.0.1:6379/15]
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import os
import random
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from services.api.inputs import json_response  # noqa: E402
from services.gameplay.auth import Credentials  # noqa: E402
from services.gameplay.build import Gameplay, build_service  # noqa: E402
from services.gameplay.dispatch import NoDispatch  # noqa: E402
from services.gameplay.payloads import CreateGameRequest  # noqa: E402
from services.gameplay.settings import Settings  # noqa: E402
from services.store import GameRecord, LogEntry  # noqa: E402

ANYONE = Credentials(None, "127.0.0.1")
PREFIX = f"skyport-bench-parts-{os.getpid()}"
"""This run's own keys, deleted at the end."""

ENGINE_PARTS = {
    "legal_moves": "rules: legal moves",
    "apply": "rules: apply the move (and copy)",
    "prompts": "rules: prompts",
    "view": "the mover's view",
    "dump_move": "moves to JSON (the listing)",
    "describe": "move labels (the listing)",
    "dump_state": "state to JSON",
    "load_state": "state from JSON",
}
OTHER = "other service code"
TOTAL = "total"


class Parts:
    """CPU seconds per part; only the outermost timed call counts."""

    def __init__(self) -> None:
        self.seconds: defaultdict[str, float] = defaultdict(float)
        self._depth = 0

    @contextmanager
    def timing(self, part: str) -> Iterator[None]:
        self._depth += 1
        started = time.thread_time()
        try:
            yield
        finally:
            self._depth -= 1
            if self._depth == 0:
                self.seconds[part] += time.thread_time() - started

    def wrap(self, part: str, function: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(function)
        def timed(*args: Any, **kwargs: Any) -> Any:
            with self.timing(part):
                return function(*args, **kwargs)

        return timed

    def wrap_async(self, part: str, function: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(function)
        async def timed(*args: Any, **kwargs: Any) -> Any:
            with self.timing(part):
                return await function(*args, **kwargs)

        return timed

    def by_command(self, execute: Callable[..., Any]) -> Callable[..., Any]:
        """Redis round trips, by command (`HGETALL`: reading the game; `EVALSHA`: a commit)."""

        @functools.wraps(execute)
        async def timed(*args: Any, **options: Any) -> Any:
            with self.timing(f"Redis {str(args[0]).upper()}"):
                return await execute(*args, **options)

        return timed


def instrument(gameplay: Gameplay, parts: Parts) -> None:
    """Time the parts on these objects only (each game's engine, this Redis client)."""
    redis = gameplay.redis
    redis.execute_command = parts.by_command(redis.execute_command)  # type: ignore[method-assign]
    for game in gameplay.service.games.values():
        for method, part in ENGINE_PARTS.items():
            setattr(game, method, parts.wrap(part, getattr(game, method)))
    for hook in gameplay.service.pipeline.hooks:
        hook.after_commit = parts.wrap_async("after-commit hooks", hook.after_commit)  # type: ignore[method-assign]


@contextmanager
def record_parts(parts: Parts) -> Iterator[None]:
    """Class-level parts (records and log entries are made anew per move), for the run."""
    from_fields, to_json = GameRecord.from_fields, LogEntry.to_json
    GameRecord.from_fields = parts.wrap("game record from Redis fields", from_fields)  # type: ignore[method-assign]
    LogEntry.to_json = parts.wrap("log entry encoding", to_json)  # type: ignore[method-assign]
    try:
        yield
    finally:
        GameRecord.from_fields, LogEntry.to_json = from_fields, to_json  # type: ignore[method-assign]


async def play(gameplay: Gameplay, game: str, seed: int, parts: Parts, rng: random.Random) -> int:
    """One game of two humans to the end, as a REST client plays it; its moves."""
    service = gameplay.service
    request = CreateGameRequest(game=game, seats=[{"name": "A"}, {"name": "B"}], seed=seed)
    created, _ = await service.create_game(ANYONE, request, None)
    tokens = [seat.token for seat in created.seats]
    turn = list((await service.get_game(created.id, ANYONE)).turn)
    moves = 0
    while turn:
        mover = Credentials(tokens[turn[0]], "127.0.0.1")
        started = time.thread_time()
        legal = await service.legal_moves(created.id, mover)
        with parts.timing("JSON answers"):
            json_response(legal)
        move = {k: v for k, v in rng.choice(legal.moves).items() if k != "label"}
        accepted, _ = await service.make_move(created.id, mover, move, legal.version, None)
        with parts.timing("JSON answers"):
            json_response(accepted)
        parts.seconds[TOTAL] += time.thread_time() - started
        moves += 1
        turn = list(accepted.turn) if accepted.status == "active" else []
    return moves


async def measure(args: argparse.Namespace) -> dict[str, dict[str, float]]:
    """Microseconds per committed move, by part, by game."""
    settings = Settings(redis_url=args.redis_url, key_prefix=PREFIX)
    numbers: dict[str, dict[str, float]] = {}
    async with build_service(settings, dispatcher=NoDispatch()) as gameplay:
        try:
            for game in args.game.split(","):
                parts = Parts()
                instrument(gameplay, parts)
                rng, moves = random.Random(1), 0
                with record_parts(parts):
                    for seed in range(args.games):
                        moves += await play(gameplay, game, seed, parts, rng)
                numbers[game] = per_move(parts, moves)
                print(report(game, args.games, moves, numbers[game]))
                uninstrument(gameplay)
        finally:
            keys = [key async for key in gameplay.redis.scan_iter(f"{PREFIX}*", count=1000)]
            for start in range(0, len(keys), 500):
                await gameplay.redis.delete(*keys[start : start + 500])
    return numbers


def uninstrument(gameplay: Gameplay) -> None:
    """Drop the timing wrappers (instance attributes) so the next game starts clean."""
    for target in [
        gameplay.redis,
        *gameplay.service.games.values(),
        *gameplay.service.pipeline.hooks,
    ]:
        for name in ["execute_command", "after_commit", *ENGINE_PARTS]:
            target.__dict__.pop(name, None)


def per_move(parts: Parts, moves: int) -> dict[str, float]:
    seconds = dict(parts.seconds)
    total = seconds.pop(TOTAL)
    named = sorted(seconds.items(), key=lambda item: -item[1])
    numbers = {part: spent / moves * 1e6 for part, spent in named}
    numbers[OTHER] = (total - sum(seconds.values())) / moves * 1e6
    numbers[TOTAL] = total / moves * 1e6
    return numbers


def report(game: str, games: int, moves: int, numbers: dict[str, float]) -> str:
    total = numbers[TOTAL]
    lines = [f"\n{game}: {games} games, {moves} moves; service CPU per move {total:,.0f} µs"]
    for part, micros in numbers.items():
        if part != TOTAL:
            lines.append(f"  {part:<36} {micros:8.1f} µs  {micros / total:6.1%}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> dict[str, dict[str, float]]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per game type")
    parser.add_argument("--game", default="sky-islands,dominion", help="comma-separated")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/15")
    args = parser.parse_args(argv)
    print("Service CPU per committed REST move, by part (legal-moves + move, no HTTP)")
    return asyncio.run(measure(args))


if __name__ == "__main__":
    main()
