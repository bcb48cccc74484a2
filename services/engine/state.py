"""The one state mechanism every game uses: copying, (de)serialising and comparing.

A game's state is plain data made of slotted dataclasses (mutable ones for what changes,
frozen ones for pieces that are replaced rather than edited), lists, dicts, tuples and
atoms. From the field annotations this module derives, once per class:

- a copier, generated as straight-line Python (like `dataclasses` itself does), that
  copies every mutable container and dataclass and shares atoms and frozen pieces, so
  the engine can afford a copy per move and a bot one per search step;
- a pydantic `TypeAdapter`, so a state loaded from JSON is validated at the boundary and
  a state dumps to JSON in Rust, without any validation on the hot path in between.

Equality is the dataclasses' own field-by-field `==`.
"""

from __future__ import annotations

import copy
import dataclasses
import enum
import functools
import types
import typing
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel, TypeAdapter
from pydantic_core import PydanticUndefined

T = TypeVar("T")

ATOMS: frozenset[Any] = frozenset({int, str, bool, float, bytes, type(None)})

Copier = Callable[[Any], Any]

# mypy (2.4) does not count a class object as Hashable, so it refuses classes as keys of a
# functools.cache; the `type: ignore[arg-type]` comments below are for that alone.


def copy_state(value: T) -> T:
    """A deep copy of a state (or any dataclass of the state) that shares nothing mutable."""
    return _copier_of_class(type(value))(value)  # type: ignore[arg-type, no-any-return]


@functools.cache
def codec(cls: type[T]) -> TypeAdapter[T]:
    """The validating JSON codec of a state class."""
    return TypeAdapter(cls)


def dump_state(state: Any) -> str:
    return codec(type(state)).dump_json(state).decode()  # type: ignore[arg-type]


def load_state(cls: type[T], data: str | bytes) -> T:
    return codec(cls).validate_json(data)  # type: ignore[arg-type, no-any-return]


def state_to_python(state: Any) -> Any:
    """JSON-ready Python data (dicts, lists, atoms) of a state."""
    return codec(type(state)).dump_python(state, mode="json")  # type: ignore[arg-type]


# --- deriving copiers from annotations -------------------------------------------------


def _is_frozen_dataclass(cls: Any) -> bool:
    params = getattr(cls, "__dataclass_params__", None)
    return params is not None and params.frozen


def _is_shared(tp: Any) -> bool:
    """Whether values of annotation `tp` never change in place, so copies may share them."""
    if tp in ATOMS or tp is typing.Any:
        return tp is not typing.Any
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return True
    origin = get_origin(tp)
    if origin is Literal:
        return True
    if origin in (Union, types.UnionType):
        return all(_is_shared(arg) for arg in get_args(tp))
    if origin is tuple:
        return all(_is_shared(arg) for arg in get_args(tp) if arg is not Ellipsis)
    if origin is frozenset:
        return True
    if dataclasses.is_dataclass(tp) and _is_frozen_dataclass(tp):
        return all(_is_shared(t) for t in _field_types(tp).values())  # type: ignore[arg-type]
    return False


@functools.cache
def _field_types(cls: type) -> dict[str, Any]:
    hints = typing.get_type_hints(cls)
    return {f.name: hints[f.name] for f in dataclasses.fields(cls)}


def _copier_of_type(tp: Any) -> Copier | None:
    """A function copying a value of annotation `tp`; None when values can be shared."""
    if _is_shared(tp):
        return None
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        return _copier_of_class(tp)
    origin, args = get_origin(tp), get_args(tp)
    if origin is list:
        element = _copier_of_type(args[0]) if args else copy.deepcopy
        if element is None:
            return list.copy
        return lambda value: [element(v) for v in value]
    if origin is dict:
        item = _copier_of_type(args[1]) if args else copy.deepcopy
        if item is None:
            return dict.copy
        return lambda value: {k: item(v) for k, v in value.items()}
    if origin is set:
        return set.copy
    if origin in (Union, types.UnionType):
        options = [a for a in args if a is not type(None)]
        if len(options) == 1 and len(args) == 2:
            inner = _copier_of_type(options[0])
            assert inner is not None
            return lambda value: None if value is None else inner(value)
        return _copier_of_union(args)
    return copy.deepcopy


def _copier_of_union(options: tuple[Any, ...]) -> Copier:
    """Copy a value of `A | B | ...` by its runtime type, when each option is a distinct
    runtime type (`int | str | list[str]`); anything more ambiguous is deep-copied."""
    copiers: dict[type, Copier | None] = {}
    for option in options:
        runtime = get_origin(option) or option
        if not isinstance(runtime, type) or runtime in copiers:
            return copy.deepcopy
        copiers[runtime] = _copier_of_type(option)

    def copy_union(value: Any) -> Any:
        copier = copiers.get(type(value), copy.deepcopy)
        return value if copier is None else copier(value)

    return copy_union


@functools.cache
def _copier_of_class(cls: type) -> Copier:
    """Generate `copy_<Class>(o)`: a new instance with each field copied or shared."""
    if not dataclasses.is_dataclass(cls):
        return copy.deepcopy
    if _is_shared(cls):
        return lambda value: value
    namespace: dict[str, Any] = {
        "_new": cls.__new__,
        "_cls": cls,
        "_set": object.__setattr__,
        "_list_copy": list.copy,
    }
    lines = [f"def copy_{cls.__name__}(o):"]
    lines += _fill_copy(cls, "o", "n", "", namespace)
    lines.append("    return n")
    exec("\n".join(lines), namespace)  # noqa: S102 - source built above from field names
    return namespace[f"copy_{cls.__name__}"]  # type: ignore[no-any-return]


