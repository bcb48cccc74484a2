"""The GraphQL schema: queries, mutations and the subscription, with typed game views
for the games given, and Strawberry's parser/validation caches and depth/cost limits."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from strawberry.extensions import (
    AddValidationRules,
    MaxAliasesLimiter,
    MaxTokensLimiter,
    ParserCache,
    QueryDepthLimiter,
    ValidationCache,
)

from services.engine import Game

from .cost import cost_limit_rule
from .errors import SkyportSchema
from .game_types import build_game_types
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


def build_schema(games: Mapping[str, Game], limits: Limits | None = None) -> SkyportSchema:
    limits = limits or Limits()
    types = build_game_types(ViewTypes(games))
    return SkyportSchema(
        query=build_query(types),
        mutation=build_mutation(types),
        subscription=Subscription,
        extensions=[
            lambda: ParserCache(maxsize=limits.cache_size),
            lambda: ValidationCache(maxsize=limits.cache_size),
            lambda: QueryDepthLimiter(max_depth=limits.max_depth),
            lambda: MaxAliasesLimiter(max_alias_count=limits.max_aliases),
            lambda: MaxTokensLimiter(max_token_count=limits.max_tokens),
            lambda: AddValidationRules([cost_limit_rule(limits.max_cost)]),
        ],
    )


def sdl(games: Mapping[str, Game]) -> str:
    return build_schema(games).as_str() + "\n"
