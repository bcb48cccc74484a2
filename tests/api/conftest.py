"""Fixtures of the API tests beyond the suite's own (tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from own_redis import own_redis  # noqa: F401 (a fixture for the store's failure tests)
from webhook_receiver import Receiver


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    """A platform's webhook endpoint on 127.0.0.1 (`receiver.url`)."""
    made = Receiver()
    yield made
    made.close()
