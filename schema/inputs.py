"""Mutation inputs: a Strawberry input as the plain data the service's pydantic requests
read, and the `Rejected` result for one they refuse or for any refusal of the service."""

from __future__ import annotations

from typing import Any

import strawberry
from pydantic import ValidationError
from strawberry.scalars import JSON

from services.gameplay.payloads import input_code, validation_errors
from services.gameplay.problems import Problem

from .types import Rejected


def plain_input(value: Any) -> Any:
    """A strawberry input as plain data, leaving out what the client did not send."""
    if isinstance(value, list):
        return [plain_input(item) for item in value]
    fields = getattr(value, "__dataclass_fields__", None)
    if fields is None:
        return value
    return {
        name: plain_input(getattr(value, name))
        for name in fields
        if getattr(value, name) is not strawberry.UNSET
    }


def invalid_input(error: ValidationError) -> Rejected:
    return Rejected(
        code=input_code(error),
        message="The input does not match the schema.",
        details=JSON({"errors": validation_errors(error)}),
    )


def rejected(problem: Problem) -> Rejected:
    """A refusal as every mutation answers it. `details` holds what the REST problem
    document adds to its code and detail, in one object: the engine's own `details`
    (an illegal move's card, the prompted seats, ...) and every other fact beside them
    (`status_now`, `known`, `limit`, ...); null when there is none."""
    extra = dict(problem.extra)
    nested = extra.pop("details", None)
    if isinstance(nested, dict):
        extra = {**extra, **nested}
    elif nested is not None:
        extra["details"] = nested
    return Rejected(
        code=problem.code, message=problem.detail, details=JSON(extra) if extra else None
    )
