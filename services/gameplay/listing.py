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
    """Items may follow the last one."""
    resume: str | None = None
    """Where the next page starts when that is not right after the last item: the store
    looks at a bounded number of items per page, and a filter passed over those after
    it (so a page may hold fewer items than asked for, none even, and still have more)."""

    @classmethod
    def peeked(
        cls, items: Sequence[T], cursors: Sequence[str], size: int, resume: str | None = None
    ) -> Listing[T]:
        """A page of `size` from `items` fetched with one more than that; `resume`: the
        store stopped looking there before it found them all."""
        if len(items) > size:
            return cls(list(items[:size]), list(cursors[:size]), more=True)
        return cls(list(items), list(cursors), more=resume is not None, resume=resume)

    @property
    def next_cursor(self) -> str | None:
        if not self.more:
            return None
        return self.resume or (self.cursors[-1] if self.cursors else None)
