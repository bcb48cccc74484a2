"""Open seats: claiming one with its invite code, filling one with a bot, giving one a
new invite, cancelling a game that still waits for players, and starting it when its
last open seat is filled.

A game created with open seats is `waiting`: no prompts, no moves, no clocks, no bots.
Each open seat is filled by one Lua script (`services.store.seats`) that checks the
invite and, when it fills the last open seat, makes the game `active` in the same step;
then the clocks' deadline is noted and the first bot turn (if a bot is first) is sent,
as after any commit.
"""

from __future__ import annotations

import hmac
from collections.abc import Awaitable, Callable
from dataclasses import replace

import structlog
from pydantic import BaseModel, Field, StrictInt

from services.ai.bot import levels_for
from services.engine import seats_to_act
from services.store import Clock, ClockRules, GameRecord, GameStatus, KeptAnswer, SeatRecord
from services.store.seats import FillAnswers, FillOutcome, FillVerdict, OpenSeats
from services.store.store import listing_member
from services.store.webhooks_owed import cancelled_member, claimed_member, started_member

from . import metrics
from .auth import Credentials, hash_secret, holds_creator_token, new_token
from .clocks import now, now_ms
from .idempotency import Keeping, fingerprint, key_digest, once
from .invites import (
    MAX_CODE_CHARS,
    code_hash,
    derived_claim_token,
    expiry_of,
    expiry_text,
    new_code,
    reissued_code,
    stored_invite,
)
from .payloads import MAX_INVITE_TTL, MIN_INVITE_TTL, BoundedSeatName, Strict
from .problems import Problem, conflict, forbidden, not_found, unauthorized, unprocessable
from .referee import Referee
from .served import ServedGames

log = structlog.get_logger(__name__)

CANCELLED = "cancelled by its creator"

FILLED = (GameStatus.WAITING, GameStatus.ACTIVE)
"""The game's status after a fill: still waiting, or started by it."""


def claimer(code: str) -> Credentials:
    """Who claims a seat, for its Idempotency-Key: whoever holds the code it sends (a claim
    needs no credentials). Keys are not secrets: scoped by the game alone, a holder of
    another seat's code who used a guest's key first made the guest's claim 422."""
    return Credentials(bearer=f"invite code {code_hash(code)}", client_ip="")


# --- documents -----------------------------------------------------------------------


class ClaimSeatRequest(Strict):
    code: str = Field(
        min_length=1,
        max_length=MAX_CODE_CHARS,
        description="The seat's invite code, as the creator passed it on (case, spaces and "
        "dashes do not matter).",
    )
    name: BoundedSeatName = Field(
        description="Your name, shown to the other players: 1-64 visible characters, stored "
        "in NFC; control, bidi-override and zero-width characters are refused."
    )


class FillSeatRequest(Strict):
    bot: str = Field(
        min_length=1, max_length=64, description="A bot level the game offers (bot_levels)."
    )
    name: BoundedSeatName | None = Field(
        default=None, description="The seat's name; default 'Bot (<level>)'."
    )


class ReissueInviteRequest(Strict):
    ttl_seconds: StrictInt | None = Field(
        default=None,
        ge=MIN_INVITE_TTL,
        le=MAX_INVITE_TTL,
        description="How long the new code is valid, in seconds (60 to 604800); default "
        "SKYPORT_INVITE_TTL.",
    )


class InviteIssued(BaseModel):
    id: str
    game: str
    seat: int
    invite_code: str | None = Field(
        description="The open seat's new invite code: single use, until invite_expires_at. "
        "The seat's earlier code no longer works. Shown only here."
    )
    invite_expires_at: str


class SeatTaken(BaseModel):
    id: str
    game: str
    seat: int
    name: str
    bot: str | None = Field(description="The bot level, for a seat the creator filled.")
    token: str | None = Field(
        description="The seat's secret bearer token (a claimed seat). Shown only here."
    )
    status: GameStatus = Field(
        description="waiting while other seats are open; active once this filled the last."
    )


class GameCancelled(BaseModel):
    id: str
    game: str
    status: GameStatus
    reason: str


