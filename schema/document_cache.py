"""Each GraphQL document is parsed and validated once, then remembered by its text.

Clients send the same few documents again and again, so the second time a document
costs one dictionary look-up. Strawberry's own ParserCache and ValidationCache did the
same in two extensions, but the validation cache was keyed by the parsed document,
whose hash walks its whole syntax tree on every request; the text's hash is computed
once per string. The token limit applies when a document is parsed, and the query limits
rule (`schema.cost`) when it is validated, so a remembered document has passed both -
but for a document whose cost is over the limit only with its variable page sizes at
their largest: its cost is checked again with each request's variables. Only documents
that pass are remembered, and only up to `MAX_TEXT` characters of them in all as well as
`size` documents: a parsed document holds about a hundred times its text in syntax-tree
objects, so unique refused or outsized documents must not pile up (a client's few
documents are a few hundred characters each). The limits rule runs
alone before the others: graphql-core's overlapping-fields check is quadratic in the
fields of a selection, so a thousand aliases must be refused before it runs.

The schema prepares each operation (HTTP and WebSocket alike) through the cache itself,
as Strawberry's `_prepare_operation_async` does with its parser, rather than in an
extension: Strawberry makes each extension anew per request and wraps each of its hooks
in a context manager, which cost more than the look-up they wrapped.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from graphql import DocumentNode, GraphQLError, OperationDefinitionNode, ValidationRule, parse
from strawberry.exceptions import MissingQueryError
from strawberry.extensions.runner import SchemaExtensionsRunner
from strawberry.schema.exceptions import CannotGetOperationTypeError, InvalidOperationTypeError
from strawberry.schema.schema import validate_document
from strawberry.types import ExecutionContext
from strawberry.types.execution import PreExecutionError

from .cost import COST_BY_VARIABLES, CostCheck
from .errors import SkyportSchema
from .mutation_count import mutation_fields

MAX_TEXT = 1_000_000
"""Characters of remembered documents, in all."""


@dataclass
class _Checked:
    document: DocumentNode
    errors: list[GraphQLError] | None = None
    """None until validated."""
    cost_by_variables: bool = False
    """Its cost is over the limit with its variable sizes at their largest: checked with
    each request's variables (`cost.cost_check`)."""
    mutations: dict[str | None, int] = field(default_factory=dict)
    """By operation name: the mutations it makes (`mutation_count.mutation_fields`)."""


