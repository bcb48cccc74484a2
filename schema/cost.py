"""A query-cost limit: every field costs 1, and a list multiplies what is under it by
its size — the `limit` argument of the field that returns it (or of the page object
around it, as in `games(limit: 100) { games { ... } }`), else a typical list size.
Depth is limited separately (QueryDepthLimiter)."""

from __future__ import annotations

from graphql import (
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLError,
    GraphQLList,
    GraphQLNamedType,
    GraphQLNonNull,
    GraphQLSchema,
    InlineFragmentNode,
    IntValueNode,
    OperationDefinitionNode,
    SelectionSetNode,
    ValidationRule,
)

DEFAULT_LIST_SIZE = 10
VARIABLE_LIST_SIZE = 100
"""A `limit` given as a variable is unknown while validating: assume the largest."""


def cost_limit_rule(max_cost: int) -> type[ValidationRule]:
    class QueryCostLimit(ValidationRule):
        def enter_operation_definition(self, node: OperationDefinitionNode, *_args) -> None:
            schema = self.context.schema
            root = schema.get_root_type(node.operation)
            if root is None:
                return
            fragments = {
                definition.name.value: definition
                for definition in self.context.document.definitions
                if isinstance(definition, FragmentDefinitionNode)
            }
            cost = _selection_cost(node.selection_set, root, fragments, schema, frozenset(), None)
            if cost > max_cost:
                self.report_error(
                    GraphQLError(
                        f"This query costs {cost}, over the limit of {max_cost}; "
                        "ask for fewer fields or smaller lists.",
                        node,
                        extensions={"code": "query_too_costly", "cost": cost, "limit": max_cost},
                    )
                )

    return QueryCostLimit


def _selection_cost(
    selection_set: SelectionSetNode | None,
    parent: GraphQLNamedType | None,
    fragments: dict[str, FragmentDefinitionNode],
    schema: GraphQLSchema,
    visiting: frozenset[str],
    size: int | None,
) -> int:
    if selection_set is None or parent is None:
        return 0
    total = 0
    for selection in selection_set.selections:
        if isinstance(selection, FieldNode):
            total += _field_cost(selection, parent, fragments, schema, visiting, size)
        elif isinstance(selection, InlineFragmentNode):
            condition = selection.type_condition
            target = schema.get_type(condition.name.value) if condition else parent
            total += _selection_cost(
                selection.selection_set, target, fragments, schema, visiting, size
            )
        elif isinstance(selection, FragmentSpreadNode):
            name = selection.name.value
            fragment = fragments.get(name)
            if fragment is None or name in visiting:
                continue  # unknown or cyclic fragments are reported by standard rules
            target = schema.get_type(fragment.type_condition.name.value)
            total += _selection_cost(
                fragment.selection_set, target, fragments, schema, visiting | {name}, size
            )
    return total


def _field_cost(
    node: FieldNode,
    parent: GraphQLNamedType,
    fragments: dict[str, FragmentDefinitionNode],
    schema: GraphQLSchema,
    visiting: frozenset[str],
    size: int | None,
) -> int:
    """`size` is a `limit` set above this field and not yet spent on a list."""
    fields = getattr(parent, "fields", None)
    definition = fields.get(node.name.value) if fields else None
    if definition is None:
        return 1  # __typename, introspection, or an unknown field (reported elsewhere)
    size = _limit(node) or size
    field_type = definition.type
    multiplier = 1
    while isinstance(field_type, GraphQLNonNull | GraphQLList):
        if isinstance(field_type, GraphQLList):
            multiplier *= size or DEFAULT_LIST_SIZE
            size = None
        field_type = field_type.of_type
    below = _selection_cost(node.selection_set, field_type, fragments, schema, visiting, size)
    return multiplier * (1 + below)


def _limit(node: FieldNode) -> int | None:
    for argument in node.arguments or ():
        if argument.name.value == "limit":
            if isinstance(argument.value, IntValueNode):
                return max(int(argument.value.value), 1)
            return VARIABLE_LIST_SIZE
    return None
