"""The GraphQL schema (Strawberry) and its checked-in SDL, schema.graphql."""

from .schema import Limits, build_schema, sdl

__all__ = ["Limits", "build_schema", "sdl"]
