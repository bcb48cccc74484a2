"""What happens after a commit without a client asking: bot turns and scoring.

The seam is one method, `after_commit(game_id, version)`. The work itself is
`GameService.advance(game_id, version)`, which is idempotent: it acts only if the game
is still at `version`, so a repeated or stale call is a no-op. This in-process
dispatcher runs it as background asyncio tasks; a Celery-backed one can send the same
(game_id, version) to workers instead.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Protocol

import structlog

log = structlog.get_logger(__name__)

Advance = Callable[[str, int], Awaitable[None]]


class Dispatcher(Protocol):
    def after_commit(self, game_id: str, version: int) -> None:
        """Game `game_id` now is at `version`: play bots or score it if that is due."""


class InProcessDispatcher:
    """Runs `advance` in background tasks of this process, one per (game, version)."""

    def __init__(self, advance: Advance) -> None:
        self._advance = advance
        self._running: dict[tuple[str, int], asyncio.Task[None]] = {}

    def after_commit(self, game_id: str, version: int) -> None:
        key = (game_id, version)
        if key in self._running:
            return
        task = asyncio.get_running_loop().create_task(self._run(key), name=f"advance-{key}")
        self._running[key] = task

    async def _run(self, key: tuple[str, int]) -> None:
        try:
            await self._advance(*key)
        except Exception as error:
            log.error("advance_failed", game_id=key[0], version=key[1], exc_info=error)
        finally:
            self._running.pop(key, None)

    @property
    def busy(self) -> int:
        return len(self._running)

    async def close(self) -> None:
        tasks = list(self._running.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
