"""GraphQL's result types are written by hand next to the service's pydantic payloads,
which REST serves as they are. Every GraphQL type built from a payload (`Type.of(payload)`)
must carry every field of it, so that neither door tells clients less than the other; the
only differences are the deliberate ones below."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import typing

import pytest
from pydantic import BaseModel

import schema

RENAMED = {"id": "game_id"}
"""Results about a game (its legal moves, result, seat changes) name its id `gameId`;
documents that are the game or the thing itself keep `id`."""
ADDED = {"replayed"}
"""Whether the answer is an Idempotency-Key replay: a header over REST."""


def mirrors() -> list[tuple[type, type[BaseModel]]]:
    """(GraphQL type, the payload its `of` is built from), for every such type."""
    found = []
    for module_info in pkgutil.iter_modules(schema.__path__):
        module = importlib.import_module(f"schema.{module_info.name}")
        for cls in vars(module).values():
            if not (inspect.isclass(cls) and cls.__module__ == module.__name__):
                continue
            built = cls.__dict__.get("of")
            if not hasattr(cls, "__strawberry_definition__") or built is None:
                continue
            hints = typing.get_type_hints(built.__func__, globalns=vars(module))
            source = next(iter(v for k, v in hints.items() if k != "return"), None)
            if inspect.isclass(source) and issubclass(source, BaseModel):
                found.append((cls, source))
    return found


def test_the_mirrored_types_are_found():
    names = {graphql.__name__ for graphql, _ in mirrors()}
    assert {"Seat", "GameResult", "LegalMoves", "GameCreated", "SeatTaken"} <= names


@pytest.mark.parametrize("graphql, payload", mirrors(), ids=lambda t: t.__name__)
def test_a_graphql_type_carries_every_field_of_its_payload(graphql, payload):
    fields = {field.python_name for field in graphql.__strawberry_definition__.fields}
    expected = {
        RENAMED[name] if name in RENAMED and name not in fields else name
        for name in payload.model_fields
    }
    assert expected - fields == set(), f"{graphql.__name__} lacks what REST shows"
    assert fields - expected <= ADDED, f"{graphql.__name__} has fields REST does not"
