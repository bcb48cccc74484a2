"""One page of a list that grows (games, records), as the store pages it: every item
with the cursor that resumes the list right after it, and whether more items follow.

The store is asked for one item more than the page holds; that extra item only says
whether another page exists, so the last page never hands out a cursor to an empty one.
REST answers `next_cursor`; GraphQL wraps each cursor into a Relay edge.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Listing(Generic[T]):
    items: list[T]
    cursors: list[str]
    """`cursors[i]` resumes the list right after `items[i]`."""
    more: bool
    """Items follow the last one."""

    @classmethod
    def peeked(cls, items: Sequence[T], cursors: Sequence[str], size: int) -> Listing[T]:
        """A page of `size` from `items` fetched with one more than that."""
        return cls(list(items[:size]), list(cursors[:size]), more=len(items) > size)

    @property
    def next_cursor(self) -> str | None:
        return self.cursors[-1] if self.more and self.cursors else None
