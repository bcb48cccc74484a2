"""What happens to a game between requests: clocks running out, bot turns, scoring and
webhooks. `GameService` (gameplay.py) inherits these steps; they run from the
dispatcher (in-process or on Celery workers) and from the clock sweep.

Every step acts only on the game version it read, with a compare-and-set, so a stale,
repeated or concurrent run changes nothing.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import structlog

from services.ai.bot import levels_for
from services.engine import Game, GameState, Move, Outcome
from services.store import Clock, ClockRules, CommitVerdict, GameRecord, GameStatus, LogEntry
from services.store.progress import PendingGames

from . import metrics
from .payloads import ClockInfo
from .visibility import Viewer, entry_for

log = structlog.get_logger(__name__)


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def now_ms() -> int:
    return int(time.time() * 1000)


def clock_of(record: GameRecord) -> Clock | None:
    return Clock.from_json(record.clock) if record.clock else None


class BetweenRequests:
    # --- clocks ------------------------------------------------------------------------

    def _next_clock(self, record: GameRecord, mover: int, prompts: list) -> str | None:
        clock = clock_of(record)
        if clock is None or record.clock_rules is None:
            return None
        rules = ClockRules.from_dict(record.clock_rules)
        running = sorted({prompt.seat for prompt in prompts})
        return clock.after_commit(rules, mover, running, now_ms()).to_json()

    def _clock_info(self, record: GameRecord) -> ClockInfo | None:
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

    async def _schedule_clock(self, record: GameRecord) -> None:
        """Note the game's next deadline (or that none runs) for the sweep."""
        if record.clock_rules is None:
            return
        clock = clock_of(record)
        due = clock.deadline_ms() if clock and record.status is GameStatus.ACTIVE else None
        await self.store.schedule_clock(record.id, due)

    async def _after_clocked_commit(self, game_id: str) -> None:
        record = await self.store.load(game_id)
        if record is not None:
            await self._schedule_clock(record)

    async def enforce_clocks(self, limit: int = 100) -> int:
        """The sweep: apply the time-out policy to every game whose noted deadline has
        passed. Returns how many games it looked at. Safe to run anywhere, any number of
        times at once: each action is a compare-and-set on the version it checked."""
        due = await self.store.due_clocks(now_ms(), limit)
        for game_id in due:
            try:
                await self.enforce_clock(game_id)
            except Exception as error:
                log.error("clock_failed", game_id=game_id, exc_info=error)
        return len(due)

    async def enforce_clock(self, game_id: str) -> None:
        record = await self.store.load(game_id)
        if record is None:
            await self.store.schedule_clock(game_id, None)
            return
        clock = clock_of(record)
        overdue = clock.overdue(now_ms()) if clock else []
        if record.status is not GameStatus.ACTIVE or not overdue or record.clock_rules is None:
            await self._schedule_clock(record)
            return
        seat = overdue[0]
        game = self._game_of(record)
        state = game.load_state(record.state)
        move: Move | None = None
        outcome: Outcome | None = None
        if record.clock_rules["on_timeout"] == "bot":
            levels = levels_for(game)
            level = "greedy" if "greedy" in levels else levels[0]
            try:
                move, outcome = await self._bot_choice(record, game, state, seat, level)
            except Exception as error:  # no bot move: the seat forfeits instead
                log.error("timeout_bot_failed", game_id=game_id, seat=seat, exc_info=error)
                move = None
        if outcome is None:
            outcome = game.resign(state, seat)
        how = "timeout_bot" if move is not None else "timeout_forfeit"
        if await self._commit_unasked(record, game, seat, move, outcome, how):
            log.info("clock_ran_out", game_id=game_id, seat=seat, policy=how)
        else:
            await self._after_clocked_commit(game_id)

    # --- what happens between requests: bots and scoring -------------------------------

    async def advance(self, game_id: str, version: int) -> None:
        """Play one bot turn or score the game, if due at `version`. Idempotent: a
        stale or repeated call changes nothing. A stale one makes sure the turn at the
        current version was sent: the task that committed that version may have died
        before it sent it (the dispatcher's claim keeps this from sending it twice)."""
        record = await self.store.load(game_id)
        if record is None:
            return
        if record.version != version:
            if self._work_due(record):
                self._after_commit(record.id, record.version, moved=False)
            return
        if record.status is GameStatus.SCORING:
            await self._score(record)
        elif record.status is GameStatus.ACTIVE:
            await self._play_bot(record)
        elif record.status is GameStatus.FINISHED:
            # The scoring task again: a worker may have died between storing the standings
            # and sending game.finished. Webhooks are at least once; receivers dedupe by id.
            self._finished_webhook(record)

    async def _play_bot(self, record: GameRecord) -> None:
        game = self._game_of(record)
        state = game.load_state(record.state)
        seat = self._prompted_bot(record, game.prompts(state))
        if seat is None:
            return
        level = record.seats[seat].bot or "random"
        try:
            move, outcome = await self._bot_choice(record, game, state, seat, level)
        except Exception as error:
            log.error("bot_failed", game_id=record.id, seat=seat, error=type(error).__name__)
            await self._abort(record, f"The bot of seat {seat} could not move.")
            return
        await self._commit_unasked(record, game, seat, move, outcome, "bot")

    async def _bot_choice(
        self, record: GameRecord, game: Game, state: GameState, seat: int, level: str
    ) -> tuple[Move, Outcome]:
        """The move a bot of `level` makes for `seat`, seeded by the game and its version
        so that a redelivered task chooses the same move."""
        seed = (record.seed * 1_000_003 + record.version * 7_919 + seat) % 2**63
        bot = self.bot_maker(level, seed)
        with metrics.BOT_TURN_SECONDS.labels(game=record.game, level=level).time():
            move = await asyncio.to_thread(bot.choose, game, state, seat)
        return move, game.apply(state, seat, move)

    async def _commit_unasked(
        self,
        record: GameRecord,
        game: Game,
        seat: int,
        move: Move | None,
        outcome: Outcome,
        by: str,
    ) -> bool:
        """Commit what no request asked for (a bot's move, a time-out); False if another
        commit got there first."""
        commit, prompts = self._commit_of(record, game, seat, move, outcome)
        if (await self.store.commit(commit)).verdict is not CommitVerdict.COMMITTED:
            return False
        await self._committed(record, commit, by, [prompt.seat for prompt in prompts])
        return True

    async def _score(self, record: GameRecord) -> None:
        game = self._game_of(record)
        with metrics.SCORING_SECONDS.labels(game=record.game).time():
            result = self._result_of(record, game.load_state(record.state))
            done = await self.store.transition(
                record.id,
                record.version,
                [GameStatus.SCORING],
                GameStatus.FINISHED,
                now(),
                {"standings": result.model_dump_json()},
            )
        if done:
            metrics.GAMES_FINISHED.labels(game=record.game, how="finished").inc()
            self._finished_webhook(replace(record, standings=result.model_dump(mode="json")))

    def _finished_webhook(self, record: GameRecord) -> None:
        """game.finished with the stored standings (every breakdown)."""
        if record.standings is not None:
            self._webhook(record, "game.finished", {"result": record.standings})

    def _move_webhooks(self, record: GameRecord, entry: LogEntry) -> None:
        """A committed move, as a spectator sees it (no hidden information)."""
        if "move" in record.webhook_events:
            document = entry_for(entry, Viewer(), full=False)
            self._webhook(
                replace(record, version=entry.version),
                "move",
                {"entry": document.model_dump(mode="json")},
            )

    def _webhook(self, record: GameRecord, event_type: str, body: dict[str, Any]) -> None:
        if self.webhooks is None or event_type not in record.webhook_events:
            return
        event_id = f"{record.id}:{record.version}:{event_type}"
        payload = {
            "id": event_id,
            "type": event_type,
            "game_id": record.id,
            "game": record.game,
            "version": record.version,
            "tags": record.tags,
            "at": now(),
            **body,
        }
        for url in record.webhooks:
            self.webhooks.send_webhook(event_id, event_type, url, payload)

    async def _abort(self, record: GameRecord, reason: str) -> None:
        await self.store.transition(
            record.id,
            record.version,
            [GameStatus.ACTIVE, GameStatus.SCORING],
            GameStatus.ABORTED,
            now(),
            {"abort_reason": reason},
        )
        metrics.GAMES_FINISHED.labels(game=record.game, how="aborted").inc()

    def _prompted_bot(self, record: GameRecord, prompts: list) -> int | None:
        for prompt in prompts:
            if record.seats[prompt.seat].bot is not None:
                return prompt.seat
        return None

    def _nudge(self, record: GameRecord, prompts: list) -> None:
        """Re-kick work that a crashed replica may have dropped (idempotent)."""
        due = record.status is GameStatus.SCORING or (
            record.status is GameStatus.ACTIVE and self._prompted_bot(record, prompts) is not None
        )
        if due:
            self._after_commit(record.id, record.version, moved=False)

    def _work_due(self, record: GameRecord) -> bool:
        """Whether the workers owe this game a step at its version: scoring, or a bot
        that is prompted."""
        if record.status is GameStatus.SCORING:
            return True
        if record.status is not GameStatus.ACTIVE:
            return False
        game = self._game_of(record)
        return self._prompted_bot(record, game.prompts(game.load_state(record.state))) is not None

    def _after_commit(self, game_id: str, version: int, *, moved: bool = True) -> None:
        if self.dispatcher is not None:
            self.dispatcher.after_commit(game_id, version, moved=moved)

    # --- games whose turn was lost ----------------------------------------------------

    async def resend_stalled(self, stall_seconds: float, limit: int = 100) -> int:
        """The sweep's second half: every game of the pending index that has not moved
        for `stall_seconds` gets its turn (or scoring) sent again if one is due, and
        leaves the index if none is. Returns how many turns it sent. Safe on any number
        of workers at once: each game is claimed by a compare-and-set on its score."""
        if self.dispatcher is None:
            return 0
        pending = PendingGames(self.store.redis, self.store.prefix)
        at = now_ms()
        sent = 0
        for game_id, seen in await pending.stalled(at - round(stall_seconds * 1000), limit):
            try:
                record = await self.store.load(game_id)
                if record is None or not self._work_due(record):
                    await pending.settle(game_id, seen)
                elif await pending.retry_at(game_id, seen, at):
                    self.dispatcher.resend(record.id, record.version)
                    metrics.TURNS_RESENT.inc()
                    log.warning(
                        "turn_resent",
                        game_id=game_id,
                        version=record.version,
                        stalled_ms=at - seen,
                    )
                    sent += 1
            except Exception as error:
                log.error("resend_failed", game_id=game_id, exc_info=error)
        return sent

    async def give_up(self, game_id: str, version: int, reason: str) -> bool:
        """End a game whose step at `version` keeps killing the workers that take it:
        aborted with `reason`, rather than tried forever. False if it moved meanwhile."""
        record = await self.store.load(game_id)
        if record is None or record.version != version or not self._work_due(record):
            return False
        await self._abort(record, reason)
        return True
