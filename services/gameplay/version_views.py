"""A finished game as a spectator saw it at a past version, replayed off the event loop.

A record holds the moves, not the states, so the state at a version is the record
replayed from its seed (`records.replay`): about 30 µs a move for Dominion, 60 ms for a
2,000-version game. That ran on the event loop, uncached, once per request (and once
per aliased `gameAtVersion`): 30 of them stalled every other request for 2 to 4 s.

Now the replay runs in a worker thread, `REPLAYS_AT_ONCE` at most in the process, and
one game replays one version at a time; a replay keeps the states it passes every
twentieth of the game (every `CHECKPOINT_EVERY` versions at least), so the next one of
that game starts from the nearest of them below its version rather than from the seed.
The parsed record, its checkpoints and its last `VIEWS_KEPT` views answered are kept for
the last `GAMES_KEPT` games, `KEPT_SECONDS` each: a finished game's record never
changes, and after that time it is read again (so one whose record expired is not
served much longer). The answers are the same: each
state still comes from replaying, and checking, the recorded moves.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from services.engine import Game, GameState

from .records import Record, states, states_after

REPLAYS_AT_ONCE = 2
"""Replays running at once in the process (each in a worker thread)."""
CHECKPOINT_EVERY = 50
"""Versions between kept states, at least; a twentieth of the game for longer ones."""
GAMES_KEPT = 4
"""Games whose parsed record and checkpoints are kept (a 2,000-move record takes 5 MB)."""
VIEWS_KEPT = 64
"""Views answered that are kept per game (about 10 KB each)."""
KEPT_SECONDS = 60.0
"""How long a record, its checkpoints and its views are used before reading it again."""


@dataclass
class _Replays:
    """One game's parsed record and the states kept from replaying it."""

    record: Record
    game: Game
    loaded_at: float
    checkpoints: dict[int, GameState] = field(default_factory=dict)
    views: OrderedDict[int, dict[str, Any]] = field(default_factory=OrderedDict)

    @property
    def every(self) -> int:
        return max(CHECKPOINT_EVERY, -(-self.record.version // 20))

    def view_at(self, version: int) -> dict[str, Any]:
        """The spectator's view at `version` (run in a worker thread: no other replay
        of this game runs meanwhile). ReplayMismatch if the record does not replay."""
        start = max((v for v in self.checkpoints if v <= version), default=None)
        if start is None:
            replayed = states(self.record, self.game)
        else:
            replayed = states_after(self.record, self.game, start, self.checkpoints[start])
            if start == version:
                return self._view(self.checkpoints[start])
        for at, state in replayed:
            if at % self.every == 0:
                self.checkpoints.setdefault(at, state)
            if at == version:
                return self._view(state)
        raise AssertionError("unreachable: every version up to the last is replayed")

    def _view(self, state: GameState) -> dict[str, Any]:
        view: dict[str, Any] = self.game.view(state, None).model_dump(mode="json")
        return view


class VersionViews:
    """Views of finished games at past versions, with what their replays left."""

    def __init__(self) -> None:
        self._games: OrderedDict[str, _Replays] = OrderedDict()
        self._running = asyncio.Semaphore(REPLAYS_AT_ONCE)
        self._turns: dict[str, tuple[asyncio.Lock, int]] = {}

    async def view(
        self,
        game_id: str,
        version: int,
        load: Callable[[], Awaitable[Record]],
        game_of: Callable[[Record], Game],
        check: Callable[[Record], None],
    ) -> tuple[Record, dict[str, Any]]:
        """The record (read with `load` unless kept, then passed to `check`, which may
        raise) and the view at `version`. Raises what `load`, `check` and the replay
        (ReplayMismatch) raise."""
        async with self._turn(game_id):
            replays = self._kept(game_id)
            if replays is None:
                record = await load()
                replays = _Replays(record, game_of(record), time.monotonic())
                self._keep(game_id, replays)
            check(replays.record)
            view = replays.views.get(version)
            if view is not None:
                replays.views.move_to_end(version)
                return replays.record, view
            async with self._running:
                view = await _in_thread(replays.view_at, version)
            replays.views[version] = view
            while len(replays.views) > VIEWS_KEPT:
                replays.views.popitem(last=False)
            return replays.record, view

    def _kept(self, game_id: str) -> _Replays | None:
        replays = self._games.get(game_id)
        if replays is None:
            return None
        if time.monotonic() - replays.loaded_at > KEPT_SECONDS:
            del self._games[game_id]
            return None
        self._games.move_to_end(game_id)
        return replays

    def _keep(self, game_id: str, replays: _Replays) -> None:
        self._games[game_id] = replays
        while len(self._games) > GAMES_KEPT:
            self._games.popitem(last=False)

    @asynccontextmanager
    async def _turn(self, game_id: str) -> AsyncIterator[None]:
        """One request of a game at a time (the next one finds what this one kept)."""
        lock, users = self._turns.get(game_id) or (asyncio.Lock(), 0)
        self._turns[game_id] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._turns[game_id]
            if users == 1:
                del self._turns[game_id]
            else:
                self._turns[game_id] = (lock, users - 1)


async def _in_thread(function: Callable[[int], dict[str, Any]], version: int) -> dict[str, Any]:
    """`asyncio.to_thread`, but a caller cancelled meanwhile still waits for the thread to
    end (a thread cannot be stopped) before it goes: leaving early would free its place,
    and its game's turn, for more replays than allowed."""
    future = asyncio.ensure_future(asyncio.to_thread(function, version))
    cancelled = False
    while not future.done():
        try:
            await asyncio.wait([future])  # unlike awaiting it, does not cancel it
        except asyncio.CancelledError:
            cancelled = True
    if cancelled:
        raise asyncio.CancelledError
    return future.result()
