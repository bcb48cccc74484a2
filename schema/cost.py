"""Query cost and depth limits, computed in one pass in time linear in the document
(introspection: in steps bounded by the cost limit).

Cost: every field costs 1, and a list multiplies what is under it by its size — the
`first` (or `limit`) argument of the field that returns it or of the connection around
it, as in `games(first: 100) { edges { node { ... } } }`, else a typical list size. An
argument left out counts as its default. An argument may declare the largest value it
accepts (`MAX_LIST_SIZE`, in its Strawberry metadata or graphql-core extensions): a
variable counts as that largest value while validating, and a literal over it counts as
it too (the resolver refuses such a page with its own clear error). A document over the
limit only because of such variables is not refused then: its cost is checked again with
each request's values (`cost_check`), so `events(first: $n)` with a rich selection runs
for `$n = 20` and is refused for `$n = 1000`.

A field whose values are large (a JSON scalar holding a game's whole catalog, say) may
declare what one value costs (`FIELD_COST`, in its Strawberry metadata or graphql-core
extensions) instead of 1, and a list that is not paged but has a known size (one item
per game served) that size (`LIST_SIZE`). `json_cost` turns a value's size in bytes into
a cost: about `ANSWER_BYTES_PER_COST` bytes of answer per unit, as for plain fields.

Depth: how many fields with a selection set enclose the deepest field; fragments add no
depth, introspection fields (`__schema`, `__type`) are not counted (as Strawberry's
QueryDepthLimiter, which this replaces, did not count them): what they select may nest
`INTROSPECTION_MAX_DEPTH` levels of its own (the standard introspection query nests 14).

Aliases: how many aliased fields the operation has once its fragments are spread
(replacing Strawberry's MaxAliasesLimiter), introspection's included.

Introspection (`__schema`, `__type`) is costed on the schema itself: its lists (types,
fields, arguments, ...) have the sizes they have, so the selection is walked over the
real types as it will be executed, each field costing 1 and each list item 1 plus what
it selects. That walk is as long as the answer would be, so it is cut short once it has
taken `INTROSPECTION_STEPS` times the cost limit of steps (a field, a list item or a
fragment each take one) over the whole document, which is then too costly: the cost
counts every field and item, so a selection within the cost limit takes about as many
steps (the standard introspection query costs about 8,900 in about 9,800 steps).
Introspection used to cost 1 whatever it selected: `{ __schema { s0: types { ...A } ...
} }`, aliased fields fanning out through fragments, answered 113 MB in 35 s.

Each fragment is measured once per (fragment, parent type, inherited size) and the
answer reused wherever it is spread again, so a fragment that spreads the previous one
twice, twenty times over, costs twenty steps and not a million. Walking stops once a
document nests deeper than the limits allow, so the walk's own recursion stays bounded.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from graphql import (
    DocumentNode,
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLArgument,
    GraphQLError,
    GraphQLField,
    GraphQLList,
    GraphQLNamedType,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLOutputType,
    GraphQLSchema,
    InlineFragmentNode,
    IntValueNode,
    OperationDefinitionNode,
    SchemaMetaFieldDef,
    SelectionSetNode,
    TypeMetaFieldDef,
    Undefined,
    ValidationRule,
    VariableNode,
    get_named_type,
    is_leaf_type,
    is_list_type,
    value_from_ast,
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

FIELD_COST = "field_cost"
"""Key of a field's metadata (Strawberry) or extensions (graphql-core) that holds what one
of its values costs, when that is more than a field's 1."""

LIST_SIZE = "list_size"
"""Key of a list field's metadata or extensions that holds how many items it returns,
when that is known and not set by an argument (instead of DEFAULT_LIST_SIZE)."""

ANSWER_BYTES_PER_COST = 20
"""Bytes of JSON answer per unit of cost: a field with its name and value takes about
this much (the standard introspection answer is 160 KB for a cost of about 8,900)."""

_STRAWBERRY_DEFINITION = "strawberry-definition"
"""Where Strawberry keeps an argument's or a field's own definition (and its metadata)
in graphql-core."""

MAX_FRAGMENT_NESTING = 32
"""Fragments spread inside fragments, at most this many levels (no real client comes
close; a long chain would otherwise recurse through every later stage)."""

_CEILING = 10**18
"""Costs saturate here: any cost this large is refused anyway, and the numbers of a
doubling attack stay small."""

INTROSPECTION_MAX_DEPTH = 20
"""Levels of fields with selections under `__schema` or `__type`, at most (graphql-core's
and graphql-js's standard introspection queries, which GraphiQL sends, nest 14)."""

