"""The Idempotency-Key's fingerprint of a request: the service's own guard against a value
it cannot encode, whichever door the request came through."""

from __future__ import annotations

import pytest

from services.gameplay.idempotency import fingerprint
from services.gameplay.problems import Problem


def test_the_same_request_has_the_same_fingerprint_whatever_its_key_order() -> None:
    assert fingerprint({"a": 1, "b": [2, 3]}) == fingerprint({"b": [2, 3], "a": 1})
    assert fingerprint({"a": 1}) != fingerprint({"a": 2})
    assert fingerprint({"n": 2**64 - 1}) != fingerprint({"n": -(2**63)})  # the edges fit


@pytest.mark.parametrize("huge", [2**64, -(2**63) - 1, 10**30])
def test_an_integer_beyond_64_bits_is_the_callers_mistake_not_a_500(huge: int) -> None:
    with pytest.raises(Problem) as refused:
        fingerprint({"move": {"kind": "x", "n": [huge]}})
    assert refused.value.status == 422 and refused.value.code == "invalid_request"
