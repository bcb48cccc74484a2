"""Mounting the GraphQL schema at /graphql: queries and mutations over HTTP, every
operation over WebSocket (graphql-transport-ws), and the GraphiQL IDE on GET.

Over HTTP, a request that is not a GraphQL request at all (not JSON, another media type,
a batch, a mutation sent with GET, ...) is answered like any REST error: a problem
document with a stable code. A GraphQL request that fails (unknown field, too costly,
too large) is answered 200 with GraphQL `errors`, each with a `code` in `extensions`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

import orjson
from cross_web import HTTPException, StarletteRequestAdapter
from starlette.requests import Request
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.types import Receive, Scope, Send
from strawberry.asgi import GraphQL
from strawberry.exceptions import MissingQueryError
from strawberry.http import GraphQLRequestData
from strawberry.schema.exceptions import CannotGetOperationTypeError, InvalidOperationTypeError
from strawberry.subscriptions import GRAPHQL_TRANSPORT_WS_PROTOCOL
from strawberry.types import ExecutionResult
from strawberry.types.graphql import OperationType
from strawberry.types.unset import UNSET

from schema import Limits, build_schema
from schema.context import GraphQLContext
from schema.errors import unknown_operation
from services.engine import Game
from services.gameplay.per_client import ConnectionsPerClient
from services.gameplay.problems import Problem
from services.gameplay.settings import Settings

from .graphql_requests import document_refusal, from_body, from_query_string
from .graphql_ws import SkyportTransportWS, SkyportWebSocketAdapter, count_requests
from .problems import problem_response
from .ratelimit import client_ip, refuse


class _RequestAdapter(StarletteRequestAdapter):
    """Strawberry's view of a request, keeping the Starlette request at hand."""

    def __init__(self, request: Request) -> None:
        super().__init__(request)
        self.request = request


