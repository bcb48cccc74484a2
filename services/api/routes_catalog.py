"""REST: the catalog of games, their options and component data."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from .inputs import json_response, only_query, service


async def catalog(request: Request) -> Response:
    only_query(request)
    return json_response(service(request).catalog(), headers={"Cache-Control": "max-age=300"})


routes = [Route("/v1/catalog", catalog, methods=["GET"], name="catalog")]
