"""Replacing a tournament participant's token, when it was lost or leaked.

A participant's token reads `/me`: the seat token of their table in each round. Replacing
it (asked by the participant's own token or the API key that created the tournament)
swaps its hash in the stored tournament by compare-and-set, so the old token reads
nothing more; and the seat token of each of their tables still in play is replaced too,
with one that only `/me` derives (from the participant's count of replacements,
`token_generations`), so a leaked participant token also loses the game being played.
The same swap notes that generation against each of those tables (`seat_generations`),
so `/me` still finds a table's token after it ended and later replacements followed.
Tables made later get seat tokens nobody outside the service can work out, handed out
on `/me` to the current token alone (`/me` checks the caller is still the holder after
reading the tables). Finished tables keep their seat tokens, which read those games'
records. The swap also notes the replacement as owed (`tokens_owed`): the seats are set
and the platform told (`tournament.participant_token_replaced`) right after, or by the
tournament's next step if this process died first.

With an Idempotency-Key the new token is derived from the caller's and the key's digest
and the count of replacements, and the replacement is kept with the tournament (the
last `ROTATIONS_KEPT`), so a retry - sent with the old token, which names the key's
owner - answers the same token while it is still the participant's.
"""

from __future__ import annotations

import hashlib

import structlog

from . import metrics
from .auth import Credentials, derived_token, hash_secret, new_token
from .clocks import now
from .idempotency import fingerprint, key_digest
from .problems import Problem, conflict, forbidden, idempotency_key_reused, unauthorized
from .tournament_payloads import ParticipantTokenReplaced, StoredTournament, TokenRotation
from .tournament_runner import TournamentRunner
from .tournament_tokens import (
    owed_key,
    participant_of,
    seat_generation_key,
    token_generation,
)

log = structlog.get_logger(__name__)

ROTATIONS_KEPT = 32
SEAT_GENERATIONS_KEPT = 16
"""Generations kept per table seat: a seat ends with one of the last few set on it (an
older one only if that many replacements all failed to set theirs), and the stored
tournament stays bounded however often a token is replaced."""
ATTEMPTS = 8


def participant_tokens(runner: TournamentRunner) -> ParticipantTokenDesk:
    return ParticipantTokenDesk(runner)


class ParticipantTokenDesk:
    """Replaces tournament participants' tokens."""

    def __init__(self, runner: TournamentRunner) -> None:
        self.runner = runner

    async def replace(
        self, tournament_id: str, who: Credentials, participant: int, idempotency_key: str | None
    ) -> tuple[ParticipantTokenReplaced, bool]:
        """A new token for `participant`; returns the answer and whether it is a replay."""
        digest = key_digest(who, idempotency_key) if idempotency_key and who.bearer else None
        asked = fingerprint({"replace_participant_token": participant})
        for _ in range(ATTEMPTS):
            stored, version = await self.runner.stored(tournament_id)
            _check_participant(stored, participant)
            kept = stored.token_rotations.get(digest) if digest else None
            if kept is not None and digest is not None:
                answer = _replayed(stored, kept, digest, asked)
                # The first may have failed before its tables' tokens were all set.
                await self._settle(tournament_id)
                return answer, True
            by = _check_holder(stored, who, participant)
            generation = token_generation(stored, participant) + 1
            issued_at = now()
            token = _rotated(stored, digest, participant, generation) if digest else new_token()
            update = _swapped(stored, participant, hash_secret(token), generation)
            update["tokens_owed"] = {**stored.tokens_owed, owed_key(participant, generation): by}
            if digest is not None:
                rotation = TokenRotation(
                    participant=participant,
                    generation=generation,
                    issued_at=issued_at,
                    request_print=asked,
                )
                update["token_rotations"] = _kept(stored.token_rotations, digest, rotation)
            if stored.finish_announced:
                # A finished tournament is no longer swept: due again, so that what this
                # replacement owes is finished even if this process dies.
                await self.runner.running.stepped(tournament_id, 0)
            if await self.runner.changed(stored, version, **update):
                log.info(
                    "participant_token_replaced",
                    tournament_id=tournament_id,
                    participant=participant,
                    by=by,
                )
                metrics.PARTICIPANT_TOKENS_REPLACED.labels(by=by).inc()
                await self._settle(tournament_id)
                answer = ParticipantTokenReplaced(
                    id=stored.id, participant=participant, token=token, issued_at=issued_at
                )
                return answer, False
        raise conflict(
            "tournament_changed",
            "The tournament kept changing while the token was being replaced; try again.",
        )

    async def _settle(self, tournament_id: str) -> None:
        """Set the seats and tell the platform now. A failure is the tournament's next
        step's to finish (the replacement is owed): the caller still gets the new token,
        which the swap made the only one."""
        try:
            await self.runner.settle_tokens(tournament_id)
        except Exception as error:
            log.error("participant_tokens_unsettled", tournament_id=tournament_id, exc_info=error)


