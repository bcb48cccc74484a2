"""Game ids: random, or derived from what created the game."""

from __future__ import annotations

import base64
import hashlib
import secrets


def new_game_id(seed_text: str | None = None) -> str:
    """24 lowercase base32 characters: random, or derived from `seed_text`."""
    raw = hashlib.sha256(seed_text.encode()).digest() if seed_text else secrets.token_bytes(32)
    return base64.b32encode(raw[:15]).decode().lower()


def created_game_id(scope: str, idempotency_key: str | None) -> str:
    """The id of a game created by `scope`: derived from its Idempotency-Key (so a retry,
    a bulk repeat or a tournament's table names the same game), else random."""
    return new_game_id(f"create\x00{scope}\x00{idempotency_key}" if idempotency_key else None)
