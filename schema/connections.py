"""Relay-style connections for lists that grow: `edges { cursor node }` and `pageInfo`,
paged forwards with `first` and `after`.

A list's cursors are opaque to clients: base64url of `<list>:<position>`, where the
position is what the service pages by (a listing's store cursor, a log version). Every
cursor that comes back is checked before any work: one that is not base64, names
another list or holds a position of the wrong shape is the error `invalid_cursor`, and
`first` outside its bounds is `invalid_query`; neither ever reaches the store.

A new list (tournaments, say) needs a `Paging` (its cursors' name, the shape of a
position, the largest page) and a resolver like `games` in `schema.queries`:

    TOURNAMENTS = Paging("tournaments", CURSOR, maximum=100)

    async def tournaments(
        self, info: Info,
        first: Annotated[int, TOURNAMENTS.first_argument()] = 20,
        after: Annotated[str | None, AFTER] = None,
    ) -> Connection[TournamentSummary]:
        size, position = TOURNAMENTS.start(first, after)      # checked: 400s, no work
        listing = await service.tournament_listing(..., limit=size, cursor=position)
        return TOURNAMENTS.connection([TournamentSummary.of(t) ...], listing, position)

The service returns a `services.gameplay.listing.Listing` (items, one cursor each, and
whether more follow). The type is named `<Node>Connection` with edges `<Node>Edge`; a
connection with fields of its own subclasses `Connection[Node]` (as `EventConnection`)
and passes them to `of`. The query cost analysis (`schema.cost`) reads `first`, its
default and its maximum from the argument, so a page costs what it can hold.
"""

# No `from __future__ import annotations`: strawberry needs the evaluated annotations.

import base64
import binascii
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic, Self, TypeVar

import strawberry

from services.gameplay.listing import Listing
from services.gameplay.problems import Problem

from .cost import MAX_LIST_SIZE

NodeType = TypeVar("NodeType")

MAX_CURSOR_CHARS = 200
"""Longer `after` values are refused before decoding (no cursor this service makes comes
close)."""


@strawberry.type(description="Where a page of a connection starts and ends.")
class PageInfo:
    has_next_page: bool = strawberry.field(
        description="More items follow: ask again with `after: endCursor`."
    )
    has_previous_page: bool = strawberry.field(
        description="Items come before this page (it was asked for `after` a cursor)."
    )
    start_cursor: str | None = strawberry.field(
        description="The first edge's cursor; null when the page is empty."
    )
    end_cursor: str | None = strawberry.field(
        description="Where the next page starts, to pass as `after`: the last edge's cursor, "
        "or, when a filter passed over items after it (a page looks at a bounded number), "
        "the last item looked at; null when the page is empty and nothing follows."
    )


@strawberry.type(description="An item, and the cursor that resumes the list right after it.")
class Edge(Generic[NodeType]):
    cursor: str
    node: NodeType


@strawberry.type(description="A page of a list: its items as edges, and where it stands.")
class Connection(Generic[NodeType]):
    edges: list[Edge[NodeType]]
    page_info: PageInfo

    @classmethod
    def of(
        cls,
        nodes: Sequence[NodeType],
        cursors: Sequence[str],
        *,
        more: bool,
        after: bool,
        resume: str | None = None,
        **fields: Any,
    ) -> Self:
        """A page from its nodes and their (already opaque) cursors: `more` says items
        may follow it, `after` that it was asked for after a cursor, `resume` where the
        next page starts if not after the last edge; `fields` are those a subclass adds."""
        edges = [Edge(cursor=c, node=n) for n, c in zip(nodes, cursors, strict=True)]
        info = PageInfo(
            has_next_page=more,
            has_previous_page=after,
            start_cursor=edges[0].cursor if edges else None,
            end_cursor=resume or (edges[-1].cursor if edges else None),
        )
        return cls(edges=edges, page_info=info, **fields)


@dataclass(frozen=True)
class Paging:
    """How one list pages: the name its cursors carry, what a position in it looks like
    (checked on the way in), and the largest page."""

    name: str
    position: re.Pattern[str]
    maximum: int

    def first_argument(self) -> Any:
        """Annotate `first` with this: its bounds are in the schema and in the cost."""
        return strawberry.argument(
            description=f"How many items, from 1 to {self.maximum}.",
            metadata={MAX_LIST_SIZE: self.maximum},
        )

    def start(self, first: int, after: str | None) -> tuple[int, str | None]:
        """The page size and the position to start after, once both are checked."""
        if not 1 <= first <= self.maximum:
            raise Problem(
                400,
                "invalid_query",
                f"first must be a whole number from 1 to {self.maximum}.",
                limit=self.maximum,
            )
        return first, self.decode(after)

    def connection(
        self, nodes: Sequence[NodeType], listing: Listing[Any], after: str | None
    ) -> Connection[NodeType]:
        """A page of a service listing, `nodes` made from its items."""
        return Connection.of(
            nodes,
            [self.encode(cursor) for cursor in listing.cursors],
            more=listing.more,
            after=after is not None,
            resume=self.encode(listing.resume) if listing.resume else None,
        )

    def encode(self, position: str) -> str:
        return base64.urlsafe_b64encode(f"{self.name}:{position}".encode()).decode()

    def decode(self, cursor: str | None) -> str | None:
        """The position inside a cursor this list gave; None for no cursor."""
        if cursor is None:
            return None
        position = self._position(cursor)
        if (
            position is None
            or not self.position.fullmatch(position)
            or self.encode(position) != cursor
        ):
            raise Problem(
                400,
                "invalid_cursor",
                f"`after` is not a cursor of this list ({self.name}); pass an edge's "
                "`cursor` or `pageInfo.endCursor` from it.",
            )
        return position

    def _position(self, cursor: str) -> str | None:
        if len(cursor) > MAX_CURSOR_CHARS:
            return None
        try:
            text = base64.urlsafe_b64decode(cursor.encode("ascii")).decode("ascii")
        except (UnicodeError, binascii.Error, ValueError):
            return None
        name, colon, position = text.partition(":")
        return position if colon and name == self.name else None


AFTER = strawberry.argument(
    description="Start right after this cursor (an edge's `cursor` or `endCursor`)."
)
"""Annotate `after` with this."""
