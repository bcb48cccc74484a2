"""Each GraphQL document is parsed and validated once, then remembered by its text.

Clients send the same few documents again and again, so the second time a document
costs one dictionary look-up. Strawberry's own ParserCache and ValidationCache did the
same in two extensions, but the validation cache was keyed by the parsed document,
whose hash walks its whole syntax tree on every request; the text's hash is computed
once per string. The token limit applies when a document is parsed, and the query
limits rule (`schema.cost`) when it is validated, so a remembered document has passed
both. Documents that fail to parse are not remembered (the error is raised each time).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass

from graphql import DocumentNode, GraphQLError, ValidationRule, parse
from strawberry.extensions import SchemaExtension
from strawberry.schema.schema import validate_document


@dataclass
class _Checked:
    document: DocumentNode
    errors: list[GraphQLError] | None = None
    """None until validated."""


class DocumentCache:
    """The documents seen lately (up to `size`, least recently used dropped first)."""

    def __init__(self, size: int, max_tokens: int, rule: type[ValidationRule]) -> None:
        self.size = size
        self.max_tokens = max_tokens
        self.rule = rule
        self._documents: OrderedDict[str, _Checked] = OrderedDict()

    def parsed(self, query: str) -> _Checked:
        checked = self._documents.get(query)
        if checked is not None:
            self._documents.move_to_end(query)
            return checked
        checked = _Checked(parse(query, max_tokens=self.max_tokens))
        if self.size > 0:
            self._documents[query] = checked
            while len(self._documents) > self.size:
                self._documents.popitem(last=False)
        return checked

    def extension(self) -> SchemaExtension:
        """A new extension for one operation (Strawberry makes one per request)."""
        return CachedDocuments(self)


class CachedDocuments(SchemaExtension):
    def __init__(self, cache: DocumentCache) -> None:
        self.cache = cache
        self._checked: _Checked | None = None

    def on_parse(self) -> Iterator[None]:
        context = self.execution_context
        if context.query is not None and context.graphql_document is None:
            self._checked = self.cache.parsed(context.query)
            context.graphql_document = self._checked.document
        yield

    def on_validate(self) -> Iterator[None]:
        context = self.execution_context
        rules = (*context.validation_rules, self.cache.rule)
        checked = self._checked
        if checked is None or checked.document is not context.graphql_document:
            context.validation_rules = rules  # not ours to remember: validated as usual
        else:
            if checked.errors is None:
                checked.errors = validate_document(context.schema._schema, checked.document, rules)
            context.pre_execution_errors = checked.errors
        yield
