"""The playground at /play: one static page, its script and its style sheet, shipped in
the package (services/api/playground/) and read (and gzipped) once, so serving them
costs no I/O and no compression."""

from __future__ import annotations

import hashlib
from pathlib import Path

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from .compression import MIN_BYTES, accepts_gzip, gzipped

FILES = Path(__file__).with_name("playground")

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}
ASSETS = {
    "index.html": "text/html; charset=utf-8",
    "play.js": "text/javascript; charset=utf-8",
    "play.css": "text/css; charset=utf-8",
}
CONTENT = {name: (FILES / name).read_bytes() for name in ASSETS}
GZIPPED = {name: gzipped(body, 9) for name, body in CONTENT.items()}
ETAGS = {name: f'"{hashlib.sha256(body).hexdigest()[:20]}"' for name, body in CONTENT.items()}


def _asset(request: Request, name: str) -> Response:
    """The file, gzipped when the browser takes it (compressed once, at import), with an
    ETag so that a revalidation (Cache-Control: no-cache) costs a 304."""
    headers = {**HEADERS, "ETag": ETAGS[name], "Vary": "Accept-Encoding"}
    if ETAGS[name] in _tags(request.headers.get("if-none-match", "")):
        return Response(status_code=304, headers=headers)
    body = CONTENT[name]
    if accepts_gzip(request) and len(body) >= MIN_BYTES:
        body = GZIPPED[name]
        headers["Content-Encoding"] = "gzip"
    return Response(body, media_type=ASSETS[name], headers=headers)


def _tags(header: str) -> set[str]:
    return {tag.strip().removeprefix("W/") for tag in header.split(",") if tag.strip()}


async def page(request: Request) -> Response:
    return _asset(request, "index.html")


async def script(request: Request) -> Response:
    return _asset(request, "play.js")


async def style(request: Request) -> Response:
    return _asset(request, "play.css")


async def slash(request: Request) -> Response:
    return RedirectResponse("/play", status_code=308)


routes = [
    Route("/play", page, methods=["GET"], name="playground", include_in_schema=False),
    Route("/play/", slash, methods=["GET"], include_in_schema=False),
    Route("/play/play.js", script, methods=["GET"], include_in_schema=False),
    Route("/play/play.css", style, methods=["GET"], include_in_schema=False),
]
