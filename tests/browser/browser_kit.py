"""What the browser tests share: the settings of the API they drive."""

from __future__ import annotations

from typing import Any

from services.gameplay.settings import Settings


def embedded_settings(**more: Any) -> Settings:
    """The API in embedded mode (no Redis, bots in-process); rate limits off because a
    test clicks faster than a person."""
    return Settings(
        redis_url=None,
        rate_limit_per_ip=0,
        create_limit_per_ip=0,
        rate_limit_per_token=0,
        log_level="warning",
        **more,
    )


READY_MOVE = '#moves[aria-busy="false"] button:enabled'
"""A move button the playground has drawn and not yet greyed out for a request."""
