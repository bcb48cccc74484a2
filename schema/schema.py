"""The GraphQL schema: queries, mutations and the subscription, with typed game views
for the games given, one cache of parsed and validated documents, and depth/cost limits."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from strawberry.scalars import JSON
from strawberry.schema.config import StrawberryConfig
from strawberry.schema.name_converter import NameConverter

from services.engine import Game

from .cost import limits_rule
from .document_cache import CachedDocumentsSchema, DocumentCache
from .execution import PlainExecutor
from .game_types import build_game_types
from .json_scalar import CHECKED_JSON
from .mutations import build_mutation
from .queries import build_query
from .subscriptions import Subscription
from .views import ViewTypes


@dataclass(frozen=True)
class Limits:
    max_depth: int = 12
    max_cost: int = 20_000
    cache_size: int = 1024
    max_aliases: int = 30
    max_tokens: int = 10_000
    max_length: int = 32_768
    """Characters in a document; longer ones are refused before parsing (by the
    transports, see `services.api.graphql_requests`)."""


class _RememberedNames(NameConverter):
    """Strawberry's names, each camelCased once: it converts every argument's name again
    on every call of its resolver."""

    def __init__(self) -> None:
        super().__init__()
        self._names: dict[str, str] = {}

    def apply_naming_config(self, name: str) -> str:
        converted = self._names.get(name)
        if converted is None:
            converted = self._names[name] = super().apply_naming_config(name)
        return converted


def build_schema(games: Mapping[str, Game], limits: Limits | None = None) -> CachedDocumentsSchema:
    limits = limits or Limits()
    types = build_game_types(ViewTypes(games))
    rule = limits_rule(limits.max_cost, limits.max_depth, limits.max_aliases)
    return CachedDocumentsSchema(
        query=build_query(types),
        mutation=build_mutation(types),
        subscription=Subscription,
        execution_context_class=PlainExecutor,
        config=StrawberryConfig(name_converter=_RememberedNames()),
        scalar_overrides={JSON: CHECKED_JSON},
        documents=DocumentCache(limits.cache_size, limits.max_tokens, rule),
    )


def sdl(games: Mapping[str, Game]) -> str:
    return build_schema(games).as_str() + "\n"