# --- the desk ------------------------------------------------------------------------


class SeatDesk:
    """Claims, bot fills and cancellations of games with open seats."""

    def __init__(
        self,
        load: Callable[[str], Awaitable[GameRecord]],
        served: ServedGames,
        referee: Referee,
        open_seats: OpenSeats,
        invite_ttl: int,
    ) -> None:
        self.load = load
        self.served = served
        self.referee = referee
        self.open_seats = open_seats
        self.invite_ttl = invite_ttl
        """Seconds a reissued invite is valid unless the creator asks otherwise."""

    async def claim(
        self, game_id: str, seat: int, request: ClaimSeatRequest, idempotency_key: str | None
    ) -> tuple[SeatTaken, bool]:
        """The seat's token for whoever sends its invite code first. Returns the answer and
        whether it is a replay (the same Idempotency-Key claimed it before).

        Keys are not secrets: a replay is honoured only for the same claim (the seat, the
        code and the name), like any other key's; another request under the key is
        refused. The service keeps the answer without its token: the token is derived
        from the key and the claim, so a replay is given it again only with the code."""
        if idempotency_key is None:
            return await self._claim(game_id, seat, request, new_token(), None), False
        asked = claim_asked(seat, request)

        async def claim(keeping: Keeping | None) -> SeatTaken:
            record = await self.load(game_id)
            token = claim_token(record, seat, request, idempotency_key)
            return await self._claim(game_id, seat, request, token, keeping, record)

        taken, replayed = await once(
            self.referee.store,
            game_id,
            claimer(request.code),
            idempotency_key,
            asked,
            claim,
            SeatTaken,
        )
        if not replayed:
            return taken, False
        # The kept answer has no token: the claim it answered gives it again.
        record = await self.load(game_id)
        token = claim_token(record, seat, request, idempotency_key)
        mine = record.seats[seat].token_hash or ""
        if not hmac.compare_digest(mine, hash_secret(token)):
            raise _seat_taken(seat)
        return taken.model_copy(update={"token": token}), True

    async def _claim(
        self,
        game_id: str,
        seat: int,
        request: ClaimSeatRequest,
        token: str,
        keeping: Keeping | None,
        record: GameRecord | None = None,
    ) -> SeatTaken:
        if record is None:
            record = await self.load(game_id)
        check_seat(record, seat)
        taken_by = SeatRecord(request.name, None, hash_secret(token))
        keep = None
        if keeping is not None:
            # Kept without the token: the service keeps no secret of a seat but its hash.
            kept = {status: _taken(record, seat, taken_by, None, status) for status in FILLED}
            waiting, started = (keeping.kept(kept[status]) for status in FILLED)
            keep = FillAnswers(keeping.digest, if_waiting=waiting, if_started=started)
        outcome = await self._fill(record, seat, taken_by, code_hash(request.code), keep)
        _check_outcome(outcome, game_id, seat)
        await self._after_fill(record, seat, taken_by, outcome)
        return _taken(record, seat, taken_by, token, GameStatus(outcome.status))

    async def fill_with_bot(
        self,
        game_id: str,
        who: Credentials,
        seat: int,
        request: FillSeatRequest,
        idempotency_key: str | None,
    ) -> tuple[SeatTaken, bool]:
        """The creator gives an open seat to a bot of a level the game offers. Returns the
        answer and whether it is a replay (the same Idempotency-Key filled it before)."""
        asked = {"fill": seat, **request.model_dump(mode="json")}

        async def fill(keeping: Keeping | None) -> SeatTaken:
            return await self._fill_with_bot(game_id, who, seat, request.bot, request.name, keeping)

        return await once(self.referee.store, game_id, who, idempotency_key, asked, fill, SeatTaken)

    async def _fill_with_bot(
        self,
        game_id: str,
        who: Credentials,
        seat: int,
        level: str,
        name: str | None,
        keeping: Keeping | None,
    ) -> SeatTaken:
        record = await self.load(game_id)
        check_seat(record, seat)
        _check_creator(record, who)
        levels = levels_for(self.served.of(record))
        if level not in levels:
            raise unprocessable(
                "unknown_bot_level",
                f"{self.served.of(record).title} has no bot level {level!r}; known: "
                f"{', '.join(levels)}.",
                known=levels,
            )
        taken_by = SeatRecord(name or f"Bot ({level})", level, None)
        answers = {status: _taken(record, seat, taken_by, None, status) for status in FILLED}
        keep = None
        if keeping is not None:
            waiting, started = (keeping.kept(answers[status]) for status in FILLED)
            keep = FillAnswers(keeping.digest, if_waiting=waiting, if_started=started)
        outcome = await self._fill(record, seat, taken_by, None, keep)
        _check_outcome(outcome, game_id, seat)
        await self._after_fill(record, seat, taken_by, outcome)
        return answers[GameStatus(outcome.status)]

    async def reissue_invite(
        self,
        game_id: str,
        who: Credentials,
        seat: int,
        request: ReissueInviteRequest,
        idempotency_key: str | None,
    ) -> tuple[InviteIssued, bool]:
        """The creator gives an open seat a new invite code (the first one expired, or went
        to the wrong person): the earlier code stops working. Returns the answer and
        whether it is a replay. With an Idempotency-Key the code is derived from the key
        (the service keeps only its hash), so a replay answers it again while it is still
        the seat's invite."""
        asked = {"reissue": seat, **request.model_dump(mode="json")}

        async def reissue(keeping: Keeping | None) -> InviteIssued:
            return await self._reissue(game_id, who, seat, request, keeping)

        issued, replayed = await once(
            self.referee.store, game_id, who, idempotency_key, asked, reissue, InviteIssued
        )
        if not replayed or idempotency_key is None:
            return issued, replayed
        record = await self.load(game_id)
        invite = record.invites.get(seat)
        digest = key_digest(who, idempotency_key)
        code = reissued_code(record.token_salt, digest, seat, expiry_of(invite)) if invite else ""
        if invite is None or invite.partition(":")[2] != code_hash(code):
            raise conflict(
                "invite_replaced",
                f"Seat {seat}'s invite from this request was claimed or replaced since.",
            )
        return issued.model_copy(update={"invite_code": code}), True

    async def _reissue(
        self,
        game_id: str,
        who: Credentials,
        seat: int,
        request: ReissueInviteRequest,
        keeping: Keeping | None,
    ) -> InviteIssued:
        record = await self.load(game_id)
        check_seat(record, seat)
        _check_creator(record, who)
        expires_ms = now_ms() + (request.ttl_seconds or self.invite_ttl) * 1000
        if keeping is None:
            code = new_code()
        else:
            code = reissued_code(record.token_salt, keeping.digest, seat, expires_ms)
        invite = stored_invite(code, expires_ms)
        answer = InviteIssued(
            id=record.id,
            game=record.game,
            seat=seat,
            invite_code=None,  # kept without the code: the service keeps only its hash
            invite_expires_at=expiry_text(invite) or "",
        )
        keep = KeptAnswer(keeping.digest, keeping.kept(answer)) if keeping else None
        outcome = await self.open_seats.reissue(
            record.id, seat, invite, updated_at=now(), keep=keep
        )
        _check_outcome(outcome, game_id, seat)
        log.info("invite_reissued", game_id=game_id, seat=seat)
        return answer.model_copy(update={"invite_code": code})

    async def cancel(
        self, game_id: str, who: Credentials, idempotency_key: str | None
    ) -> tuple[GameCancelled, bool]:
        """The creator calls off a game that still waits for players: it is aborted.
        Returns the answer and whether it is a replay (the same Idempotency-Key cancelled
        it before)."""

        async def cancel(keeping: Keeping | None) -> GameCancelled:
            return await self._cancel(game_id, who, keeping)

        asked = {"cancel": game_id}
        return await once(
            self.referee.store, game_id, who, idempotency_key, asked, cancel, GameCancelled
        )

    async def _cancel(
        self, game_id: str, who: Credentials, keeping: Keeping | None
    ) -> GameCancelled:
        record = await self.load(game_id)
        _check_creator(record, who)
        answer = GameCancelled(
            id=record.id, game=record.game, status=GameStatus.ABORTED, reason=CANCELLED
        )
        keep = KeptAnswer(keeping.digest, keeping.kept(answer)) if keeping else None
        notifier = self.referee.notifier
        owed = cancelled_member(record.id, record.version, CANCELLED)
        if record.status is not GameStatus.WAITING or not await self.referee.store.transition(
            record.id,
            record.version,
            [GameStatus.WAITING],
            GameStatus.ABORTED,
            now(),
            {"abort_reason": CANCELLED},
            keep,
            owed=owed if notifier.due(record, "game.cancelled") else None,
        ):
            current = await self.load(game_id)
            raise _not_waiting(current.status)
        metrics.GAMES_FINISHED.labels(game=record.game, how="cancelled").inc()
        log.info("game_cancelled", game_id=game_id)
        await self._unlisted(record)
        # An aborted game changes no more: what its webhook reads is the record as read.
        aborted = replace(record, status=GameStatus.ABORTED, abort_reason=CANCELLED)
        await notifier.cancelled(aborted, CANCELLED)
        return answer

    # --- filling -------------------------------------------------------------------------

    async def _fill(
        self,
        record: GameRecord,
        seat: int,
        taken_by: SeatRecord,
        code: str | None,
        keep: FillAnswers | None = None,
    ) -> FillOutcome:
        # Whether this fill starts the game only the script knows: what the start would
        # be goes with it. The state is the first one: nothing moves while it waits.
        game = self.served.of(record)
        turn = seats_to_act(game.prompts(game.load_state(record.state)))
        return await self.open_seats.fill(
            record.id,
            seat,
            taken_by,
            code_hash=code,
            now_ms=now_ms(),
            players=record.players,
            updated_at=now(),
            clock_if_started=_clock_at_start(record, seat, taken_by, turn),
            turn_if_started=turn,
            keep=keep,
            # Any fill may be the one that starts the game, and a bot may be first: two
            # fills of the last two seats at once each read the other's seat open, and only
            # the script knows. A note of a game still waiting is dropped by the sweep.
            work_due=True,
            owed=self._owed(record, seat, taken_by),
        )

    def _owed(self, record: GameRecord, seat: int, taken_by: SeatRecord) -> list[str]:
        """The notes of the webhooks a fill of `seat` owes should it land, noted with it
        (`services.store.webhooks_owed`), for those the game asked for: its
        game.seat_claimed; and game.started from every fill, not only from the one that
        fills the last seat as read, since two fills of the last two seats at once each
        read the other's seat as open and only the script knows which one starts it. A
        fill that does not start the game leaves that note to the one that does, or to
        the sweep, which drops it while the game waits."""
        if record.status is not GameStatus.WAITING:
            return []  # the fill will not land: nothing moves or fills once it started
        notifier = self.referee.notifier
        owed = []
        if notifier.due(record, "game.seat_claimed"):
            owed.append(claimed_member(record.id, record.version, seat, taken_by))
        if notifier.due(record, "game.started"):
            owed.append(started_member(record.id, record.version))
        return owed

    async def _after_fill(
        self, record: GameRecord, seat: int, taken_by: SeatRecord, outcome: FillOutcome
    ) -> None:
        """After a fill that landed: webhooks, and the start of the game if it started."""
        log.info("seat_filled", game_id=record.id, seat=seat, bot=taken_by.bot)
        filled = await self.load(record.id)
        # The fill's webhooks are of the version it was made at (nothing moves while a
        # game waits), as the sweep sends them, whatever landed since it was read.
        at_fill = replace(filled, version=record.version)
        await self.referee.notifier.seat_claimed(at_fill, seat, taken_by)
        if outcome.verdict is FillVerdict.STARTED:
            await self._started(filled, at_fill)

    async def _started(self, record: GameRecord, at_start: GameRecord) -> None:
        """The last open seat was filled: the clocks run and a bot moves if it is first.
        `at_start`: the record at the version the game started at."""
        log.info("game_started", game_id=record.id)
        await self._unlisted(record)
        await self.referee.notifier.started(at_start)
        await self.referee.deadlines.note(record)
        await self.referee.dispatcher.after_commit(record.id, record.version)

    async def _unlisted(self, record: GameRecord) -> None:
        """Out of the lobby, once it no longer waits (the lobby would pass over it, and
        take it out, at its next look too)."""
        if record.lobby:
            await self.referee.store.unlist(record.game, [listing_member(record)])


