"""The service built on the test Redis, its dispatcher the module's own `recorder` (each
module defines what that records: turns sent, webhooks handed over...)."""

from __future__ import annotations

import pytest

from services.gameplay.build import build_service
from services.gameplay.settings import Settings


@pytest.fixture
async def gameplay(redis_url, key_prefix, games, recorder):
    settings = Settings(redis_url=redis_url, key_prefix=key_prefix, webhook_allow_private=True)
    async with build_service(settings, games=games, dispatcher=recorder) as built:
        yield built
