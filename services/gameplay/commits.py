"""The commit pipeline: a move (a player's, a bot's or a time-out's) is compare-and-set
onto the version it was made on, and each commit that lands - and each new game - runs
the after-commit hooks in order: the next step (a bot's turn or the scoring) handed to
the dispatcher, the clocks' deadline, metrics, webhooks.

The change stands whatever a hook does: a hook that fails is logged and counted
(`skyport_after_commit_failures_total`) and the others still run, so the request that
made the change is answered as it landed."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Protocol

import redis.exceptions
import structlog

from services.engine import Game, Move, Outcome, Prompt
from services.store import (
    RESIGNED,
    Commit,
    CommitOutcome,
    CommitVerdict,
    GameRecord,
    GameStatus,
    GameStore,
    LogEntry,
)

from . import metrics
from .clocks import next_clock, now
from .dispatch import Dispatcher
from .leavers import bot_of
from .problems import STORE_ERRORS
from .visibility import event_views

log = structlog.get_logger(__name__)


@dataclass(frozen=True)
class Change:
    """What was committed: a new game (`entry` None), or one log entry onto `record`."""

    record: GameRecord
    """The new game's record, or the record the commit was made on (its version before)."""
    entry: LogEntry | None
    by: str
    """Who made it: "created", "human", "bot", "timeout_bot" or "timeout_forfeit"."""
    clocked: bool
    """Whether the commit set the game's clocks."""
    turn: tuple[int, ...] | None = None
    """The seats prompted after the commit, when the committer knows them."""

    @property
    def created(self) -> bool:
        return self.entry is None

    @property
    def version(self) -> int:
        return self.entry.version if self.entry is not None else self.record.version


class AfterCommit(Protocol):
    async def after_commit(self, change: Change) -> None:
        """Act on a change that is stored (it stands whatever this does)."""


class CommitPipeline:
    """Compare-and-set, then the hooks of every change that landed."""

    def __init__(self, store: GameStore, hooks: Sequence[AfterCommit]) -> None:
        self.store = store
        self.hooks = tuple(hooks)

    async def commit(
        self,
        record: GameRecord,
        commit: Commit,
        by: str,
        turn: tuple[int, ...] | None = None,
    ) -> CommitOutcome:
        change = Change(record, commit.entry, by, commit.clock is not None, turn)
        # Noted with the commit itself: a process that dies before the hooks leaves the
        # game in the pending index, and the commit's webhooks in the owed one, where
        # the sweep finds them.
        noted = replace(commit, work_due=steps_due(change), webhooks_due=webhooks_due(change))
        try:
            outcome = await self.store.commit(noted)
        except redis.exceptions.TimeoutError:
            # Sent, but no answer: the script may have run. The log says whether it did.
            settled = await self._settled(commit)
            if settled is None:
                raise
            outcome = settled
        if outcome.verdict is CommitVerdict.COMMITTED:
            await self._after(change)
        return outcome

    async def _settled(self, commit: Commit) -> CommitOutcome | None:
        """What became of a commit whose answer was lost: committed if the log holds its
        entry, a conflict if it holds another at that version, None while it holds none
        (the script may still run: Redis may have it queued)."""
        try:
            logged = await self.store.logged(commit.game_id, commit.entry.version)
        except STORE_ERRORS:
            return None
        if logged is None:
            return None
        log.warning("commit_settled_after_timeout", game_id=commit.game_id)
        if logged.said() == commit.entry.said():
            return CommitOutcome(CommitVerdict.COMMITTED, version=logged.version)
        return CommitOutcome(CommitVerdict.CONFLICT, version=logged.version)

    async def created(self, record: GameRecord, turn: tuple[int, ...] | None = None) -> None:
        """A new game was stored: its clocks start and its first step may be due.
        `turn`: the seats its first state prompts, when the creator knows them."""
        clocked = record.clock_rules is not None
        await self._after(Change(record, None, "created", clocked=clocked, turn=turn))

    async def _after(self, change: Change) -> None:
        for hook in self.hooks:
            try:
                await hook.after_commit(change)
            except Exception as error:
                name = type(hook).__name__
                metrics.AFTER_COMMIT_FAILURES.labels(hook=name).inc()
                log.error(
                    "after_commit_failed",
                    hook=name,
                    game_id=change.record.id,
                    version=change.version,
                    exc_info=error,
                )


