"""A platform's webhook endpoint for the API tests: an HTTP server on 127.0.0.1 keeping
every POST (lower-cased headers and body), with waits on what arrived."""

from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import orjson


class Receiver:
    def __init__(self) -> None:
        self.received: list[tuple[dict[str, str], bytes]] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
                body = self.rfile.read(int(self.headers["Content-Length"]))
                headers = {key.lower(): value for key, value in self.headers.items()}
                receiver.received.append((headers, body))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                return None

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def raw(self) -> list[bytes]:
        return [body for _, body in self.received]

    @property
    def bodies(self) -> list[dict[str, Any]]:
        return [orjson.loads(body) for body in self.raw]

    def of_type(self, event_type: str) -> list[dict[str, Any]]:
        return [body for body in self.bodies if body["type"] == event_type]

    def wait_for(self, event_type: str, count: int = 1, timeout: float = 20) -> list[dict]:
        deadline = time.monotonic() + timeout
        while len(self.of_type(event_type)) < count:
            assert time.monotonic() < deadline, f"no {event_type}: {self.bodies}"
            time.sleep(0.02)
        return self.of_type(event_type)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
