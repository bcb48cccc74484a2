"""Query cost and depth limits, computed in one pass in time linear in the document.

Cost: every field costs 1, and a list multiplies what is under it by its size — the
`first` (or `limit`) argument of the field that returns it or of the connection around
it, as in `games(first: 100) { edges { node { ... } } }`, else a typical list size. An
argument left out counts as its default. An argument may declare the largest value it
accepts (`MAX_LIST_SIZE`, in its Strawberry metadata or graphql-core extensions): a
variable counts as that largest value, and a literal over it counts as it too (the
resolver refuses such a page with its own clear error).

Depth: how many fields with a selection set enclose the deepest field; fragments add no
depth, introspection fields (`__schema`, `__type`) are not counted (as Strawberry's
QueryDepthLimiter, which this replaces, did not count them).

Aliases: how many aliased fields the operation has once its fragments are spread
(replacing Strawberry's MaxAliasesLimiter).

Each fragment is measured once per (fragment, parent type, inherited size) and the
answer reused wherever it is spread again, so a fragment that spreads the previous one
twice, twenty times over, costs twenty steps and not a million. Walking stops once a
document nests deeper than the limits allow, so the walk's own recursion stays bounded.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from graphql import (
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLArgument,
    GraphQLError,
    GraphQLField,
    GraphQLList,
    GraphQLNamedType,
    GraphQLNonNull,
    GraphQLOutputType,
    GraphQLSchema,
    InlineFragmentNode,
    IntValueNode,
    OperationDefinitionNode,
    SelectionSetNode,
    ValidationRule,
)

DEFAULT_LIST_SIZE = 10
VARIABLE_LIST_SIZE = 100
"""A size given as a variable is unknown while validating: assume this much, unless the
argument declares its largest value."""

SIZE_ARGUMENTS = ("first", "limit")
"""Arguments that say how many items a list field (or a connection) returns."""

MAX_LIST_SIZE = "max_list_size"
"""Key of a size argument's metadata (Strawberry) or extensions (graphql-core) that holds
the largest value the argument accepts."""

_STRAWBERRY_DEFINITION = "strawberry-definition"
"""Where Strawberry keeps an argument's own definition (and its metadata) in graphql-core."""

MAX_FRAGMENT_NESTING = 32
"""Fragments spread inside fragments, at most this many levels (no real client comes
close; a long chain would otherwise recurse through every later stage)."""

_CEILING = 10**18
"""Costs saturate here: any cost this large is refused anyway, and the numbers of a
doubling attack stay small."""


def limits_rule(max_cost: int, max_depth: int, max_aliases: int) -> type[ValidationRule]:
    class QueryLimits(ValidationRule):
        def enter_operation_definition(self, node: OperationDefinitionNode, *_args: object) -> None:
            schema = self.context.schema
            root = schema.get_root_type(node.operation)
            if root is None:
                return
            fragments = {
                definition.name.value: definition
                for definition in self.context.document.definitions
                if isinstance(definition, FragmentDefinitionNode)
            }
            measure = _Measure(schema, fragments, max_depth)
            size = measure.selection(node.selection_set, root, None, 0, 0)
            if measure.too_deep is not None:
                self.report_error(measure.too_deep)
            elif size.depth > max_depth:
                self.report_error(_depth_error(node, size.depth, max_depth))
            elif size.cost > max_cost:
                self.report_error(_cost_error(node, size.cost, max_cost))
            if size.aliases > max_aliases:
                self.report_error(_aliases_error(node, size.aliases, max_aliases))

    return QueryLimits


@dataclass(frozen=True)
class _Size:
    cost: int
    depth: int
    aliases: int = 0


_NOTHING = _Size(0, 0)


