"""How a live reader rides out a store it cannot reach: it keeps its stream, reads again
after a wait that doubles each time, and gives up only after a limit."""

from __future__ import annotations

import time
from dataclasses import dataclass

import structlog

from .problems import store_unavailable

log = structlog.get_logger(__name__)

FIRST_WAIT_SECONDS = 0.25


@dataclass
class StoreOutage:
    """The store a live reader reads could not be reached since `began` (None: it can)."""

    limit: float
    """Seconds an outage may last before the reader gives up."""
    longest_wait: float
    """The longest wait between two reads (the stream's keep-alive period)."""
    began: float | None = None
    _wait: float = FIRST_WAIT_SECONDS

    def next_wait(self, game_id: str, error: BaseException) -> float:
        """How long to wait before reading again; raises `store_unavailable` (a problem
        to retry later) once the outage has lasted `limit` seconds."""
        now = time.monotonic()
        if self.began is None:
            self.began, self._wait = now, FIRST_WAIT_SECONDS
            log.warning("live_reader_waits_for_store", game_id=game_id, error=type(error).__name__)
        elif now - self.began >= self.limit:
            log.warning("live_reader_gave_up_on_store", game_id=game_id, seconds=self.limit)
            raise store_unavailable() from error
        wait, self._wait = self._wait, min(self._wait * 2, self.longest_wait)
        return min(wait, self.longest_wait, max(0.0, self.began + self.limit - now))

    def over(self) -> None:
        """The store answered."""
        self.began = None