def commit_of(
    record: GameRecord,
    game: Game,
    seat: int,
    move: Move | None,
    outcome: Outcome,
    *,
    at_revision: bool = False,
    reason: str = RESIGNED,
) -> tuple[Commit, list[Prompt]]:
    """The commit of `outcome` onto the record's version (and, `at_revision`, onto its
    revision too: the record must be unchanged since it was read), and the prompts after.
    `reason`: why a resignation (`move` None) happened, kept in its log entry: "resigned"
    or "timeout" (its clock ran out)."""
    new_state = outcome.state
    status = GameStatus.SCORING if game.is_over(new_state) else GameStatus.ACTIVE
    entry = LogEntry(
        version=record.version + 1,
        seat=seat,
        action="move" if move is not None else "resign",
        move=game.dump_move(move) if move is not None else None,
        events=event_views(outcome.events, record.players),
        status=status,
        at=now(),
        reason=reason if move is None else None,
    )
    prompts = game.prompts(new_state) if status is GameStatus.ACTIVE else []
    commit = Commit(
        game_id=record.id,
        expected_version=record.version,
        state=game.dump_state(new_state),
        status=status,
        entry=entry,
        clock=next_clock(record, seat, prompts, moved=move is not None),
        expected_revision=record.revision if at_revision else None,
    )
    return commit, prompts


class CommitMetrics:
    """Counts games created and moves committed, by game and by who made them."""

    async def after_commit(self, change: Change) -> None:
        if change.created:
            metrics.GAMES_CREATED.labels(game=change.record.game).inc()
        else:
            metrics.MOVES_COMMITTED.labels(game=change.record.game, by=change.by).inc()


class NextStep:
    """Hands the game's next step (a bot's turn, the scoring) to the dispatcher, which
    does nothing unless one is due at the new version."""

    def __init__(self, dispatcher: Dispatcher) -> None:
        self.dispatcher = dispatcher

    async def after_commit(self, change: Change) -> None:
        if steps_due(change):
            await self.dispatcher.after_commit(change.record.id, change.version)


def steps_due(change: Change) -> bool:
    """Whether the workers may owe the game a step after `change` (a bot's turn, the
    scoring): what `NextStep` sends, and what the store notes in the pending index with
    the commit itself."""
    if _only_humans_due(change):
        return False  # sending a task per human move was most of a move's cost
    # Nothing is due until the last open seat is filled (`seats.py`).
    return change.record.status is not GameStatus.WAITING


def webhooks_due(change: Change) -> bool:
    """Whether `change` owes webhooks: a committed move's `move`, a resignation's
    `seat.left`, to a game that asked for them. What `WebhookNotifier.after_commit`
    sends, and what the store notes in the owed index with the commit itself; a game
    without them pays nothing for it."""
    record, entry = change.record, change.entry
    if entry is None or not record.webhooks:
        return False
    events = record.webhook_events
    return "move" in events or (entry.action == "resign" and "seat.left" in events)


def due_on_creation(record: GameRecord, turn: tuple[int, ...] | None) -> bool:
    """`steps_due` of a new game, before it is stored."""
    return steps_due(Change(record, None, "created", record.clock_rules is not None, turn))


def _only_humans_due(change: Change) -> bool:
    """Whether the change leaves the game waiting only for seats no bot plays."""
    if change.turn is None or (change.created and not change.turn):
        return False  # not known, or a new game nobody is prompted in: the referee looks
    if change.entry is not None and change.entry.status is GameStatus.SCORING:
        return False
    return all(bot_of(change.record, seat) is None for seat in change.turn)
