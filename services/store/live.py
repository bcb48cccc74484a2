"""Live updates: every change of a game rings its pub/sub channel (from inside the Lua
scripts), and each API replica listens on one connection for all games — while any
reader of that replica watches a game, so a replica nobody watches through spends
nothing on every commit's ring.

The ring only says "look again": readers then read the log stream, which is the truth.
A lost ring costs latency, not events, because readers also look again after a timeout.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import structlog
from redis.asyncio import Redis

from .keys import game_id_of_channel, live_pattern

log = structlog.get_logger(__name__)

POLL_SECONDS = 1.0
"""How long one pub/sub read waits before checking whether to stop."""
STOP_TRIES = 10
"""Cancellations (0.5 s apart) of the listener before a stop gives up on it."""


class Doorbell:
    """Counts the rings of one game; waiters wake on the next ring or a timeout."""

    def __init__(self) -> None:
        self.rings = 0
        self.watchers = 0
        self._rung = asyncio.Event()

    def ring(self) -> None:
        self.rings += 1
        rung, self._rung = self._rung, asyncio.Event()
        rung.set()

    async def wait(self, seen: int, timeout: float) -> bool:
        """Wait until it has rung more than `seen` times. False on timeout."""
        if self.rings != seen:
            return True
        try:
            # Not wait_for: on Python 3.11 it runs the wait as a second task, and a
            # cancellation (a client gone) that meets that task can leave the reader
            # cancelling forever, which also holds up the server's shutdown.
            async with asyncio.timeout(timeout):
                await self._rung.wait()
        except TimeoutError:
            return False
        return True


class LiveUpdates:
    """One pattern subscription per replica, fanned out to the local watchers. It is
    made when a reader starts watching and dropped within `POLL_SECONDS` of the last
    one leaving; once it is up, every watcher is rung to look again (so nothing that
    committed while it was down is missed)."""

    def __init__(self, redis: Redis, prefix: str) -> None:
        self.redis = redis
        self.prefix = prefix
        self._bells: dict[str, Doorbell] = {}
        self._task: asyncio.Task[None] | None = None
        self._started = False
        self._stopping = False
        self.closing = False
        """Set when the server is shutting down: live readers end their streams."""

    async def start(self) -> None:
        """Listen in the background whenever someone watches. Until the subscription is
        up, readers poll."""
        self._stopping = False
        self._started = True
        self._listen_if_watched()

    async def stop(self) -> None:
        # redis-py may turn a cancellation that lands in a timed pub/sub read into a
        # plain timeout and read on; the flag and the repeated cancel end the loop anyway.
        self._stopping = True
        self._started = False
        task, self._task = self._task, None
        for _ in range(STOP_TRIES):
            if task is None or task.done():
                return
            task.cancel()
            await asyncio.wait({task}, timeout=0.5)
        log.warning("live_updates_listener_did_not_stop")

    def close_streams(self) -> None:
        """Wake every live reader and tell it to end (clients reconnect elsewhere)."""
        self.closing = True
        self._ring_all()

    @contextlib.asynccontextmanager
    async def watch(self, game_id: str) -> AsyncIterator[Doorbell]:
        bell = self._bells.setdefault(game_id, Doorbell())
        bell.watchers += 1
        self._listen_if_watched()
        try:
            yield bell
        finally:
            bell.watchers -= 1
            if bell.watchers == 0:
                self._bells.pop(game_id, None)

    def ring(self, game_id: str) -> None:
        bell = self._bells.get(game_id)
        if bell is not None:
            bell.ring()

    def _listen_if_watched(self) -> None:
        listening = self._task is not None and not self._task.done()
        if self._started and not self._stopping and self._bells and not listening:
            self._task = asyncio.create_task(self._listen_forever(), name="skyport-live-updates")

    async def _listen_forever(self) -> None:
        # Checked with no await before returning: a reader that starts watching once
        # this task is done starts another.
        while not self._stopping and self._bells:
            try:
                await self._listen()
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the connection dropped: readers poll meanwhile
                # No ring here: with Redis down, every reader woken would only fail its
                # read. `_listen` rings them all once the subscription is back.
                log.warning("live_updates_reconnecting", error=type(error).__name__)
                await asyncio.sleep(1)

    async def _listen(self) -> None:
        pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        try:
            await pubsub.psubscribe(live_pattern(self.prefix))
            self._ring_all()  # anything missed while (re)connecting: look again
            while not self._stopping and self._bells:
                message = await pubsub.get_message(timeout=POLL_SECONDS)
                if message and message.get("type") == "pmessage":
                    self.ring(game_id_of_channel(self.prefix, message["channel"]))
        finally:
            with contextlib.suppress(Exception):
                async with asyncio.timeout(POLL_SECONDS):
                    await pubsub.aclose()

    def _ring_all(self) -> None:
        for bell in list(self._bells.values()):
            bell.ring()