def _check_participant(stored: StoredTournament, participant: int) -> None:
    count = len(stored.tournament.spec.participants)
    if participant >= count:
        raise Problem(
            404,
            "participant_not_found",
            f"This tournament has participants 0 to {count - 1}, not {participant}.",
        )


def _check_holder(stored: StoredTournament, who: Credentials, participant: int) -> str:
    """Who may: the participant's own token ("participant"), or the API key that created
    the tournament ("creator")."""
    if who.bearer is None or who.token_hash is None:
        raise unauthorized(
            "participant_token_required",
            "Send the participant's token, or the API key that created the tournament.",
        )
    if who.platform:
        if who.scope == stored.creator:
            return "creator"
        raise forbidden(
            "not_the_creator",
            "That API key did not create this tournament: only the participant's own token "
            "or the API key that created it may replace the participant's token.",
        )
    holder = participant_of(stored.token_hashes, who.token_hash)
    if holder is None:
        raise unauthorized("invalid_token", "That token is not a participant of this event.")
    if holder != participant:
        raise forbidden(
            "not_your_participant",
            f"Your token is participant {holder}'s, not participant {participant}'s.",
        )
    return "participant"


def _swapped(
    stored: StoredTournament, participant: int, token_hash: str, generation: int
) -> dict[str, object]:
    hashes = list(stored.token_hashes)
    hashes[participant] = token_hash
    count = len(stored.tournament.spec.participants)
    generations = [token_generation(stored, index) for index in range(count)]
    generations[participant] = generation
    if stored.tournament.spec.participants[participant].bot is not None:
        return {"token_hashes": hashes, "token_generations": generations}
    seats = dict(stored.seat_generations)
    for round_ in stored.tournament.rounds:
        for table in round_.tables:
            if participant in table.seats and not table.done:
                key = seat_generation_key(round_.number, table.number, participant)
                seats[key] = [*seats.get(key, []), generation][-SEAT_GENERATIONS_KEPT:]
    return {"token_hashes": hashes, "token_generations": generations, "seat_generations": seats}


def _kept(
    rotations: dict[str, TokenRotation], digest: str, rotation: TokenRotation
) -> dict[str, TokenRotation]:
    """The rotations kept with this one, the oldest dropped past `ROTATIONS_KEPT`."""
    kept = {**rotations, digest: rotation}
    newest = sorted(kept.items(), key=lambda item: item[1].issued_at)[-ROTATIONS_KEPT:]
    return dict(newest)


def _rotated(stored: StoredTournament, digest: str, participant: int, generation: int) -> str:
    """The token a replacement with an Idempotency-Key gives, derivable again for a retry
    from what the tournament keeps and the key's digest, and by nobody without both."""
    salt = stored.token_salt or hashlib.sha256(stored.secret.encode()).hexdigest()
    return derived_token(salt, digest, f"participant-token-g{generation}", participant)


def _replayed(
    stored: StoredTournament, kept: TokenRotation, digest: str, asked: str
) -> ParticipantTokenReplaced:
    if kept.request_print != asked:
        raise idempotency_key_reused()
    token = _rotated(stored, digest, kept.participant, kept.generation)
    current = participant_of(stored.token_hashes, hash_secret(token))
    if current != kept.participant:
        raise conflict(
            "token_replaced",
            f"Participant {kept.participant}'s token from this request was replaced since; "
            "ask for a new one with the current token or the API key that created the "
            "tournament.",
        )
    return ParticipantTokenReplaced(
        id=stored.id, participant=kept.participant, token=token, issued_at=kept.issued_at
    )
