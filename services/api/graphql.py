"""Mounting the GraphQL schema at /graphql: queries and mutations over HTTP, the
subscription over WebSocket (graphql-transport-ws), and the GraphiQL IDE on GET."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from starlette.routing import BaseRoute, Route, WebSocketRoute
from strawberry.asgi import GraphQL
from strawberry.subscriptions import GRAPHQL_TRANSPORT_WS_PROTOCOL

from schema import Limits, build_schema
from schema.context import GraphQLContext
from services.engine import Game

from .settings import Settings


class SkyportGraphQL(GraphQL):
    async def get_context(self, request: Any, response: Any) -> GraphQLContext:
        return GraphQLContext(request=request, response=response)


def graphql_routes(games: Mapping[str, Game], settings: Settings) -> list[BaseRoute]:
    schema = build_schema(
        games,
        Limits(
            max_depth=settings.graphql_max_depth,
            max_cost=settings.graphql_max_cost,
            cache_size=settings.graphql_cache_size,
        ),
    )
    app = SkyportGraphQL(
        schema,
        subscription_protocols=[GRAPHQL_TRANSPORT_WS_PROTOCOL],
        connection_init_wait_timeout=timedelta(seconds=30),
        max_subscriptions_per_connection=20,
    )
    return [
        Route("/graphql", app, methods=["GET", "POST"], name="graphql"),
        WebSocketRoute("/graphql", app, name="graphql_ws"),
    ]
