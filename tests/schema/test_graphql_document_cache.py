"""The schema's cache of parsed and validated documents: what it keeps, and how much."""

from __future__ import annotations

import asyncio

import pytest

from schema.schema import build_schema
from services.engine.registry import all_games

GAMES = {game.id: game for game in all_games()}


@pytest.fixture
def schema():
    return build_schema(GAMES)


def run(schema, query: str) -> list[dict]:
    result = asyncio.run(schema.execute(query))
    return [error.formatted for error in result.errors or []]


def test_documents_that_fail_validation_are_not_kept(schema):
    """Unique refused documents (each parsed tree ~100× its text) must not pile up."""
    for n in range(20):
        assert run(schema, f"{{ unknownField{n} }}")
    assert len(schema.documents) == 0
    run(schema, "{ catalog { id } }")
    assert len(schema.documents) == 1


def test_kept_documents_are_bounded_by_their_text_as_well_as_their_number(schema):
    schema.documents.max_text = 100
    for n in range(10):
        run(schema, f"{{ a{n}: catalog {{ id }} }}")  # 24 characters each
    assert len(schema.documents) == 4


def test_the_limits_are_checked_before_the_other_rules():
    """graphql-core's overlapping-fields check is quadratic: a thousand aliases are
    refused by the alias limit alone, before it runs (it would also report the clash)."""
    schema = build_schema(GAMES)
    clashing = " ".join("c: catalog { id } c: catalog { title }" for _ in range(500))
    [error] = run(schema, f"{{ {clashing} }}")
    assert error["extensions"]["code"] == "too_many_aliases"
