"""Fixtures of the API tests beyond the suite's own (tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from webhook_receiver import Receiver


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    """A platform's webhook endpoint on 127.0.0.1 (`receiver.url`)."""
    made = Receiver()
    yield made
    made.close()
