"""GraphQL for open seats: claiming one with its invite code, the creator filling one
with a bot or giving it a new invite, and the creator cancelling a game that still waits
for players; a taken seat's token replaced (lost or leaked); and a player's seat in a
finished game's rematch."""

# No `from __future__ import annotations`: strawberry needs the evaluated annotations.

from typing import Annotated, Any

import strawberry
from pydantic import ValidationError

from services.gameplay import lobby_join, rematches, seat_tokens, seats
from services.gameplay.auth import check_idempotency_key
from services.gameplay.problems import Problem

from .context import GraphQLContext
from .cost import FIELD_COST
from .inputs import invalid_input
from .lobby import JOIN_COST
from .mutations import _rejected_or_raise
from .types import GameStatus, Rejected, status_of

Info = strawberry.Info[GraphQLContext, None]


@strawberry.type(description="An open seat was filled: claimed by a player, or given to a bot.")
class SeatTaken:
    game_id: strawberry.ID
    game: str
    seat: int
    name: str
    bot: str | None = strawberry.field(description="The bot level, for a seat given to a bot.")
    token: str | None = strawberry.field(
        description="The seat's secret bearer token (a claimed seat). Shown only here."
    )
    status: GameStatus = strawberry.field(
        description="WAITING while other seats are open; ACTIVE once this filled the last."
    )
    replayed: bool = strawberry.field(description="True when answered from an idempotency key.")

    @classmethod
    def of(cls, taken: seats.SeatTaken, replayed: bool = False) -> "SeatTaken":
        return cls(
            game_id=strawberry.ID(taken.id),
            game=taken.game,
            seat=taken.seat,
            name=taken.name,
            bot=taken.bot,
            token=taken.token,
            status=status_of(taken.status),
            replayed=replayed,
        )


@strawberry.type(description="A seat taken in the lobby by joinLobby.")
class LobbyJoined(SeatTaken):
    created: bool = strawberry.field(
        description="This join created the game (create: true, and no listed game had a seat)."
    )

    @classmethod
    def of_join(cls, joined: lobby_join.LobbyJoined, replayed: bool) -> "LobbyJoined":
        return cls(**vars(SeatTaken.of(joined, replayed)), created=joined.created)


@strawberry.type(description="The creator cancelled a game that waited for players.")
class GameCancelled:
    game_id: strawberry.ID
    game: str
    status: GameStatus
    reason: str
    replayed: bool = strawberry.field(description="True when answered from an idempotency key.")

    @classmethod
    def of(cls, cancelled: seats.GameCancelled, replayed: bool = False) -> "GameCancelled":
        return cls(
            game_id=strawberry.ID(cancelled.id),
            game=cancelled.game,
            status=status_of(cancelled.status),
            reason=cancelled.reason,
            replayed=replayed,
        )


@strawberry.type(description="The creator gave an open seat a new invite code.")
class InviteIssued:
    game_id: strawberry.ID
    game: str
    seat: int
    invite_code: str = strawberry.field(
        description="The new code: single use, until inviteExpiresAt; the seat's earlier "
        "code no longer works. Shown only here."
    )
    invite_expires_at: str
    replayed: bool = strawberry.field(description="True when answered from an idempotency key.")

    @classmethod
    def of(cls, issued: seats.InviteIssued, replayed: bool = False) -> "InviteIssued":
        return cls(
            game_id=strawberry.ID(issued.id),
            game=issued.game,
            seat=issued.seat,
            invite_code=issued.invite_code or "",
            invite_expires_at=issued.invite_expires_at,
            replayed=replayed,
        )


@strawberry.type(description="A seat's token was replaced: the old one no longer works.")
class SeatTokenReplaced:
    game_id: strawberry.ID
    game: str
    seat: int
    token: str = strawberry.field(
        description="The seat's new secret bearer token. Shown only here."
    )
    issued_at: str = strawberry.field(description="When the new token was issued.")
    replayed: bool = strawberry.field(description="True when answered from an idempotency key.")

    @classmethod
    def of(
        cls, replaced: seat_tokens.SeatTokenReplaced, replayed: bool = False
    ) -> "SeatTokenReplaced":
        return cls(
            game_id=strawberry.ID(replaced.id),
            game=replaced.game,
            seat=replaced.seat,
            token=replaced.token or "",
            issued_at=replaced.issued_at,
            replayed=replayed,
        )