def claim_asked(seat: int, request: ClaimSeatRequest) -> dict[str, object]:
    """What a claim asks, for its Idempotency-Key: the seat, the code and the name."""
    return {"claim": seat, "code": code_hash(request.code), "name": request.name}


def claim_token(
    record: GameRecord, seat: int, request: ClaimSeatRequest, idempotency_key: str
) -> str:
    """The token a claim with an Idempotency-Key gives (the same for its retries)."""
    request_print = fingerprint(claim_asked(seat, request))
    return derived_claim_token(record.token_salt, idempotency_key, seat, request_print)


def _clock_at_start(record: GameRecord, seat: int, taken_by: SeatRecord, running: list[int]) -> str:
    """The clocks should this fill start the game: the first prompted seats run. (A seat
    filled at the same moment by a bot counts as human here: its bank is unused.)"""
    if record.clock_rules is None:
        return ""
    seats = [taken_by if index == seat else s for index, s in enumerate(record.seats)]
    humans = [s.bot is None for s in seats]
    rules = ClockRules.from_dict(record.clock_rules)
    return Clock.start(rules, humans, running, now_ms()).to_json()


def _taken(
    record: GameRecord, seat: int, taken: SeatRecord, token: str | None, status: GameStatus
) -> SeatTaken:
    return SeatTaken(
        id=record.id,
        game=record.game,
        seat=seat,
        name=taken.name,
        bot=taken.bot,
        token=token,
        status=status,
    )


