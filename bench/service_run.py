"""What the in-process service benches (`bot_turns.py`, `move_parts.py`) share: their
arguments, and a service on real Redis whose keys are the run's own, deleted at its end.
Nothing is dispatched: each bench drives the games itself."""

from __future__ import annotations

import argparse
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from services.gameplay.build import Gameplay, build_service
from services.gameplay.dispatch import NoDispatch
from services.gameplay.settings import Settings


def arguments(description: str, argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--games", type=int, default=20, help="games per game type")
    parser.add_argument("--game", default="sky-islands,dominion", help="comma-separated")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/15")
    return parser.parse_args(argv)


def run_prefix(bench: str) -> str:
    """A key prefix of this run's own (two runs on one Redis must not delete each other's)."""
    return f"skyport-bench-{bench}-{os.getpid()}"


@asynccontextmanager
async def own_service(redis_url: str, prefix: str) -> AsyncIterator[Gameplay]:
    settings = Settings(redis_url=redis_url, key_prefix=prefix)
    async with build_service(settings, dispatcher=NoDispatch()) as gameplay:
        try:
            yield gameplay
        finally:
            keys = [key async for key in gameplay.redis.scan_iter(f"{prefix}*", count=1000)]
            for start in range(0, len(keys), 500):
                await gameplay.redis.delete(*keys[start : start + 500])
