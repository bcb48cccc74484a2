"""Cheap copies. The engine deep-copies the whole state before every move, so the state
is built from two kinds of models that copy fast:

- `Immutable` pieces (placed tiles, trading houses) never change once made; they are
  replaced, not edited, so a copy may share them.
- `Copyable` models copy their lists and dicts one level deep and share what is
  immutable inside; anything else they do not know is deep-copied as usual.
"""

from __future__ import annotations

import copy
from typing import Any, Self

from pydantic import BaseModel, ConfigDict

ATOMS = (int, str, bool, float, type(None))


class Immutable(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> Self:
        return self  # frozen, and made of atoms only


class Copyable(BaseModel):
    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> Self:
        clone = copy.copy(self)  # a new model with its own field dict
        for name, value in self.__dict__.items():
            clone.__dict__[name] = copied(value, memo)
        return clone


def _shared(value: Any) -> bool:
    return isinstance(value, (*ATOMS, Immutable))


def copied(value: Any, memo: dict[int, Any] | None) -> Any:
    if _shared(value):
        return value
    if isinstance(value, Copyable):
        return value.__deepcopy__(memo)
    if isinstance(value, list) and all(_shared(v) for v in value):
        return list(value)
    if isinstance(value, dict) and all(_shared(v) for v in value.values()):
        return dict(value)
    if isinstance(value, list) and all(isinstance(v, Copyable) for v in value):
        return [v.__deepcopy__(memo) for v in value]
    return copy.deepcopy(value, memo)
