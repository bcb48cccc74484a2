"""A request id and the game id on every line logged while serving a request (the
one-line-per-request log itself is written by the metrics middleware, inside this one).

The id comes from the caller's `X-Request-ID` when it is a sane token (so a platform can
follow its own id through our logs), else a new one; it is echoed in the response. The
game id is taken from the path. Both are bound with structlog's contextvars, so every
line logged during the request — ours or uvicorn's — carries them.
"""

from __future__ import annotations

import re
import uuid

import structlog
from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

REQUEST_ID_HEADER = "x-request-id"
_REQUEST_ID_NAME = REQUEST_ID_HEADER.encode()
_SANE_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")
_GAME_PATH = re.compile(r"^/v1/games/([^/]+)")
MAX_LOGGED_ID = 64


def request_id_from(scope: Scope) -> str:
    for name, value in scope.get("headers", []):
        if name == _REQUEST_ID_NAME:
            candidate: str = value.decode("latin-1")
            if _SANE_ID.match(candidate):
                return candidate
    return uuid.uuid4().hex


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

        async def send_with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                MutableHeaders(scope=message)[REQUEST_ID_HEADER] = request_id
            await send(message)

        with structlog.contextvars.bound_contextvars(
            request_id=request_id, game_id=game_id_from(scope["path"])
        ):
            await self.app(scope, receive, send_with_id)