@dataclass
class _Measure:
    """Sizes are relative to where a selection sits, so that one answer per fragment
    serves every spread of it; `depth` (the fields around a selection, counted from the
    operation) only decides where to stop walking."""

    schema: GraphQLSchema
    fragments: dict[str, FragmentDefinitionNode]
    max_depth: int
    too_deep: GraphQLError | None = None
    _known: dict[tuple[str, str, int | None], _Size] = field(default_factory=dict)
    _visiting: set[str] = field(default_factory=set)

    def selection(
        self,
        selection_set: SelectionSetNode | None,
        parent: GraphQLNamedType | None,
        size: int | None,
        depth: int,
        nesting: int,
    ) -> _Size:
        """`size` is a `limit` set above and not yet spent on a list; `nesting` counts
        the fragments around this selection."""
        if selection_set is None or parent is None or self.too_deep is not None:
            return _NOTHING
        cost = 0
        deepest = 0
        aliases = 0
        for selection in selection_set.selections:
            if isinstance(selection, FieldNode):
                part = self._field(selection, parent, size, depth, nesting)
            elif isinstance(selection, InlineFragmentNode):
                part = self._inline(selection, parent, size, depth, nesting)
            elif isinstance(selection, FragmentSpreadNode):
                part = self._spread(selection, size, depth, nesting)
            else:
                continue
            cost = min(cost + part.cost, _CEILING)
            deepest = max(deepest, part.depth)
            aliases = min(aliases + part.aliases, _CEILING)
        return _Size(cost, deepest, aliases)

    def _inline(
        self,
        node: InlineFragmentNode,
        parent: GraphQLNamedType,
        size: int | None,
        depth: int,
        nesting: int,
    ) -> _Size:
        if not self._may_nest(node, nesting):
            return _NOTHING
        condition = node.type_condition
        target = self.schema.get_type(condition.name.value) if condition else parent
        return self.selection(node.selection_set, target, size, depth, nesting + 1)

    def _spread(
        self, node: FragmentSpreadNode, size: int | None, depth: int, nesting: int
    ) -> _Size:
        name = node.name.value
        fragment = self.fragments.get(name)
        if fragment is None or name in self._visiting:
            return _NOTHING  # unknown or cyclic fragments are reported by standard rules
        if not self._may_nest(node, nesting):
            return _NOTHING
        target = self.schema.get_type(fragment.type_condition.name.value)
        key = (name, target.name if target else "", size)
        known = self._known.get(key)
        if known is None:
            self._visiting.add(name)
            known = self.selection(fragment.selection_set, target, size, depth, nesting + 1)
            self._visiting.discard(name)
            self._known[key] = known
        return known

    def _may_nest(self, node: FragmentSpreadNode | InlineFragmentNode, nesting: int) -> bool:
        if nesting < MAX_FRAGMENT_NESTING:
            return True
        self.too_deep = GraphQLError(
            f"Fragments nest more than {MAX_FRAGMENT_NESTING} levels deep; flatten them.",
            node,
            extensions={"code": "query_too_deep", "limit": MAX_FRAGMENT_NESTING},
        )
        return False

    def _field(
        self, node: FieldNode, parent: GraphQLNamedType, size: int | None, depth: int, nesting: int
    ) -> _Size:
        alias = 1 if node.alias else 0
        fields = getattr(parent, "fields", None)
        definition = fields.get(node.name.value) if fields else None
        if definition is None:
            return _Size(1, 0, alias)  # __typename, introspection, or an unknown field
        multiplier, field_type, size = _multiplier(definition.type, _size(node, definition) or size)
        if node.selection_set is None:
            return _Size(multiplier, 0, alias)
        if depth >= self.max_depth:
            # Too deep already, wherever this is spread: the walk stops here.
            return _Size(multiplier, self.max_depth + 1, alias)
        below = self.selection(node.selection_set, field_type, size, depth + 1, nesting)
        cost = min(multiplier * (1 + below.cost), _CEILING)
        return _Size(cost, 1 + below.depth, alias + below.aliases)


def _multiplier(
    field_type: GraphQLOutputType, size: int | None
) -> tuple[int, GraphQLNamedType, int | None]:
    """What a field's lists multiply by, its named type, and the size left for below."""
    multiplier = 1
    while isinstance(field_type, GraphQLNonNull | GraphQLList):
        if isinstance(field_type, GraphQLList):
            multiplier *= size or DEFAULT_LIST_SIZE
            size = None
        field_type = field_type.of_type
    return multiplier, field_type, size


def _size(node: FieldNode, definition: GraphQLField) -> int | None:
    """How many items a field asks for, from its size argument (given or default)."""
    for name in SIZE_ARGUMENTS:
        argument = definition.args.get(name)
        if argument is None:
            continue
        maximum = _largest(argument)
        given = next((a.value for a in node.arguments or () if a.name.value == name), None)
        if given is None:
            default = argument.default_value
            size = default if isinstance(default, int) and default >= 1 else None
        elif isinstance(given, IntValueNode):
            digits = given.value.lstrip("-")
            size = _CEILING if len(digits) > 18 else max(int(given.value), 1)
        else:
            size = maximum or VARIABLE_LIST_SIZE
        return min(size, maximum) if size is not None and maximum else size
    return None


def _largest(argument: GraphQLArgument) -> int | None:
    extensions = argument.extensions or {}
    metadata = getattr(extensions.get(_STRAWBERRY_DEFINITION), "metadata", None) or {}
    largest = metadata.get(MAX_LIST_SIZE, extensions.get(MAX_LIST_SIZE))
    return largest if isinstance(largest, int) and largest >= 1 else None


def _depth_error(node: OperationDefinitionNode, depth: int, limit: int) -> GraphQLError:
    return GraphQLError(
        f"This query nests fields more than {limit} levels deep; ask for less at once.",
        node,
        extensions={"code": "query_too_deep", "limit": limit},
    )


def _aliases_error(node: OperationDefinitionNode, aliases: int, limit: int) -> GraphQLError:
    return GraphQLError(
        f"This query has {aliases} aliased fields, over the limit of {limit}.",
        node,
        extensions={"code": "too_many_aliases", "limit": limit},
    )


def _cost_error(node: OperationDefinitionNode, cost: int, limit: int) -> GraphQLError:
    return GraphQLError(
        f"This query costs {cost}, over the limit of {limit}; "
        "ask for fewer fields or smaller lists.",
        node,
        extensions={"code": "query_too_costly", "cost": cost, "limit": limit},
    )
