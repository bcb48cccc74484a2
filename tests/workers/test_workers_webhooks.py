"""Webhook signing and one delivery attempt, against a real local HTTP server (and raw
sockets for receivers that would hold a delivery)."""

import contextlib
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from services.gameplay.webhooks import (
    EVENT_ID_HEADER,
    SIGNATURE_HEADER,
    DeliveryFailed,
    Webhook,
    _Unreachable,
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


# --- receivers that would hold a delivery: each must end within the timeout ---------------


class RawReceiver:
    """A TCP server on 127.0.0.1 that reads a request, then runs `answer(connection)`."""

    def __init__(self, answer):
        self.socket = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.socket.getsockname()[1]}/hook"
        self.stop = threading.Event()

        def serve():
            with contextlib.suppress(OSError):
                while not self.stop.is_set():
                    connection, _ = self.socket.accept()
                    threading.Thread(target=talk, args=(connection,), daemon=True).start()

        def talk(connection):
            with connection, contextlib.suppress(OSError):
                connection.recv(65536)
                answer(connection, self.stop)

        threading.Thread(target=serve, daemon=True).start()

    def close(self):
        self.stop.set()
        self.socket.close()


def endless_body(connection, stop):
    connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n")
    while not stop.is_set():
        connection.sendall(b"x" * 65536)


def headers_a_line_at_a_time(connection, stop):
    connection.sendall(b"HTTP/1.1 200 OK\r\n")
    while not stop.wait(0.2):
        connection.sendall(b"X-Slow: 1\r\n")


def silence(connection, stop):
    stop.wait(30)


def delivered_within(url, seconds):
    """What `deliver` gave (a status, or the exception) within `seconds`."""
    outcome = []

    def run():
        try:
            outcome.append(
                deliver(
                    Webhook(**{**HOOK.__dict__, "url": url}), "s", timeout=1.0, allow_private=True
                )
            )
        except DeliveryFailed as error:
            outcome.append(error)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    assert outcome, f"the delivery was still running after {seconds} s"
    return outcome[0]


def test_an_answer_whose_body_never_ends_is_taken_by_its_status_without_reading_it():
    platform = RawReceiver(endless_body)
    try:
        assert delivered_within(platform.url, 10) == 200
    finally:
        platform.close()


@pytest.mark.parametrize("answer", [headers_a_line_at_a_time, silence])
def test_a_receiver_that_does_not_answer_in_time_is_a_failed_delivery(answer):
    platform = RawReceiver(answer)
    try:
        failed = delivered_within(platform.url, 10)
    finally:
        platform.close()
    assert isinstance(failed, DeliveryFailed)
    assert "no answer within 1 s" in str(failed)


def test_a_receiver_that_never_takes_the_connection_is_unreachable_within_the_timeout():
    """Its listen queue is full, so the connection never completes: this address counts
    as unreachable (the next address of the host is tried), not as a receiver that did
    not answer."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(0)
        waiting = [socket.socket() for _ in range(3)]
        for sock in waiting:
            sock.setblocking(False)
            with contextlib.suppress(BlockingIOError):
                sock.connect(server.getsockname())
        time.sleep(0.2)
        try:
            url = f"http://127.0.0.1:{server.getsockname()[1]}/hook"
            failed = delivered_within(url, 10)
        finally:
            for sock in waiting:
                sock.close()
    assert isinstance(failed, _Unreachable)
    assert "no connection within 1 s" in str(failed)
