"""The tokens of a tournament's tables, as the service derives them: a table's game id
and seat tokens come from the tournament's secret, so only the service can work them out
and `/me` hands them to the participant's current token alone."""

from __future__ import annotations

import hmac

from services.store import GameRecord

from .auth import derived_token
from .game_ids import created_game_id
from .tournament_payloads import StoredTournament


def table_key(stored: StoredTournament, round_number: int, table: int) -> str:
    return f"tournament-{stored.secret}-r{round_number}-t{table}"


def table_seat_token(
    record: GameRecord,
    stored: StoredTournament,
    round_number: int,
    table: int,
    seat: int,
    generation: int,
) -> str:
    """A table seat's token as the tournament derives it: as the game was created with
    it (`generation` 0), or as it was set when its participant's token was replaced for
    the `generation`-th time. Only the service can derive it (the tournament's secret and
    the game's salt), and hands it out on `/me` to the participant's current token."""
    key = table_key(stored, round_number, table)
    if generation:
        key = f"{key}-g{generation}"
    return derived_token(record.token_salt, stored.creator, key, seat)


def token_generation(stored: StoredTournament, participant: int) -> int:
    """How many times the participant's token was replaced."""
    generations = stored.token_generations
    return generations[participant] if participant < len(generations) else 0


def seat_generation_key(round_number: int, table: int, participant: int) -> str:
    """The key of `StoredTournament.seat_generations` for a participant's table."""
    return f"r{round_number}t{table}p{participant}"


def table_game_id(stored: StoredTournament, round_number: int, table: int) -> str:
    """The id `create_game` gives the table's game (from the idempotency key)."""
    key = table_key(stored, round_number, table)
    return created_game_id(stored.creator, key)


def participant_of(token_hashes: list[str], token_hash: str) -> int | None:
    found: int | None = None
    for index, stored in enumerate(token_hashes):
        if hmac.compare_digest(stored.encode(), token_hash.encode()):
            found = index
    return found


def owed_key(participant: int, generation: int) -> str:
    """The key of `StoredTournament.tokens_owed` for a replacement."""
    return f"{participant}:{generation}"


def owed_replacement(key: str) -> tuple[int, int]:
    """The participant and generation of a `tokens_owed` key."""
    participant, _, generation = key.partition(":")
    return int(participant), int(generation)
