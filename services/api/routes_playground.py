"""The playground at /play: one static page, its script and its style sheet, shipped in
the package (services/api/playground/) and read once, so serving them costs no I/O."""

from __future__ import annotations

from pathlib import Path

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

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


def _asset(name: str) -> Response:
    return Response(CONTENT[name], media_type=ASSETS[name], headers=HEADERS)


async def page(request: Request) -> Response:
    return _asset("index.html")


async def script(request: Request) -> Response:
    return _asset("play.js")


async def style(request: Request) -> Response:
    return _asset("play.css")


async def slash(request: Request) -> Response:
    return RedirectResponse("/play", status_code=308)


routes = [
    Route("/play", page, methods=["GET"], name="playground", include_in_schema=False),
    Route("/play/", slash, methods=["GET"], include_in_schema=False),
    Route("/play/play.js", script, methods=["GET"], include_in_schema=False),
    Route("/play/play.css", style, methods=["GET"], include_in_schema=False),
]
