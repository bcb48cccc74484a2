"""What a query selects under a resolver's field, read from the document itself:
Strawberry's `info.selected_fields` converts the whole selection (arguments and all)
first, which costs more than the work a resolver would spare by asking."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from graphql import (
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    InlineFragmentNode,
    SelectionSetNode,
)


def selects(info: Any, *path: str) -> bool:
    """Whether the resolver's result selects the field at `path` (a field of the result,
    then a field of that field's value, ...), through fragments too.
    `info`: a `strawberry.Info`."""
    raw = info._raw_info
    nodes: Iterable[FieldNode] = raw.field_nodes
    for name in path:
        nodes = [
            found
            for node in nodes
            for found in _fields(node.selection_set, name, raw.fragments, set())
        ]
        if not nodes:
            return False
    return True


def _fields(
    selection_set: SelectionSetNode | None,
    name: str,
    fragments: dict[str, FragmentDefinitionNode],
    seen: set[str],
) -> Iterator[FieldNode]:
    """The fields called `name` in `selection_set`, looking into fragments (each once)."""
    for selection in selection_set.selections if selection_set else ():
        if isinstance(selection, FieldNode):
            if selection.name.value == name:
                yield selection
        elif isinstance(selection, InlineFragmentNode):
            yield from _fields(selection.selection_set, name, fragments, seen)
        elif isinstance(selection, FragmentSpreadNode) and selection.name.value not in seen:
            seen.add(selection.name.value)
            fragment = fragments.get(selection.name.value)
            if fragment is not None:
                yield from _fields(fragment.selection_set, name, fragments, seen)


def selects_type(info: Any, type_name: str) -> bool:
    """Whether the resolver's result selects anything on the object type `type_name`: an
    inline fragment or a fragment spread with that type condition, at its top level (a
    union or interface field's members are told apart so). `info`: a `strawberry.Info`."""
    raw = info._raw_info
    return any(
        _on_type(node.selection_set, type_name, raw.fragments, set()) for node in raw.field_nodes
    )


def _on_type(
    selection_set: SelectionSetNode | None,
    type_name: str,
    fragments: dict[str, FragmentDefinitionNode],
    seen: set[str],
) -> bool:
    for selection in selection_set.selections if selection_set else ():
        if isinstance(selection, InlineFragmentNode):
            condition = selection.type_condition
            if condition is not None and condition.name.value == type_name:
                return True
            if _on_type(selection.selection_set, type_name, fragments, seen):
                return True  # in a fragment on the union itself
        elif isinstance(selection, FragmentSpreadNode) and selection.name.value not in seen:
            seen.add(selection.name.value)
            fragment = fragments.get(selection.name.value)
            if fragment is None:
                continue
            if fragment.type_condition.name.value == type_name:
                return True
            if _on_type(fragment.selection_set, type_name, fragments, seen):
                return True
    return False
