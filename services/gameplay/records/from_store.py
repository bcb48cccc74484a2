"""A record from what the store keeps of a finished game: its `GameRecord` (seed,
options, seats, final state) and its move log (`LogEntry`, one per version)."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Literal

from services.engine import Game
from services.store import GameRecord, LogEntry

from .document import (
    Reason,
    Record,
    RecordedAction,
    RecordedClock,
    RecordedSeat,
    known_reason,
)


def record_from_store(
    stored: GameRecord,
    log: Sequence[LogEntry],
    game: Game,
    *,
    left_at: Mapping[int, int] | None = None,
    left_reasons: Mapping[int, str | None] | None = None,
) -> Record:
    """The record of a stored game. `log` must hold every version from 1 to the game's
    (the replay checks that it does). The result is the engine's standings of the final
    state, the seats that left demoted (None while the game goes on), and the final
    state's digest is that of the stored state; the per-version digests are unknown to
    the store and left out.
    `left_at` gives, for seats that left, the version after which a bot played them, and
    `left_reasons` why each left ("resigned" or "timeout"; None when not known). The time
    control and leave policy are the game's as created."""
    left_at = left_at or {}
    left_reasons = left_reasons or {}
    final_state = game.load_state(stored.state)
    policy = stored.leave_policy or {}
    return Record(
        id=stored.id,
        game=stored.game,
        options=dict(stored.options),
        seed=stored.seed,
        clock=RecordedClock(**stored.clock_rules) if stored.clock_rules else None,
        on_leave=policy.get("on_leave"),
        leave_bot=policy.get("leave_bot"),
        seats=[
            RecordedSeat(
                name=seat.name,
                bot=seat.bot,
                left_at_version=left_at.get(index),
                left_reason=known_reason(left_reasons.get(index)) if index in left_at else None,
            )
            for index, seat in enumerate(stored.seats)
        ],
        moves=[
            RecordedAction(
                version=entry.version,
                seat=entry.seat,
                action=_action(entry.action),
                move=entry.move,
                at=entry.at,
                events=list(entry.events.full),
                reason=_reason(entry.reason) if entry.action == "resign" else None,
            )
            for entry in log
        ],
        result=game.standings(final_state, left=left_at),
        final_state_sha256=hashlib.sha256(stored.state.encode()).hexdigest(),
        tags=list(stored.tags),
    )


ACTIONS: dict[str, Literal["move", "resign"]] = {"move": "move", "resign": "resign"}
REASONS: dict[str | None, Reason] = {"resigned": "resigned", "timeout": "timeout", None: "resigned"}


def _reason(name: str | None) -> Reason:
    if name in REASONS:
        return REASONS[name]
    raise ValueError(f"the log has a resignation for {name!r}; a record knows resigned, timeout")


def _action(name: str) -> Literal["move", "resign"]:
    if name in ACTIONS:
        return ACTIONS[name]
    raise ValueError(f"the log has an action {name!r}; a record knows moves and resignations")
