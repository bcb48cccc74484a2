"""Webhook signing and one delivery attempt, against a real local HTTP server."""

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from services.gameplay.webhooks import (
    EVENT_ID_HEADER,
    SIGNATURE_HEADER,
    DeliveryFailed,
    Webhook,
    deliver,
    sign,
    verify,
)


class Receiver:
    """A platform's endpoint: records what arrives, answers with the next queued status."""

    def __init__(self, statuses):
        self.statuses = list(statuses)
        self.received = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                receiver.received.append((dict(self.headers), body))
                status = receiver.statuses.pop(0) if receiver.statuses else 200
                self.send_response(status)
                self.end_headers()

            def log_message(self, *args):
                return None

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_port}/hook"

    def close(self):
        self.server.shutdown()


@pytest.fixture
def receiver():
    made = []

    def make(statuses=()):
        made.append(Receiver(statuses))
        return made[-1]

    yield make
    for r in made:
        r.close()


HOOK = Webhook(event_id="evt-1", event_type="game.finished", url="", payload={"game": "g1"})


def test_a_delivery_is_signed_and_names_its_event(receiver):
    platform = receiver()
    hook = Webhook(**{**HOOK.__dict__, "url": platform.url})
    assert deliver(hook, "s3cret", allow_private=True) == 200
    headers, body = platform.received[0]
    assert headers[EVENT_ID_HEADER] == "evt-1"
    assert verify("s3cret", body, headers[SIGNATURE_HEADER])
    assert not verify("other", body, headers[SIGNATURE_HEADER])
    assert not verify("s3cret", body + b" ", headers[SIGNATURE_HEADER])


def test_a_500_answer_is_a_failed_delivery(receiver):
    platform = receiver([500])
    with pytest.raises(DeliveryFailed, match="answered 500"):
        deliver(Webhook(**{**HOOK.__dict__, "url": platform.url}), "s3cret", allow_private=True)


def test_an_unreachable_receiver_is_a_failed_delivery():
    with pytest.raises(DeliveryFailed):
        hook = Webhook(**{**HOOK.__dict__, "url": "http://127.0.0.1:9/hook"})
        deliver(hook, "s", timeout=1, allow_private=True)


def test_old_signatures_are_refused():
    body = b"{}"
    header = sign("k", body, int(time.time()) - 3600)
    assert not verify("k", body, header)
    assert not verify("k", body, "garbage")
