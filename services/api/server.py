"""Running the API under uvicorn (`skyport serve`)."""

from __future__ import annotations

import resource
import signal
from types import FrameType

import structlog
import uvicorn
from starlette.applications import Starlette

from services.gameplay.settings import Settings, get_settings

from .app import create_app
from .client_ip import TrustedProxies
from .heap import settle_after_startup
from .http_protocol import PeerConnections, guarded_protocol

log = structlog.get_logger(__name__)

MOST_OPEN_FILES = 1 << 20
"""Linux's default ceiling (`fs.nr_open`), for a hard limit of "unlimited"."""


class GracefulServer(uvicorn.Server):
    """On SIGTERM or SIGINT: stop taking connections, end open live streams (SSE clients
    reconnect to another replica with Last-Event-ID; WebSockets are closed with 1012 by
    uvicorn), finish what is in flight, run the shutdown (bot tasks, Redis), and exit
    with status 0 — a clean stop, as container runtimes expect — instead of re-raising
    the signal as plain uvicorn does."""

    def __init__(self, config: uvicorn.Config, app: Starlette) -> None:
        super().__init__(config)
        self.app = app

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        super().handle_exit(sig, frame)
        self._captured_signals = [
            s for s in self._captured_signals if s not in (signal.SIGTERM, signal.SIGINT)
        ]
        close_streams = getattr(self.app.state, "close_streams", None)
        if close_streams is not None:
            close_streams()


def server_config(app: Starlette, settings: Settings, host: str, port: int) -> uvicorn.Config:
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        http=guarded_protocol(
            settings.request_receive_seconds,
            PeerConnections(
                settings.max_connections_per_ip, TrustedProxies(settings.forwarded_allow_ips)
            ),
        ),
        proxy_headers=False,  # the app reads X-Forwarded-For itself (client_ip.py)
        access_log=False,
        log_config=None,
        log_level=settings.log_level,
        ws="websockets-sansio",
        ws_max_size=settings.max_body_bytes,
        # Within Kubernetes' default 30 s grace: a request that will not end cannot
        # hold the replica's stop past it.
        timeout_graceful_shutdown=25,
    )


def open_files_as_allowed() -> int:
    """Raise this process's soft limit on open files to its hard limit, as Go's runtime
    and nginx's `worker_rlimit_nofile` do: every connection holds a file, and the soft
    limit a service is often started with (1,024 under systemd) is a thousand clients.
    The limit it runs with."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = MOST_OPEN_FILES if hard == resource.RLIM_INFINITY else hard
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        except (ValueError, OSError):
            return soft  # not allowed here: run with what was given
        return wanted
    return soft


def run(host: str = "127.0.0.1", port: int = 8000) -> None:
    settings = get_settings()
    app = create_app(settings)
    log.info("open_files_limit", limit=open_files_as_allowed())
    settle_after_startup()
    GracefulServer(server_config(app, settings, host, port), app).run()
