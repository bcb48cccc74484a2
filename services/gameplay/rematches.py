"""Rematches: a finished game played again by the same table.

A player of a finished game (its seat token) asks for the rematch. The first ask creates
it: the same game, options, tags, clock, leave policy and webhooks, made by the first
game's creator (its creator token manages it too), with a new seed and the seats turned
by one, so that the first game's seat 1 sits first. Bots keep their seats. Every
player's seat is open, and each ask claims the asker's seat under their name: the
rematch waits, as any game with open seats does, and starts when the last player has
asked (or the creator has filled the rest with bots).

Every ask names the same game: its id and its seats' invite codes are derived from the
first game's id (as a creation with an Idempotency-Key derives them), and each seat's
token from its claim, so asking again answers the same token.

Only games created without an API key have rematches: a platform makes its own games (a
player of one could otherwise create games under the platform's key, outside its
matchmaking), and a tournament pairs its tables.

A rematch counts as a game created without an API key from the address of the player
whose ask created it (`creation_quota`): otherwise resigning and asking again would
create games without end.
"""

from __future__ import annotations

import hmac
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field, ValidationError

from services.store import KEY_SCOPE_PREFIX, GameRecord, GameStatus

from .auth import Credentials, hash_secret, holds_creator_token, seat_of
from .game_ids import created_game_id
from .invites import derived_code
from .payloads import ClockRequest, CreateGameRequest, GameSummaryDocument, SeatRequest
from .problems import conflict, forbidden, unauthorized
from .seats import ClaimSeatRequest, claim_token
from .tournament_tags import tournaments_tagged
from .visibility import seat_infos

if TYPE_CHECKING:
    from .service import GameService


class RematchFound(BaseModel):
    rematch_of: str = Field(description="The finished game.")
    rematch: GameSummaryDocument | None = Field(
        description="Its rematch as anyone may see it (status, seats open or taken); null "
        "until a player has asked for it."
    )


class RematchJoined(BaseModel):
    id: str = Field(description="The rematch's game id.")
    game: str
    rematch_of: str = Field(description="The finished game it is a rematch of.")
    seat: int = Field(description="Your seat in the rematch (the seats turn by one).")
    name: str
    token: str = Field(description="Your seat's secret bearer token in the rematch.")
    status: GameStatus = Field(
        description="waiting while other players have not asked yet; active once the last "
        "did (or the game has gone on since)."
    )


def rematch_key(game_id: str) -> str:
    """The Idempotency-Key under which the first game's creator creates the rematch."""
    return f"rematch:{game_id}"


def rematch_seat(seat: int, players: int) -> int:
    """Where the first game's `seat` sits in the rematch: one seat earlier, so that the
    player after the first game's first player starts."""
    return (seat - 1) % players


def rematch_request(first: GameRecord) -> CreateGameRequest:
    """The first game's creation, played again: the same settings, a new seed, the seats
    turned by one, every player's seat open."""
    seats = [first.seats[(seat + 1) % first.players] for seat in range(first.players)]
    policy = first.leave_policy or {}
    return CreateGameRequest(
        game=first.game,
        seats=[
            SeatRequest(name=seat.name, bot=seat.bot) if seat.bot else SeatRequest(open=True)
            for seat in seats
        ],
        options=first.options,
        tags=first.tags,
        webhook_url=first.webhooks[0] if first.webhooks else None,
        webhook_events=first.webhook_events,
        clock=ClockRequest(**first.clock_rules) if first.clock_rules else None,
        on_leave=policy.get("on_leave"),
        leave_bot=policy.get("leave_bot"),
    )


