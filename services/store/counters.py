"""Fixed-window counters in Redis, shared by every replica: each (subject, window) has a
key that counts and expires with its window."""

from __future__ import annotations

import time

from redis.asyncio import Redis

# The wall clock that picks the window; tests pin it so a window edge cannot split a test.
clock = time.time

COUNT = """
local added = tonumber(ARGV[2] or '1')
local n = redis.call('INCRBY', KEYS[1], added)
if n == added then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n
"""
"""KEYS[1] the window's key; ARGV[1] the window in ms, ARGV[2] how many to count (1 if
left out). The count with these."""


def window_now(window: int) -> tuple[int, int]:
    """The index of the current window of `window` seconds, and the seconds until it ends."""
    now = clock()
    index = int(now // window)
    return index, max(int((index + 1) * window - now), 1)


class FixedWindows:
    """Counts events of a kind (`name`) per subject, in windows of `window` seconds."""

    def __init__(self, redis: Redis, prefix: str, name: str, window: int) -> None:
        self.prefix = prefix
        self.name = name
        self.window = window
        self._count = redis.register_script(COUNT)

    async def add(self, subject: str) -> tuple[int, int]:
        """Counts one event of `subject`: the events in its window so far (this one
        included), and the seconds until the window ends."""
        index, reset = window_now(self.window)
        key = f"{self.prefix}:{self.name}:{{{subject}}}:{index}"
        count = await self._count(keys=[key], args=[self.window * 1000])
        return int(count), reset
