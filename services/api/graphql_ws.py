"""GraphQL over WebSocket (graphql-transport-ws), held to the same rules as HTTP.

- Every `subscribe` (a subscription, or a query or mutation sent over the socket) counts
  as one request against the per-IP and per-token rate limits. Over a limit, that
  operation is answered with an `error` message whose extension `code` is
  `rate_limited` (with `retry_after` seconds); the connection and its other operations
  go on.
- At most `SKYPORT_GRAPHQL_WS_MAX_SUBSCRIPTIONS` operations run at once on one
  connection (`too_many_subscriptions`); its variables and document are checked as over
  HTTP (`malformed_json`, `query_too_large`). Each `gameEvents` subscription also takes a
  place in its client IP's budget of live streams, shared with SSE
  (`SKYPORT_SSE_MAX_STREAMS_PER_IP`; over it, `too_many_connections`).
- A message that breaks the protocol (not a JSON object, no string `type`, a `subscribe`
  without an id or a query, a `connection_init` payload that is neither `{}` nor
  credentials: `schema.context.connection_params_problem`) closes the socket with 4400,
  its reason saying what was wrong; a message over the request body
  limit closes it with 1009. Nothing a client sends logs a traceback, and a client that
  goes away is not an error.
- Answers waiting to be sent to a client that does not read them hold at most about
  `SKYPORT_GRAPHQL_WS_MAX_UNSENT_BYTES`: once that much waits, the next answer closes
  the connection with 4413 and the waiting ones are dropped. uvicorn writes a message
  only once the socket's buffer has drained below its mark (that is its backpressure),
  so every operation finished meanwhile kept its whole answer waiting: 20 sockets that
  sent 21 queries each and never read took the server from 89 MB to 3.8 GB. The close
  is sent without waiting for the client: it follows what the socket already holds,
  and the operations still running end at their first message.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator, Mapping
from typing import Any

import orjson
import structlog
from graphql import GraphQLFormattedError, GraphQLSyntaxError
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState
from strawberry.asgi import ASGIWebSocketAdapter
from strawberry.http.exceptions import (
    NonJsonMessageReceived,
    NonTextMessageReceived,
    WebSocketDisconnected,
)
from strawberry.subscriptions.protocols.graphql_transport_ws.handlers import (
    BaseGraphQLTransportWSHandler,
)
from strawberry.subscriptions.protocols.graphql_transport_ws.types import (
    CompleteMessage,
    ConnectionInitMessage,
    ErrorMessage,
    Message,
    SubscribeMessage,
)

from schema.context import GraphQLContext, connection_params_problem
from services.gameplay.problems import Problem

from .graphql_requests import Operation, document_refusal, operation_from, problem_error
from .ratelimit import bearer_of, client_ip, count_request, rate_limited

log = structlog.get_logger(__name__)

MESSAGE_TOO_BIG = 1009
UNREAD_ANSWERS = 4413
"""Close code of a connection whose client leaves too many answers unread."""
DEFAULT_MAX_UNSENT_BYTES = 1 << 20
"""For an app without settings in its state (the setting's own default)."""


class SkyportWebSocketAdapter(ASGIWebSocketAdapter):
    """Reads messages with REST's JSON parser, refusing any over the body size limit;
    sends them holding at most so many bytes for a client that does not read."""

    def __init__(self, view: Any, request: WebSocket, response: WebSocket) -> None:
        super().__init__(view, request, response)
        # Made in the connection's own task, which reads its messages and runs no
        # operation: never cancelled here.
        self._reader = asyncio.current_task()
        self._sending: set[asyncio.Task[Any]] = set()
        self._unsent = 0
        self.closing: asyncio.Task[None] | None = None
        """Set once the connection is being closed for answers left unread."""

    @property
    def max_unsent_bytes(self) -> int:
        settings = getattr(self.ws.app.state, "settings", None)
        return getattr(settings, "graphql_ws_max_unsent_bytes", DEFAULT_MAX_UNSENT_BYTES)

    async def iter_json(self, *, ignore_parsing_errors: bool = False) -> AsyncGenerator[object]:
        limit = self.view.max_message_bytes  # type: ignore[attr-defined]
        try:
            while self.ws.application_state != WebSocketState.DISCONNECTED and not self.closing:
                text = await self.ws.receive_text()
                if len(text) > limit:
                    await self.close(MESSAGE_TOO_BIG, f"Messages are at most {limit} bytes.")
                    return
                try:
                    yield orjson.loads(text)
                except orjson.JSONDecodeError:
                    if not ignore_parsing_errors:
                        raise NonJsonMessageReceived from None
        except KeyError:
            raise NonTextMessageReceived from None
        except WebSocketDisconnect:
            return

    async def send_json(self, message: Any) -> None:
        if self.ws.application_state == WebSocketState.DISCONNECTED or self.closing:
            raise WebSocketDisconnected  # closed by an operation: the handler ends quietly
        if self._unsent >= self.max_unsent_bytes:
            self._close_for_unread_answers()
            raise WebSocketDisconnected
        encoded = self.view.encode_json(message)
        if isinstance(encoded, bytes) or encoded.isascii():
            size = len(encoded)
        else:
            size = len(encoded.encode())
        # Counted while uvicorn waits for the socket to drain before writing it.
        task = asyncio.current_task()
        assert task is not None
        self._unsent += size
        self._sending.add(task)
        try:
            if isinstance(encoded, bytes):
                await self.ws.send_bytes(encoded)
            else:
                await self.ws.send_text(encoded)
        except WebSocketDisconnect as exc:
            raise WebSocketDisconnected from exc
        finally:
            self._unsent -= size
            self._sending.discard(task)

    def _close_for_unread_answers(self) -> None:
        """Drop the answers waiting (their operations' tasks are cancelled) and close with
        4413 once the socket takes it, without waiting here."""
        log.warning(
            "graphql_ws_unread_answers",
            client=client_ip(self.ws.scope),
            unsent_bytes=self._unsent,
            limit=self.max_unsent_bytes,
        )
        current = asyncio.current_task()
        for task in self._sending:
            if task is not current and task is not self._reader:
                task.cancel()
        reason = f"Over {self.max_unsent_bytes} bytes of answers unread; read them sooner."
        self.closing = asyncio.create_task(self._close_quietly(UNREAD_ANSWERS, reason))

    async def _close_quietly(self, code: int, reason: str) -> None:
        # The client may be gone by the time the socket drains (or already closed it).
        with contextlib.suppress(Exception):
            await self.close(code, reason)


class SkyportTransportWS(BaseGraphQLTransportWSHandler[GraphQLContext, None]):
    async def handle(self) -> None:
        await super().handle()
        closing = getattr(self.websocket, "closing", None)
        if closing is not None:
            await closing  # the connection ends with its 4413 sent (or the client gone)

    async def handle_message(self, message: Message) -> None:
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            await self.handle_invalid_message("A message is a JSON object with a string type.")
            return
        await super().handle_message(message)

    async def handle_connection_init(self, message: ConnectionInitMessage) -> None:
        problem = connection_params_problem(message.get("payload"))
        if problem is not None:
            await self.handle_invalid_message(problem)
            return
        await super().handle_connection_init(message)

    async def handle_complete(self, message: CompleteMessage) -> None:
        if not isinstance(message.get("id"), str):
            await self.handle_invalid_message("A complete message needs a string id.")
            return
        await super().handle_complete(message)

    async def handle_subscribe(self, message: SubscribeMessage) -> None:
        if getattr(self.websocket, "closing", None) is not None:
            return  # closed for answers left unread: nothing more runs
        if not self.connection_acknowledged:
            await super().handle_subscribe(message)  # closes with 4401
            return
        operation_id = message.get("id")
        if not isinstance(operation_id, str) or not operation_id:
            await self.handle_invalid_message("A subscribe message needs a string id.")
            return
        if operation_id in self.operations:
            await super().handle_subscribe(message)  # closes with 4409
            return
        payload = message.get("payload")
        if not isinstance(payload, dict) or not isinstance(payload.get("query"), str):
            await self.handle_invalid_message("A subscribe payload needs a string query.")
            return
        if not payload["query"].strip():
            refusal: GraphQLFormattedError | None = problem_error(
                Problem(400, "missing_query", "Send a GraphQL document as `query`.")
            )
        else:
            refusal = await self._refusal(payload)
        if refusal is not None:
            await self.send_message(ErrorMessage(id=operation_id, type="error", payload=[refusal]))
            return
        await super().handle_subscribe(message)

    async def _refusal(self, payload: Mapping[str, object]) -> GraphQLFormattedError | None:
        """Why this operation is refused (as a GraphQL error), if it is."""
        try:
            await count_requests(self.context, 1)
        except Problem as problem:  # rate_limited
            return problem_error(problem)
        limit = self.max_subscriptions_per_connection
        if limit is not None and len(self.operations) >= limit:
            return problem_error(
                Problem(
                    429,
                    "too_many_subscriptions",
                    f"This connection already runs {limit} operations; complete one first.",
                )
            )
        try:
            operation: Operation = operation_from(payload)
        except Problem as problem:
            return problem_error(problem)
        refusal = document_refusal(operation.query, self.view.limits)  # type: ignore[attr-defined]
        return refusal.formatted if refusal is not None else None

    def forget_id(self, id: str) -> None:
        # An operation that ends just as the client completes it (or leaves) is already
        # forgotten; Strawberry's `del` would raise KeyError in the operation's task.
        self.operations.pop(id, None)

    async def handle_task_exception(self, error: Exception) -> None:
        if isinstance(error, WebSocketDisconnected):
            log.debug("graphql_ws_client_gone")  # the client closed mid-operation
            return
        if isinstance(error, GraphQLSyntaxError):
            # Raised (rather than returned) for some unlexable documents: the client's
            # error, closed as Strawberry closes any other syntax error.
            await self.websocket.close(code=4400, reason=error.message[:120])
            return
        await super().handle_task_exception(error)


async def count_requests(context: GraphQLContext, count: int) -> None:
    """Counts `count` requests of a GraphQL operation's caller against the rate limits
    (its IP, and its token: over HTTP its header, over a WebSocket its connection_init);
    429 rate_limited, with retry_after, once over a limit. An operation over a WebSocket
    counts one; each mutation of an operation past its first counts one more
    (`schema.mutation_count`, over HTTP and WebSocket alike)."""
    limiter = getattr(context.request.app.state, "limiter", None)
    if limiter is None or not limiter.active:
        return
    bearer = bearer_of(context.authorization())
    quota = await count_request(limiter, context.client_ip, bearer, count)
    if quota is not None and quota.exceeded:
        raise rate_limited(quota, retry_after=quota.reset)