def _fill_copy(
    cls: type, source: str, target: str, prefix: str, namespace: dict[str, Any]
) -> list[str]:
    """Lines making `target`, a copy of `source` (an instance of dataclass `cls`). A
    field holding a mutable dataclass (a player's cubes, the RNG) is copied inline, one
    level deep, rather than by calling its copier: a copy per move pays for every call."""
    namespace[f"_cls{prefix}"], namespace[f"_new{prefix}"] = cls, cls.__new__
    lines = [f"    {target} = _new{prefix}(_cls{prefix})"]
    frozen = _is_frozen_dataclass(cls)
    for index, (name, tp) in enumerate(_field_types(cls).items()):
        value = f"{source}.{name}"
        inline = not prefix and isinstance(tp, type) and dataclasses.is_dataclass(tp)
        if inline and not _is_shared(tp):
            inner = f"{prefix}_{index}"
            lines.append(f"    v{inner} = {value}")
            lines += _fill_copy(tp, f"v{inner}", f"n{inner}", inner, namespace)
            expression = f"n{inner}"
        else:
            expression = _copy_expression(tp, value, f"_f{prefix}_{index}", namespace)
        if frozen:
            lines.append(f"    _set({target}, {name!r}, {expression})")
        else:
            lines.append(f"    {target}.{name} = {expression}")
    return lines


def _copy_expression(tp: Any, value: str, helper: str, namespace: dict[str, Any]) -> str:
    """Python source copying `value`: inline for the common shapes, else a helper call."""
    copier = _copier_of_type(tp)
    if copier is None:
        return value
    if copier is list.copy or copier is dict.copy or copier is set.copy:
        return f"{value}.copy()"
    origin, args = get_origin(tp), get_args(tp)
    # Lists of containers are often empty (no card resolving, nothing staying in play):
    # a new empty list then costs far less than mapping a copier over nothing.
    if origin is list and dataclasses.is_dataclass(args[0]):
        namespace[helper] = _copier_of_class(args[0])  # type: ignore[arg-type]
        return f"(list(map({helper}, {value})) if {value} else [])"
    if origin is list and get_origin(args[0]) is list and _copier_of_type(args[0]) is list.copy:
        return f"(list(map(_list_copy, {value})) if {value} else [])"
    namespace[helper] = copier
    return f"{helper}({value})"


# --- building trusted pydantic values without validation ---------------------------------

M = TypeVar("M", bound=BaseModel)


MODEL_SLOTS = ("__dict__", "__pydantic_fields_set__", "__pydantic_extra__", "__pydantic_private__")


def _unchecked(cls: type[M]) -> Callable[..., M]:
    """A constructor generated for pydantic model `cls` (keyword arguments, the model's
    defaults) that fills the instance directly and makes the same object `cls(**fields)`
    would, without validating: for moves, events and prompts the engine builds from its
    own, already valid state. Anything from outside goes through `model_validate`."""
    namespace: dict[str, Any] = {"_cls": cls, "_new": object.__new__}
    # The four slots every model has, each set through its own descriptor: the same as
    # `object.__setattr__(model, name, value)` without looking the name up on the class.
    for slot in MODEL_SLOTS:
        namespace[f"_set{slot}"] = _slot_setter(cls, slot)
    parameters, values, required, given = [], [], [], []
    for index, (name, info) in enumerate(cls.model_fields.items()):
        if info.default_factory is not None:
            namespace[f"_factory{index}"] = info.default_factory
            parameters.append(f"{name}=_missing")
            values.append(f"{name!r}: _factory{index}() if {name} is _missing else {name}")
            given.append(f"if {name} is not _missing: fields.add({name!r})")
        elif info.default is PydanticUndefined:
            parameters.append(name)
            values.append(f"{name!r}: {name}")
            required.append(repr(name))
        else:
            namespace[f"_default{index}"] = info.default
            parameters.append(f"{name}=_missing")
            values.append(f"{name!r}: _default{index} if {name} is _missing else {name}")
            given.append(f"if {name} is not _missing: fields.add({name!r})")
    namespace["_missing"] = object()
    lines = [
        f"def new_{cls.__name__}(*, {', '.join(parameters)}):",
        "    model = _new(_cls)",
        f"    _set__dict__(model, {{{', '.join(values)}}})",
        f"    fields = {{{', '.join(required)}}}" if required else "    fields = set()",
        *(f"    {line}" for line in given),
        "    _set__pydantic_fields_set__(model, fields)",
        "    _set__pydantic_extra__(model, None)",
        "    _set__pydantic_private__(model, None)",
        "    return model",
    ]
    exec("\n".join(lines), namespace)  # noqa: S102 - source built above from field names
    return namespace[f"new_{cls.__name__}"]  # type: ignore[no-any-return]


def _slot_setter(cls: type, name: str) -> Callable[[Any, Any], None]:
    """The `__set__` of the descriptor behind attribute `name` of `cls`'s instances."""
    for klass in cls.__mro__:
        if name in vars(klass):
            return vars(klass)[name].__set__  # type: ignore[no-any-return]
    raise AssertionError(f"{cls.__name__} has no slot {name}")


if TYPE_CHECKING:  # functools.cache would hide from mypy which model the constructor makes

    def unchecked(cls: type[M]) -> Callable[..., M]: ...

else:
    unchecked = functools.cache(_unchecked)


def trusted(cls: type[M], /, **fields: Any) -> M:
    """`unchecked(cls)(**fields)`: one trusted value without validation."""
    return unchecked(cls)(**fields)
