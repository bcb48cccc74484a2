"""Webhooks: signed POSTs to a platform's callback URL.

Every delivery carries the event id (receivers dedupe by it: delivery is at least once)
and an HMAC-SHA256 signature over the timestamp and the exact body, Stripe-style:

    Skyport-Signature: t=<unix seconds>,v1=<hex hmac_sha256(secret, "<t>.<body>")>

A receiver recomputes the HMAC with the shared secret and compares in constant time.

Before each POST the URL is checked again (`services.gameplay.webhook_targets`): its host is
resolved, every address must be public, and the connection goes to a checked address
(with the host name kept for the Host header and TLS), so a DNS answer that changed
since the game was created (rebinding) cannot reach an internal service.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import random
import time
from dataclasses import dataclass

import httpx
import orjson

from services.gameplay.webhook_targets import Address, Target, TargetRefused, pinned_addresses

SIGNATURE_HEADER = "Skyport-Signature"
EVENT_ID_HEADER = "Skyport-Event-Id"
EVENT_TYPE_HEADER = "Skyport-Event-Type"
CONNECT_ATTEMPTS = 3
"""Addresses of the host tried in turn when one does not take the connection (each may
take the whole timeout, so few: a delivery must end well within the task's lease)."""


def sign(secret: str, body: bytes, timestamp: int) -> str:
    digest = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return f"t={timestamp},v1={digest.hexdigest()}"


def verify(secret: str, body: bytes, header: str, *, tolerance: int = 300) -> bool:
    """What a receiver does: check the signature and that it is recent."""
    parts = dict(part.split("=", 1) for part in header.split(",") if "=" in part)
    try:
        timestamp = int(parts["t"])
    except (KeyError, ValueError):
        return False
    if abs(time.time() - timestamp) > tolerance:
        return False
    expected = sign(secret, body, timestamp).split("v1=", 1)[1]
    return hmac.compare_digest(expected, parts.get("v1", ""))


@dataclass(frozen=True)
class Webhook:
    event_id: str
    event_type: str
    url: str
    payload: dict


class DeliveryFailed(Exception):
    """The receiver did not answer 2xx; the task retries with back-off."""


class DeliveryRefused(DeliveryFailed):
    """The URL may not receive webhooks (not http(s), or not a public host); nothing was
    sent."""


def deliver(
    webhook: Webhook, secret: str, *, timeout: float = 10.0, allow_private: bool = False
) -> int:
    """POST once; returns the status code, raises DeliveryFailed unless it is 2xx.
    Unless `allow_private`, only to a public address, checked and then connected to."""
    body = orjson.dumps(webhook.payload)
    headers = {
        "Content-Type": "application/json",
        SIGNATURE_HEADER: sign(secret, body, int(time.time())),
        EVENT_ID_HEADER: webhook.event_id,
        EVENT_TYPE_HEADER: webhook.event_type,
    }
    if allow_private:
        return _post(webhook.url, body, headers, timeout)
    try:
        target, addresses = pinned_addresses(webhook.url, allow_private=False)
    except TargetRefused as refused:
        raise DeliveryRefused(f"{webhook.url}: {refused}") from None
    tried = addresses[:CONNECT_ATTEMPTS]
    for address in tried[:-1]:
        try:
            return _post_pinned(webhook.url, target, address, body, headers, timeout)
        except _Unreachable:
            continue
    return _post_pinned(webhook.url, target, tried[-1], body, headers, timeout)


class _Unreachable(DeliveryFailed):
    """No connection to this address (another of the host's addresses may answer)."""


def _post_pinned(
    url: str, target: Target, address: Address, body: bytes, headers: dict, timeout: float
) -> int:
    """POST to `address` itself, naming the host in Host and in TLS (SNI and the
    certificate check), as a connection to the host name would."""
    original = httpx.URL(url)
    pinned = original.copy_with(host=str(address))
    extensions = {"sni_hostname": target.host} if target.scheme == "https" else {}
    host_header = original.netloc.decode("ascii")  # host[:port], never the userinfo
    return _post(pinned, body, {**headers, "Host": host_header}, timeout, extensions, url)


def _post(
    url: str | httpx.URL,
    body: bytes,
    headers: dict,
    timeout: float,
    extensions: dict | None = None,
    shown: str | None = None,
) -> int:
    """POST and return the status, all within `timeout` seconds from connecting to the
    answer's status line and headers. The answer's body is never read: nothing in it
    matters, and httpx's timeouts count per read, so a receiver sending a body without
    end (or its headers a byte at a time) held a delivery for ever, gathering the body
    in memory (measured: 1.5 GB in 8 s). Runs its own event loop, so that the deadline
    can cancel whatever is under way; callers are threads (a Celery task, or
    embedded mode's `asyncio.to_thread`)."""
    shown = shown or str(url)
    connected: list[bool] = []
    try:
        status = asyncio.run(_exchange(url, body, headers, timeout, extensions or {}, connected))
    except TimeoutError:
        if not connected:
            raise _Unreachable(f"{shown}: no connection within {timeout:g} s") from None
        raise DeliveryFailed(f"{shown}: no answer within {timeout:g} s") from None
    except (httpx.ConnectError, httpx.ConnectTimeout) as error:
        raise _Unreachable(f"{shown}: {error.__class__.__name__}") from None
    except httpx.HTTPError as error:
        raise DeliveryFailed(f"{shown}: {error.__class__.__name__}") from None
    if not 200 <= status < 300:
        raise DeliveryFailed(f"{shown} answered {status}")
    return status


async def _exchange(
    url: str | httpx.URL,
    body: bytes,
    headers: dict,
    timeout: float,
    extensions: dict,
    connected: list[bool],
) -> int:
    """The POST's status; `connected` gets an entry once a connection is made."""

    async def trace(event: str, info: dict) -> None:
        if event == "connection.connect_tcp.complete":
            connected.append(True)

    async with (
        asyncio.timeout(timeout),
        httpx.AsyncClient(timeout=timeout, follow_redirects=False) as client,
    ):
        request = client.build_request(
            "POST", url, content=body, headers=headers, extensions={**extensions, "trace": trace}
        )
        response = await client.send(request, stream=True)
        await response.aclose()
        return response.status_code


def backoff_seconds(retry: int, base: float, cap: float, rng: random.Random | None = None) -> float:
    """Delay before retry `retry` (0 for the first): base * 2^retry, at most `cap`, with
    "equal jitter" (half fixed, half random) so receivers recovering from an outage are
    not hit by every sender at once."""
    delay = min(cap, base * 2.0**retry)
    jitter = rng.uniform(0, delay / 2) if rng is not None else random.uniform(0, delay / 2)
    return delay / 2 + jitter
