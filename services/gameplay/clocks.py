"""Chess clocks between commits: the time now, the clocks after a move, what a reader
sees of them, and the index of deadlines the sweep looks at (`Referee.enforce_clocks`
applies the time-out policy)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from services.engine import Game, GameState, Prompt, seats_to_act
from services.store import Clock, ClockRules, GameRecord, GameStatus, GameStore

from .leavers import is_abandoned
from .payloads import ClockInfo, CreateGameRequest

if TYPE_CHECKING:
    from .commits import Change


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def now_ms() -> int:
    return int(time.time() * 1000)


def clock_of(record: GameRecord) -> Clock | None:
    return Clock.from_json(record.clock) if record.clock else None


def first_clock(request: CreateGameRequest, game: Game, state: GameState) -> str:
    """The clocks of a new game ("" when it is not timed): the first prompted seats run."""
    if request.clock is None:
        return ""
    rules = ClockRules.from_dict(request.clock.model_dump())
    humans = [seat.bot is None for seat in request.seats]
    waiting = any(seat.open for seat in request.seats)  # no clock runs until it starts
    running = [] if waiting else seats_to_act(game.prompts(state))
    return Clock.start(rules, humans, running, now_ms()).to_json()


def next_clock(
    record: GameRecord, mover: int, prompts: Sequence[Prompt], *, moved: bool
) -> str | None:
    """The clocks once `mover` has acted (`moved`, or resigned) and `prompts` are the next
    decisions. Only a move earns the increment. A seat that left for good (abandoned:
    it resigned or ran out of time under bot_takes_over) has no clock any more: the bot
    that plays it on neither runs it nor earns it increments, so it stays where it
    stopped (0 after a time-out)."""
    clock = clock_of(record)
    if clock is None or record.clock_rules is None:
        return None
    rules = ClockRules.from_dict(record.clock_rules)
    running = [seat for seat in seats_to_act(prompts) if not is_abandoned(record, seat)]
    earns = moved and not is_abandoned(record, mover)
    return clock.after_commit(rules, mover, running, now_ms(), increment=earns).to_json()


def clock_info(record: GameRecord) -> ClockInfo | None:
    """The clocks as a reader sees them: time left per seat, and which ones run."""
    clock = clock_of(record)
    if clock is None or record.clock_rules is None:
        return None
    at = now_ms()
    active = record.status is GameStatus.ACTIVE
    left = [
        clock.left_ms(seat, at) if active else clock.remaining_ms[seat]
        for seat in range(record.players)
    ]
    return ClockInfo(
        **record.clock_rules,
        remaining=[None if ms is None else ms / 1000 for ms in left],
        running=clock.running if active else [],
    )


class ClockDeadlines:
    """The index of each timed game's next deadline, kept right after every commit."""

    def __init__(self, store: GameStore) -> None:
        self.store = store

    async def note(self, record: GameRecord) -> None:
        """Note the game's next deadline (or that none runs) for the sweep."""
        if record.clock_rules is None:
            return
        clock = clock_of(record)
        due = clock.deadline_ms() if clock and record.status is GameStatus.ACTIVE else None
        await self.store.schedule_clock(record.id, due)

    async def renote(self, game_id: str) -> None:
        """Note the deadline of the game as it is stored now."""
        record = await self.store.load(game_id)
        if record is not None:
            await self.note(record)

    async def after_commit(self, change: Change) -> None:
        if change.created:
            await self.note(change.record)
        elif change.clocked:
            await self.renote(change.record.id)