@strawberry.type(description="Your seat in a finished game's rematch.")
class RematchJoined:
    game_id: strawberry.ID = strawberry.field(description="The rematch's game id.")
    game: str
    rematch_of: strawberry.ID = strawberry.field(
        description="The finished game it is a rematch of."
    )
    seat: int = strawberry.field(description="Your seat in the rematch (the seats turn by one).")
    name: str
    token: str = strawberry.field(
        description="Your seat's secret bearer token in the rematch (the same each time you ask)."
    )
    status: GameStatus = strawberry.field(
        description="WAITING while other players have not asked yet; ACTIVE once the last did."
    )

    @classmethod
    def of(cls, joined: rematches.RematchJoined) -> "RematchJoined":
        return cls(
            game_id=strawberry.ID(joined.id),
            game=joined.game,
            rematch_of=strawberry.ID(joined.rematch_of),
            seat=joined.seat,
            name=joined.name,
            token=joined.token,
            status=status_of(joined.status),
        )


SeatResult = Annotated[SeatTaken | Rejected, strawberry.union("SeatResult")]
LobbyJoinResult = Annotated[LobbyJoined | Rejected, strawberry.union("LobbyJoinResult")]
InviteResult = Annotated[InviteIssued | Rejected, strawberry.union("InviteResult")]
CancelResult = Annotated[GameCancelled | Rejected, strawberry.union("CancelResult")]
SeatTokenResult = Annotated[SeatTokenReplaced | Rejected, strawberry.union("SeatTokenResult")]
RematchResult = Annotated[RematchJoined | Rejected, strawberry.union("RematchResult")]


