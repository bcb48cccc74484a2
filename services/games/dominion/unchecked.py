"""Building the engine's own pydantic models (events, prompts) without validating them.

Moves from clients are validated where they come in (`Game.parse_move`). What the engine
builds from its own state is right by construction, so validating it again, several
times per move, is pure cost. `unchecked(Model)` returns a constructor generated for that
model — keyword arguments, the model's defaults — that fills the instance directly and
makes the same object `Model(**fields)` would.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel
from pydantic_core import PydanticUndefined

M = TypeVar("M", bound=BaseModel)


@functools.cache
def unchecked(cls: type[M]) -> Callable[..., M]:
    namespace: dict[str, Any] = {"_cls": cls, "_new": object.__new__, "_set": object.__setattr__}
    parameters, values, given = [], [], []
    for index, (name, info) in enumerate(cls.model_fields.items()):
        if info.default_factory is not None:
            namespace[f"_factory{index}"] = info.default_factory
            parameters.append(f"{name}=_missing")
            values.append(f"{name!r}: _factory{index}() if {name} is _missing else {name}")
            given.append(f"if {name} is not _missing: fields.add({name!r})")
        elif info.default is PydanticUndefined:
            parameters.append(name)
            values.append(f"{name!r}: {name}")
            given.append(f"fields.add({name!r})")
        else:
            namespace[f"_default{index}"] = info.default
            parameters.append(f"{name}=_missing")
            values.append(f"{name!r}: _default{index} if {name} is _missing else {name}")
            given.append(f"if {name} is not _missing: fields.add({name!r})")
    namespace["_missing"] = object()
    lines = [
        f"def new_{cls.__name__}(*, {', '.join(parameters)}):",
        "    model = _new(_cls)",
        f"    _set(model, '__dict__', {{{', '.join(values)}}})",
        "    fields = set()",
        *(f"    {line}" for line in given),
        "    _set(model, '__pydantic_fields_set__', fields)",
        "    _set(model, '__pydantic_extra__', None)",
        "    _set(model, '__pydantic_private__', None)",
        "    return model",
    ]
    exec("\n".join(lines), namespace)  # noqa: S102 - source built above from field names
    return namespace[f"new_{cls.__name__}"]  # type: ignore[no-any-return]
