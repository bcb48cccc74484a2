"""Invite codes: short, unambiguous, random (or derived from an Idempotency-Key), and
matched however they are typed."""

from __future__ import annotations

import re

from services.gameplay.invites import (
    CODE_ALPHABET,
    code_hash,
    derived_code,
    expiry_of,
    invites_for,
    new_code,
)
from services.gameplay.payloads import SeatRequest

SHAPE = re.compile(rf"^[{CODE_ALPHABET}]{{5}}-[{CODE_ALPHABET}]{{5}}$")
SALT = "ab" * 32


def test_a_code_is_ten_characters_that_cannot_be_misread():
    codes = {new_code() for _ in range(200)}
    assert len(codes) == 200
    assert all(SHAPE.match(code) for code in codes)
    assert not set("IO01") & set(CODE_ALPHABET)


def test_a_code_matches_in_any_case_with_or_without_its_dash():
    code = new_code()
    typed = [code.lower(), code.replace("-", ""), code.replace("-", " "), f" {code} "]
    assert {code_hash(variant) for variant in typed} == {code_hash(code)}
    assert code_hash(new_code()) != code_hash(code)


def test_derived_codes_repeat_for_one_key_and_differ_per_seat_and_key():
    first = derived_code(SALT, "scope", "key-00000001", 1)
    assert SHAPE.match(first)
    assert derived_code(SALT, "scope", "key-00000001", 1) == first
    assert derived_code(SALT, "scope", "key-00000001", 2) != first
    assert derived_code(SALT, "scope", "key-00000002", 1) != first


def test_only_open_seats_get_invites_and_only_then_a_creator_token():
    seats = [SeatRequest(name="Host"), SeatRequest(open=True), SeatRequest(name="B", bot="random")]
    invites = invites_for(seats, scope="s", idempotency_key=None, salt=SALT, expires_ms=123)
    assert set(invites.codes) == {1} and invites.creator_token
    assert expiry_of(invites.stored[1]) == 123
    assert invites.codes[1] not in invites.stored[1]
    closed = invites_for(seats[:1], scope="s", idempotency_key=None, salt=SALT, expires_ms=1)
    assert closed.codes == {} and closed.creator_token is None
