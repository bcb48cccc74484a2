"""A deadline for receiving each HTTP request whole, which uvicorn does not have.

uvicorn times out a connection only while it idles between requests, and any byte that
arrives resets that timer. So a client that connects and sends nothing, or sends a
header line now and then (Slowloris), holds a connection and its socket forever: enough
of them and the replica runs out of file descriptors. ASGI middleware cannot help, since
the app sees a request only once its headers are in.

Here every request must arrive whole (headers and body) within `seconds` of when the
server started waiting for it: the connection opening, the previous response ending, or
its own first byte, whichever came last. Past that, the connection is closed: silently
if nothing of a request came (as keep-alive closes an idle connection, so a client that
sends its next request just then is not handed a 408 that answers nothing of its own);
after a `408 request_timeout` problem document if the headers did not all come; and
without an answer if the body stopped coming (the app, reading it, sees the client
disconnect). Responses take as long as they take, and a WebSocket is left alone once
upgraded.
"""

from __future__ import annotations

import asyncio
import contextvars

import orjson
import structlog
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from services.gameplay.problems import Problem

from .metrics import REQUESTS_TIMED_OUT
from .problems import PROBLEM_MEDIA_TYPE

log = structlog.get_logger(__name__)


def request_timeout(seconds: float) -> Problem:
    return Problem(
        408,
        "request_timeout",
        f"The request did not arrive whole within {seconds:g} seconds.",
        headers={"connection": "close"},
    )


def timeout_answer(seconds: float) -> bytes:
    """The raw HTTP/1.1 408 response, written before the app has seen the request."""
    problem = request_timeout(seconds)
    body = orjson.dumps(problem.document(None))
    head = (
        "HTTP/1.1 408 Request Timeout\r\n"
        f"content-type: {PROBLEM_MEDIA_TYPE}\r\n"
        f"content-length: {len(body)}\r\n"
        "connection: close\r\n\r\n"
    )
    return head.encode("ascii") + body


class ReceiptDeadlineProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with a deadline on receiving each request."""

    receipt_seconds: float = 30.0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._deadline: asyncio.TimerHandle | None = None
        self._receiving: str | None = None
        """What of the current request is still to come: "headers", "body" or nothing."""
        super().connection_made(transport)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._receiving = "headers"
        if self._deadline is None:  # a request pipelined behind one being answered
            self._arm()

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
        REQUESTS_TIMED_OUT.labels(part=late).inc()
        if late == "idle":  # nothing was asked: close as keep-alive does, without a word
            self.transport.close()
            return
        client = self.client[0] if self.client else None
        log.warning("request_timed_out", part=late, client=client, seconds=self.receipt_seconds)
        if late == "headers":  # the app never saw this request: answer it here
            self.transport.write(timeout_answer(self.receipt_seconds))
        self.transport.close()


def receipt_deadline_protocol(seconds: float) -> type[ReceiptDeadlineProtocol]:
    """The protocol class for uvicorn's `http` option, with this deadline."""
    return type("ReceiptDeadlineProtocol", (ReceiptDeadlineProtocol,), {"receipt_seconds": seconds})
