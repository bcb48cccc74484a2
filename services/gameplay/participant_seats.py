"""A participant's seats at their tournament tables, given the seat tokens of their
current token generation after a replacement (see `participant_tokens`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import structlog

from services.store import GameStore

from .auth import hash_secret
from .seat_tokens import TokenDesk
from .tournament_payloads import StoredTournament
from .tournament_tokens import (
    seat_generation_key,
    table_game_id,
    table_seat_token,
    token_generation,
)

log = structlog.get_logger(__name__)

ATTEMPTS = 8


class ParticipantSeats:
    """Sets a participant's table seat tokens to the ones `/me` derives for them now."""

    def __init__(
        self,
        load: Callable[[str], Awaitable[tuple[StoredTournament, int]]],
        games: GameStore,
        seats: TokenDesk,
    ) -> None:
        self.load = load
        self.games = games
        self.seats = seats

    async def settle(self, tournament_id: str, participant: int) -> None:
        """The participant's seat at each table that was in play at a replacement gets
        the token of their current generation, set again until the generation stays
        the same: a replacement running at the same time may have set an older one
        after this one's."""
        set_for: int | None = None
        for _ in range(ATTEMPTS):
            stored, _ = await self.load(tournament_id)
            generation = token_generation(stored, participant)
            if generation == set_for:
                return
            await self._set(stored, participant, generation)
            set_for = generation
        log.warning(
            "participant_seat_tokens_unsettled",
            tournament_id=tournament_id,
            participant=participant,
        )

    async def _set(self, stored: StoredTournament, participant: int, generation: int) -> None:
        """A table that ends meanwhile keeps its token (nothing to play); a table made
        after the replacement keeps the one it was made with, which only `/me` hands out,
        to the current token; a bot participant's seats have none."""
        if stored.tournament.spec.participants[participant].bot is not None:
            return
        for round_ in stored.tournament.rounds:
            for table in round_.tables:
                key = seat_generation_key(round_.number, table.number, participant)
                if table.done or generation not in stored.seat_generations.get(key, []):
                    continue
                game_id = table_game_id(stored, round_.number, table.number)
                record = await self.games.load(game_id)
                if record is None:
                    continue
                seat = table.seats.index(participant)
                token = table_seat_token(
                    record, stored, round_.number, table.number, seat, generation
                )
                if record.seats[seat].token_hash != hash_secret(token):
                    await self.seats.set_for_tournament(game_id, seat, token)