class RematchDesk:
    """Creates rematches and seats their players."""

    def __init__(self, service: GameService, load: Callable[[str], Awaitable[GameRecord]]) -> None:
        self.service = service
        self.load = load

    async def join(self, game_id: str, who: Credentials) -> RematchJoined:
        """The asker's seat in the rematch of finished game `game_id`, the rematch made by
        this ask if it is the first."""
        first = await self.load(game_id)
        seat = _asker(first, who)
        _check_offered(first)
        key = rematch_key(first.id)
        rematch_id = await self._made(first, who, key)
        record = await self.load(rematch_id)
        new_seat = rematch_seat(seat, first.players)
        # Not validated again: the name was checked when the first game took it.
        claim = ClaimSeatRequest.model_construct(
            code=derived_code(record.token_salt, first.creator, key, new_seat),
            name=first.seats[seat].name,
        )
        claim_key = f"{key}:seat:{seat}"
        token = claim_token(record, new_seat, claim, claim_key)
        held = record.seats[new_seat].token_hash or ""
        if held and hmac.compare_digest(held, hash_secret(token)):
            status = record.status  # asked before: the same token again
        else:
            taken, _ = await self.service.seats.claim(rematch_id, new_seat, claim, claim_key)
            token, status = taken.token or token, taken.status
        return RematchJoined(
            id=rematch_id,
            game=first.game,
            rematch_of=first.id,
            seat=new_seat,
            name=claim.name,
            token=token,
            status=status,
        )

    async def find(self, game_id: str) -> RematchFound:
        """The rematch of `game_id` as anyone may see it (its seats, open or taken, and
        its status), so that a player sees that another asked for it before joining; none
        yet is an answer too, not a failure: apps poll for it."""
        first = await self.load(game_id)
        _check_offered(first)
        record = await self.service.store.load(
            created_game_id(first.creator, rematch_key(first.id))
        )
        rematch = _summary(record) if record is not None else None
        return RematchFound(rematch_of=first.id, rematch=rematch)

    async def _made(self, first: GameRecord, who: Credentials, key: str) -> str:
        """The rematch's id, creating it (counted against the asker's address) if no one
        has yet. A later ask replays the creation, which finishes what a process that died
        right after storing the rematch left undone."""
        service = self.service
        maker = Credentials(None, who.client_ip, platform=True, acting_for=first.creator)
        try:
            request = rematch_request(first)
        except ValidationError as error:
            # Settings stored by an earlier release that this one no longer takes.
            raise conflict(
                "rematch_not_offered",
                f"The first game's settings are no longer accepted: {error.errors()[0]['msg']}.",
            ) from None
        quota = service.creation_quota
        rematch_id = created_game_id(first.creator, key)
        if quota is not None and await service.store.version_and_status(rematch_id) is None:
            await quota.take(who.client_ip)
        created, _ = await service.create_game(maker, request, key, rematch_of=first)
        return created.id


def _summary(record: GameRecord) -> GameSummaryDocument:
    return GameSummaryDocument(
        id=record.id,
        game=record.game,
        status=record.status,
        version=record.version,
        seats=seat_infos(record),
        tags=record.tags,
        created_at=record.created_at,
        updated_at=record.updated_at,
        lobby=record.lobby,
    )


def _asker(first: GameRecord, who: Credentials) -> int:
    """The seat of the player asking: only a player of the game asks for its rematch."""
    if who.bearer is None:
        raise unauthorized("seat_token_required", "Send your seat's token to ask for a rematch.")
    seat = seat_of(first.seats, who.token_hash or "")
    if seat is not None:
        return seat
    if who.platform or holds_creator_token(first, who):
        raise forbidden(
            "not_a_player",
            "Only the game's players ask for its rematch, each with their own seat's token.",
        )
    raise unauthorized("invalid_token", "That token is not a seat of this game.")


def _check_offered(first: GameRecord) -> None:
    if tournaments_tagged(first.tags):
        raise conflict(
            "rematch_not_offered",
            "This game is a tournament's table: its tournament pairs the next games.",
        )
    if first.creator.startswith(KEY_SCOPE_PREFIX):
        raise conflict(
            "rematch_not_offered",
            "This game was created by a platform's API key: the platform makes its next games.",
        )
    if first.status is not GameStatus.FINISHED:
        raise conflict(
            "game_not_finished",
            f"A rematch follows a finished game; this one is {first.status.value}.",
            status_now=first.status.value,
        )
