"""Games a lobby join creates when no listed game has a seat (`create: true`): every seat
open and listed, the joiner then claiming seat 0 as any player claims one.

The game is created by the lobby itself (its creator is `lobby_creator(game)`), as a
rematch is by its first game's creator: its id derives from the join's key, so a retried
join names the same game whatever address it comes from, and no one holds a creator
token (the game leaves the lobby when it starts, or when its invites expire). It counts
against the joiner's hourly quota of games created without an API key.

Two players who find nothing at the same instant would each create a game and wait
alone in it. One creation per game and size runs at a time (`GameStore` lock): the
other join waits for it and takes a seat in the game it made.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from services.store import GameStore

from .auth import Credentials, new_token, require_api_key
from .game_ids import created_game_id
from .payloads import CreateGameRequest, SeatRequest

if TYPE_CHECKING:
    from .service import GameService

LOCK_MS = 3_000
"""How long one creation holds the lock at most (a creation takes milliseconds)."""

INVITE_TTL = 15 * 60
"""Seconds a created game's open seats stay in the lobby. Joins are for players there
now: a game whose maker left an hour ago must not seat a newcomer with them (the games
are untimed, so an absent player is never timed out)."""


def lobby_creator(game: str) -> str:
    """The creator of the games lobby joins of `game` create."""
    return f"lobby:{game}"


def created_id(game: str, creation_key: str) -> str:
    """The id of the game a join creates under `creation_key`."""
    return created_game_id(lobby_creator(game), creation_key)


class LobbyTables:
    """Creates listed games for lobby joins, one per game and size at a time."""

    def __init__(self, service: GameService) -> None:
        self.service = service

    @property
    def store(self) -> GameStore:
        return self.service.store

    async def create(self, game: str, players: int, who: Credentials, creation_key: str) -> str:
        """The id of a new listed game of `players` open seats (or of the one this key
        made before), counted against `who`'s quota if it is new."""
        if not self.service.anonymous_create:
            require_api_key(who, "Creating games")
        request = CreateGameRequest(
            game=game,
            seats=[SeatRequest(open=True)] * players,
            lobby=True,
            invite_ttl_seconds=INVITE_TTL,
        )
        game_id = created_id(game, creation_key)
        if not who.platform:
            self.service.set_up(request)  # refused (a seat count the game lacks): not counted
            await self._count(who, game_id)
        maker = Credentials(None, who.client_ip, platform=True, acting_for=lobby_creator(game))
        created, _ = await self.service.create_game(maker, request, creation_key)
        return created.id

    async def _count(self, who: Credentials, game_id: str) -> None:
        """The creation against `who`'s hourly quota, unless a retry made it before."""
        quota = self.service.creation_quota
        if quota is not None and await self.store.version_and_status(game_id) is None:
            await quota.take(who.client_ip)

    async def lock(self, game: str, players: int) -> str | None:
        """A hold on creating `game` games of `players` seats (released by `unlock`), or
        None while another join holds it."""
        holder = new_token()
        taken = await self.store.hold_lobby_creation(game, players, holder, LOCK_MS)
        return holder if taken else None

    async def unlock(self, game: str, players: int, holder: str) -> None:
        await self.store.release_lobby_creation(game, players, holder)