INTROSPECTION_STEPS = 2
"""Steps the introspection walks of one document may take, in all, per unit of the cost
limit (see above)."""

_META_FIELDS = {"__schema": SchemaMetaFieldDef, "__type": TypeMetaFieldDef}


def limits_rule(max_cost: int, max_depth: int, max_aliases: int) -> type[ValidationRule]:
    class QueryLimits(ValidationRule):
        def __init__(self, *args: Any) -> None:
            super().__init__(*args)
            # One rule instance per validation: the document's operations share the steps.
            self.steps = _Steps(INTROSPECTION_STEPS * max_cost)

        def enter_operation_definition(self, node: OperationDefinitionNode, *_args: object) -> None:
            schema = self.context.schema
            if schema.get_root_type(node.operation) is None:
                return
            fragments = _fragments(self.context.document)
            measure = _Measure(schema, fragments, max_depth, self.steps)
            size = measure.operation(node)
            if measure.too_deep is not None:
                self.report_error(measure.too_deep)
            elif size.depth > max_depth:
                self.report_error(_depth_error(node, size.depth, max_depth))
            elif size.cost > max_cost:
                error = _cost_error(node, size.cost, max_cost)
                self.report_error(_deferred(error) if measure.varied else error)
            if size.aliases > max_aliases:
                self.report_error(_aliases_error(node, size.aliases, max_aliases))

    return QueryLimits


@dataclass
class _Steps:
    """How many more steps introspection walks may take."""

    left: int


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
    steps: _Steps
    too_deep: GraphQLError | None = None
    variables: Mapping[str, Any] | None = None
    """The request's variables, when known (a size given by one then counts as given)."""
    varied: bool = False
    """Whether a size came from a variable (counted at its largest while validating)."""
    _known: dict[tuple[str, str, int | None], _Size] = field(default_factory=dict)
    _visiting: set[str] = field(default_factory=set)
    _introspecting: bool = False

    def operation(self, node: OperationDefinitionNode) -> _Size:
        return self.selection(
            node.selection_set, self.schema.get_root_type(node.operation), None, 0, 0
        )

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
            meta = _META_FIELDS.get(node.name.value)
            if meta is not None and parent is self.schema.query_type:
                return self._introspection(node, meta, alias, nesting)
            return _Size(1, 0, alias)  # __typename, or an unknown field
        given = self._size(node, definition) or _declared(definition, LIST_SIZE) or size
        multiplier, field_type, size = _multiplier(definition.type, given)
        own = _declared(definition, FIELD_COST) or 1
        if node.selection_set is None:
            return _Size(min(multiplier * own, _CEILING), 0, alias)
        if depth >= self.max_depth:
            # Too deep already, wherever this is spread: the walk stops here.
            return _Size(multiplier, self.max_depth + 1, alias)
        below = self.selection(node.selection_set, field_type, size, depth + 1, nesting)
        cost = min(multiplier * (own + below.cost), _CEILING)
        return _Size(cost, 1 + below.depth, alias + below.aliases)

    def _size(self, node: FieldNode, definition: GraphQLField) -> int | None:
        """How many items a field asks for, from its size argument (given or default).
        A variable counts at the argument's largest value, unless the request's value is
        known (`variables`)."""
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
                self.varied = True
                size = self._variable_size(given, maximum)
            return min(size, maximum) if size is not None and maximum else size
        return None

    def _variable_size(self, given: object, maximum: int | None) -> int:
        value = (
            self.variables.get(given.name.value)
            if self.variables is not None and isinstance(given, VariableNode)
            else None
        )
        if isinstance(value, int) and not isinstance(value, bool):
            return max(value, 1)
        return maximum or VARIABLE_LIST_SIZE  # unknown, or not a number: at its costliest

    def _introspection(
        self, node: FieldNode, meta: GraphQLField, alias: int, nesting: int
    ) -> _Size:
        """`__schema` or `__type`: its aliases counted as anywhere else, its depth on its
        own, and its cost from the schema's real lists (`_Introspection`)."""
        if node.selection_set is None or self._introspecting:
            return _Size(1, 0, alias)  # no selection; or spread into itself (invalid)
        # Walked as any selection, for its aliases and depth: started so many levels above
        # `max_depth` that the walk stops INTROSPECTION_MAX_DEPTH levels below this field.
        self._introspecting = True
        start = self.max_depth - INTROSPECTION_MAX_DEPTH + 1
        shape = self.selection(node.selection_set, get_named_type(meta.type), None, start, nesting)
        self._introspecting = False
        if self.too_deep is not None:
            return _NOTHING
        if shape.depth + 1 > INTROSPECTION_MAX_DEPTH:
            self.too_deep = GraphQLError(
                "This introspection query nests fields more than "
                f"{INTROSPECTION_MAX_DEPTH} levels deep; ask for less at once.",
                node,
                extensions={"code": "query_too_deep", "limit": INTROSPECTION_MAX_DEPTH},
            )
            return _NOTHING
        walk = _Introspection(self.schema, self.fragments, self.steps)
        cost = walk.root(node, meta, nesting)
        return _Size(cost, 0, alias + shape.aliases)


