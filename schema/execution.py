"""Completing plain selections without graphql-core's per-field machinery.

graphql-core completes every field of every object on its own: a path, a resolve
info, the resolver, then the value's completion, several calls deep. For a list of
legal moves that is most of a request's cost. Yet most selections are plain: fields
that only read an attribute (Strawberry's basic fields: no resolver, no field
extension, no arguments) of a scalar, an enum, or a list of those. Such a selection is
completed here in one pass: each value read and coerced as graphql-core would
(`coerce_output_value`), and lists of objects item by item with the same type check.

Anything unusual — a null where the schema says non-null, a value that is an error or
awaitable, a scalar that refuses its value, a list item of the wrong type — falls back
to graphql-core for that object (or list), which reads the same attributes again and
reports the error exactly as before. Inside a deferred fragment, under a streamed list
or with resolver middleware, graphql-core does all the work as usual.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from operator import attrgetter
from typing import Any

from graphql import (
    GraphQLField,
    GraphQLLeafType,
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLOutputType,
    GraphQLResolveInfo,
    Undefined,
    is_leaf_type,
)
from graphql.execution.collect_fields import FieldDetailsList, GroupedFieldSet
from graphql.pyutils import Path
from strawberry.schema.schema import StrawberryGraphQLCoreExecutionContext

_TYPENAME = "__typename"
_STRAWBERRY_DEFINITION = "strawberry-definition"
"""Where Strawberry keeps a field's own definition in graphql-core."""
_STRAWBERRY_TYPE = "__strawberry_definition__"
_PLAIN_READ = "skyport-plain-read"
"""Where a field remembers how it is read plainly (or False if it is not plain): in its
own graphql-core extensions, so that the memo lives and dies with the schema."""

_SIMPLE = frozenset({str, int, float, bool, dict, list})
"""Types of values that are never awaitable nor an error: no need to ask."""


class _Unplain(Exception):
    """A value the fast path does not complete: graphql-core does it (and says why)."""


_UNPLAIN = _Unplain()


class _Read:
    """How to complete one plain field: read it, coerce it (each item, for a list)."""

    __slots__ = ("getter", "item_non_null", "leaf", "list", "non_null")

    def __init__(
        self, getter: Callable[[Any], Any], leaf: GraphQLLeafType, shape: tuple[bool, ...]
    ) -> None:
        self.getter = getter
        self.leaf = leaf
        self.non_null, self.list, self.item_non_null = shape


_Plan = list[tuple[str, _Read | None]]
"""Each response name, and how to read its field (None for `__typename`)."""


