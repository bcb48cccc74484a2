"""Counts of what each client IP holds open on this replica (GraphQL WebSockets, live
streams, connections), each up to a limit."""

from __future__ import annotations

from collections import Counter

from .problems import Problem


class ConnectionsPerClient:
    """How many live connections (GraphQL WebSockets, or live streams) each client IP
    holds open on this replica, up to `limit` (0: no limit)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._open: Counter[str] = Counter()

    def open(self, client: str) -> bool:
        """Counts a new connection of `client`; False (and not counted) if over the limit."""
        if self.limit and self._open[client] >= self.limit:
            return False
        self._open[client] += 1
        return True

    def close(self, client: str) -> None:
        self._open[client] -= 1
        if self._open[client] <= 0:
            del self._open[client]


class LiveStreams(ConnectionsPerClient):
    """One budget of live streams per client IP, whichever door opens them: an SSE stream
    or a GraphQL `gameEvents` subscription run the same feed, which reads Redis on every
    keep-alive (a subscription was bounded only by sockets x subscriptions, 1,000)."""

    def refusal(self) -> Problem:
        return Problem(
            429,
            "too_many_connections",
            f"This client already holds {self.limit} live streams open (SSE streams and "
            "GraphQL subscriptions); close one first.",
        )
