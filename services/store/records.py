"""What the store keeps for a game, as plain data that survives JSON unchanged."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any

import orjson


class GameStatus(StrEnum):
    WAITING = "waiting"
    """Open seats wait for players (invite codes): no prompts, no moves, no clocks."""
    ACTIVE = "active"
    """Prompts are open; moves are accepted."""
    SCORING = "scoring"
    """The last move ended the game; the final standings are being computed."""
    FINISHED = "finished"
    """Standings are stored; the game is read-only."""
    ABORTED = "aborted"
    """The game was stopped without a result (e.g. a bot could not move)."""


FINAL_STATUSES = frozenset({GameStatus.FINISHED, GameStatus.ABORTED})


@dataclass(frozen=True)
class SeatRecord:
    name: str
    bot: str | None = None
    """Bot level for a seat the service plays, else None."""
    token_hash: str | None = None
    """SHA-256 of the seat's secret token (human seats only); the token itself is never kept."""
    open: bool = False
    """An open seat, waiting for a player with its invite code (or for a bot)."""


@dataclass(frozen=True)
class GameStart:
    """A game's start, when the last of its open seats was filled (at version 0: no move
    is made while it waits). Hash field `started`, written by the script that fills it."""

    at: str
    turn: list[int]
    """The seats prompted first."""

    def to_json(self) -> str:
        return _dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> GameStart:
        plain = orjson.loads(text)
        return cls(at=plain["at"], turn=plain["turn"])


@dataclass(frozen=True)
class GameRecord:
    id: str
    game: str
    version: int
    status: GameStatus
    state: str
    """The game's own JSON snapshot at `version`."""
    seats: list[SeatRecord]
    options: dict[str, Any]
    seed: int
    tags: list[str]
    created_at: str
    updated_at: str
    creator: str
    """Who created it: an opaque principal id (a hashed API key, or anonymous + IP)."""
    create_fingerprint: str = ""
    token_salt: str = ""
    created: str = ""
    """The creation answer without its tokens, for idempotent retries of the creation."""
    standings: dict[str, Any] | None = None
    webhooks: list[str] = field(default_factory=list)
    """Callback URLs this game's events are POSTed to (the game's own, its API key's)."""
    webhook_events: list[str] = field(default_factory=list)
    """Which events ("game.finished", "move") go to `webhooks`."""
    clock_rules: dict[str, Any] | None = None
    """The time control as created (read with `ClockRules.from_dict`); None if untimed."""
    clock: str = ""
    """The clocks at `version` (`Clock.to_json()`), written with every commit."""
    leave_policy: dict[str, Any] | None = None
    """What happens when a seat leaves or its clock runs out (`on_leave`, `leave_bot`),
    as created; None for games created before there was a choice."""
    away: dict[int, dict[str, Any]] = field(default_factory=dict)
    """Seats a bot plays for now: seat -> {"why": "abandoned" | "autopilot", "bot": level,
    "since": version}. Each is a hash field `away:<seat>` of its own, written by gameplay."""
    creator_token_hash: str | None = None
    """SHA-256 of the creator's token (games with open seats): cancels, fills seats."""
    abort_reason: str | None = None
    """Why an aborted game was stopped (field `abort_reason`, written with the status)."""
    invites: dict[int, str] = field(default_factory=dict)
    """Open seats' invites: seat -> "<expires unix ms>:<sha256 of the code>", each a hash
    field `invite:<seat>`, removed when the seat is filled. A filled open seat is a hash
    field `seat:<seat>` of its own (its `SeatRecord`), which overrides `meta`'s."""
    started: GameStart | None = None
    """Set when a game that waited for players started (never for one created active)."""
    lobby: bool = False
    """Listed in the public lobby while it waits: its open seats' invite codes are shown
    to anyone (`services.gameplay.lobby`)."""
    revision: int = 0
    """Counts the record's changes that are not moves (a status transition, a seat
    filled, leaving or stepping away): with `version`, it names what the record holds."""

    def to_fields(self) -> dict[str, str]:
        """As Redis hash fields. What the Lua scripts read or write (version, status,
        state, updated_at, fingerprint) has a field of its own; the rest, which never
        changes after creation, is one JSON field — fewer fields, faster reads."""
        meta = {
            "id": self.id,
            "game": self.game,
            "seats": [asdict(seat) for seat in self.seats],
            "options": self.options,
            "seed": self.seed,
            "tags": self.tags,
            "created_at": self.created_at,
            "creator": self.creator,
            "token_salt": self.token_salt,
            "webhooks": self.webhooks,
            "webhook_events": self.webhook_events,
            "clock_rules": self.clock_rules,
            "leave_policy": self.leave_policy,
            "creator_token_hash": self.creator_token_hash,
        }
        if self.lobby:
            meta["lobby"] = True  # absent otherwise: older records read the same
        invites = {f"{INVITE_FIELD}{seat}": value for seat, value in self.invites.items()}
        started = {START_FIELD: self.started.to_json()} if self.started else {}
        return {
            **invites,
            **started,
            "version": str(self.version),
            "status": self.status.value,
            "state": self.state,
            "meta": _dumps(meta),
            "updated_at": self.updated_at,
            "fingerprint": self.create_fingerprint,
            "created": self.created,
            "clock": self.clock,
        }

    @classmethod
    def from_fields(cls, fields: dict[str, str]) -> GameRecord:
        meta = orjson.loads(fields["meta"])
        standings = fields.get("standings")
        seats = [SeatRecord(**seat) for seat in meta["seats"]]
        away: dict[int, dict[str, Any]] = {}
        invites: dict[int, str] = {}
        for name, value in fields.items():
            if name.startswith(AWAY_FIELD):
                away[int(name[len(AWAY_FIELD) :])] = orjson.loads(value)
            elif name.startswith(SEAT_FIELD):
                seats[int(name[len(SEAT_FIELD) :])] = SeatRecord(**orjson.loads(value))
            elif name.startswith(INVITE_FIELD):
                invites[int(name[len(INVITE_FIELD) :])] = value
        return cls(
            id=meta["id"],
            game=meta["game"],
            version=int(fields["version"]),
            status=GameStatus(fields["status"]),
            state=fields["state"],
            seats=seats,
            options=meta["options"],
            seed=meta["seed"],
            tags=meta["tags"],
            created_at=meta["created_at"],
            updated_at=fields["updated_at"],
            creator=meta["creator"],
            create_fingerprint=fields.get("fingerprint", ""),
            token_salt=meta["token_salt"],
            created=fields.get("created", ""),
            standings=orjson.loads(standings) if standings else None,
            webhooks=meta.get("webhooks", []),
            webhook_events=meta.get("webhook_events", []),
            clock_rules=meta.get("clock_rules"),
            clock=fields.get("clock", ""),
            leave_policy=meta.get("leave_policy"),
            away=away,
            creator_token_hash=meta.get("creator_token_hash"),
            abort_reason=fields.get("abort_reason"),
            invites=invites,
            started=GameStart.from_json(fields[START_FIELD]) if START_FIELD in fields else None,
            lobby=meta.get("lobby", False),
            revision=int(fields.get(REVISION_FIELD, 0)),
        )

    @property
    def players(self) -> int:
        return len(self.seats)


