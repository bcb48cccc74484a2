"""Joining the lobby in one call: the first open seat of the longest waiting listed game
(of that many seats, if asked), claimed with its lobby code as any claim is.

A seat can be lost between the look and the claim (another player took it, the game
started, its invite expired or was reissued): the join then tries the next open seat,
up to `MAX_TRIES` claims.

With an Idempotency-Key each claim is made under the same key, and the seat about to
be claimed is noted first (`GameStore.note_lobby_join`). A retry goes back to the noted
seat: the claim's own key answers it again if it landed (the game may have started and
left the lobby since), and if it did not, the retry walks the lobby as the first try
did. So a retried join never takes a second seat.

With `create: true` a join that finds no seat creates a listed game of `players` seats
and takes its seat 0 (`lobby_tables`). The game's id derives from the key, and it is
noted before it is made, so a retry goes back to it as to any noted seat.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import orjson
from pydantic import Field, StrictBool, StrictInt, model_validator

from services.store import MAX_SEATS, GameStore

from .auth import Credentials, new_token
from .idempotency import fingerprint, key_digest
from .invites import lobby_code
from .lobby import LobbyDesk
from .lobby_tables import LobbyTables, created_id
from .payloads import BoundedSeatName, Strict
from .problems import Problem, conflict, idempotency_key_reused
from .seats import ClaimSeatRequest, SeatDesk, SeatTaken

MAX_TRIES = 8
"""Claims one join makes at most, each lost to another player, before it gives up."""

MAX_LOOKS = 2
"""Lobby pages one join reads at most: each looks at up to `lobby.SCAN_LIMIT` games."""

LOST = frozenset(
    {
        "seat_taken",
        "seat_not_open",
        "game_not_waiting",
        "game_not_found",
        "invite_expired",
        "wrong_invite_code",
    }
)
"""What a claim of a seat the lobby showed is refused with when the seat went meanwhile."""

WAITS = 10
WAIT_SECONDS = 0.1
"""While another join creates a game of the same kind and size, a join looks again this
many times, this far apart, before it creates one itself."""


class JoinLobbyRequest(Strict):
    name: BoundedSeatName = Field(
        description="Your name, shown to the other players: 1-64 visible characters, stored "
        "in NFC; control, bidi-override and zero-width characters are refused."
    )
    players: StrictInt | None = Field(
        default=None,
        ge=1,
        le=MAX_SEATS,
        description="Only a game of this many seats; default any. Required with create.",
    )
    create: StrictBool = Field(
        default=False,
        description="If no listed game has a seat: create one of `players` seats (the "
        "game's default options, untimed), list it, and take its seat 0.",
    )

    @model_validator(mode="after")
    def _create_needs_players(self) -> JoinLobbyRequest:
        if self.create and self.players is None:
            raise ValueError("create needs players: the number of seats of the game to create")
        return self


class LobbyJoined(SeatTaken):
    created: bool = Field(
        description="This join created the game (create: true, and no listed game had a seat)."
    )


class LobbyJoin:
    """One call to take a seat in the lobby."""

    def __init__(
        self, store: GameStore, lobby: LobbyDesk, seats: SeatDesk, tables: LobbyTables
    ) -> None:
        self.store = store
        self.lobby = lobby
        self.seats = seats
        self.tables = tables

    async def join(
        self,
        game: str,
        request: JoinLobbyRequest,
        idempotency_key: str | None,
        who: Credentials,
    ) -> tuple[LobbyJoined, bool]:
        """The seat taken, with its token, and whether it is a replay (this key joined
        before). 404 no_open_seat when no listed game has a seat to claim (and the join
        may not create one)."""
        self.lobby.check_game(game)
        note = None
        if idempotency_key is not None:
            note = _Note(
                game,
                key_digest(_joiner(game), idempotency_key),
                fingerprint({"join": game, **request.model_dump(mode="json")}),
                idempotency_key,
            )
            again = await self._noted(game, request, note)
            if again is not None:
                return again
        found = await self._walk(game, request, note)
        if found is not None:
            return found
        if not request.create:
            raise _no_open_seat(game, request.players)
        return await self._create_or_join(game, request, note, who)

    async def _noted(
        self, game: str, request: JoinLobbyRequest, note: _Note
    ) -> tuple[LobbyJoined, bool] | None:
        """The seat this key tried last, claimed again, if it is still to be had."""
        noted = await self.store.lobby_join(game, note.digest)
        if noted is None:
            return None
        tried = orjson.loads(noted)
        if tried["fingerprint"] != note.request_print:
            raise idempotency_key_reused()
        again = await self._claim_again(tried["game_id"], tried["seat"], request, note)
        if again is None:
            return None
        taken, replayed = again
        made_here = taken.id == created_id(game, note.creation_key)
        return _joined(taken, created=made_here), replayed

    async def _create_or_join(
        self, game: str, request: JoinLobbyRequest, note: _Note | None, who: Credentials
    ) -> tuple[LobbyJoined, bool]:
        """Seat 0 of a game this join creates, or a seat in one that another join creating
        at the same time made."""
        players = request.players or 0  # required with create
        for _ in range(WAITS):
            holder = await self.tables.lock(game, players)
            if holder is not None:
                try:
                    return await self._create_unless_listed(game, request, note, who)
                finally:
                    await self.tables.unlock(game, players, holder)
            await asyncio.sleep(WAIT_SECONDS)
            found = await self._walk(game, request, note)
            if found is not None:
                return found
        return await self._create_unless_listed(game, request, note, who)

    async def _create_unless_listed(
        self, game: str, request: JoinLobbyRequest, note: _Note | None, who: Credentials
    ) -> tuple[LobbyJoined, bool]:
        found = await self._walk(game, request, note)  # made before the hold was had
        if found is not None:
            return found
        creation_key = note.creation_key if note is not None else new_token()
        game_id = created_id(game, creation_key)
        if note is not None:  # before it exists: a retry goes back to it
            await self.store.note_lobby_join(game, note.digest, note.of(game_id, 0))
        await self.tables.create(game, request.players or 0, who, creation_key)
        record = await self.seats.load(game_id)
        # Listed as soon as it exists: another join may take seat 0 before this one does.
        for seat in range(record.players):
            claim = ClaimSeatRequest(code=lobby_code(record.token_salt, seat), name=request.name)
            taken = await self._claim(game_id, seat, claim, note)
            if taken is not None:
                return _joined(taken[0], created=True), taken[1]
        raise conflict(
            "seat_taken", "Other players took every seat of the game this join made; try again."
        )

    async def _walk(
        self, game: str, request: JoinLobbyRequest, note: _Note | None
    ) -> tuple[LobbyJoined, bool] | None:
        """A seat in the longest waiting listed game that has one, or None."""
        lost = 0
        cursor = None
        for _ in range(MAX_LOOKS):
            listing = await self.lobby.listing(game, MAX_TRIES, cursor, request.players)
            for listed in listing.items:
                for seat in listed.seats:
                    if seat.invite_code is None:
                        continue
                    claim = ClaimSeatRequest(code=seat.invite_code, name=request.name)
                    taken = await self._claim(listed.id, seat.seat, claim, note)
                    if taken is not None:
                        return _joined(taken[0], created=False), taken[1]
                    lost += 1
                    if lost == MAX_TRIES:
                        raise conflict(
                            "seat_taken",
                            f"Each of the {MAX_TRIES} open seats this join tried was taken "
                            "first by another player; try again.",
                        )
            cursor = listing.next_cursor
            if cursor is None:
                break
        return None

    async def _claim_again(
        self, game_id: str, seat: int, request: JoinLobbyRequest, note: _Note
    ) -> tuple[SeatTaken, bool] | None:
        """The noted seat, claimed again under the key: the first claim's answer if it
        landed, or a claim now if it did not and the seat is still open."""
        record = await self.store.load(game_id)
        if record is None:
            return None
        claim = ClaimSeatRequest(code=lobby_code(record.token_salt, seat), name=request.name)
        return await self._claim(game_id, seat, claim, note)

    async def _claim(
        self, game_id: str, seat: int, claim: ClaimSeatRequest, note: _Note | None
    ) -> tuple[SeatTaken, bool] | None:
        """The seat claimed, or None if it went meanwhile."""
        if note is not None:
            await self.store.note_lobby_join(note.game, note.digest, note.of(game_id, seat))
        key = note.idempotency_key if note is not None else None
        try:
            return await self.seats.claim(game_id, seat, claim, key)
        except Problem as problem:
            if problem.code in LOST:
                return None
            raise


@dataclass(frozen=True)
class _Note:
    """A join's Idempotency-Key, and what it notes before each claim."""

    game: str
    digest: str
    request_print: str
    idempotency_key: str

    @property
    def creation_key(self) -> str:
        """The key of the game this join would create: the same for every retry."""
        return f"lobby-join:{self.digest}"

    def of(self, game_id: str, seat: int) -> str:
        return orjson.dumps(
            {"fingerprint": self.request_print, "game_id": game_id, "seat": seat}
        ).decode()


def _joined(taken: SeatTaken, created: bool) -> LobbyJoined:
    return LobbyJoined(**taken.model_dump(), created=created)


def _joiner(game: str) -> Credentials:
    """Who joins, for the key: anyone (a join needs no credentials), in that game's lobby."""
    return Credentials(bearer=f"lobby join {game}", client_ip="")


def _no_open_seat(game: str, players: int | None) -> Problem:
    of = f" of {players} seats" if players is not None else ""
    return Problem(
        404,
        "no_open_seat",
        f"No listed {game} game{of} has a seat to claim now. Join with create: true (or "
        "create one with lobby: true) for others to join, or try again later.",
        refusal=True,
    )
