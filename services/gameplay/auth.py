"""Who is calling: seat tokens for players, API keys for platforms.

Secrets are compared in constant time (`hmac.compare_digest`, over every candidate
without stopping early). Seat tokens are stored only as SHA-256 hashes.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import hmac
import re
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from services.store import KEY_SCOPE_PREFIX, GameRecord, SeatRecord

from .problems import bad_request, unauthorized

TOKEN_PREFIX = "sps_"
_BEARER = re.compile(r"^Bearer ([\x21-\x7e]{1,512})$", re.IGNORECASE)
IDEMPOTENCY_KEY_PATTERN = r"^[\x21-\x7e]{8,255}$"
_IDEMPOTENCY_KEY = re.compile(IDEMPOTENCY_KEY_PATTERN)


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def new_token() -> str:
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def derived_token(salt: str, scope: str, idempotency_key: str, seat: int) -> str:
    """The token of `seat` in a game created with an Idempotency-Key, so that a retried
    creation can hand out the same tokens without the service keeping them. Without the
    key (which the service does not store) the salt alone does not give the token."""
    message = f"{scope}\x00{idempotency_key}\x00{seat}".encode()
    digest = hmac.new(bytes.fromhex(salt), message, hashlib.sha256).digest()
    return TOKEN_PREFIX + base64.urlsafe_b64encode(digest).decode().rstrip("=")


def new_salt() -> str:
    return secrets.token_hex(32)


@dataclass(frozen=True)
class Credentials:
    """What came with the request. `bearer` is the raw secret; it never leaves this object
    except hashed."""

    bearer: str | None
    client_ip: str
    platform: bool = False
    """True when the bearer is one of the configured API keys."""
    acting_for: str | None = None
    """The scope of the API key the service acts for without its secret (a tournament
    creating its tables' games for the key that created it)."""

    @functools.cached_property
    def token_hash(self) -> str | None:
        # Asked several times a request (the seat, the record, an idempotency key).
        return hash_secret(self.bearer) if self.bearer else None

    @property
    def scope(self) -> str:
        """Whose idempotency keys these are when creating games, and whose games (the
        `creator` of those it creates) a platform lists and reads in full."""
        if self.acting_for is not None:
            return self.acting_for
        if self.platform and self.bearer:
            return f"{KEY_SCOPE_PREFIX}{hash_secret(self.bearer)[:32]}"
        return f"anonymous:{self.client_ip}"


class ApiKeys:
    def __init__(self, keys: Iterable[str]) -> None:
        self._hashes = [hashlib.sha256(key.encode()).digest() for key in keys if key]

    def __contains__(self, candidate: str) -> bool:
        digest = hashlib.sha256(candidate.encode()).digest()
        found = False
        for known in self._hashes:
            found |= hmac.compare_digest(digest, known)
        return found


def read_bearer(headers: Mapping[str, str]) -> str | None:
    header = headers.get("authorization")
    if header is None:
        return None
    match = _BEARER.match(header.strip())
    if not match:
        raise unauthorized(
            "invalid_authorization", "Send the token as 'Authorization: Bearer <token>'."
        )
    return match.group(1)


def credentials_from(headers: Mapping[str, str], client_ip: str, api_keys: ApiKeys) -> Credentials:
    bearer = read_bearer(headers)
    return Credentials(bearer, client_ip, platform=bearer is not None and bearer in api_keys)


def require_api_key(who: Credentials, needed_for: str) -> None:
    """Refuses a caller that is not a platform: without a bearer `401 api_key_required`,
    with one that is not an API key (mistyped, revoked, a seat token) `401
    invalid_api_key` - the same answers wherever only an API key is taken. `needed_for`
    names what is asked ("Listing games")."""
    if who.platform:
        return
    if who.bearer is None:
        raise unauthorized("api_key_required", f"{needed_for} needs a platform API key.")
    raise unauthorized("invalid_api_key", "That bearer token is not an API key.")


def holds_creator_token(record: GameRecord, who: Credentials) -> bool:
    """Whether `who` sends the creator token a game without an API key handed out."""
    stored = record.creator_token_hash or ""
    return bool(stored) and hmac.compare_digest(stored, who.token_hash or "")


def seat_of(seats: Sequence[SeatRecord], token_hash: str) -> int | None:
    """The seat whose token hashes to `token_hash`, comparing with every seat."""
    found: int | None = None
    for index, seat in enumerate(seats):
        stored = seat.token_hash or ""
        if hmac.compare_digest(stored.encode(), token_hash.encode()) and stored:
            found = index
    return found


def check_idempotency_key(key: str | None) -> str | None:
    if key is not None and not _IDEMPOTENCY_KEY.fullmatch(key):
        raise bad_request(
            "invalid_idempotency_key",
            "An Idempotency-Key is 8 to 255 visible ASCII characters (a UUID is ideal).",
        )
    return key
