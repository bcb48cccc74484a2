"""HTTP metrics and /metrics: requests by route and status, latency, rate limiting; the
endpoint also serves the service's own metrics (`services.gameplay.metrics`)."""

from __future__ import annotations

import time
from typing import Any

import structlog
from prometheus_client import CONTENT_TYPE_LATEST, Counter, Histogram, generate_latest
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

access_log = structlog.get_logger("skyport.access")

REQUESTS = Counter(
    "skyport_http_requests_total", "HTTP requests answered.", ["method", "route", "status"]
)
LATENCY = Histogram(
    "skyport_http_request_duration_seconds",
    "Time to answer an HTTP request (streams: time to the first byte).",
    ["method", "route"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5),
)
RATE_LIMITED = Counter("skyport_rate_limited_total", "Requests refused with 429.", ["limit"])
REQUESTS_REFUSED = Counter(
    "skyport_http_connections_refused_total",
    "Connections the server closed on a request that came too slowly or too big: "
    "idle_timed_out, headers_timed_out, body_timed_out (not whole in time), head_too_large.",
    ["reason"],
)


async def metrics_endpoint(request: Request) -> Response:
    return Response(generate_latest(), media_type=CONTENT_TYPE_LATEST)


class RequestMetricsMiddleware:
    """Counts and times every HTTP request by route template, and logs one line for it
    (method, route, status, milliseconds — never bodies, tokens or query strings)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        # Bound now, under the logging configured by then: a logger fetched per request
        # is built again on every call, and one filtered out by the level costs nothing.
        self.access_log = access_log.bind()
        self._latency: dict[tuple[str, str], Any] = {}
        self._requests: dict[tuple[str, str, str], Any] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500

        async def send_and_time(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                self._latency_of(scope["method"], _route(scope)).observe(
                    time.perf_counter() - started
                )
            await send(message)

        try:
            await self.app(scope, receive, send_and_time)
        finally:
            route = _route(scope)
            self._requests_of(scope["method"], route, status).inc()
            self.access_log.info(
                "request",
                method=scope["method"],
                route=route,
                status=status,
                ms=round((time.perf_counter() - started) * 1000, 2),
            )

    def _latency_of(self, method: str, route: str) -> Any:
        """The histogram's child for these labels (looked up once: `labels()` locks)."""
        child = self._latency.get((method, route))
        if child is None:
            child = self._latency[method, route] = LATENCY.labels(method, route)
        return child

    def _requests_of(self, method: str, route: str, status: int) -> Any:
        child = self._requests.get((method, route, str(status)))
        if child is None:
            child = REQUESTS.labels(method, route, str(status))
            self._requests[method, route, str(status)] = child
        return child


def _route(scope: Scope) -> str:
    return getattr(scope.get("route"), "path", None) or "unmatched"