@dataclass(frozen=True)
class _Info:
    """What graphql-core's introspection resolvers read of their resolve info."""

    schema: GraphQLSchema


@dataclass
class _Introspection:
    """The cost of an introspection selection, walked over the schema's own types,
    fields, arguments, ... (resolved by graphql-core's introspection resolvers, as they
    will be when the query runs): a field costs 1, a list costs 1 per item plus what is
    selected under each (1 if empty). Every step takes one of `steps`; once none are
    left the cost is `_CEILING`, refused.

    The selection was already walked for its depth (and is not too deep), and fragments
    nest at most MAX_FRAGMENT_NESTING levels, so the recursion is bounded. A selection
    under a type condition that does not match (an invalid document, which graphql-core
    reports) costs 1 per field, not walked."""

    schema: GraphQLSchema
    fragments: dict[str, FragmentDefinitionNode]
    steps: _Steps
    _visiting: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        self._info = _Info(self.schema)

    def root(self, node: FieldNode, meta: GraphQLField, nesting: int) -> int:
        selection_set = node.selection_set
        arguments = _introspection_arguments(node, meta)
        if meta is TypeMetaFieldDef and arguments.get("name") is None:
            # A type named by a variable: as costly as all of them together.
            values: Iterable[Any] = self.schema.type_map.values()
            return self._items(selection_set, get_named_type(meta.type), values, nesting)
        value = meta.resolve(None, self._info, **arguments) if meta.resolve else None
        if value is None or selection_set is None:
            return 1
        below = self.selection(selection_set, get_named_type(meta.type), value, nesting)
        return min(1 + below, _CEILING)

    def selection(
        self,
        selection_set: SelectionSetNode,
        parent: GraphQLNamedType | None,
        value: Any,
        nesting: int,
    ) -> int:
        cost = 0
        for selection in selection_set.selections:
            self.steps.left -= 1
            if self.steps.left < 0:
                return _CEILING
            if isinstance(selection, FieldNode):
                part = self._field(selection, parent, value, nesting)
            elif isinstance(selection, InlineFragmentNode):
                condition = selection.type_condition
                target = self._matching(condition.name.value if condition else None, parent)
                part = self._below(selection.selection_set, target, value, nesting)
            elif isinstance(selection, FragmentSpreadNode):
                part = self._spread(selection, parent, value, nesting)
            else:
                continue
            cost = min(cost + part, _CEILING)
        return cost

    def _spread(
        self, node: FragmentSpreadNode, parent: GraphQLNamedType | None, value: Any, nesting: int
    ) -> int:
        name = node.name.value
        fragment = self.fragments.get(name)
        if fragment is None or name in self._visiting:
            return 0  # unknown or cyclic fragments are reported by standard rules
        target = self._matching(fragment.type_condition.name.value, parent)
        self._visiting.add(name)
        cost = self._below(fragment.selection_set, target, value, nesting)
        self._visiting.discard(name)
        return cost

    def _below(
        self,
        selection_set: SelectionSetNode,
        parent: GraphQLNamedType | None,
        value: Any,
        nesting: int,
    ) -> int:
        if nesting >= MAX_FRAGMENT_NESTING:
            return 0  # refused as too deep by the walk before this one
        return self.selection(selection_set, parent, value, nesting + 1)

    @staticmethod
    def _matching(condition: str | None, parent: GraphQLNamedType | None) -> Any:
        """The type a fragment's fields are read on: its parent's, if it may apply."""
        if parent is None or condition is None or condition == parent.name:
            return parent
        return None

    def _field(
        self, node: FieldNode, parent: GraphQLNamedType | None, value: Any, nesting: int
    ) -> int:
        fields = parent.fields if isinstance(parent, GraphQLObjectType) else None
        definition = fields.get(node.name.value) if fields else None
        if definition is None or definition.resolve is None:
            return 1  # __typename, or a field not of this type (reported elsewhere)
        if is_leaf_type(get_named_type(definition.type)) and not _is_list(definition.type):
            return 1
        arguments = _introspection_arguments(node, definition)
        found = definition.resolve(value, self._info, **arguments)
        if found is None:
            return 1
        field_type = get_named_type(definition.type)
        if not _is_list(definition.type):
            if node.selection_set is None:
                return 1
            return min(1 + self.selection(node.selection_set, field_type, found, nesting), _CEILING)
        return self._items(node.selection_set, field_type, found, nesting)

    def _items(
        self,
        selection_set: SelectionSetNode | None,
        item_type: GraphQLNamedType,
        items: Iterable[Any],
        nesting: int,
    ) -> int:
        cost = 0
        for item in items:
            self.steps.left -= 1
            if self.steps.left < 0:
                return _CEILING
            below = (
                0
                if selection_set is None
                else self.selection(selection_set, item_type, item, nesting)
            )
            cost = min(cost + 1 + below, _CEILING)
        return max(cost, 1)


