"""The stack of pending effect frames, and the registry of what resolves each kind.

A handler is called while its frame is on top of the stack with no open decision; it
moves its frame along (`pc`, `sub`), opens decisions, pushes frames that must resolve
first, or finishes (`done`). Nothing waits in Python: everything in between is data.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from .state import Frame
from .table import Table

F = TypeVar("F", bound=Callable[..., Any])


def registry(table: dict[str, F]) -> Callable[[str], Callable[[F], F]]:
    """A decorator factory filling `table`: `@by_name("Ninja") def ninja(...)`."""

    def by_name(name: str) -> Callable[[F], F]:
        def register(fn: F) -> F:
            assert name not in table, f"{name} is registered twice"
            table[name] = fn
            return fn

        return register

    return by_name


Handler = Callable[[Table, Frame], None]
HANDLERS: dict[str, Handler] = {}
handles = registry(HANDLERS)


def push(t: Table, op: str, seat: int, card: str = "", **data: Any) -> Frame:
    frame = Frame(op=op, seat=seat, card=card, vars=data)
    t.s.stack.append(frame)
    return frame


def done(t: Table, f: Frame) -> None:
    """Finish `f`, wherever it is on the stack (frames it pushed stay above it)."""
    stack = t.s.stack
    for i in range(len(stack) - 1, -1, -1):
        if stack[i] is f:
            del stack[i]
            return
    raise AssertionError(f"frame {f.op} is not on the stack")


def resolve_stack(t: Table) -> bool:
    """Resolve frames until one waits for a decision (True) or the stack is empty (False)."""
    stack = t.s.stack
    while stack:
        top = stack[-1]
        if top.asks:
            return True
        HANDLERS[top.op](t, top)
    return False
