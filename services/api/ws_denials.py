"""WebSocket handshakes refused with an HTTP answer (the ASGI denial-response extension),
without uvicorn logging each of them as an error.

uvicorn's websockets-sansio protocol (0.54) does not mark the handshake done once a
denial response is sent, so every refusal (a 429 over the rate limit, say) also logs
"ASGI callable returned without completing handshake." at error level, which alerting
on error logs turns into pages (upstream: Kludex/uvicorn pull request 3138). A refusal
marks its own task (`deny`); the filter drops that message for marked tasks only, so
an app path that really returns without a handshake is still reported."""

from __future__ import annotations

import logging
from contextvars import ContextVar

from starlette.types import Receive, Scope, Send

from services.gameplay.problems import Problem

from .problems import problem_response

UVICORN_LOGGER = "uvicorn.error"
INCOMPLETE_HANDSHAKE = "ASGI callable returned without completing handshake."

_denied: ContextVar[bool] = ContextVar("websocket_denied", default=False)


async def deny(problem: Problem, scope: Scope, receive: Receive, send: Send) -> None:
    """Answer a WebSocket handshake with `problem` as a plain HTTP response."""
    _denied.set(True)  # the task's context: uvicorn logs from the same task afterwards
    await problem_response(problem, scope["path"])(scope, receive, send)


class DeniedHandshakes(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return not (_denied.get() and record.getMessage() == INCOMPLETE_HANDSHAKE)


def quiet_denied_handshakes() -> None:
    """Install the filter on uvicorn's error logger (once per process)."""
    logger = logging.getLogger(UVICORN_LOGGER)
    if not any(isinstance(found, DeniedHandshakes) for found in logger.filters):
        logger.addFilter(DeniedHandshakes())