class DocumentCache:
    """The documents seen lately (up to `size`, least recently used dropped first)."""

    def __init__(
        self,
        size: int,
        max_tokens: int,
        rule: type[ValidationRule],
        cost_check: CostCheck,
        max_text: int = MAX_TEXT,
    ) -> None:
        self.size = size
        self.max_tokens = max_tokens
        self.rule = rule
        self.cost_check = cost_check
        self.max_text = max_text
        self._documents: OrderedDict[str, _Checked] = OrderedDict()
        self._text = 0

    def parsed(self, query: str) -> _Checked:
        checked = self._documents.get(query)
        if checked is not None:
            self._documents.move_to_end(query)
            return checked
        return _Checked(parse(query, max_tokens=self.max_tokens))

    def remember(self, query: str, checked: _Checked) -> None:
        """Keep a document that passed validation, dropping the least recently used."""
        if self.size <= 0 or len(query) > self.max_text or query in self._documents:
            return
        self._documents[query] = checked
        self._text += len(query)
        while len(self._documents) > self.size or self._text > self.max_text:
            dropped, _ = self._documents.popitem(last=False)
            self._text -= len(dropped)

    def __len__(self) -> int:
        return len(self._documents)

    def validated(
        self, context: ExecutionContext, checked: _Checked, ours: bool
    ) -> list[GraphQLError]:
        """The document's errors: the limits first, alone, then every other rule. A
        document `ours` (parsed from the request's text) that passes is remembered."""
        if checked.errors is None:
            schema = context.schema._schema
            errors = validate_document(schema, checked.document, (self.rule,))
            # A cost over the limit only with variables at their largest is not an error
            # yet (each request's values decide); beside a real one, it is left out.
            definite = [e for e in errors if (e.extensions or {}).get("code") != COST_BY_VARIABLES]
            checked.cost_by_variables = len(definite) < len(errors) and not definite
            checked.errors = definite
            if not checked.errors:
                rules = tuple(context.validation_rules)
                checked.errors = validate_document(schema, checked.document, rules)
            if ours and not checked.errors and context.query:
                self.remember(context.query, checked)
        return checked.errors

    async def prepare(
        self, context: ExecutionContext, hooks: SchemaExtensionsRunner
    ) -> PreExecutionError | None:
        """Parse, check the operation type, and validate, as Strawberry does before
        executing: errors in the document are answered; a missing query, or an operation
        that is unknown or not allowed here, is raised."""
        if not context.query and context.graphql_document is None:
            raise MissingQueryError
        given = context.graphql_document
        ours = given is None
        async with hooks.parsing():
            if given is not None:
                checked = _Checked(given)  # not ours to remember
            else:
                try:
                    checked = self.parsed(context.query or "")
                except GraphQLError as error:
                    return _failed(context, [error])
                except Exception as error:  # noqa: BLE001 - as Strawberry: an error answered
                    return _failed(context, [GraphQLError(str(error), original_error=error)])
                context.graphql_document = checked.document
        if _several_and_none_named(context, checked.document):
            raise CannotGetOperationTypeError(None)  # unknown_operation, "name one"
        try:
            operation_type = context.operation_type
        except RuntimeError as error:
            raise CannotGetOperationTypeError(context.operation_name) from error
        if operation_type not in context.allowed_operations:
            raise InvalidOperationTypeError(operation_type)
        async with hooks.validation():
            errors = self.validated(context, checked, ours)
            if not errors and checked.cost_by_variables:
                schema = context.schema._schema
                costly = self.cost_check(
                    schema, checked.document, context.operation_name, context.variables
                )
                errors = [costly] if costly is not None else []
        if not errors:
            await _count_mutations(context, checked)
        return _failed(context, errors)


class CachedDocumentsSchema(SkyportSchema):
    """The schema, preparing every operation through its `DocumentCache`."""

    def __init__(self, *args: Any, documents: DocumentCache, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.documents = documents

    async def _prepare_operation_async(
        self, context: ExecutionContext, extensions_runner: SchemaExtensionsRunner
    ) -> PreExecutionError | None:
        return await self.documents.prepare(context, extensions_runner)


def _several_and_none_named(context: ExecutionContext, document: DocumentNode) -> bool:
    """Whether the request names no operation (`operationName`) while the document has
    several, all named: which to run cannot be known, and the GraphQL spec makes it an
    error. (Strawberry's `context.operation_name` falls back to the first operation's
    name, which would run it; the name the request sent is only kept privately.) A
    document with an anonymous operation among others is left to validation, which
    refuses it with a more precise message (LoneAnonymousOperationRule)."""
    if context._provided_operation_name is not None:
        return False
    operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
    return len(operations) > 1 and all(operation.name for operation in operations)


async def _count_mutations(context: ExecutionContext, checked: _Checked) -> None:
    """Each mutation past an operation's first counts as one more request against the
    rate limits, before any of them runs (`schema.mutation_count`)."""
    count_requests = getattr(context.context, "count_requests", None)
    if count_requests is None:
        return
    name = context._provided_operation_name
    made = checked.mutations.get(name)
    if made is None:
        made = checked.mutations[name] = mutation_fields(checked.document, name)
    more = made - 1
    if more > 0:
        await count_requests(context.context, more)


def _failed(context: ExecutionContext, errors: list[GraphQLError]) -> PreExecutionError | None:
    if not errors:
        return None
    context.pre_execution_errors = errors
    return PreExecutionError(data=None, errors=errors)
