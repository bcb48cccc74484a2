"""Replacing a seat's token, when it was lost or leaked.

A seat's token is its bearer secret for the whole game, and the service keeps only its
SHA-256. The seat's own token, or the API key that created the game (a platform giving a
player who lost theirs a new one), asks for a new token: the seat's record gets the new
hash in one compare-and-set on the record's revision (`services.store.seats`), and the
old token stops working at once - for moves, reads and live streams (`GameService`'s
feed ends a stream whose token is no longer its seat's). A game that asked for it sends
`seat.token_replaced` (who did it, not the token), owed from the replacement on.

Allowed while the seat's token guards something: the game waits (the seat was named at
creation or claimed), is played or scored, or has finished (its record is read with a
seat's token for `SKYPORT_RECORD_TTL`). An aborted game (a cancelled one included) has
no moves left and no record: its tokens guard nothing, and it is refused.

With an Idempotency-Key the new token is derived from the key (the caller's and the
key's digest, the seat and when it was issued), so that a retry answers it again while
it is still the seat's token, without the service keeping it.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Awaitable, Callable
from dataclasses import replace

import structlog
from pydantic import BaseModel, Field

from services.store import GameRecord, GameStatus, KeptAnswer
from services.store.seats import SeatTokens, TokenVerdict
from services.store.webhooks_owed import replaced_member

from . import metrics
from .auth import (
    TOKEN_PREFIX,
    Credentials,
    hash_secret,
    holds_creator_token,
    new_token,
    seat_of,
)
from .clocks import now
from .idempotency import Keeping, key_digest, once
from .notifier import WebhookNotifier
from .problems import Problem, conflict, forbidden, not_found, unauthorized
from .seats import check_seat

log = structlog.get_logger(__name__)

REPLACEABLE = (GameStatus.WAITING, GameStatus.ACTIVE, GameStatus.SCORING, GameStatus.FINISHED)
"""The statuses in which a seat's token guards something: moves, or what it reads."""
IN_PLAY = (GameStatus.WAITING, GameStatus.ACTIVE)
"""The statuses in which a game still takes moves."""
ATTEMPTS = 8
"""Replacements tried on a record that changed meanwhile before giving up."""


class SeatTokenReplaced(BaseModel):
    id: str
    game: str
    seat: int
    token: str | None = Field(
        description="The seat's new secret bearer token; the old one no longer works. "
        "Shown only here."
    )
    issued_at: str = Field(description="When the new token was issued.")


def replaced_token(salt: str, key_digest: str, seat: int, issued_at: str) -> str:
    """The token a replacement with an Idempotency-Key gives (`key_digest`: the caller's
    and the key's), so that a retry answers it again. When it was issued is part of it:
    the key used again once it is forgotten gives another token, not one that leaked."""
    message = f"{key_digest}\x00replaced token\x00{seat}\x00{issued_at}".encode()
    digest = hmac.new(bytes.fromhex(salt), message, hashlib.sha256).hexdigest()
    return TOKEN_PREFIX + digest


