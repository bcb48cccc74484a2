"""uvicorn's HTTP protocol with three limits it lacks: a deadline for receiving each
request whole, a cap on the size of a request's head (its URL and headers), and a cap on
the connections one address holds open.

**The deadline.** uvicorn times out a connection only while it idles between requests,
and any byte that arrives resets that timer. So a client that connects and sends nothing,
or sends a header line now and then (Slowloris), holds a connection and its socket
forever: enough of them and the replica runs out of file descriptors. ASGI middleware
cannot help, since the app sees a request only once its headers are in.

Here every request must arrive whole (headers and body) within `receipt_seconds` of when the
server started waiting for it: the connection opening, the previous response ending, or
its own first byte, whichever came last. Past that, the connection is closed: silently
if nothing of a request came (as keep-alive closes an idle connection, so a client that
sends its next request just then is not handed a 408 that answers nothing of its own);
after a `408 request_timeout` problem document if the headers did not all come; and
without an answer if the body stopped coming (the app, reading it, sees the client
disconnect). Responses take as long as they take, and a WebSocket is left alone once
upgraded.

**The head's size.** uvicorn's httptools protocol gathers the URL and the headers in
memory with no bound (measured: 50 MB of URL or of one header took the server from 91 to
190 MB), so the deadline alone would let a fast client make it hold gigabytes. Past
`MAX_HEAD_BYTES` the request is answered `431 request_head_too_large` and the connection
closed, before the app sees anything.

**Connections per address.** uvicorn takes every connection it is offered, and each
holds a file descriptor and about 6.5 KB (15,000 idle ones: 89 → 186 MB). Under a limit
of 1,024 open files (systemd's default for a service) one client that opened 1,100
connections and sent nothing left the replica answering no one, each connection living
until its deadline and opened again. Past `PeerConnections.limit` connections from one
address, the next is answered `429 too_many_connections` at once and closed once the
client's request has come (read and dropped, so the answer is not lost to a reset), or
after `REFUSAL_LINGER_SECONDS` if none comes. Trusted proxies
(SKYPORT_FORWARDED_ALLOW_IPS) are not capped: every client behind them shares their
address, and the ingress caps its own clients. A connection upgraded to a WebSocket
leaves the count; those are capped per client by the app.
"""

from __future__ import annotations

import asyncio
import contextvars

import orjson
import structlog
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from services.gameplay.per_client import ConnectionsPerClient
from services.gameplay.problems import Problem

from .client_ip import TrustedProxies
from .metrics import REQUESTS_REFUSED
from .problems import PROBLEM_MEDIA_TYPE

log = structlog.get_logger(__name__)


def request_timeout(seconds: float) -> Problem:
    return Problem(
        408,
        "request_timeout",
        f"The request did not arrive whole within {seconds:g} seconds.",
        headers={"connection": "close"},
    )


MAX_HEAD_BYTES = 128 * 1024
"""Most bytes of URL and headers one request may have: far above any real client's
(a GraphQL query sent by GET, at its most, percent-encodes to about 100 KB)."""


def head_too_large() -> Problem:
    return Problem(
        431,
        "request_head_too_large",
        f"The request's URL and headers are longer than {MAX_HEAD_BYTES} bytes.",
    )


REFUSAL_LINGER_SECONDS = 0.5
"""How long a refused connection stays open after its answer, waiting for the client's
request: closing before it arrives would reset the connection, and a reset can discard
the answer before the client reads it. Once it has come, the connection is closed."""


def too_many_connections(limit: int) -> Problem:
    return Problem(
        429,
        "too_many_connections",
        f"This address already holds {limit} connections open; reuse one (keep-alive).",
        headers={"retry-after": "1"},
        retry_after=1,
    )


class PeerConnections(ConnectionsPerClient):
    """Connections open per peer address, for addresses that are not trusted proxies."""

    def __init__(self, limit: int, proxies: TrustedProxies) -> None:
        super().__init__(limit)
        self.proxies = proxies

    def counts(self, host: str | None) -> bool:
        """Whether connections from `host` are counted against the limit."""
        return bool(self.limit) and host is not None and not self.proxies.is_proxy(host)