class SkyportGraphQL(GraphQL[GraphQLContext, None]):
    request_adapter_class = _RequestAdapter
    websocket_adapter_class = SkyportWebSocketAdapter
    graphql_transport_ws_handler_class = SkyportTransportWS

    def __init__(self, schema: Any, limits: Limits, settings: Settings) -> None:
        super().__init__(
            schema,
            subscription_protocols=[GRAPHQL_TRANSPORT_WS_PROTOCOL],
            connection_init_wait_timeout=timedelta(seconds=30),
            max_subscriptions_per_connection=settings.graphql_ws_max_subscriptions,
        )
        self.limits = limits
        self.max_message_bytes = settings.max_body_bytes
        self.connections = ConnectionsPerClient(settings.graphql_ws_max_connections_per_ip)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            await self._serve_websocket(scope, receive, send)
            return
        try:
            response = await self.run(Request(scope, receive))
        except Problem as problem:
            response = problem_response(problem, scope["path"])
        except HTTPException as error:
            response = problem_response(_transport_problem(error), scope["path"])
        await response(scope, receive, send)

    async def _serve_websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        client = client_ip(scope)
        if not self.connections.open(client):
            limit = self.connections.limit
            problem = Problem(
                429,
                "too_many_connections",
                f"This client already holds {limit} GraphQL WebSockets open; close one first.",
            )
            await refuse(problem, scope, receive, send)
            return
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.connections.close(client)

    async def run(self, request: Any, context: Any = UNSET, root_value: Any = UNSET) -> Any:
        """A POST as Strawberry's own `run` serves it, minus the branches a POST here
        never takes (the IDE, batches, streamed or incremental results: none is mounted
        or enabled) and their checks, one of which is a runtime Protocol check that costs
        about as much as parsing the request. Everything else goes to Strawberry."""
        if not isinstance(request, Request) or request.method != "POST":
            return await super().run(request, context, root_value)
        if context is not UNSET or root_value is not UNSET:
            return await super().run(request, context, root_value)
        adapter = self.request_adapter_class(request)
        sub_response = await self.get_sub_response(request)
        context = await self.get_context(request, response=sub_response)
        request_data = await self.parse_http_body(adapter)
        # No root value: this view does not override get_root_value (None).
        result = await self.execute_single(
            request, adapter, sub_response, context, None, request_data
        )
        response_data = await self.process_result(request=request, result=result)
        if result.errors:
            self._handle_errors(result.errors, response_data)
        return self.create_response(response_data=response_data, sub_response=sub_response)

    async def get_context(self, request: Any, response: Any) -> GraphQLContext:
        return GraphQLContext(request=request, response=response, count_requests=count_requests)

    def decode_json(self, data: str | bytes) -> object:
        return orjson.loads(data)  # REST's parser: refuses nesting over 1024 as invalid

    def encode_json(self, data: object) -> str:
        """Answers as REST's are written (orjson: several times faster than the standard
        library's encoder Strawberry uses); the standard one for what orjson refuses
        (integers over 64 bits inside a JSON scalar). Text, which WebSocket messages
        must be."""
        try:
            return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS).decode()
        except TypeError:
            return json.dumps(data, separators=(",", ":"))

    async def parse_http_body(self, request: _RequestAdapter) -> GraphQLRequestData:  # type: ignore[override]
        if request.method == "GET":
            operation = from_query_string(request.request.query_params)
        else:
            operation = await from_body(request.request)
        return GraphQLRequestData(
            query=operation.query,
            variables=operation.variables,
            operation_name=operation.operation_name,
            extensions=operation.extensions,
            protocol="http",
        )

    async def execute_single(  # noqa: PLR0917
        self,
        request: Request,
        request_adapter: _RequestAdapter,  # type: ignore[override]
        sub_response: Any,
        context: GraphQLContext,
        root_value: Any,
        request_data: GraphQLRequestData,
    ) -> ExecutionResult:
        refusal = document_refusal(request_data.query, self.limits)
        if refusal is not None:
            return ExecutionResult(data=None, errors=[refusal])
        method = request_adapter.method
        # Subscriptions are WebSocket-only: no HTTP streaming transport is mounted.
        allowed = OperationType.from_http(method) - {OperationType.SUBSCRIPTION}
        try:
            return await self.schema.execute(
                request_data.query,
                root_value=root_value,
                variable_values=request_data.variables,
                context_value=context,
                operation_name=request_data.operation_name,
                allowed_operation_types=allowed,
                operation_extensions=request_data.extensions,
            )
        except MissingQueryError:
            raise Problem(400, "missing_query", "Send a GraphQL document as `query`.") from None
        except CannotGetOperationTypeError as error:
            raise unknown_operation(error.operation_name) from None
        except InvalidOperationTypeError as error:
            raise _operation_not_allowed(error.operation_type, method) from None


def graphql_routes(games: Mapping[str, Game], settings: Settings) -> list[BaseRoute]:
    limits = Limits(
        max_depth=settings.graphql_max_depth,
        max_cost=settings.graphql_max_cost,
        cache_size=settings.graphql_cache_size,
        max_tokens=settings.graphql_max_tokens,
        max_length=settings.graphql_max_length,
    )
    app = SkyportGraphQL(build_schema(games, limits), limits, settings)
    return [
        Route("/graphql", app, methods=["GET", "POST"], name="graphql"),
        WebSocketRoute("/graphql", app, name="graphql_ws"),
    ]


def _operation_not_allowed(kind: OperationType, method: str) -> Problem:
    if kind is OperationType.SUBSCRIPTION:
        return Problem(
            400,
            "subscription_over_http",
            "Subscriptions are served over WebSocket (graphql-transport-ws) at /graphql.",
        )
    return Problem(
        405,
        "method_not_allowed",
        f"Send {kind.value}s with POST, not {method}.",
        headers={"Allow": "POST"},
    )


def _transport_problem(error: HTTPException) -> Problem:
    """Strawberry's own refusals, which come as plain text, as problem documents."""
    code = {
        404: "not_found",
        405: "method_not_allowed",
        415: "unsupported_media_type",
    }.get(error.status_code, "invalid_graphql_request")
    return Problem(error.status_code, code, error.reason)
