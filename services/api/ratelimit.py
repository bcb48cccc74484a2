"""Per-IP and per-token rate limits, counted in Redis so that every replica shares them.

Fixed windows: each (client, window) has a counter that expires with its window. Every
answer under /v1 and /graphql carries `RateLimit-Limit`, `RateLimit-Remaining`,
`RateLimit-Reset` (seconds) and `RateLimit-Policy` for the tighter of the two limits; a
request over a limit gets `429` with `Retry-After`. If Redis cannot be reached the
limiter lets requests through (and logs it) rather than failing them twice.

Every GraphQL operation sent over a WebSocket counts as one request too (see
`services.api.graphql_ws`), and so does each mutation of an operation past its first
(`schema.mutation_count`); each replica caps the WebSockets one client IP holds open at
once (`services.gameplay.per_client`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import structlog
from redis.asyncio import Redis
from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocketClose

from services.gameplay.problems import Problem
from services.store.counters import COUNT, window_now

from . import metrics
from .problems import problem_response
from .ws_denials import deny

log = structlog.get_logger(__name__)

LIMITED_PREFIXES = ("/v1", "/graphql")


@dataclass(frozen=True)
class Quota:
    name: str
    limit: int
    used: int
    reset: int

    @property
    def remaining(self) -> int:
        return max(self.limit - self.used, 0)

    @property
    def exceeded(self) -> bool:
        return self.used > self.limit


class RateLimiter:
    def __init__(self, redis: Redis, prefix: str, per_ip: int, per_token: int, window: int):
        self.redis = redis
        self.prefix = prefix
        self.per_ip = per_ip
        self.per_token = per_token
        self.window = window
        self._count = redis.register_script(COUNT)

    @property
    def active(self) -> bool:
        """Whether any limit is set (both 0: every request goes through uncounted)."""
        return bool(self.per_ip or self.per_token)

    async def check(self, client_ip: str, bearer: str | None, count: int = 1) -> list[Quota]:
        """Counts `count` requests of the client (and of its bearer token)."""
        window_index, reset = window_now(self.window)
        buckets = []
        if self.per_ip:
            buckets.append(("ip", client_ip, self.per_ip))
        if self.per_token and bearer:
            token_id = hashlib.sha256(bearer.encode()).hexdigest()[:32]
            buckets.append(("token", token_id, self.per_token))
        if not buckets:
            return []
        async with self.redis.pipeline(transaction=False) as pipe:
            for name, who, _ in buckets:
                key = f"{self.prefix}:rl:{{{name}:{who}}}:{window_index}"
                await self._count(keys=[key], args=[self.window * 1000, count], client=pipe)
            counts = await pipe.execute()
        return [
            Quota(name, limit, int(used), reset)
            for (name, _, limit), used in zip(buckets, counts, strict=True)
        ]


def tightest(quotas: list[Quota]) -> Quota | None:
    exceeded = [quota for quota in quotas if quota.exceeded]
    pool = exceeded or quotas
    return min(pool, key=lambda quota: quota.remaining) if pool else None


def bearer_of(headers: Mapping[str, str]) -> str | None:
    value = headers.get("authorization", "")
    if value[:7].lower() != "bearer ":
        return None
    return value[7:].strip() or None


class RateLimitMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        limiter: RateLimiter | None = getattr(scope["app"].state, "limiter", None)
        kind = scope["type"]
        if (
            kind not in ("http", "websocket")
            or limiter is None
            or not limiter.active
            or not _limited(scope["path"])
        ):
            await self.app(scope, receive, send)
            return
        quota = await count_request(limiter, client_ip(scope), bearer_of(Headers(scope=scope)))
        if quota is None:
            await self.app(scope, receive, send)
            return
        limit_headers = _headers(quota, limiter.window)
        if quota.exceeded:
            await refuse(rate_limited(quota, limit_headers), scope, receive, send)
            return
        if kind == "websocket":  # a handshake: counted; its answer carries no such headers
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                if "ratelimit-policy" not in headers:  # a tighter quota's refusal keeps its own
                    headers.update(limit_headers)
            await send(message)

        await self.app(scope, receive, send_with_headers)


async def count_request(
    limiter: RateLimiter, client: str, bearer: str | None, count: int = 1
) -> Quota | None:
    """Counts `count` requests of `client` (and of its bearer token); the tightest quota
    after them, or None when no limit applies or Redis cannot be reached."""
    try:
        quotas = await limiter.check(client, bearer, count)
    except Exception as error:  # Redis trouble: do not refuse on top of it
        log.warning("rate_limit_unavailable", error=type(error).__name__)
        return None
    quota = tightest(quotas)
    if quota is not None and quota.exceeded:
        metrics.RATE_LIMITED.labels(limit=quota.name).inc()
    return quota


def rate_limited(
    quota: Quota, limit_headers: dict[str, str] | None = None, **extra: Any
) -> Problem:
    return Problem(
        429,
        "rate_limited",
        f"Too many requests for this {quota.name}; try again in {quota.reset} s.",
        headers={**(limit_headers or {}), "Retry-After": str(quota.reset)},
        **extra,
    )


def client_ip(scope: Scope) -> str:
    client = scope.get("client")
    return client[0] if client else "unknown"


async def refuse(problem: Problem, scope: Scope, receive: Receive, send: Send) -> None:
    """A 429 problem; for a WebSocket handshake, as its denial response where the server
    supports that (uvicorn does), else as a close with 1008 (policy violation)."""
    if scope["type"] != "websocket":
        await problem_response(problem, scope["path"])(scope, receive, send)
    elif "websocket.http.response" in scope.get("extensions", {}):
        await deny(problem, scope, receive, send)
    else:
        await WebSocketClose(code=1008, reason="rate_limited")(scope, receive, send)


def _limited(path: str) -> bool:
    return path.startswith(LIMITED_PREFIXES)


def _headers(quota: Quota, window: int) -> dict[str, str]:
    return {
        "RateLimit-Limit": str(quota.limit),
        "RateLimit-Remaining": str(quota.remaining),
        "RateLimit-Reset": str(quota.reset),
        "RateLimit-Policy": f'"{quota.name}";q={quota.limit};w={window}',
    }
