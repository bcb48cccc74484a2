"""Invite codes of open seats, and the creator's token of a game that has them.

A code is 10 characters from 32 that cannot be misread (no I, O, 0 or 1), shown as
`ABCDE-FGHJK`: 50 random bits, typed on a phone, read aloud. It is single use and
expires. The service keeps only its SHA-256 with its expiry (`GameRecord.invites`).

With an Idempotency-Key a game's codes and creator token are derived from the key, as
its seat tokens are (`auth.derived_token`), so that a retried creation answers them
again without the service keeping them.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from .auth import TOKEN_PREFIX, hash_secret, new_token
from .payloads import GameCreated, SeatRequest

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 10
MAX_CODE_CHARS = 32
"""Longest code a claim may send (dashes and spaces included); longer ones are refused."""


def new_code() -> str:
    return _shown("".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH)))


def derived_code(salt: str, scope: str, idempotency_key: str, seat: int) -> str:
    return _code_of(_derived(salt, f"{scope}\x00{idempotency_key}\x00invite\x00{seat}"))


def reissued_code(salt: str, key_digest: str, seat: int, expires_ms: int) -> str:
    """The code of an invite the creator reissued with an Idempotency-Key (`key_digest`:
    the caller's and the key's), so that a retry answers it again. Its expiry is part of
    it: a key used again once it is forgotten gives a new code, not one that went astray."""
    return _code_of(_derived(salt, f"{key_digest}\x00reissued invite\x00{seat}\x00{expires_ms}"))


def lobby_code(salt: str, seat: int) -> str:
    """The invite code of an open seat of a game in the public lobby, which the lobby
    shows to anyone: derived from the game's salt, so that the service, which keeps only
    hashes, can show it."""
    return _code_of(_derived(salt, f"lobby invite\x00{seat}"))


def stored_invite(code: str, expires_ms: int) -> str:
    """An invite as the store keeps it: "<expires unix ms>:<sha256 of the code>"."""
    return f"{expires_ms}:{code_hash(code)}"


def code_hash(code: str) -> str:
    """The hash of a code as typed: case, spaces and dashes do not matter."""
    plain = "".join(char for char in code.upper() if char not in "- ")
    return hashlib.sha256(f"invite\x00{plain}".encode()).hexdigest()


def derived_claim_token(salt: str, idempotency_key: str, seat: int, request_print: str) -> str:
    """The token of a seat claimed with an Idempotency-Key (a retried claim answers it
    again); without the key the salt alone does not give it. `request_print` is the
    claim's fingerprint (its seat, code and name): keys are not secrets, and the key alone
    gives another claim another token."""
    digest = _derived(salt, f"claim\x00{idempotency_key}\x00{seat}\x00{request_print}")
    return TOKEN_PREFIX + digest.hex()


def _derived(salt: str, message: str) -> bytes:
    return hmac.new(bytes.fromhex(salt), message.encode(), hashlib.sha256).digest()


def _code_of(digest: bytes) -> str:
    """A code spelled from the first bytes of a derived digest."""
    return _shown("".join(CODE_ALPHABET[byte % 32] for byte in digest[:CODE_LENGTH]))


def _shown(plain: str) -> str:
    return f"{plain[:5]}-{plain[5:]}"


def expiry_of(invite: str) -> int:
    """The expiry (unix ms) of a stored invite ("<expires ms>:<code hash>")."""
    return int(invite.split(":", 1)[0])


def expiry_text(invite: str | None) -> str | None:
    if invite is None:
        return None
    moment = datetime.fromtimestamp(expiry_of(invite) / 1000, UTC)
    return moment.isoformat(timespec="milliseconds")


@dataclass(frozen=True)
class Invites:
    """The open seats of a new game: their codes (for the creator's answer), what the
    store keeps of them, and the creator's token."""

    codes: dict[int, str] = field(default_factory=dict)
    stored: dict[int, str] = field(default_factory=dict)
    creator_token: str | None = None

    @property
    def creator_token_hash(self) -> str | None:
        return hash_secret(self.creator_token) if self.creator_token else None

    def shown_in(self, answer: GameCreated) -> GameCreated:
        """The creation answer with the codes and the creator token (only the creator
        ever gets it)."""
        if not self.codes:
            return answer
        seats = [
            seat.model_copy(update={"invite_code": self.codes.get(seat.seat)})
            for seat in answer.seats
        ]
        return answer.model_copy(update={"seats": seats, "creator_token": self.creator_token})


def _code_for(seat: int, salt: str, scope: str, idempotency_key: str | None, lobby: bool) -> str:
    """An open seat's code: the lobby's, one derived from the creation's key, or random."""
    if lobby:
        return lobby_code(salt, seat)
    if idempotency_key is not None:
        return derived_code(salt, scope, idempotency_key, seat)
    return new_code()


def invites_for(
    seats: Sequence[SeatRequest],
    *,
    scope: str,
    idempotency_key: str | None,
    salt: str,
    expires_ms: int,
    lobby: bool = False,
) -> Invites:
    """Codes for the open seats among `seats`; nothing for a game without any. A game in
    the lobby has lobby codes (`lobby_code`), shown to anyone."""
    open_seats = [index for index, seat in enumerate(seats) if seat.open]
    if not open_seats:
        return Invites()
    if idempotency_key is None:
        creator = new_token()
    else:
        creator = TOKEN_PREFIX + _derived(salt, f"{scope}\x00{idempotency_key}\x00creator").hex()
    codes = {seat: _code_for(seat, salt, scope, idempotency_key, lobby) for seat in open_seats}
    stored = {seat: stored_invite(code, expires_ms) for seat, code in codes.items()}
    return Invites(codes, stored, creator)
