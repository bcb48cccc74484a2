"""Redis key names.

Every key of one game carries the game id as a Redis Cluster hash tag (`{id}`), so all
of them live in one slot and one Lua script may touch them together. Keys that span
games (the listing indexes, rate-limit counters) are only ever used one at a time.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GameKeys:
    prefix: str
    game_id: str

    @property
    def tag(self) -> str:
        return f"{self.prefix}:{{{self.game_id}}}"

    @property
    def record(self) -> str:
        """Hash: snapshot, version, status, seats and metadata."""
        return f"{self.tag}:game"

    @property
    def log(self) -> str:
        """Stream: one entry per committed version, entry id `<version>-0`."""
        return f"{self.tag}:log"

    @property
    def archived(self) -> str:
        """Hash: a finished game's record, kept longer than the game (`gameplay.archive`)."""
        return f"{self.tag}:record"

    def idempotency(self, digest: str) -> str:
        """String: the first answer to a mutating request with an Idempotency-Key."""
        return f"{self.tag}:idem:{digest}"

    @property
    def no_idempotency(self) -> str:
        """A key in the game's slot that is never written, for scripts called without one."""
        return f"{self.tag}:idem:-"

    def answer(self, digest: str | None) -> str:
        """Where a script keeps the answer to the request with this key digest (None: the
        request had no key, and nothing is kept)."""
        return self.idempotency(digest) if digest else self.no_idempotency

    @property
    def channel(self) -> str:
        """Pub/sub channel rung after every change of the game."""
        return f"{self.prefix}:live:{self.game_id}"


KEY_SCOPE_PREFIX = "key:"
"""How the scope of a platform API key begins (`key:<hash prefix>`): the creators whose
games are listed (nobody lists the games of callers without a key)."""


@dataclass(frozen=True)
class IndexKeys:
    """Sorted sets listing games newest-last by `<created ms>:<id>` members (scored 0),
    one set of them per creator (the scope of the API key that created the games, or
    for which a tournament did): a platform lists its own games and no other's."""

    prefix: str

    def all(self, creator: str) -> str:
        return f"{self.prefix}:listing:{creator}:all"

    def by_game(self, creator: str, game: str) -> str:
        return f"{self.prefix}:listing:{creator}:game:{game}"

    def by_tag(self, creator: str, tag: str) -> str:
        return f"{self.prefix}:listing:{creator}:tag:{tag}"

    def lobby(self, game: str) -> str:
        """The public lobby of `game`: its waiting games listed there by their creators,
        of whatever creator."""
        return f"{self.prefix}:lobby:{game}"

    def lobby_join(self, game: str, digest: str) -> str:
        """The seat a join of `game`'s lobby under an Idempotency-Key (its digest) tried
        last, so that a retry goes back to it."""
        return f"{self.prefix}:lobby:{game}:join:{digest}"

    def lobby_creation(self, game: str, players: int) -> str:
        """Held by the lobby join that is creating a game of `game` with `players` seats."""
        return f"{self.prefix}:lobby:{game}:creating:{players}"

    @property
    def clocks(self) -> str:
        """Sorted set: game id scored by the unix ms its first running clock runs out."""
        return f"{self.prefix}:clocks"


def live_pattern(prefix: str) -> str:
    """The pub/sub pattern matching every game's channel."""
    return f"{prefix}:live:*"


def game_id_of_channel(prefix: str, channel: str) -> str:
    return channel[len(f"{prefix}:live:") :]
