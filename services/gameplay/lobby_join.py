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
"""

from __future__ import annotations

from dataclasses import dataclass

import orjson
from pydantic import Field, StrictInt

from services.store import MAX_SEATS, GameStore

from .auth import Credentials
from .idempotency import fingerprint, key_digest
from .invites import lobby_code
from .lobby import LobbyDesk
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


class JoinLobbyRequest(Strict):
    name: BoundedSeatName = Field(
        description="Your name, shown to the other players: 1-64 visible characters, stored "
        "in NFC; control, bidi-override and zero-width characters are refused."
    )
    players: StrictInt | None = Field(
        default=None,
        ge=1,
        le=MAX_SEATS,
        description="Only a game of this many seats; default any.",
    )


class LobbyJoin:
    """One call to take a seat in the lobby."""

    def __init__(self, store: GameStore, lobby: LobbyDesk, seats: SeatDesk) -> None:
        self.store = store
        self.lobby = lobby
        self.seats = seats

    async def join(
        self, game: str, request: JoinLobbyRequest, idempotency_key: str | None
    ) -> tuple[SeatTaken, bool]:
        """The seat taken, with its token, and whether it is a replay (this key joined
        before). 404 no_open_seat when no listed game has a seat to claim."""
        self.lobby.check_game(game)
        if idempotency_key is None:
            return await self._walk(game, request, None)
        note = _Note(
            game,
            key_digest(_joiner(game), idempotency_key),
            fingerprint({"join": game, **request.model_dump(mode="json")}),
            idempotency_key,
        )
        noted = await self.store.lobby_join(game, note.digest)
        if noted is not None:
            tried = orjson.loads(noted)
            if tried["fingerprint"] != note.request_print:
                raise idempotency_key_reused()
            again = await self._claim_again(tried["game_id"], tried["seat"], request, note)
            if again is not None:
                return again
        return await self._walk(game, request, note)

    async def _walk(
        self, game: str, request: JoinLobbyRequest, note: _Note | None
    ) -> tuple[SeatTaken, bool]:
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
                        return taken
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
        raise _no_open_seat(game, request.players)

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

    def of(self, game_id: str, seat: int) -> str:
        return orjson.dumps(
            {"fingerprint": self.request_print, "game_id": game_id, "seat": seat}
        ).decode()


def _joiner(game: str) -> Credentials:
    """Who joins, for the key: anyone (a join needs no credentials), in that game's lobby."""
    return Credentials(bearer=f"lobby join {game}", client_ip="")


def _no_open_seat(game: str, players: int | None) -> Problem:
    of = f" of {players} seats" if players is not None else ""
    return Problem(
        404,
        "no_open_seat",
        f"No listed {game} game{of} has a seat to claim now. Create one with lobby: true "
        "for others to join, or try again later.",
        refusal=True,
    )
