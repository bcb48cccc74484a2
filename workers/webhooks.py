"""Webhooks: signed POSTs to a platform's callback URL.

Every delivery carries the event id (receivers dedupe by it: delivery is at least once)
and an HMAC-SHA256 signature over the timestamp and the exact body, Stripe-style:

    Skyport-Signature: t=<unix seconds>,v1=<hex hmac_sha256(secret, "<t>.<body>")>

A receiver recomputes the HMAC with the shared secret and compares in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import time
from dataclasses import dataclass

import httpx
import orjson

SIGNATURE_HEADER = "Skyport-Signature"
EVENT_ID_HEADER = "Skyport-Event-Id"
EVENT_TYPE_HEADER = "Skyport-Event-Type"


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


def deliver(webhook: Webhook, secret: str, *, timeout: float = 10.0) -> int:
    """POST once; returns the status code, raises DeliveryFailed unless it is 2xx."""
    body = orjson.dumps(webhook.payload)
    headers = {
        "Content-Type": "application/json",
        SIGNATURE_HEADER: sign(secret, body, int(time.time())),
        EVENT_ID_HEADER: webhook.event_id,
        EVENT_TYPE_HEADER: webhook.event_type,
    }
    try:
        response = httpx.post(webhook.url, content=body, headers=headers, timeout=timeout)
    except httpx.HTTPError as error:
        raise DeliveryFailed(f"{webhook.url}: {error.__class__.__name__}") from None
    if not response.is_success:
        raise DeliveryFailed(f"{webhook.url} answered {response.status_code}")
    return response.status_code


def backoff_seconds(retry: int, base: float, cap: float, rng: random.Random | None = None) -> float:
    """Delay before retry `retry` (0 for the first): base * 2^retry, at most `cap`, with
    "equal jitter" (half fixed, half random) so receivers recovering from an outage are
    not hit by every sender at once."""
    delay = min(cap, base * 2**retry)
    return delay / 2 + (rng or random).uniform(0, delay / 2)
