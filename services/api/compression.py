"""gzip for the few answers that are worth it and cheap: the playground's static files
(compressed once, at import) and the board pictures (SVG text, which shrinks about
five-fold). JSON answers and the live stream are left alone on purpose: the service's
CPU per move is what bounds it, and those answers are small or must flush at once."""

from __future__ import annotations

import gzip

from starlette.requests import Request

MIN_BYTES = 512
"""Smaller bodies are sent as they are: gzip's header would eat what it saves."""

LEVEL = 5
"""For bodies compressed per request: most of level 9's saving at a fraction of its CPU."""


def accepts_gzip(request: Request) -> bool:
    """Whether Accept-Encoding allows gzip (`gzip` or `*`, with a q above 0)."""
    allowed = {}
    for part in request.headers.get("accept-encoding", "").split(","):
        name, _, params = part.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if name:
            allowed[name.strip().lower()] = quality
    quality = allowed.get("gzip", allowed.get("x-gzip", allowed.get("*", 0.0)))
    return quality > 0


def gzipped(body: bytes, level: int = LEVEL) -> bytes:
    """`body` in gzip, the same bytes every time (no timestamp)."""
    return gzip.compress(body, compresslevel=level, mtime=0)


def encode(request: Request, body: bytes, headers: dict[str, str]) -> bytes:
    """`body` as this request may take it, with `headers` (a copy, updated) saying so."""
    headers["Vary"] = ", ".join(filter(None, (headers.get("Vary"), "Accept-Encoding")))
    if len(body) < MIN_BYTES or not accepts_gzip(request):
        return body
    headers["Content-Encoding"] = "gzip"
    return gzipped(body)