AWAY_FIELD = "away:"
"""Prefix of the record's hash fields naming a seat a bot plays for now (`away:<seat>`)."""

SEAT_FIELD = "seat:"
"""Prefix of the record's hash fields holding an open seat once filled (`seat:<seat>`)."""
INVITE_FIELD = "invite:"
"""Prefix of the record's hash fields holding an open seat's invite (`invite:<seat>`)."""
ARCHIVED_TOKEN_FIELD = "token:"
"""Prefix of the archived record's hash fields holding a seat's replaced token's hash
(`token:<seat>`), which overrides the seat's in the archive's list of token hashes."""
START_FIELD = "started"
"""The record's hash field holding its `GameStart` once a waiting game started."""
REVISION_FIELD = "rev"
"""The record's hash field counting its changes other than moves (absent: none yet).
Every script that writes the record otherwise increments it."""
MAX_SEATS = 8
"""Most seats a game may have (the create request's bound)."""

SUMMARY_FIELDS = (
    "version",
    "status",
    "meta",
    "updated_at",
    "resigned",
    *(f"{SEAT_FIELD}{seat}" for seat in range(MAX_SEATS)),
    *(f"{AWAY_FIELD}{seat}" for seat in range(MAX_SEATS)),
    *(f"{INVITE_FIELD}{seat}" for seat in range(MAX_SEATS)),
)
"""What a listing reads of each game. `resigned` (the seats that resigned, space-separated)
is written by the commit that resigns a seat; the immutable `meta` cannot know it, nor
which open seats were filled (`seat:<n>`), which seats a bot plays now (`away:<n>`) or
when an open seat's invite expires (`invite:<n>`, reissued codes included)."""


@dataclass(frozen=True)
class EventViews:
    """The events of one commit as each kind of reader may see them.

    Redaction is the engine's (`Event.visible_to`), done once when the move commits, so
    the log is plain JSON and reading it never needs the game's event classes.
    """

    full: list[dict[str, Any]]
    """Unredacted: for audits of finished games only."""
    spectator: list[dict[str, Any]]
    seats: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    """Per seat, only where that seat sees more than a spectator."""

    def for_seat(self, seat: int | None) -> list[dict[str, Any]]:
        if seat is None:
            return self.spectator
        return self.seats.get(str(seat), self.spectator)


RESIGNED = "resigned"
"""A resignation's reason when the seat chose to resign."""
TIMEOUT = "timeout"
"""A resignation's reason when the seat's clock ran out (on_timeout forfeit)."""


@dataclass(frozen=True)
class LogEntry:
    """One committed version: who acted, how, and what happened."""

    version: int
    seat: int
    action: str
    """"move" or "resign"."""
    move: dict[str, Any] | None
    events: EventViews
    status: GameStatus
    at: str
    reason: str | None = None
    """Why a seat resigned: "resigned" (it chose to; the default, and what entries kept
    before there was a reason mean) or "timeout" (its clock ran out). None for a move."""

    def __post_init__(self) -> None:
        if self.action == "resign" and self.reason is None:
            object.__setattr__(self, "reason", RESIGNED)

    def said(self) -> tuple[Any, ...]:
        """What tells this entry from another of its version: who, what and when (`at` to
        the millisecond). The same from the entry a commit makes and from the log's."""
        return (self.seat, self.action, self.move, self.at, self.reason)

    def to_json(self) -> str:
        """As kept in the move log: compact (see `log_codec`)."""
        from .log_codec import encode

        return encode(self)

    @classmethod
    def from_json(cls, data: str | bytes) -> LogEntry:
        from .log_codec import decode

        return decode(data)


def _dumps(value: Any) -> str:
    return orjson.dumps(value).decode()
