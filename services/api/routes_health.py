"""Liveness, readiness (Redis takes a write) and Prometheus metrics."""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .metrics import metrics_endpoint


async def healthz(request: Request) -> Response:
    return JSONResponse({"status": "ok"})


async def readyz(request: Request) -> Response:
    """Ready when Redis takes a write: reached but refusing changes (full, a replica after
    a failover) is not ready either, or every move would fail."""
    try:
        await asyncio.wait_for(request.app.state.service.store.take_changes(), timeout=2)
    except Exception as error:  # any failure to write to Redis means not ready
        return JSONResponse(
            {"status": "unavailable", "redis": type(error).__name__}, status_code=503
        )
    mode = "embedded" if request.app.state.settings.embedded else "redis"
    return JSONResponse({"status": "ready", "store": mode})


routes = [
    Route("/healthz", healthz, methods=["GET"], name="healthz", include_in_schema=False),
    Route("/readyz", readyz, methods=["GET"], name="readyz", include_in_schema=False),
    Route("/metrics", metrics_endpoint, methods=["GET"], name="metrics", include_in_schema=False),
]
