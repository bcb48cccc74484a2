"""The GraphQL schema: queries, mutations and the subscription, with typed game views
for the games given, one cache of parsed and validated documents, and depth/cost limits."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import orjson
from graphql import GraphQLObjectType, GraphQLSchema
from strawberry.scalars import JSON
from strawberry.schema.config import StrawberryConfig
from strawberry.schema.name_converter import NameConverter

from services.engine import Game
from services.gameplay.served import ServedGames

from .cost import FIELD_COST, LIST_SIZE, cost_check, json_cost, limits_rule
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
    schema = CachedDocumentsSchema(
        query=build_query(types),
        mutation=build_mutation(types),
        subscription=Subscription,
        execution_context_class=PlainExecutor,
        config=StrawberryConfig(name_converter=_RememberedNames()),
        scalar_overrides={JSON: CHECKED_JSON},
        documents=DocumentCache(
            limits.cache_size,
            limits.max_tokens,
            rule,
            cost_check(limits.max_cost, limits.max_depth),
        ),
    )
    _charge_the_catalog(schema._schema, games)
    return schema


def _charge_the_catalog(schema: GraphQLSchema, games: Mapping[str, Game]) -> None:
    """The catalog lists one item per game served, and its JSON fields cost what their
    values weigh (`schema.cost`), on average: the catalog always lists every game, so the
    whole list costs what it weighs. A game's components are tens of KB: at 1 a field,
    30 aliased `catalog { components }` answered 2.6 MB for a cost of 600."""
    catalog = ServedGames(games).catalog().games
    query, item = schema.type_map["Query"], schema.type_map["CatalogGame"]
    assert isinstance(query, GraphQLObjectType) and isinstance(item, GraphQLObjectType)
    query.fields["catalog"].extensions[LIST_SIZE] = max(len(catalog), 1)
    fields = item.fields
    for name, attribute in (("components", "components"), ("optionsSchema", "options_schema")):
        total = sum(len(orjson.dumps(getattr(game, attribute))) for game in catalog)
        fields[name].extensions[FIELD_COST] = json_cost(total // max(len(catalog), 1))


def sdl(games: Mapping[str, Game]) -> str:
    return build_schema(games).as_str() + "\n"
