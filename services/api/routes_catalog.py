"""REST: the catalog of games, their options and component data."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from services.gameplay.payloads import Catalog

from .inputs import json_response, service
from .operations import json_answer, operation
from .params import CACHE_CONTROL


@operation(
    "GET",
    "/v1/catalog",
    summary="Games, their options and component data.",
    tag="catalog",
    answers=(json_answer(200, Catalog, "The catalog", headers=(CACHE_CONTROL,)),),
    reads_store=False,
)
async def catalog(request: Request) -> Response:
    return json_response(service(request).catalog(), headers={"Cache-Control": "max-age=300"})


operations = [catalog]