class PlainExecutor(StrawberryGraphQLCoreExecutionContext):
    """Strawberry's executor, completing plain selections in one pass."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._plans: dict[int, tuple[GroupedFieldSet, _Plan | None]] = {}
        manager = self.middleware_manager
        self._plain_allowed = manager is None or not manager.middlewares

    def execute_fields(
        self,
        parent_type: GraphQLObjectType,
        source_value: Any,
        path: Path | None,
        grouped_field_set: GroupedFieldSet,
        position_context: Any,
    ) -> Any:
        if position_context is None and self._plain_allowed:
            plan = self._plan(parent_type, grouped_field_set)
            if plan is not None:
                with contextlib.suppress(_Unplain):  # graphql-core does it, below
                    return _complete(plan, parent_type, source_value, self.is_awaitable)
        return super().execute_fields(
            parent_type, source_value, path, grouped_field_set, position_context
        )

    def complete_list_value(
        self,
        return_type: GraphQLList[GraphQLOutputType],
        field_details_list: FieldDetailsList,
        info: GraphQLResolveInfo,
        path: Path,
        result: Any,
        position_context: Any,
    ) -> Any:
        named, non_null = _nullable(return_type.of_type)
        if (
            position_context is None
            and self._plain_allowed
            and type(result) is list
            and isinstance(named, GraphQLObjectType)
            and self.get_stream_usage(field_details_list, path) is None
        ):
            grouped_field_set, defer_usages, forbidden = self.collect_subfields(
                named, field_details_list
            )
            plan = None if defer_usages or forbidden else self._plan(named, grouped_field_set)
            if plan is not None:
                with contextlib.suppress(_Unplain):  # graphql-core does it, below
                    return self._complete_objects(plan, named, non_null, info, result)
        return super().complete_list_value(
            return_type, field_details_list, info, path, result, position_context
        )

    def _complete_objects(
        self,
        plan: _Plan,
        item_type: GraphQLObjectType,
        non_null: bool,
        info: GraphQLResolveInfo,
        items: list[Any],
    ) -> list[Any]:
        is_type_of = item_type.is_type_of
        is_awaitable = self.is_awaitable
        completed: list[Any] = []
        # The class of the items checked so far, if a Strawberry type: its instances
        # are neither errors nor awaitable.
        known: type | None = None
        for item in items:
            if item is None:
                if non_null:
                    raise _UNPLAIN
                completed.append(None)
                continue
            if type(item) is not known:
                if type(item) in _SIMPLE or isinstance(item, Exception) or is_awaitable(item):
                    raise _UNPLAIN
                if hasattr(type(item), _STRAWBERRY_TYPE):
                    known = type(item)
            if is_type_of is not None and is_type_of(item, info) is not True:
                raise _UNPLAIN
            completed.append(_complete(plan, item_type, item, is_awaitable))
        return completed

    def _plan(
        self, parent_type: GraphQLObjectType, grouped_field_set: GroupedFieldSet
    ) -> _Plan | None:
        """The plan of a plain selection, or None; made once per selection and request
        (the field set is kept with it so that its id is not reused meanwhile)."""
        known = self._plans.get(id(grouped_field_set))
        if known is not None:
            return known[1]
        plan = _plan_of(parent_type, grouped_field_set)
        self._plans[id(grouped_field_set)] = (grouped_field_set, plan)
        return plan


def _plan_of(parent_type: GraphQLObjectType, grouped_field_set: GroupedFieldSet) -> _Plan | None:
    plan: _Plan = []
    fields = parent_type.fields
    for response_name, details in grouped_field_set.items():
        node = details[0].node
        name = node.name.value
        if name == _TYPENAME:
            plan.append((response_name, None))
            continue
        field = fields.get(name)
        if field is None or node.arguments or node.selection_set is not None:
            return None
        read = field.extensions.get(_PLAIN_READ)
        if read is None:
            read = field.extensions[_PLAIN_READ] = _read(field) or False
        if read is False:
            return None
        plan.append((response_name, read))
    return plan


def _read(field: GraphQLField) -> _Read | None:
    """How to read a basic Strawberry field (no resolver, no field extension, no
    arguments) of a leaf type or a list of one; None for any other field."""
    resolve = field.resolve
    if resolve is None or field.args or not getattr(resolve, "_is_default", False):
        return None
    leaf, shape = _leaf_shape(field.type)
    if leaf is None:
        return None
    definition = field.extensions.get(_STRAWBERRY_DEFINITION)
    name = getattr(definition, "python_name", None)
    if getattr(definition, "default_resolver", None) is getattr and isinstance(name, str):
        return _Read(attrgetter(name), leaf, shape)
    return _Read(lambda source: resolve(source, None), leaf, shape)


def _leaf_shape(field_type: GraphQLOutputType) -> tuple[Any, tuple[bool, bool, bool]]:
    """A leaf type (or None) and whether the field is non-null, a list, and a list of
    non-null items; lists of lists are not plain."""
    inner, non_null = _nullable(field_type)
    if is_leaf_type(inner):
        return inner, (non_null, False, False)
    if not isinstance(inner, GraphQLList):
        return None, (False, False, False)
    item, item_non_null = _nullable(inner.of_type)
    if is_leaf_type(item):
        return item, (non_null, True, item_non_null)
    return None, (False, False, False)


def _nullable(field_type: GraphQLOutputType) -> tuple[GraphQLOutputType, bool]:
    """The type without its non-null wrapper, and whether it had one."""
    if isinstance(field_type, GraphQLNonNull):
        return field_type.of_type, True
    return field_type, False


def _complete(
    plan: _Plan, parent_type: GraphQLObjectType, source: Any, is_awaitable: Any
) -> dict[str, Any]:
    results: dict[str, Any] = {}
    for name, read in plan:
        if read is None:
            results[name] = parent_type.name
            continue
        value = read.getter(source)
        if value is None:
            if read.non_null:
                raise _UNPLAIN
            results[name] = None
        elif read.list:
            if type(value) is not list:
                raise _UNPLAIN
            results[name] = [
                _coerced(read.leaf, item, read.item_non_null, is_awaitable) for item in value
            ]
        else:
            results[name] = _coerced(read.leaf, value, True, is_awaitable)
    return results


def _coerced(leaf: Any, value: Any, non_null: bool, is_awaitable: Any) -> Any:
    if value is None:
        if non_null:
            raise _UNPLAIN
        return None
    if type(value) not in _SIMPLE and (isinstance(value, Exception) or is_awaitable(value)):
        raise _UNPLAIN
    try:
        coerced = leaf.coerce_output_value(value)
    except Exception:
        raise _UNPLAIN from None
    if coerced is Undefined or coerced is None:
        raise _UNPLAIN
    return coerced
