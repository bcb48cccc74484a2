"""REST: open seats - claiming one with its invite code, the creator filling one with a
bot or giving it a new invite, and the creator cancelling a game that still waits for
players; a taken seat's token replaced (lost or leaked); and a player's seat in a
finished game's rematch."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from services.gameplay.rematches import RematchFound, RematchJoined
from services.gameplay.seat_tokens import SeatTokenReplaced
from services.gameplay.seats import (
    ClaimSeatRequest,
    FillSeatRequest,
    GameCancelled,
    InviteIssued,
    ReissueInviteRequest,
    SeatTaken,
)

from .inputs import credentials, idempotency_key, json_response, replay_headers, service
from .operations import BEARER, json_answer, operation
from .params import IDEMPOTENCY_KEY, GamePath, GameSeatPath


@operation(
    "POST",
    "/v1/games/{game_id}/seats/{seat}/claim",
    summary="Claim an open seat with its invite code and your name; returns the seat's "
    "token, once. The code is single use: of many claims at once exactly one gets the "
    "seat. The last claim starts the game. 403 wrong_invite_code, 409 seat_taken "
    "(claimed already), seat_not_open or game_not_waiting (cancelled), 410 "
    "invite_expired (the creator can issue a new code). With an Idempotency-Key a retry "
    "of the same claim (seat, code and name) gets its token again; another claim with "
    "that code under the key is 422 idempotency_key_reused (the key is the code "
    "holder's: with another code it is another key).",
    tag="seats",
    headers=(IDEMPOTENCY_KEY,),
    answers=(json_answer(200, SeatTaken, "Claimed: the seat's token"),),
    problems=(403, 409, 410),
)
async def claim_seat(request: Request, path: GameSeatPath, body: ClaimSeatRequest) -> Response:
    key = idempotency_key(request)
    taken, replayed = await service(request).seats.claim(path.game_id, path.seat, body, key)
    return json_response(taken, headers=replay_headers(replayed))


@operation(
    "POST",
    "/v1/games/{game_id}/seats/{seat}/bot",
    summary="The creator (its creator token, or the API key that created the game) gives "
    "an open seat to a bot of a level the game offers (422 unknown_bot_level otherwise). "
    "Filling the last open seat starts the game. With an Idempotency-Key a retry gets the "
    "first answer.",
    tag="seats",
    security=BEARER,
    headers=(IDEMPOTENCY_KEY,),
    answers=(json_answer(200, SeatTaken, "Filled"),),
    problems=(401, 403, 409),
)
async def fill_seat(request: Request, path: GameSeatPath, body: FillSeatRequest) -> Response:
    key = idempotency_key(request)
    taken, replayed = await service(request).seats.fill_with_bot(
        path.game_id, credentials(request), path.seat, body, key
    )
    return json_response(taken, headers=replay_headers(replayed))


@operation(
    "POST",
    "/v1/games/{game_id}/seats/{seat}/invite",
    summary="The creator gives an open seat a new invite code, valid ttl_seconds (default "
    "SKYPORT_INVITE_TTL): when the first one expired or went to the wrong person. The "
    "earlier code stops working. 409 seat_taken, seat_not_open or game_not_waiting. With "
    "an Idempotency-Key a retry gets the same code while it is still the seat's invite "
    "(409 invite_replaced once it was claimed or replaced).",
    tag="seats",
    security=BEARER,
    headers=(IDEMPOTENCY_KEY,),
    answers=(json_answer(200, InviteIssued, "The new code, shown only here"),),
    problems=(401, 403, 409),
    body_required=False,
)
async def reissue_invite(
    request: Request, path: GameSeatPath, body: ReissueInviteRequest
) -> Response:
    key = idempotency_key(request)
    issued, replayed = await service(request).seats.reissue_invite(
        path.game_id, credentials(request), path.seat, body, key
    )
    return json_response(issued, headers=replay_headers(replayed))


@operation(
    "POST",
    "/v1/games/{game_id}/cancel",
    summary="The creator calls off a game that still waits for players (status waiting): "
    "it is aborted, and game.cancelled is sent. 409 game_not_waiting once it has started. "
    "With an Idempotency-Key a retry gets the first answer.",
    tag="games",
    security=BEARER,
    headers=(IDEMPOTENCY_KEY,),
    answers=(json_answer(200, GameCancelled, "Cancelled"),),
    problems=(401, 403, 409),
)
async def cancel_game(request: Request, path: GamePath) -> Response:
    key = idempotency_key(request)
    cancelled, replayed = await service(request).seats.cancel(
        path.game_id, credentials(request), key
    )
    return json_response(cancelled, headers=replay_headers(replayed))


@operation(
    "POST",
    "/v1/games/{game_id}/seats/{seat}/token",
    summary="A new token for a seat a person holds (named at creation or claimed), when its "
    "token was lost or leaked: the old token stops working at once, for moves, reads and "
    "live streams (a stream opened with it ends). Asked with the seat's own token, or the "
    "API key that created the game. While the game waits, is played or has finished; 409 "
    "seat_has_no_token (a bot's or an open seat), game_aborted. With an Idempotency-Key a "
    "retry (with the same credentials: a seat's old token) gets the same new token while "
    "it is still the seat's (409 token_replaced once it was replaced again).",
    tag="seats",
    security=BEARER,
    headers=(IDEMPOTENCY_KEY,),
    answers=(json_answer(200, SeatTokenReplaced, "The new token, shown only here"),),
    problems=(401, 403, 409),
)
async def replace_seat_token(request: Request, path: GameSeatPath) -> Response:
    key = idempotency_key(request)
    replaced, replayed = await service(request).seat_tokens.replace(
        path.game_id, credentials(request), path.seat, key
    )
    return json_response(replaced, headers=replay_headers(replayed))


@operation(
    "POST",
    "/v1/games/{game_id}/rematch",
    summary="A player of a finished game (their seat's token) asks to play it again: "
    "the first ask creates the rematch (the same game, options, tags, clock, leave policy "
    "and webhooks, by the same creator, with a new seed and the seats turned by one, so "
    "that the first game's seat 1 sits first; bots keep their seats), and every ask "
    "claims the asker's seat under their name and returns its token. The rematch waits "
    "until the last player has asked, as a game with open seats does (the creator may "
    "fill a seat with a bot or cancel it). Asking again answers the same seat and token. "
    "The ask that creates it counts as a game created without an API key from its "
    "address (429 too_many_games_created). Only for games created without an API key: "
    "a platform's games (tournament tables included) are 409 rematch_not_offered. 409 "
    "game_not_finished; 403 not_a_player (an API key or a creator token); 410 "
    "invite_expired once the rematch's invites have expired (SKYPORT_INVITE_TTL).",
    tag="seats",
    security=BEARER,
    answers=(json_answer(200, RematchJoined, "Your seat in the rematch: its token"),),
    problems=(401, 403, 409, 410),
)
async def rematch(request: Request, path: GamePath) -> Response:
    joined = await service(request).rematches.join(path.game_id, credentials(request))
    return json_response(joined)


@operation(
    "GET",
    "/v1/games/{game_id}/rematch",
    summary="The rematch of a finished game as anyone may see it: its id, status and seats "
    "(open until their player asks), so that a player sees that another is waiting before "
    "joining with POST; rematch null until a player has asked. 409 game_not_finished, "
    "rematch_not_offered as for POST.",
    tag="seats",
    answers=(json_answer(200, RematchFound, "The rematch, or null"),),
    problems=(409,),
)
async def find_rematch(request: Request, path: GamePath) -> Response:
    return json_response(await service(request).rematches.find(path.game_id))


operations = [
    claim_seat,
    fill_seat,
    reissue_invite,
    cancel_game,
    replace_seat_token,
    rematch,
    find_rematch,
]