@strawberry.type
class SeatMutations:
    @strawberry.mutation(
        description="Claim an open seat with its invite code and your name; the seat's token "
        "is shown once. Single use: of many claims at once exactly one gets the seat. "
        "Refused: seat_taken, seat_not_open, game_not_waiting, invite_expired (the creator "
        "can issue a new code: reissueInvite) (results); a wrong code is an error "
        "(wrong_invite_code). With an idempotencyKey a retry of the same claim (seat, code "
        "and name) gets its token again; another claim with that code under the key is "
        "refused (idempotency_key_reused); the key is the code holder's."
    )
    async def claim_seat(
        self,
        info: Info,
        game_id: strawberry.ID,
        seat: int,
        code: str,
        name: str,
        idempotency_key: str | None = None,
    ) -> SeatResult:
        context = info.context
        key = check_idempotency_key(idempotency_key)
        try:
            request = seats.ClaimSeatRequest.model_validate({"code": code, "name": name})
        except ValidationError as error:
            return invalid_input(error)
        try:
            taken, replayed = await context.service.seats.claim(str(game_id), seat, request, key)
        except Problem as problem:
            refused: SeatResult = _rejected_or_raise(problem)
            return refused
        return SeatTaken.of(taken, replayed)

    @strawberry.mutation(
        description="Take a seat in the lobby in one call: the first open seat of the "
        "longest waiting listed game of this kind (players: only games of that many seats), "
        "claimed under your name as with its invite code; the seat's token is shown once. A "
        "seat another player takes first is passed over for the next one. Refused: "
        "no_open_seat (no listed game has a seat to claim: create one with lobby: true), "
        "seat_taken (8 seats in a row were taken first) (results); a game not in the "
        "catalog is an error (not_found). With create: true (and players) a join that finds "
        "no seat creates a listed game of that many seats (default options, untimed; "
        "counted against the hourly quota of games created without an API key) and takes "
        "its seat 0 (created: true); two such joins at once make one game. With an "
        "idempotencyKey (send a random one) a retry answers the same seat and token, even "
        "once the game has started.",
        metadata={FIELD_COST: JOIN_COST},
    )
    async def join_lobby(
        self,
        info: Info,
        game: str,
        name: str,
        players: int | None = None,
        create: bool = False,
        idempotency_key: str | None = None,
    ) -> LobbyJoinResult:
        context = info.context
        key = check_idempotency_key(idempotency_key)
        asked = {"name": name, "players": players, "create": create}
        try:
            request = lobby_join.JoinLobbyRequest.model_validate(asked)
        except ValidationError as error:
            return invalid_input(error)
        try:
            joined, replayed = await context.service.lobby_join.join(
                game, request, key, context.credentials()
            )
        except Problem as problem:
            refused: LobbyJoinResult = _rejected_or_raise(problem)
            return refused
        return LobbyJoined.of_join(joined, replayed)

    @strawberry.mutation(
        description="The creator (creator token, or the API key that created the game) gives "
        "an open seat to a bot of a level the game offers; the last one starts the game. "
        "With an idempotencyKey a retry gets the first answer."
    )
    async def fill_seat_with_bot(
        self,
        info: Info,
        game_id: strawberry.ID,
        seat: int,
        bot: str,
        name: str | None = None,
        idempotency_key: str | None = None,
    ) -> SeatResult:
        context = info.context
        key = check_idempotency_key(idempotency_key)
        plain: dict[str, Any] = {"bot": bot, "name": name}
        try:
            request = seats.FillSeatRequest.model_validate(plain)
        except ValidationError as error:
            return invalid_input(error)
        try:
            taken, replayed = await context.service.seats.fill_with_bot(
                str(game_id), context.credentials(), seat, request, key
            )
        except Problem as problem:
            refused: SeatResult = _rejected_or_raise(problem)
            return refused
        return SeatTaken.of(taken, replayed)

    @strawberry.mutation(
        description="The creator gives an open seat a new invite code, valid ttlSeconds "
        "(default SKYPORT_INVITE_TTL), when the first expired or went to the wrong person; "
        "the earlier code stops working. Refused: seat_taken, seat_not_open, "
        "game_not_waiting. With an idempotencyKey a retry gets the same code while it is "
        "still the seat's invite (invite_replaced once it was claimed or replaced)."
    )
    async def reissue_invite(
        self,
        info: Info,
        game_id: strawberry.ID,
        seat: int,
        ttl_seconds: int | None = None,
        idempotency_key: str | None = None,
    ) -> InviteResult:
        context = info.context
        key = check_idempotency_key(idempotency_key)
        try:
            request = seats.ReissueInviteRequest.model_validate({"ttl_seconds": ttl_seconds})
        except ValidationError as error:
            return invalid_input(error)
        try:
            issued, replayed = await context.service.seats.reissue_invite(
                str(game_id), context.credentials(), seat, request, key
            )
        except Problem as problem:
            refused: InviteResult = _rejected_or_raise(problem)
            return refused
        return InviteIssued.of(issued, replayed)

    @strawberry.mutation(
        description="The creator calls off a game that still waits for players: it is "
        "aborted. Refused (game_not_waiting) once it has started. With an idempotencyKey a "
        "retry gets the first answer."
    )
    async def cancel_game(
        self, info: Info, game_id: strawberry.ID, idempotency_key: str | None = None
    ) -> CancelResult:
        context = info.context
        key = check_idempotency_key(idempotency_key)
        try:
            cancelled, replayed = await context.service.seats.cancel(
                str(game_id), context.credentials(), key
            )
        except Problem as problem:
            refused: CancelResult = _rejected_or_raise(problem)
            return refused
        return GameCancelled.of(cancelled, replayed)

    @strawberry.mutation(
        description="A new token for a seat a person holds (named at creation or claimed), "
        "when its token was lost or leaked: the old one stops working at once, for moves, "
        "reads and subscriptions (one opened with it ends with an invalid_token error). "
        "Asked with the seat's own token or the API key that created the game (others: "
        "errors seat_token_required, invalid_token, not_your_seat, not_the_creator). "
        "Refused: seat_has_no_token (a bot's or an open seat), game_aborted, token_replaced "
        "(results). With an idempotencyKey a retry with the same credentials (a seat's old "
        "token) gets the same new token while it is still the seat's."
    )
    async def replace_seat_token(
        self,
        info: Info,
        game_id: strawberry.ID,
        seat: int,
        idempotency_key: str | None = None,
    ) -> SeatTokenResult:
        context = info.context
        key = check_idempotency_key(idempotency_key)
        try:
            replaced, replayed = await context.service.seat_tokens.replace(
                str(game_id), context.credentials(), seat, key
            )
        except Problem as problem:
            refused: SeatTokenResult = _rejected_or_raise(problem)
            return refused
        return SeatTokenReplaced.of(replaced, replayed)

    @strawberry.mutation(
        description="A player of a finished game (their seat's token) asks to play it again: "
        "the first ask creates the rematch (the same game, options, tags, clock, leave policy "
        "and webhooks, by the same creator, with a new seed and the seats turned by one; bots "
        "keep their seats), and every ask claims the asker's seat under their name. The "
        "rematch waits until the last player has asked. Asking again answers the same seat "
        "and token. Only for games created without an API key. Refused: game_not_finished, "
        "rematch_not_offered (a platform's game, tournament tables included), "
        "invite_expired (results); an API key or a creator token is an error (not_a_player), "
        "as is the creating ask over the hourly quota of games created without an API key "
        "(too_many_games_created)."
    )
    async def rematch(self, info: Info, game_id: strawberry.ID) -> RematchResult:
        context = info.context
        try:
            joined = await context.service.rematches.join(str(game_id), context.credentials())
        except Problem as problem:
            refused: RematchResult = _rejected_or_raise(problem)
            return refused
        return RematchJoined.of(joined)
