"""GraphQL for the public lobby: games waiting for players whose creators listed them,
with their open seats' invite codes (claimed with the mutation `claimSeat`)."""

# No `from __future__ import annotations`: strawberry needs the evaluated annotations.

import strawberry
from strawberry.scalars import JSON

from services.gameplay import lobby
from services.gameplay.payloads import MAX_GAMES_PAGE
from services.gameplay.service import CURSOR

from .connections import Paging
from .cost import FIELD_COST, json_cost
from .types import Seat

LOBBY = Paging("lobby", CURSOR, MAX_GAMES_PAGE)

PAGE_COST = 2_000
"""A lobby page reads up to `lobby.SCAN_LIMIT` (500) games whatever it selects: a query
holds at most 9, where each would be a request of its own over REST."""

JOIN_COST = 2 * PAGE_COST
"""A join reads up to two lobby pages and makes up to 8 claims: a document holds at most 4."""

OPTIONS_COST = json_cost(2_000)
"""A game's options: a few settings, or a kingdom of ten card names."""


@strawberry.type(description="A seat of a game in the lobby.")
class LobbySeat(Seat):
    invite_code: str | None = strawberry.field(
        description="An open seat's invite code, for anyone: claim the seat with it "
        "(mutation claimSeat). Null for a taken seat."
    )

    @classmethod
    def of_lobby(cls, seat: lobby.LobbySeat) -> "LobbySeat":
        return cls(**vars(Seat.of(seat)), invite_code=seat.invite_code)


@strawberry.type(description="The lobby's rules for its time control, as created.")
class LobbyClock:
    initial_seconds: float
    increment_seconds: float
    on_timeout: str = strawberry.field(description="forfeit or bot")


@strawberry.type(description="A game waiting for players, listed in the lobby by its creator.")
class LobbyGame:
    id: strawberry.ID
    game: str
    options: JSON = strawberry.field(
        description="The game's options, as created.", metadata={FIELD_COST: OPTIONS_COST}
    )
    clock: LobbyClock | None = strawberry.field(description="Its time control; null if untimed.")
    tags: list[str]
    open_seats: int = strawberry.field(description="Seats that can be claimed now.")
    seats: list[LobbySeat]
    created_at: str

    @classmethod
    def of(cls, game: lobby.LobbyGame) -> "LobbyGame":
        clock = game.clock
        return cls(
            id=strawberry.ID(game.id),
            game=game.game,
            options=JSON(game.options),
            clock=LobbyClock(
                initial_seconds=clock.initial_seconds,
                increment_seconds=clock.increment_seconds,
                on_timeout=clock.on_timeout,
            )
            if clock is not None
            else None,
            tags=game.tags,
            open_seats=game.open_seats,
            seats=[LobbySeat.of_lobby(seat) for seat in game.seats],
            created_at=game.created_at,
        )