def raw_answer(problem: Problem) -> bytes:
    """A problem as a raw HTTP/1.1 response that closes the connection, written before
    the app has seen the request."""
    body = orjson.dumps(problem.document(None))
    extra = "".join(
        f"{name}: {value}\r\n"
        for name, value in problem.headers.items()
        if name.lower() != "connection"
    )
    head = (
        f"HTTP/1.1 {problem.status} {problem.title}\r\n"
        f"content-type: {PROBLEM_MEDIA_TYPE}\r\n"
        f"content-length: {len(body)}\r\n"
        f"{extra}"
        "connection: close\r\n\r\n"
    )
    return head.encode("ascii") + body


class GuardedHttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with a deadline on receiving each request, a cap on
    its head's size and a cap on the connections per address."""

    receipt_seconds: float = 30.0
    peers: PeerConnections | None = None
    """Shared by every connection of one server (see `guarded_protocol`)."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._deadline: asyncio.TimerHandle | None = None
        self._receiving: str | None = None
        """What of the current request is still to come: "headers", "body" or nothing."""
        self._head_bytes = 0
        self._counted_as: str | None = None
        self._refused = False
        super().connection_made(transport)
        host = self.client[0] if self.client else None
        if self.peers is not None and self.peers.counts(host):
            assert host is not None
            if not self.peers.open(host):
                self._refuse(self.peers.limit)
                return
            self._counted_as = host
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._uncount()
        super().connection_lost(exc)

    def _refuse(self, limit: int) -> None:
        self._refused = True
        REQUESTS_REFUSED.labels(reason="too_many_connections").inc()
        self.transport.write(raw_answer(too_many_connections(limit)))
        self._deadline = self.loop.call_later(
            REFUSAL_LINGER_SECONDS, self.transport.close, context=contextvars.Context()
        )

    def _uncount(self) -> None:
        if self._counted_as is not None and self.peers is not None:
            self.peers.close(self._counted_as)
            self._counted_as = None

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._receiving = "headers"
        self._head_bytes = 0
        if self._deadline is None:  # a request pipelined behind one being answered
            self._arm()

    def data_received(self, data: bytes) -> None:
        if self._refused:  # the request came after the answer: dropped, and done
            self._disarm()
            self.transport.close()
            return
        before = self._receiving
        super().data_received(data)
        # httptools keeps a header it has not finished reading in a buffer of its own, so
        # the head is measured in bytes received while it is still coming (a chunk that
        # also ends a body before it is not counted: an overshoot of one read at most).
        if self._receiving != "headers" or before == "body" or self.transport.is_closing():
            return
        self._head_bytes += len(data)
        if self._head_bytes > MAX_HEAD_BYTES:
            self._disarm()
            REQUESTS_REFUSED.labels(reason="head_too_large").inc()
            client = self.client[0] if self.client else None
            log.warning("request_head_too_large", client=client, limit=MAX_HEAD_BYTES)
            self.transport.write(raw_answer(head_too_large()))
            self.transport.close()

    def on_headers_complete(self) -> None:
        self._receiving = "body"
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self._receiving = None
        self._disarm()
        super().on_message_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        # uvicorn arms its keep-alive timer exactly when it waits for the next request.
        if self.timeout_keep_alive_task is not None:
            self._arm()

    def handle_websocket_upgrade(self) -> None:
        self._disarm()
        self._uncount()  # the WebSocket protocol owns the connection from here
        super().handle_websocket_upgrade()

    def _arm(self) -> None:
        self._disarm()
        # In a context of its own: not that of the request whose end armed it, so its log
        # line carries no stale request id.
        self._deadline = self.loop.call_later(
            self.receipt_seconds, self._expired, context=contextvars.Context()
        )

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expired(self) -> None:
        self._deadline = None
        if self.transport.is_closing():
            return
        late = self._receiving or "idle"
        REQUESTS_REFUSED.labels(reason=f"{late}_timed_out").inc()
        if late == "idle":  # nothing was asked: close as keep-alive does, without a word
            self.transport.close()
            return
        client = self.client[0] if self.client else None
        log.warning("request_timed_out", part=late, client=client, seconds=self.receipt_seconds)
        if late == "headers":  # the app never saw this request: answer it here
            self.transport.write(raw_answer(request_timeout(self.receipt_seconds)))
        self.transport.close()


def guarded_protocol(
    receipt_seconds: float, peers: PeerConnections | None = None
) -> type[GuardedHttpProtocol]:
    """The protocol class for uvicorn's `http` option, with this deadline and (if given)
    these connections per address, counted across the server's connections."""
    return type(
        "GuardedHttpProtocol",
        (GuardedHttpProtocol,),
        {"receipt_seconds": receipt_seconds, "peers": peers},
    )