def _is_list(field_type: GraphQLOutputType) -> bool:
    inner = field_type.of_type if isinstance(field_type, GraphQLNonNull) else field_type
    return is_list_type(inner)


def _introspection_arguments(node: FieldNode, definition: GraphQLField) -> dict[str, Any]:
    """An introspection field's arguments as its resolver takes them. One not known while
    validating (a variable) is taken at its costliest: a Boolean (`includeDeprecated`)
    as true, `__type`'s `name` as None (every type)."""
    given = {argument.name.value: argument.value for argument in node.arguments or ()}
    arguments: dict[str, Any] = {}
    for name, argument in definition.args.items():
        if name in given:
            value = value_from_ast(given[name], argument.type)  # a variable: Undefined
        else:
            value = argument.default_value
        if value is Undefined or value is None:
            value = True if get_named_type(argument.type).name == "Boolean" else None
        arguments[name] = value
    return arguments


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


def _largest(argument: GraphQLArgument) -> int | None:
    return _declared(argument, MAX_LIST_SIZE)


def _declared(element: GraphQLArgument | GraphQLField, key: str) -> int | None:
    """A positive number an argument or a field declares under `key`, if any."""
    extensions = element.extensions or {}
    metadata = getattr(extensions.get(_STRAWBERRY_DEFINITION), "metadata", None) or {}
    value = metadata.get(key, extensions.get(key))
    return value if isinstance(value, int) and value >= 1 else None


def json_cost(size: int) -> int:
    """The cost of a value that takes `size` bytes of JSON."""
    return max(1, -(-size // ANSWER_BYTES_PER_COST))


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


def _fragments(document: DocumentNode) -> dict[str, FragmentDefinitionNode]:
    return {d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)}


COST_BY_VARIABLES = "query_cost_by_variables"
"""The code of a validation error that is not one yet: the document costs too much with
its variable sizes at their largest, so its cost is checked with each request's values
(`cost_check`)."""


def _deferred(error: GraphQLError) -> GraphQLError:
    return GraphQLError(
        error.message,
        error.nodes,
        extensions={**(error.extensions or {}), "code": COST_BY_VARIABLES},
    )


def cost_check(max_cost: int, max_depth: int) -> CostCheck:
    """The check of a document whose cost depends on its variables, with the values a
    request sent (one walk of the operation run, as the validation rule makes)."""

    def check(
        schema: GraphQLSchema,
        document: DocumentNode,
        operation_name: str | None,
        variables: Mapping[str, Any] | None,
    ) -> GraphQLError | None:
        node = next(
            (
                d
                for d in document.definitions
                if isinstance(d, OperationDefinitionNode)
                and (operation_name is None or (d.name and d.name.value == operation_name))
            ),
            None,
        )
        if node is None:
            return None
        steps = _Steps(INTROSPECTION_STEPS * max_cost)
        measure = _Measure(
            schema, _fragments(document), max_depth, steps, variables=variables or {}
        )
        cost = measure.operation(node).cost
        return _cost_error(node, cost, max_cost) if cost > max_cost else None

    return check


CostCheck = Callable[
    [GraphQLSchema, DocumentNode, str | None, Mapping[str, Any] | None], GraphQLError | None
]


def _cost_error(node: OperationDefinitionNode, cost: int, limit: int) -> GraphQLError:
    return GraphQLError(
        f"This query costs {cost}, over the limit of {limit}; "
        "ask for fewer fields or smaller lists.",
        node,
        extensions={"code": "query_too_costly", "cost": cost, "limit": limit},
    )
