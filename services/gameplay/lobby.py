"""The public lobby: games whose creators listed them (`lobby: true`), with their open
seats' invite codes, for players to find a game without being sent a code.

A listed game's codes are its lobby codes (`invites.lobby_code`), derived from its salt,
so that the service, which keeps only the codes' hashes, can show them. A player claims
a seat with the code as with any invite (`POST /v1/games/{id}/seats/{seat}/claim`): the
same single use, expiry, webhooks and start when the last seat is filled. A seat whose
invite the creator reissued has a code of its own again and leaves the lobby: the
creator gave it to someone.

Each game's lobby is a sorted set of `<created ms>:<id>` members, oldest first (the
longest waiting is offered first). A game leaves it when it starts or is cancelled, and
the lobby takes out what it finds gone, started or without a seat left to claim
(expired invites) as it pages.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from services.store import MAX_SEATS, GameRecord, GameStatus, GameStore

from .clocks import now_ms
from .invites import code_hash, expiry_of, lobby_code
from .listing import Listing
from .payloads import MAX_GAMES_PAGE, ClockRequest, SeatInfo
from .problems import Problem, bad_request
from .served import ServedGames
from .visibility import seat_infos

SCAN_LIMIT = 500
"""Games a lobby page looks at at most: past that it ends early, with a cursor to go
on from, rather than reading a whole lobby of games without a seat left in one request."""
CHUNK = 50
"""Games read per round trip while paging."""


class LobbySeat(SeatInfo):
    invite_code: str | None = Field(
        default=None,
        description="An open seat's invite code, for anyone: claim the seat with it (POST "
        "/v1/games/{id}/seats/{seat}/claim). Null for a taken seat.",
    )


class LobbyGame(BaseModel):
    id: str
    game: str
    options: dict[str, object] = Field(description="The game's options, as created.")
    clock: ClockRequest | None = Field(description="Its time control; null if untimed.")
    tags: list[str]
    open_seats: int = Field(description="Seats that can be claimed now.")
    seats: list[LobbySeat]
    created_at: str


class LobbyList(BaseModel):
    games: list[LobbyGame] = Field(description="Oldest first: the longest waiting first.")
    next_cursor: str | None = Field(
        description="Pass as `cursor` for the next page; null when nothing follows this one. "
        "A page looks at up to 500 games: past games without a seat left it may hold fewer "
        "than asked for (none even) and still have a next_cursor."
    )


class LobbyDesk:
    """Pages of a game's public lobby."""

    def __init__(self, store: GameStore, served: ServedGames) -> None:
        self.store = store
        self.served = served

    def check_game(self, game: str) -> None:
        """404 not_found for a game not in the catalog."""
        if game not in self.served.games:
            known = ", ".join(sorted(self.served.games))
            raise Problem(
                404, "not_found", f"No game {game[:64]!r} in the catalog; known: {known}."
            )

    async def listing(
        self, game: str, limit: int, cursor: str | None, players: int | None = None
    ) -> Listing[LobbyGame]:
        """`limit` listed games of `game` with a seat to claim (of `players` seats, if
        given), oldest first, after `cursor` (a member of the lobby, as
        `Listing.cursors` gives them)."""
        self.check_game(game)
        if not 1 <= limit <= MAX_GAMES_PAGE:
            raise bad_request("invalid_query", f"limit must be from 1 to {MAX_GAMES_PAGE}.")
        if players is not None and not 1 <= players <= MAX_SEATS:
            raise bad_request("invalid_query", f"players must be from 1 to {MAX_SEATS}.")
        items: list[LobbyGame] = []
        cursors: list[str] = []
        after, scanned = cursor, 0
        while len(items) <= limit:  # one more than the page: whether another follows
            if scanned >= SCAN_LIMIT:
                return Listing.peeked(items, cursors, limit, resume=after)
            members = await self.store.in_lobby(game, after, CHUNK)
            if not members:
                break
            records = await self.store.load_listed([member.split(":", 1)[1] for member in members])
            gone = []
            for member, record in zip(members, records, strict=True):
                after, scanned = member, scanned + 1
                listed = lobby_game(record, now_ms()) if record is not None else None
                if listed is None:
                    gone.append(member)
                    continue
                if players is not None and len(listed.seats) != players:
                    continue
                items.append(listed)
                cursors.append(member)
                if len(items) > limit:
                    break
            await self.store.unlist(game, gone)
        return Listing.peeked(items, cursors, limit)

    async def page(
        self, game: str, limit: int, cursor: str | None, players: int | None = None
    ) -> LobbyList:
        listing = await self.listing(game, limit, cursor, players)
        return LobbyList(games=listing.items, next_cursor=listing.next_cursor)


def lobby_game(record: GameRecord, at_ms: int) -> LobbyGame | None:
    """The game as the lobby shows it, or None if it has no seat to claim now: it started,
    was cancelled, or its open seats' lobby invites expired or were reissued."""
    if not record.lobby or record.status is not GameStatus.WAITING:
        return None
    codes = _claimable_codes(record, at_ms)
    if not codes:
        return None
    seats = [
        LobbySeat(**seat.model_dump(), invite_code=codes.get(seat.seat))
        for seat in seat_infos(record)
    ]
    return LobbyGame(
        id=record.id,
        game=record.game,
        options=record.options,
        # As stored when it was created (checked then): not checked again.
        clock=ClockRequest.model_construct(**record.clock_rules) if record.clock_rules else None,
        tags=record.tags,
        open_seats=len(codes),
        seats=seats,
        created_at=record.created_at,
    )


def _claimable_codes(record: GameRecord, at_ms: int) -> dict[int, str]:
    """The lobby codes of the open seats whose invite is still the lobby's and unexpired."""
    codes = {}
    for seat, invite in record.invites.items():
        code = lobby_code(record.token_salt, seat)
        if expiry_of(invite) > at_ms and invite.partition(":")[2] == code_hash(code):
            codes[seat] = code
    return codes
