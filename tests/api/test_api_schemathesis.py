"""Schemathesis against /openapi.json on a real server: generated requests — valid and
deliberately invalid — never get a 5xx, every answer matches the documented statuses,
content types, schemas and headers, and nothing that fails changes a game.

150 cases per generation mode by default; set SKYPORT_SCHEMATHESIS_CASES for a longer run."""

from __future__ import annotations

import os
import random
import uuid

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode
from schemathesis.checks import (
    content_type_conformance,
    negative_data_rejection,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from schemathesis.core.parameters import ParameterLocation

from services.api.app import create_app
from services.gameplay.settings import Settings

PLATFORM_KEY = "platform-key-for-schemathesis-01"
CASES = int(os.environ.get("SKYPORT_SCHEMATHESIS_CASES", "150"))
LONG_RUN = "SKYPORT_SCHEMATHESIS_CASES" in os.environ
"""The default run draws the same cases every time (a stable suite); a long run new ones."""


@pytest.fixture(scope="module")
def live(redis_url, run_prefix, games, serve):
    app_settings = Settings(
        redis_url=redis_url,
        key_prefix=f"{run_prefix}-schemathesis-{uuid.uuid4().hex[:6]}",
        api_keys=PLATFORM_KEY,
        rate_limit_per_ip=0,
        create_limit_per_ip=0,
        rate_limit_per_token=0,
        log_level="warning",
    )
    with serve(create_app(app_settings, games)) as server:
        yield server.url


def new_game(url: str) -> dict:
    created = httpx.post(
        f"{url}/v1/games",
        json={"game": "hidden-numbers", "seats": [{"name": "A"}, {"name": "B"}], "seed": 5},
    )
    game = created.json()
    return {"url": url, "game_id": game["id"], "tokens": [seat["token"] for seat in game["seats"]]}


def version_of(live) -> tuple[int, str]:
    game = httpx.get(f"{live['url']}/v1/games/{live['game_id']}").json()
    return game["version"], game["updated_at"]


def headers_left_as_generated(case) -> bool:
    """A case whose headers were generated invalid (say, without the required
    Authorization) must be sent as generated: adding a token would make it valid."""
    return case.meta is not None and case.meta.is_negative_at(ParameterLocation.HEADER)


def some_authorization(chooser: random.Random, live) -> dict[str, str]:
    """A seat's token, the platform key or nothing."""
    if chooser.random() < 0.5:
        return {"Authorization": f"Bearer {chooser.choice(live['tokens'])}"}
    if chooser.random() < 0.5:
        return {"Authorization": f"Bearer {PLATFORM_KEY}"}
    return {}


def call_and_check(case, live, mode) -> None:
    chooser = random.Random(repr(case.body) + repr(case.query) + repr(case.path_parameters))
    real_game = chooser.random() < 0.6 and mode is GenerationMode.POSITIVE
    if case.path_parameters and "game_id" in case.path_parameters and real_game:
        case.path_parameters["game_id"] = live["game_id"]  # a game that exists
    headers = {} if headers_left_as_generated(case) else some_authorization(chooser, live)
    before = version_of(live)
    response = case.call_and_validate(
        base_url=live["url"],
        headers=headers,
        checks=CHECKS,
        timeout=10,
    )
    if response.status_code >= 400:
        assert version_of(live) == before, "a refused request changed the game"


CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    response_headers_conformance,
    negative_data_rejection,
]


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_the_api_answers_every_generated_request_as_documented(live, mode):
    """Positive cases mostly aim at a real game (so moves and resigns really run);
    negative ones keep their invalid parts as generated."""
    game = new_game(live)
    schema = schemathesis.openapi.from_url(f"{live}/openapi.json")

    @given(case=schema.as_strategy(mode))
    @settings(
        max_examples=CASES,
        deadline=None,
        database=None,
        derandomize=not LONG_RUN,
        suppress_health_check=list(HealthCheck),
    )
    def answer_as_documented(case):
        call_and_check(case, game, mode)

    answer_as_documented()
