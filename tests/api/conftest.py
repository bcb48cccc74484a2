"""Fixtures of the API tests beyond the suite's own (tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from own_redis import own_redis  # noqa: F401 (a fixture for the store's failure tests)
from webhook_receiver import Receiver


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    """A platform's webhook endpoint on 127.0.0.1 (`receiver.url`)."""
    made = Receiver()
    yield made
    made.close()


@pytest.fixture
def limited(settings, games) -> Callable[..., Any]:
    """A test client of an app with these settings changed (`limited(create_limit_per_ip=2)`)."""
    from starlette.testclient import TestClient  # imported late: see the warning filter

    from services.api.app import create_app

    def make(**limits: Any) -> TestClient:
        return TestClient(create_app(settings.model_copy(update=limits), games))

    return make
