"""A request id and the game id on every line logged while serving a request (the
one-line-per-request log itself is written by the metrics middleware, inside this one).

The id comes from the caller's `X-Request-ID` when it is a sane token (so a platform can
follow its own id through our logs), else a new one; it is echoed in the response. The
game id is taken from the path. Both are bound with structlog's contextvars, so every
line logged during the request — ours or uvicorn's — carries them.
"""

from __future__ import annotations

import itertools
import os
import re

from starlette.types import ASGIApp, Message, Receive, Scope, Send
from structlog.contextvars import bind_contextvars, reset_contextvars

REQUEST_ID_HEADER = "x-request-id"
_REQUEST_ID_NAME = REQUEST_ID_HEADER.encode()
_SANE_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")
_GAME_PATH = re.compile(r"^/v1/games/([^/]+)")
MAX_LOGGED_ID = 64

# A fresh id is this process's random prefix and a counter: unique across replicas and
# restarts without a system call per request (ids name requests; they are no secret).
_PROCESS_PREFIX = os.urandom(8).hex()
_REQUEST_NUMBERS = itertools.count()


def _new_prefix() -> None:
    global _PROCESS_PREFIX
    _PROCESS_PREFIX = os.urandom(8).hex()


os.register_at_fork(after_in_child=_new_prefix)


def request_id_from(scope: Scope) -> str:
    for name, value in scope.get("headers", []):
        if name == _REQUEST_ID_NAME:
            candidate: str = value.decode("latin-1")
            if _SANE_ID.match(candidate):
                return candidate
    return f"{_PROCESS_PREFIX}{next(_REQUEST_NUMBERS):016x}"


def game_id_from(path: str) -> str | None:
    match = _GAME_PATH.match(path)
    return match.group(1)[:MAX_LOGGED_ID] if match else None


class RequestLogMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        request_id = request_id_from(scope)
        header = (_REQUEST_ID_NAME, request_id.encode("latin-1"))

        async def send_with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                kept = [h for h in message.get("headers", ()) if h[0].lower() != _REQUEST_ID_NAME]
                message["headers"] = [*kept, header]
            await send(message)

        tokens = bind_contextvars(request_id=request_id, game_id=game_id_from(scope["path"]))
        try:
            await self.app(scope, receive, send_with_id)
        finally:
            reset_contextvars(**tokens)