class TokenDesk:
    """Replaces taken seats' tokens."""

    def __init__(
        self,
        load: Callable[[str], Awaitable[GameRecord]],
        tokens: SeatTokens,
        notifier: WebhookNotifier,
    ) -> None:
        self.load = load
        self.tokens = tokens
        self.notifier = notifier

    async def replace(
        self, game_id: str, who: Credentials, seat: int, idempotency_key: str | None
    ) -> tuple[SeatTokenReplaced, bool]:
        """A new token for `seat`, asked by its own token or by the API key that created
        the game. Returns the answer and whether it is a replay (the same caller and
        Idempotency-Key replaced it before: the retry of a seat sends the old token,
        which the replay needs no more than to name the key's owner)."""

        async def act(keeping: Keeping | None) -> SeatTokenReplaced:
            return await self._replace(game_id, who, seat, keeping)

        asked = {"replace_token": seat}
        answer, replayed = await once(
            self.tokens.store, game_id, who, idempotency_key, asked, act, SeatTokenReplaced
        )
        if not replayed or idempotency_key is None:
            return answer, replayed
        # The kept answer has no token: derived again, and given only while it is the seat's.
        record = await self.load(game_id)
        digest = key_digest(who, idempotency_key)
        token = replaced_token(record.token_salt, digest, seat, answer.issued_at)
        if seat_of(record.seats, hash_secret(token)) != seat:
            raise conflict(
                "token_replaced",
                f"Seat {seat}'s token from this request was replaced since; ask for a new one "
                "with the seat's current token or the API key that created the game.",
            )
        return answer.model_copy(update={"token": token}), True

    async def set_for_tournament(self, game_id: str, seat: int, token: str) -> bool:
        """Give a tournament table's `seat` the token `token` (its participant's token was
        replaced, see `participant_tokens`), as the API key that created the game: False
        if the game is no longer played (its record keeps the token it has)."""
        try:
            await self._swap(game_id, seat, lambda _: "creator", lambda *_: token, None, IN_PLAY)
        except Problem as problem:
            if problem.code in ("game_aborted", "seat_has_no_token"):
                return False
            raise
        return True

    async def _replace(
        self, game_id: str, who: Credentials, seat: int, keeping: Keeping | None
    ) -> SeatTokenReplaced:
        def token_of(record: GameRecord, issued_at: str) -> str:
            if keeping is None:
                return new_token()
            return replaced_token(record.token_salt, keeping.digest, seat, issued_at)

        return await self._swap(
            game_id, seat, lambda record: _check_holder(record, who, seat), token_of, keeping
        )

    async def _swap(
        self,
        game_id: str,
        seat: int,
        holder: Callable[[GameRecord], str],
        token_of: Callable[[GameRecord, str], str],
        keeping: Keeping | None,
        statuses: tuple[GameStatus, ...] = REPLACEABLE,
    ) -> SeatTokenReplaced:
        for _ in range(ATTEMPTS):
            record = await self.load(game_id)
            check_seat(record, seat)
            by = holder(record)
            _check_replaceable(record, seat, statuses)
            issued_at = now()
            token = token_of(record, issued_at)
            answer = SeatTokenReplaced(
                id=record.id, game=record.game, seat=seat, token=None, issued_at=issued_at
            )
            keep = KeptAnswer(keeping.digest, keeping.kept(answer)) if keeping else None
            token_hash = hash_secret(token)
            owed = []
            if self.notifier.due(record, "seat.token_replaced"):
                owed.append(replaced_member(record.id, record.version, seat, by, token_hash))
            outcome = await self.tokens.replace(
                record.id,
                seat,
                replace(record.seats[seat], token_hash=token_hash),
                revision=record.revision,
                statuses=[status.value for status in statuses],
                keep=keep,
                owed=owed,
            )
            if outcome.verdict is TokenVerdict.REPLACED:
                log.info("seat_token_replaced", game_id=game_id, seat=seat, by=by)
                metrics.SEAT_TOKENS_REPLACED.labels(by=by).inc()
                await self.notifier.token_replaced(record, seat, by, token_hash)
                return answer.model_copy(update={"token": token})
            if outcome.verdict is TokenVerdict.MISSING:
                raise not_found(game_id)
            if outcome.verdict is TokenVerdict.CLOSED:
                raise _not_replaceable(GameStatus(outcome.status))
            # STALE: the seats changed since read (another replacement, a seat that left):
            # decided again on the stored record, where an old token is no longer the seat's.
        raise conflict(
            "seat_changed",
            f"Seat {seat} kept changing while its token was being replaced; try again.",
        )


def _check_holder(record: GameRecord, who: Credentials, seat: int) -> str:
    """Who may replace the seat's token: its own token ("seat"), or the API key that
    created the game ("creator"). Answers the codes the seat routes answer others."""
    if who.bearer is None:
        raise unauthorized(
            "seat_token_required",
            "Send the seat's token, or the API key that created the game, to replace its token.",
        )
    if who.platform:
        if who.scope == record.creator:
            return "creator"
        raise forbidden(
            "not_the_creator",
            "That API key did not create this game: only the seat's own token or the API key "
            "that created the game may replace the seat's token.",
        )
    holder = seat_of(record.seats, who.token_hash or "")
    if holder is None and holds_creator_token(record, who):
        # The host of a game with open seats must not be able to take a guest's seat.
        raise forbidden(
            "not_your_seat",
            "A creator token does not replace a player's token: only the seat's own token or "
            "the API key that created the game may.",
        )
    if holder is None:
        raise unauthorized("invalid_token", "That token is not a seat of this game.")
    if holder != seat:
        raise forbidden("not_your_seat", f"Your token is seat {holder}'s, not seat {seat}'s.")
    return "seat"


def _check_replaceable(
    record: GameRecord, seat: int, statuses: tuple[GameStatus, ...] = REPLACEABLE
) -> None:
    taken = record.seats[seat]
    if taken.bot is not None or taken.token_hash is None:
        kind = "bot" if taken.bot is not None else "open"
        why = "a bot plays it" if kind == "bot" else "it is open: no player has claimed it yet"
        raise conflict(
            "seat_has_no_token", f"Seat {seat} has no token to replace: {why}.", seat_kind=kind
        )
    if record.status not in statuses:
        raise _not_replaceable(record.status)


def _not_replaceable(status: GameStatus) -> Problem:
    return conflict(
        "game_aborted",
        f"The game is {status.value}: it has no moves left and no record, so its tokens "
        "guard nothing and are not replaced.",
        status_now=status.value,
    )
