"""Where a REST move's CPU goes inside the service: the parts of one committed move (the
mover's `GET legal-moves`, then its `POST moves` answered with the view), timed in this
process on real Redis, without HTTP. The HTTP layer (uvicorn, middlewares, routing) is
what `bench/load.py` adds on top; this bench splits the rest.

Each part is the CPU of this thread (`time.thread_time`) spent inside the named calls,
counted once where they nest (the outermost timed call owns the time). Redis round
trips, by command, are the client's side of each (packing, the socket calls, parsing);
"other service code" is the move's total less every named part. A timed call costs
about a microsecond more than it would untimed, so the parts called once per legal move
(moves to JSON, labels) read somewhat high. The garbage collector is tuned as the server
tunes it after start-up (`services.api.heap`).

    python bench/move_parts.py [--games 20] [--game sky-islands,dominion]
        [--redis-url redis://127.0.0.1:6379/15]
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import gc
import random
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.service_run import arguments, own_service, run_prefix  # noqa: E402
from services.api.heap import settle_after_startup  # noqa: E402
from services.api.inputs import json_response  # noqa: E402
from services.gameplay.auth import Credentials  # noqa: E402
from services.gameplay.build import Gameplay  # noqa: E402
from services.gameplay.payloads import CreateGameRequest  # noqa: E402
from services.store import GameRecord, LogEntry  # noqa: E402

ANYONE = Credentials(None, "127.0.0.1")
PREFIX = run_prefix("parts")
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


@contextmanager
def instrumented(gameplay: Gameplay, parts: Parts) -> Iterator[None]:
    """Time the parts while the block runs: on these objects (each game's engine, this
    Redis client, the commit hooks) and on the record classes (made anew per move)."""
    patches: list[tuple[Any, str, Callable[..., Any]]] = [
        (gameplay.redis, "execute_command", parts.by_command),
        (GameRecord, "from_fields", functools.partial(parts.wrap, "game record from Redis fields")),
        (LogEntry, "to_json", functools.partial(parts.wrap, "log entry encoding")),
    ]
    for game in gameplay.service.games.values():
        patches += [
            (game, method, functools.partial(parts.wrap, part))
            for method, part in ENGINE_PARTS.items()
        ]
    for hook in gameplay.service.pipeline.hooks:
        patches.append(
            (hook, "after_commit", functools.partial(parts.wrap_async, "after-commit hooks"))
        )
    # A class keeps its own attribute (a classmethod, say) to be put back; an object
    # loses the wrapper it was given, and its class's method shows through again.
    kept = [vars(target)[name] if isinstance(target, type) else None for target, name, _ in patches]
    for target, name, timed in patches:
        setattr(target, name, timed(getattr(target, name)))
    try:
        yield
    finally:
        for (target, name, _), own in zip(patches, kept, strict=True):
            if own is None:
                vars(target).pop(name)
            else:
                setattr(target, name, own)


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
    numbers: dict[str, dict[str, float]] = {}
    async with own_service(args.redis_url, PREFIX) as gameplay:
        for game in args.game.split(","):
            parts, rng, moves = Parts(), random.Random(1), 0
            with collector_as_served(), instrumented(gameplay, parts):
                for seed in range(args.games):
                    moves += await play(gameplay, game, seed, parts, rng)
            numbers[game] = per_move(parts, moves)
            print(report(game, args.games, moves, numbers[game]))
    return numbers


@contextmanager
def collector_as_served() -> Iterator[None]:
    """The garbage collector as the server runs it (`settle_after_startup`), and as it was
    again afterwards (a test runs this bench inside its own process, which freezes nothing
    itself: the unfreeze thaws every frozen object)."""
    thresholds = gc.get_threshold()
    settle_after_startup()
    try:
        yield
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)


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
    args = arguments(__doc__.splitlines()[0], argv)
    print("Service CPU per committed REST move, by part (legal-moves + move, no HTTP)")
    return asyncio.run(measure(args))


if __name__ == "__main__":
    main()
