"""How many mutations an operation makes: its top-level fields, once its fragments are
spread. Over HTTP each request counts once against the rate limits, and over a
WebSocket each operation: without this, thirty aliased `makeMove`s (or `createGame`s,
or `joinLobby`s) in one document were thirty mutations for the price of one request.
Each one past the first counts as a request more (`GraphQLContext.count_requests`).

A field under `@skip` or `@include` counts whatever its condition: the count is taken
before variables decide, and a mutation written into a document is one the client
meant to be able to send.
"""

from __future__ import annotations

from graphql import (
    DocumentNode,
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    InlineFragmentNode,
    OperationDefinitionNode,
    OperationType,
    SelectionSetNode,
)


def mutation_fields(document: DocumentNode, operation_name: str | None) -> int:
    """The mutations the named (or only) operation makes; 0 for a query or subscription.
    The document has passed validation: its fragments exist and do not cycle."""
    operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
    named = [o for o in operations if operation_name is None or _name(o) == operation_name]
    if not named or named[0].operation is not OperationType.MUTATION:
        return 0
    fragments = {
        d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)
    }
    return _fields(named[0].selection_set, fragments)


def _fields(selections: SelectionSetNode, fragments: dict[str, FragmentDefinitionNode]) -> int:
    count = 0
    for selection in selections.selections:
        if isinstance(selection, FieldNode):
            count += selection.name.value != "__typename"
        elif isinstance(selection, InlineFragmentNode):
            count += _fields(selection.selection_set, fragments)
        elif isinstance(selection, FragmentSpreadNode):
            count += _fields(fragments[selection.name.value].selection_set, fragments)
    return count


def _name(operation: OperationDefinitionNode) -> str | None:
    return operation.name.value if operation.name else None
