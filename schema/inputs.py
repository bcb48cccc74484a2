"""Mutation inputs: a Strawberry input as the plain data the service's pydantic requests
read, and the `Rejected` result for one they refuse or for any refusal of the service."""

from __future__ import annotations

import re
from typing import Any

import strawberry
from pydantic import ValidationError
from strawberry.scalars import JSON
from strawberry.utils.str_converters import to_camel_case

from services.engine import validation_errors
from services.gameplay.payloads import MAX_SEED, SEED_TEXT_PATTERN, input_code
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


SEED_TEXT = re.compile(SEED_TEXT_PATTERN)


def read_seed_text(data: dict[str, Any], location: list[str]) -> Rejected | None:
    """Read a plain input's `seed_text` into its `seed` (in place), or refuse it: with a
    `seed` too, or as anything but the decimal digits of a seed REST would take. GraphQL's
    Int holds 32 bits, so `seedText` is how a client gives a seed from a record (up to
    2^63 - 1). `location`: where the input is, for the refusal's `errors`."""
    text = data.pop("seed_text", None)
    if text is None:
        return None
    if data.get("seed") is not None:
        return _seed_refused(location, "Give seed or seedText, not both.")
    if not SEED_TEXT.fullmatch(text) or int(text) > MAX_SEED:
        return _seed_refused(
            location, f"seedText must be decimal digits of a seed from 0 to {MAX_SEED}."
        )
    data["seed"] = int(text)
    return None


def _seed_refused(location: list[str], message: str) -> Rejected:
    return Rejected(
        code="invalid_request",
        message=message,
        details=JSON({"errors": [{"location": [*location, "seedText"], "message": message}]}),
    )


def invalid_input(error: ValidationError) -> Rejected:
    errors = validation_errors(error)
    for item in errors:
        item["location"] = graphql_location(item["location"])
    return Rejected(
        code=input_code(error),
        message="The input does not match the schema.",
        details=JSON({"errors": errors}),
    )


def graphql_location(parts: list[str]) -> list[str]:
    """Where a refused input is, named as the GraphQL schema names its fields (camelCase),
    not as REST does. (A game's options are checked by the game, not here, so no key
    inside them is ever a part.)"""
    return [to_camel_case(part) for part in parts]


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
