"""Refused input as players and clients read it: pydantic's findings, in JSON's words,
never echoing the input. The engine refuses options and moves with them, and the doors
refuse request bodies with them, so every door reports a refusal the same way."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import ValidationError


def validation_errors(error: ValidationError, under: Sequence[str] = ()) -> list[dict[str, Any]]:
    """Every problem found: where (`location`, the path of keys from the document's root,
    `under` first) and why (`message`)."""
    return [
        {"location": [*under, *(str(part) for part in item["loc"])], "message": message(item)}
        for item in error.errors(include_input=False, include_url=False)
    ]


def describe_validation_error(error: ValidationError) -> str:
    """The same problems as one sentence per problem, for a refusal's `detail`."""
    return describe(validation_errors(error))


def describe(errors: list[dict[str, Any]], skip: int = 0) -> str:
    """`validation_errors` as sentences, each location without its first `skip` keys."""
    return "; ".join(
        f"{'.'.join(item['location'][skip:]) or 'value'}: {item['message']}" for item in errors
    )


def message(item: Any) -> str:
    """pydantic's sentence, in JSON's words: no Python class names, and our own refusals
    without the "Value error, " pydantic puts before them."""
    if item["type"] in ("model_type", "model_attributes_type", "dict_type"):
        return "Input should be an object"
    text: str = item["msg"]
    return text.removeprefix("Value error, ")