def check_seat(record: GameRecord, seat: int) -> None:
    """404 seat_not_found for a seat number the game does not have."""
    if not 0 <= seat < record.players:
        raise Problem(404, "seat_not_found", f"The game has seats 0 to {record.players - 1}.")


def _check_creator(record: GameRecord, who: Credentials) -> None:
    """The creator: the API key that created the game, or the creator token it got."""
    if who.bearer is None:
        raise unauthorized(
            "creator_token_required",
            "Send the game's creator token (from its creation) or the API key that created it.",
        )
    if who.platform and who.scope == record.creator:
        return
    if holds_creator_token(record, who):
        return
    raise forbidden(
        "not_the_creator",
        "Only the game's creator may do this: its creator token, or the API key that created it.",
    )


def _check_outcome(outcome: FillOutcome, game_id: str, seat: int) -> None:
    verdict = outcome.verdict
    if verdict in (FillVerdict.FILLED, FillVerdict.STARTED, FillVerdict.REISSUED):
        return
    if verdict is FillVerdict.MISSING:
        raise not_found(game_id)
    if verdict is FillVerdict.NOT_OPEN:
        raise conflict("seat_not_open", f"Seat {seat} was not created open: it has no invite.")
    if verdict is FillVerdict.TAKEN:
        raise _seat_taken(seat)
    if verdict is FillVerdict.CLOSED:
        raise _not_waiting(GameStatus(outcome.status))
    if verdict is FillVerdict.WRONG_CODE:
        raise forbidden("wrong_invite_code", f"That is not seat {seat}'s invite code.")
    raise Problem(
        410,
        "invite_expired",
        f"Seat {seat}'s invite code has expired; ask the game's creator for a new one.",
        refusal=True,
    )


def _seat_taken(seat: int) -> Problem:
    return conflict("seat_taken", f"Seat {seat} was claimed already; its invite is used up.")


def _not_waiting(status: GameStatus) -> Problem:
    return conflict(
        "game_not_waiting",
        f"The game is {status.value}: it no longer waits for players.",
        status_now=status.value,
    )
