"""Cross-origin calls from web pages (CORS), for the origins SKYPORT_CORS_ALLOW_ORIGINS
names: Starlette's middleware, told which of the API's request headers a page may send
and which response headers its script may read, with refused preflights answered in the
API's problem format.

Mounted only when origins are set, so requests of apps and scripts (which send no
Origin) pay nothing for it when it is off. It runs outside the rate limit: a preflight
is answered before it is counted, and every answer a page can get (a 429, a 413, a 404)
carries the headers that let its script read it."""

from __future__ import annotations

from starlette.datastructures import Headers
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.responses import Response

from services.gameplay.problems import Problem
from services.gameplay.settings import comma_separated

from .problems import problem_response

METHODS = ("GET", "HEAD", "POST")
REQUEST_HEADERS = (
    "Authorization",
    "Content-Type",
    "Idempotency-Key",
    "If-Match",
    "If-None-Match",
    "Last-Event-ID",
    "Prefer",
    "X-Request-Id",
)
RESPONSE_HEADERS = (
    "ETag",
    "Idempotent-Replayed",
    "Location",
    "Preference-Applied",
    "RateLimit-Limit",
    "RateLimit-Policy",
    "RateLimit-Remaining",
    "RateLimit-Reset",
    "Retry-After",
    "X-Request-Id",
)
"""Beyond the CORS-safelisted ones, which a script can always read."""
PREFLIGHT_SECONDS = 600
"""How long a browser may keep a preflight's answer (Chromium keeps at most 7,200)."""


class ProblemCorsMiddleware(CORSMiddleware):
    """Starlette's CORS, with a refused preflight as a problem document."""

    def preflight_response(self, request_headers: Headers) -> Response:
        answer = super().preflight_response(request_headers)
        if answer.status_code != 400:
            return answer
        refused = bytes(answer.body).decode().removeprefix("Disallowed CORS ")
        problem = Problem(
            400,
            "cross_origin_refused",
            f"A page of this origin may not make this call (refused: {refused}).",
            refused=refused.split(", "),
        )
        response = problem_response(problem)
        response.headers.update(
            {k: v for k, v in answer.headers.items() if k.lower().startswith(("access-", "vary"))}
        )
        return response


DEFAULT_PORTS = {"http": ":80", "https": ":443"}


def as_browsers_send(origin: str) -> str:
    """An origin as a browser writes it in `Origin`, which the middleware compares as
    text: scheme and host in lower case, and no port where it is the scheme's own."""
    scheme, _, rest = origin.strip().partition("://")
    scheme, rest = scheme.lower(), rest.lower()
    return f"{scheme}://{rest.removesuffix(DEFAULT_PORTS.get(scheme, '-'))}" if rest else origin


def cors_middleware(origins: str) -> list[Middleware]:
    """The middleware for SKYPORT_CORS_ALLOW_ORIGINS (none when it is empty)."""
    allowed = [as_browsers_send(origin) for origin in comma_separated(origins)]
    if not allowed:
        return []
    return [
        Middleware(
            ProblemCorsMiddleware,
            allow_origins=allowed,
            allow_methods=METHODS,
            allow_headers=REQUEST_HEADERS,
            expose_headers=RESPONSE_HEADERS,
            max_age=PREFLIGHT_SECONDS,
        )
    ]
