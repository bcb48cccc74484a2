"""GraphQL object types made from each game's pydantic view model, so apps get typed
views (and can generate code from the SDL) for every registered game without the
schema knowing any game's internals.

Mapping: int/float/str/bool as themselves, Literal and Enum as String (or Int), lists,
tuples and sets as lists, nested models as object types named `<Game><Model>`, unions
of models as unions, and anything else (dicts, Any) as JSON.
"""

# No `from __future__ import annotations`: strawberry reads the real annotations built here.

import enum
import functools
import operator
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from types import GenericAlias
from typing import Annotated, Any, Union

import strawberry
from pydantic import BaseModel
from pydantic_core import to_jsonable_python
from strawberry.scalars import JSON

from services.engine import Game

Convert = Callable[[Any], Any]

_LIST_ORIGINS = (list, tuple, set, frozenset, Sequence, typing.Sequence)


UNION_NAME = "GameView"


class TypeNameClash(ValueError):
    """Two games, or two models of one game, would get the same GraphQL type name."""


def pascal(game_id: str) -> str:
    return "".join(part.capitalize() for part in game_id.replace("_", "-").split("-"))


class ViewTypes:
    """Builds the GraphQL types of every game's view, and converts views into them."""

    def __init__(self, games: Mapping[str, Game]) -> None:
        self._types: dict[type[BaseModel], Any] = {}
        self._converters: dict[type[BaseModel], Convert] = {}
        self._names: dict[str, str] = {UNION_NAME: "the union of every game's view"}
        """Each GraphQL type name made so far, and what it was made from."""
        self._unions: dict[tuple, Any] = {}
        self._game_id = ""
        self.by_game: dict[str, Any] = {}
        prefixes: dict[str, str] = {}
        for game in sorted(games.values(), key=lambda g: g.id):
            self._game_id = game.id
            prefix = pascal(game.id)
            if prefix in prefixes:
                raise TypeNameClash(
                    f"games {prefixes[prefix]!r} and {game.id!r} would both name their "
                    f"GraphQL types {prefix}…: rename one of them."
                )
            prefixes[prefix] = game.id
            self.by_game[game.id] = self._object_type(game.view_model, prefix, f"{prefix}View")
        members = tuple(self.by_game[game_id] for game_id in sorted(self.by_game))
        description = "The view of a game; one type per game."
        self.union = Annotated[
            any_of(members), strawberry.union(UNION_NAME, description=description)
        ]

    def convert(self, game: Game, view: Mapping[str, Any] | BaseModel) -> Any:
        """A game's view (as returned by the service) as an instance of its GraphQL type."""
        model = view if isinstance(view, BaseModel) else game.view_model.model_validate(view)
        return self._converters[game.view_model](model)

    # --- building ----------------------------------------------------------------------

    def _object_type(self, model: type[BaseModel], prefix: str, name: str | None = None) -> Any:
        if model in self._types:
            return self._types[model]
        type_name = name or (
            model.__name__ if model.__name__.startswith(prefix) else prefix + model.__name__
        )
        self._claim(type_name, model)
        annotations: dict[str, Any] = {}
        converters: dict[str, Convert] = {}
        for field_name, info in model.model_fields.items():
            graphql_type, convert = self._field(info.annotation, prefix)
            annotations[field_name] = graphql_type
            converters[field_name] = convert
        namespace = {"__annotations__": annotations, "__module__": __name__}
        cls = strawberry.type(
            type(type_name, (), namespace), name=type_name, description=_doc(model)
        )
        self._types[model] = cls

        def convert_model(instance: BaseModel) -> Any:
            return cls(**{name: converters[name](getattr(instance, name)) for name in converters})

        self._converters[model] = convert_model
        return cls

    def _claim(self, name: str, made_from: type[BaseModel] | tuple[type[BaseModel], ...]) -> None:
        """Refuse a name already taken: a counter suffix would make the SDL, and the
        code apps generate from it, depend on which games happen to be registered."""
        models = made_from if isinstance(made_from, tuple) else (made_from,)
        source = " | ".join(f"{m.__module__}.{m.__qualname__}" for m in models)
        source = f"{source} (game {self._game_id!r})"
        if name in self._names:
            raise TypeNameClash(
                f"GraphQL type name {name} would be made both from {self._names[name]} and "
                f"from {source}: rename the game id or the model so that the names differ."
            )
        self._names[name] = source

    def _field(self, annotation: Any, prefix: str) -> tuple[Any, Convert]:
        """The GraphQL type of a field, and how to convert its values."""
        annotation = _strip_annotated(annotation)
        if _is_optional(annotation):
            inner, convert = self._field(_without_none(annotation), prefix)
            return inner | None, lambda v: None if v is None else convert(v)
        origin = typing.get_origin(annotation)
        if annotation in (int, float, str, bool):
            return annotation, _same
        if origin is typing.Literal:
            values = typing.get_args(annotation)
            numbers = all(isinstance(v, int) and not isinstance(v, bool) for v in values)
            kind = int if numbers else str
            return kind, (_same if kind is int else _text)
        if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
            return str, lambda v: v.value if isinstance(v.value, str) else str(v.value)
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            self._object_type(annotation, prefix)
            return self._types[annotation], lambda v: self._converters[type(v)](v)
        if origin in _LIST_ORIGINS:
            return self._list(annotation, prefix)
        if _is_model_union(annotation):
            return self._union(annotation, prefix)
        return JSON, _json

    def _list(self, annotation: Any, prefix: str) -> tuple[Any, Convert]:
        args = [a for a in typing.get_args(annotation) if a is not Ellipsis]
        if not args or len({_strip_annotated(a) for a in args}) != 1:
            return JSON, _json
        item, convert = self._field(args[0], prefix)
        return GenericAlias(list, item), lambda values: [convert(v) for v in values]

    def _union(self, annotation: Any, prefix: str) -> tuple[Any, Convert]:
        models = tuple(_strip_annotated(a) for a in typing.get_args(annotation))
        if models not in self._unions:
            members = tuple(self._object_type(m, prefix) for m in models)
            name = prefix + "Or".join(m.__name__.removeprefix(prefix) for m in models)
            self._claim(name, models)
            self._unions[models] = Annotated[any_of(members), strawberry.union(name)]
        return self._unions[models], lambda v: self._converters[type(v)](v)


def any_of(members: tuple) -> Any:
    """`A | B | ...` of types known only at run time (just `A` for one)."""
    return functools.reduce(operator.or_, members)


def _same(value: Any) -> Any:
    return value


def _text(value: Any) -> str:
    return str(value)


def _json(value: Any) -> Any:
    return to_jsonable_python(value)


def _doc(model: type[BaseModel]) -> str | None:
    doc = model.__doc__
    if not doc or doc == BaseModel.__doc__:
        return None
    return " ".join(doc.split())


def _strip_annotated(annotation: Any) -> Any:
    while typing.get_origin(annotation) is Annotated:
        annotation = typing.get_args(annotation)[0]
    return annotation


def _is_union(annotation: Any) -> bool:
    return typing.get_origin(annotation) in (Union, types.UnionType)


def _is_optional(annotation: Any) -> bool:
    return _is_union(annotation) and type(None) in typing.get_args(annotation)


def _without_none(annotation: Any) -> Any:
    rest = tuple(a for a in typing.get_args(annotation) if a is not type(None))
    return any_of(rest)


def _is_model_union(annotation: Any) -> bool:
    if not _is_union(annotation):
        return False
    members = [_strip_annotated(a) for a in typing.get_args(annotation)]
    return all(isinstance(m, type) and issubclass(m, BaseModel) for m in members)
