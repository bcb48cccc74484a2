"""The `JSON` scalar as Strawberry defines it (same name, description and SDL), except
that it refuses integers beyond 64 bits.

A JSON literal in a GraphQL document may hold an integer of any length
(`makeMove(move: {n: 100000000000000000000})`), but what the service keeps and
fingerprints is encoded by orjson, which holds signed and unsigned 64-bit integers only,
so such a value would fail deep inside a mutation. It is refused up front instead, as an
invalid argument. (A variable's JSON never holds one: orjson, which parses the request,
reads a longer integer as a float.)
"""

from __future__ import annotations

from typing import Any

from graphql import GraphQLError
from strawberry.scalars import JSON
from strawberry.schema.types.scalar import DEFAULT_SCALAR_REGISTRY
from strawberry.types.scalar import ScalarDefinition, scalar

SMALLEST = -(2**63)
LARGEST = 2**64 - 1
"""orjson's range: a signed 64-bit integer's least value, an unsigned one's greatest."""


def within_64_bits(value: Any) -> Any:
    """`value` itself, if every integer in it fits; a walk without recursion, since a
    literal may nest as deep as the document's size allows."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
        elif isinstance(item, int) and not SMALLEST <= item <= LARGEST:
            # A GraphQLError, not a ValueError: graphql-core reports it as the client's
            # mistake (`invalid_query`) rather than as an unexpected failure.
            raise GraphQLError(f"JSON integers must lie between {SMALLEST} and {LARGEST}.")
    return value


_STRAWBERRY_JSON = DEFAULT_SCALAR_REGISTRY[JSON]

CHECKED_JSON: ScalarDefinition = scalar(
    name=_STRAWBERRY_JSON.name,
    description=_STRAWBERRY_JSON.description,
    specified_by_url=_STRAWBERRY_JSON.specified_by_url,
    serialize=lambda value: value,
    parse_value=within_64_bits,
)
"""Pass as `scalar_overrides={JSON: CHECKED_JSON}`: literals are parsed by graphql-core's
default (the untyped value, then `parse_value`), so both doors are checked."""
