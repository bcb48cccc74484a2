"""GraphQL errors carry the same stable codes as the REST problem documents.

A resolver raises the service's `Problem` (or an engine `GameError`); the schema turns
it into an error with `extensions: {code, status, ...}`. A variable whose value does not
fit its type is the client's mistake (`invalid_variables`, logged at debug). Anything
unexpected is masked to "Unexpected error." so that no internal detail (or hidden
state) leaks.
"""

from __future__ import annotations

from typing import Any

import strawberry
import structlog
from graphql import GraphQLError, VariableDefinitionNode
from strawberry.schema.exceptions import CannotGetOperationTypeError
from strawberry.types import ExecutionContext

from services.engine import GameError
from services.gameplay.problems import Problem, as_store_problem, from_game_error

log = structlog.get_logger(__name__)


def as_problem(error: BaseException | None) -> Problem | None:
    if isinstance(error, Problem):
        return error
    if isinstance(error, CannotGetOperationTypeError):  # over WebSocket; HTTP answers 400
        return unknown_operation(error.operation_name)
    if isinstance(error, GameError):
        return from_game_error(error)
    return as_store_problem(error)


def unknown_operation(name: str | None) -> Problem:
    """The request names an operation the document does not have, or (None) names none
    while the document has several."""
    if name is None:
        detail = "Name the operation to run in `operationName` (the document has several)."
    else:
        detail = f"The document has no operation named {name[:64]!r}."
    return Problem(400, "unknown_operation", detail)


class SkyportSchema(strawberry.Schema):
    def process_errors(
        self, errors: list[GraphQLError], execution_context: ExecutionContext | None = None
    ) -> None:
        query = execution_context.query if execution_context is not None else None
        for error in errors:
            _hint_seed_text(error, query)
            original = error.original_error
            problem = as_problem(original)
            if problem is not None:
                _describe(error, problem)
            elif original is not None and _bad_variable(error):
                log.debug("graphql_invalid_variable", error=error.message)
                error.extensions = {"code": "invalid_variables", "status": 400}
                error.original_error = None
            elif original is not None:
                log.error(
                    "graphql_unexpected_error", error=type(original).__name__, exc_info=original
                )
                error.message = "Unexpected error."
                error.extensions = {"code": "internal_error", "status": 500}
                error.original_error = None
            elif error.extensions is None or "code" not in error.extensions:
                error.extensions = {**(error.extensions or {}), "code": "invalid_query"}


INT_TOO_BIG = "Int cannot represent non 32-bit signed integer value"
SEED_TEXT_HINT = " A seed past 2147483647 goes in seedText, as decimal digits."


def _hint_seed_text(error: GraphQLError, query: str | None) -> None:
    """A 64-bit seed (a record's, say) given as `seed` breaks GraphQL's 32-bit Int: say
    where it goes. graphql-core names the field only for a variable's value, so a literal
    gets the hint when the document mentions a seed at all."""
    if INT_TOO_BIG in error.message and (".seed" in error.message or "seed" in (query or "")):
        error.message += SEED_TEXT_HINT


def _bad_variable(error: GraphQLError) -> bool:
    """A value given for a variable failed its type (graphql-core reports those before
    execution, at the variable's definition, with the scalar's or enum's own error)."""
    return error.path is None and any(
        isinstance(node, VariableDefinitionNode) for node in error.nodes or ()
    )


def _describe(error: GraphQLError, problem: Problem) -> None:
    extensions: dict[str, Any] = {"code": problem.code, "status": problem.status}
    extensions.update(problem.extra)
    error.message = problem.detail
    error.extensions = extensions
    error.original_error = None
