"""A cursor is opaque: one the service did not give is refused in words a client can act
on, without the service's internal pattern."""

from __future__ import annotations

import pytest

KEY = {"Authorization": "Bearer platform-key-for-tests-0001"}


@pytest.mark.parametrize("path", ["/v1/games", "/v1/records"])
@pytest.mark.parametrize("cursor", ["abc", "000000000000001:UPPER", "1" * 300])
def test_a_cursor_the_service_never_gave_is_refused_in_plain_words(api, path, cursor):
    response = api.client.get(path, params={"cursor": cursor}, headers=KEY)
    assert response.status_code == 400, response.text
    problem = response.json()
    assert problem["code"] == "invalid_query"
    text = response.text
    assert "next_cursor" in problem["detail"], problem
    assert "pattern" not in text and "a-z2-7" not in text and "\\\\d" not in text, problem
