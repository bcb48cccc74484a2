"""The referee: what happens to a game between requests - bot turns, scoring, clocks
running out, and games whose step was lost. It runs from the dispatcher (in-process or
on Celery workers) and from the sweep.

Every step acts only on the game version it read, with a compare-and-set, so a stale,
repeated or concurrent run changes nothing.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace

import structlog

from services.ai import make_bot
from services.ai.bot import Bot
from services.ai.mcts import MctsBot
from services.engine import Game, GameState, Move, Outcome, Prompt
from services.store import (
    RESIGNED,
    TIMEOUT,
    CommitVerdict,
    GameRecord,
    GameStatus,
    GameStore,
    KeptAnswer,
)
from services.store.progress import PendingGames, SweepBackoff, note_moved
from services.store.webhooks_owed import (
    REPLACED_BY,
    OwedKind,
    OwedNote,
    OwedWebhooks,
    aborted_member,
    cancelled_member,
    claimed_member,
    left_member,
    note_of,
    note_owed,
    owed_member,
    replaced_member,
)

from . import metrics
from .archive import RecordArchive, archived_from_store, full_log
from .clocks import ClockDeadlines, clock_of, now, now_ms
from .commits import CommitPipeline, commit_of
from .dispatch import Dispatcher
from .leavers import (
    AwayVerdict,
    SeatsAway,
    bot_of,
    default_leave_bot,
    is_abandoned,
    leave_policy,
)
from .notifier import WebhookNotifier
from .parsed_states import ParsedStates
from .results import result_of
from .served import ServedGames

log = structlog.get_logger(__name__)

BotMaker = Callable[[str, int], Bot]
"""Makes the bot of a level with a seed."""

GameEnded = Callable[[GameRecord], Awaitable[None]]
"""Told of every game that finished (with its standings) or was aborted; called again
when the scoring task is redelivered, so it must be idempotent."""


SWEEP_BACKOFF_BASE_MS = 5000
"""The first wait before a sweep looks again at a game it could not look at."""


def budgeted_bots(mcts_seconds: float, mcts_iterations: int) -> BotMaker:
    """Bots whose search stays within the service's budget (so a task's length is bounded)."""

    def make(level: str, seed: int) -> Bot:
        if level == "mcts":
            return MctsBot(seed, iterations=mcts_iterations, seconds=mcts_seconds)
        return make_bot(level, seed)

    return make


class Referee:
    def __init__(
        self,
        *,
        store: GameStore,
        served: ServedGames,
        pipeline: CommitPipeline,
        deadlines: ClockDeadlines,
        dispatcher: Dispatcher,
        notifier: WebhookNotifier,
        seats_away: SeatsAway,
        archive: RecordArchive | None = None,
        bot_maker: BotMaker = make_bot,
        states: ParsedStates | None = None,
    ) -> None:
        self.store = store
        self.served = served
        self.pipeline = pipeline
        self.deadlines = deadlines
        self.dispatcher = dispatcher
        self.notifier = notifier
        self.seats_away = seats_away
        self.archive = archive
        self.bot_maker = bot_maker
        self.states = states if states is not None else ParsedStates()
        """Shared with the service: a bot's turn reads the state the commit before it left."""
        self.game_ended: GameEnded | None = None
        """Set by `build_service`: the tournaments, which record each table's result."""

    # --- bots and scoring --------------------------------------------------------------

    async def advance(self, game_id: str, version: int) -> None:
        """Play one bot turn or score the game, if due at `version`. Idempotent: a
        stale or repeated call changes nothing. A stale one makes sure the turn at the
        current version was sent: the task that committed that version may have died
        before it sent it (the dispatcher's claim keeps this from sending it twice)."""
        record = await self.store.load(game_id)
        if record is None:
            return
        if record.version != version:
            # The task that committed the current version may have died before its hooks.
            await self.deadlines.note(record)
            if self.work_due(record):
                await self.dispatcher.after_commit(record.id, record.version, moved=False)
            return
        if record.status is GameStatus.SCORING:
            await self._score(record)
        elif record.status is GameStatus.ACTIVE:
            await self._play_bot(record)
        elif record.status is GameStatus.FINISHED:
            # The scoring task again: a worker may have died between storing the standings
            # and archiving the record or sending game.finished. Webhooks are at least once;
            # receivers dedupe by id.
            if self.archive is not None and not await self.archive.has(record.id):
                await self.keep_record(record)
            await self.notifier.finished(record)
            await self._ended(record)

    async def _play_bot(self, record: GameRecord) -> None:
        game = self.served.of(record)
        state = self.states.load(game, record.state)
        seat = _prompted_bot(record, game.prompts(state))
        if seat is None:
            return
        level = bot_of(record, seat) or "random"
        try:
            move, outcome = await self._bot_choice(record, game, state, seat, level)
        except Exception as error:
            log.error("bot_failed", game_id=record.id, seat=seat, error=type(error).__name__)
            await self._abort(record, f"The bot of seat {seat} could not move.")
            return
        # A seat a bot plays only while its player is away may be taken back while the bot
        # thinks: its move then lands only on the record as read (revision included).
        stand_in = record.seats[seat].bot is None
        landed = await self._commit_unasked(
            record, game, seat, move, outcome, "bot", at_revision=stand_in
        )
        if landed is CommitVerdict.STALE:
            log.info("bot_move_dropped", game_id=record.id, seat=seat, version=record.version)
            # The seats changed meanwhile: whatever is due now is judged on the new record.
            await self.dispatcher.resend(record.id, record.version)

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
        *,
        at_revision: bool = False,
        reason: str = RESIGNED,
    ) -> CommitVerdict:
        """Commit what no request asked for (a bot's move, a time-out); anything but
        COMMITTED if another change got there first (`at_revision`: a change of the
        record's seats too). `reason`: why a resignation (`move` None) happened."""
        commit, prompts = commit_of(
            record, game, seat, move, outcome, at_revision=at_revision, reason=reason
        )
        turn = tuple(prompt.seat for prompt in prompts)
        landed = await self.pipeline.commit(record, commit, by, turn)
        if landed.verdict is CommitVerdict.COMMITTED:
            self.states.remember(game, commit.state, outcome.state)
        return landed.verdict

    async def _score(self, record: GameRecord) -> None:
        game = self.served.of(record)
        state = self.states.load(game, record.state)
        reasons = await self._resign_reasons(record, state.resigned)
        with metrics.SCORING_SECONDS.labels(game=record.game).time():
            result = result_of(game, record, state, reasons)
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
            await self.keep_record(record)
            finished = replace(
                record, status=GameStatus.FINISHED, standings=result.model_dump(mode="json")
            )
            await self.notifier.finished(finished)
            await self._ended(finished)

    async def _resign_reasons(self, record: GameRecord, resigned: list[int]) -> dict[int, str]:
        """Why each seat the engine has resigned did ("resigned" or "timeout"): a
        resignation ends the game, so it is among the log's last entries."""
        if not resigned:
            return {}
        last = await self.store.log(record.id, after=max(record.version - 4, 0), count=4)
        return {
            entry.seat: entry.reason
            for entry in last
            if entry.action == "resign" and entry.seat is not None and entry.reason
        }

    async def _ended(self, record: GameRecord) -> None:
        if self.game_ended is not None:
            await self.game_ended(record)

    async def keep_record(self, record: GameRecord) -> None:
        """Archive the record of a game just finished. A failure here costs nothing but
        time: the first read of the record builds it from the store instead."""
        if self.archive is None:
            return
        try:
            log_entries = await full_log(self.store, record.id, record.version)
            await self.archive.keep(
                await archived_from_store(record, log_entries, self.served.of(record))
            )
        except Exception as error:
            log.error("record_not_kept", game_id=record.id, exc_info=error)

    # --- seats that leave or step away -------------------------------------------------

    async def take_over(
        self,
        record: GameRecord,
        seat: int,
        *,
        reason: str,
        at_version: bool,
        keep: KeptAnswer | None = None,
        at_revision: bool = False,
    ) -> AwayVerdict:
        """The seat left (`reason`: "resigned", or "timeout" when its clock ran out): a bot
        of the game's leave_bot level plays it from here on. `keep`: the answer to the
        request that asked for it, kept with the change. `at_revision`: only on the record
        as read (`SeatsAway.abandon`)."""
        policy = leave_policy(record, self.served.of(record))
        owed = self.notifier.due(record, "seat.left")
        await self.note_due(
            record.id, owed=left_member(record.id, record.version, seat) if owed else None
        )
        verdict = await self.seats_away.abandon(
            record,
            seat,
            policy.leave_bot,
            reason,
            at_version=at_version,
            keep=keep,
            at_revision=at_revision,
        )
        if verdict is AwayVerdict.DONE:
            log.info("seat_abandoned", game_id=record.id, seat=seat, version=record.version)
            # Sent even if a turn at this version was sent before: that one found no bot due.
            # First: the bot's turn matters more than the webhook, which must not hold it up.
            await self.dispatcher.resend(record.id, record.version)
            await self.notifier.taken_over(record, seat, reason, bot=policy.leave_bot)
        return verdict

    async def autopilot(
        self, record: GameRecord, seat: int, on: bool, *, at_revision: bool = False
    ) -> AwayVerdict:
        policy = leave_policy(record, self.served.of(record))
        if on:
            await self.note_due(record.id)
        bot = policy.leave_bot if on else None
        verdict = await self.seats_away.autopilot(record, seat, bot, at_revision=at_revision)
        if verdict is AwayVerdict.DONE and on:
            await self.dispatcher.resend(record.id, record.version)
        return verdict

    async def note_due(self, game_id: str, *, owed: str | None = None) -> None:
        """Before a change of seats that may leave a bot's turn due (a seat handed to a
        bot, an open seat filled that starts the game): in the pending index,
        a process that dies between the change and sending the turn leaves it to the
        sweep (which takes the game out again if nothing is due). `owed`: the note of the
        webhook the change owes (a seat taken over: `webhooks_owed.left_member`), noted
        with it, in the same round trip."""
        prefix, at = self.store.prefix, now_ms()
        async with self.store.redis.pipeline(transaction=False) as pipe:
            note_moved(pipe, prefix, game_id, at)
            if owed is not None:
                note_owed(pipe, prefix, owed, at)
            await pipe.execute()

    async def _abort(self, record: GameRecord, reason: str) -> None:
        owed = aborted_member(record.id, record.version, reason)
        aborted = await self.store.transition(
            record.id,
            record.version,
            [GameStatus.ACTIVE, GameStatus.SCORING],
            GameStatus.ABORTED,
            now(),
            {"abort_reason": reason},
            owed=owed if self.notifier.due(record, "game.aborted") else None,
        )
        metrics.GAMES_FINISHED.labels(game=record.game, how="aborted").inc()
        if aborted:
            ended = replace(record, status=GameStatus.ABORTED, abort_reason=reason)
            await self.notifier.aborted(ended, reason)
            await self._ended(ended)

    async def nudge(self, record: GameRecord, prompts: Sequence[Prompt]) -> None:
        """Re-kick work that a crashed replica may have dropped (idempotent)."""
        due = record.status is GameStatus.SCORING or (
            record.status is GameStatus.ACTIVE and _prompted_bot(record, prompts) is not None
        )
        if due:
            await self.dispatcher.after_commit(record.id, record.version, moved=False)

    def work_due(self, record: GameRecord) -> bool:
        """Whether the workers owe this game a step at its version: scoring, or a bot
        that is prompted."""
        if record.status is GameStatus.SCORING:
            return True
        if record.status is not GameStatus.ACTIVE:
            return False
        game = self.served.of(record)
        return _prompted_bot(record, game.prompts(self.states.load(game, record.state))) is not None

    # --- clocks ------------------------------------------------------------------------

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
                await self._back_off("clocks", self.store.index.clocks, game_id)
        return len(due)

    async def _back_off(
        self, sweep: str, index: str, game_id: str, seen: int | None = None
    ) -> None:
        """The sweep could not look at `game_id`: count it, and look again later."""
        metrics.SWEEP_FAILURES.labels(sweep=sweep).inc()
        try:
            if seen is None:
                score = await self.store.redis.zscore(index, game_id)
                if score is None:
                    return
                seen = int(score)
            backoff = SweepBackoff(self.store.redis, self.store.prefix)
            delay = await backoff.failed(index, game_id, seen, now_ms(), SWEEP_BACKOFF_BASE_MS)
            log.warning("sweep_backed_off", sweep=sweep, game_id=game_id, delay_ms=delay)
        except Exception as error:
            log.error("sweep_back_off_failed", sweep=sweep, game_id=game_id, exc_info=error)

    async def enforce_clock(self, game_id: str) -> None:
        record = await self.store.load(game_id)
        if record is None:
            await self.store.schedule_clock(game_id, None)
            return
        clock = clock_of(record)
        overdue = clock.overdue(now_ms()) if clock else []
        if record.status is not GameStatus.ACTIVE or not overdue or record.clock_rules is None:
            await self.deadlines.note(record)
            return
        away = [seat for seat in overdue if bot_of(record, seat) is not None]
        if len(away) == len(overdue):
            # Every seat out of time is played by a bot already: its turn is what is due.
            await self.dispatcher.after_commit(record.id, record.version, moved=False)
            return
        seat = next(seat for seat in overdue if seat not in away)
        game = self.served.of(record)
        state = self.states.load(game, record.state)
        move: Move | None = None
        outcome: Outcome | None = None
        if record.clock_rules["on_timeout"] == "bot":
            level = default_leave_bot(game)
            try:
                move, outcome = await self._bot_choice(record, game, state, seat, level)
            except Exception as error:  # no bot move: the seat forfeits instead
                log.error("timeout_bot_failed", game_id=game_id, seat=seat, exc_info=error)
                move = None
        elif leave_policy(record, game).bot_takes_over:
            # The leave policy applies to a forfeit: the seat is abandoned, a bot plays on.
            verdict = await self.take_over(record, seat, reason=TIMEOUT, at_version=True)
            if verdict is AwayVerdict.DONE:
                log.info("clock_ran_out", game_id=game_id, seat=seat, policy="timeout_abandoned")
            else:
                await self.deadlines.renote(game_id)
            return
        if outcome is None:
            outcome = game.resign(state, seat)
        how = "timeout_bot" if move is not None else "timeout_forfeit"
        landed = await self._commit_unasked(record, game, seat, move, outcome, how, reason=TIMEOUT)
        if landed is CommitVerdict.COMMITTED:
            log.info("clock_ran_out", game_id=game_id, seat=seat, policy=how)
        else:
            await self.deadlines.renote(game_id)

    # --- games whose turn was lost -----------------------------------------------------

    async def resend_stalled(self, stall_seconds: float, limit: int = 100) -> int:
        """The sweep's second half: every game of the pending index that has not moved
        for `stall_seconds` gets its turn (or scoring) sent again if one is due, and
        leaves the index if none is. Returns how many turns it sent. Safe on any number
        of workers at once: each game is claimed by a compare-and-set on its score."""
        pending = PendingGames(self.store.redis, self.store.prefix)
        at = now_ms()
        sent = 0
        for game_id, seen in await pending.stalled(at - round(stall_seconds * 1000), limit):
            try:
                record = await self.store.load(game_id)
                if record is None or not self.work_due(record):
                    await pending.settle(game_id, seen)
                elif await pending.retry_at(game_id, seen, at):
                    await self.dispatcher.resend(record.id, record.version)
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
                await self._back_off("turns", pending.key, game_id, seen)
        return sent

    # --- webhooks whose sender died -----------------------------------------------------

    async def send_owed_webhooks(self, lease_seconds: float, limit: int = 100) -> int:
        """The sweep's part for changes whose webhooks were noted as owed
        (`services.store.webhooks_owed`) and not handed over within `lease_seconds`
        (their process died before it got to them): those that landed get them sent, as
        the notifier sends them; the others owe nothing. Returns how many changes'
        webhooks it sent. Safe on any number of workers at once: each note is claimed by
        a compare-and-set on its score."""
        owed = OwedWebhooks(self.store.redis, self.store.prefix)
        at = now_ms()
        sent = 0
        for member, seen in await owed.stalled(at - round(lease_seconds * 1000), limit):
            try:
                if not await owed.claim(member, seen, at):
                    continue  # another sweep has it
                if not await self._send_owed(member):
                    await owed.settle(member, at)  # it did not land, or the game expired
                    continue
                metrics.OWED_WEBHOOKS_SENT.inc()
                log.warning("owed_webhooks_sent", note=member, owed_ms=at - seen)
                sent += 1
            except Exception as error:
                log.error("owed_webhooks_failed", note=member, exc_info=error)
                await self._back_off("webhooks", owed.key, member)
        return sent

    async def _send_owed(self, member: str) -> bool:
        """Sends the webhooks of note `member` (taking it out) if its change landed, as
        the store holds it: the commit's entry is in the log; the seat's record says it
        left at that version, or holds that very claim; the game started; it was
        cancelled or aborted at that version with that reason. False if nothing is owed."""
        note = note_of(member)
        if note.kind is OwedKind.COMMIT:
            entry = await self.store.logged(note.game_id, note.version)
            # The log holds the entry of the commit noted, or another's: this one lost.
            if entry is None or owed_member(note.game_id, entry) != member:
                return False
            record = await self.store.load(note.game_id)
            if record is None:
                return False
            await self.notifier.committed(record, entry)
            return True
        record = await self.store.load(note.game_id)
        if record is None:
            return False
        # The other changes leave the version as it was: their webhooks are of the
        # version noted, whatever the game did since.
        then = replace(record, version=note.version)
        if note.kind is OwedKind.LEFT:
            return await self._send_left(note, then)
        if note.kind is OwedKind.CLAIMED:
            return await self._send_claimed(note, then, member)
        if note.kind is OwedKind.REPLACED:
            return await self._send_replaced(note, then, member)
        if note.kind is OwedKind.STARTED:
            # A game waits at one version: one that started did at the version noted.
            if record.started is None or record.status is GameStatus.WAITING:
                return False
            await self.notifier.started(then)
            return True
        return await self._send_ended(note, record, member)

    async def _send_left(self, note: OwedNote, then: GameRecord) -> bool:
        """seat.left of a seat taken over, if its record says it left at that version."""
        seat = note.seat
        if seat is None or not is_abandoned(then, seat):
            return False
        away = then.away[seat]
        if away.get("since") != note.version:
            return False
        reason = str(away.get("reason") or RESIGNED)
        await self.notifier.taken_over(then, seat, reason, bot=str(away["bot"]))
        return True

    async def _send_claimed(self, note: OwedNote, then: GameRecord, member: str) -> bool:
        """game.seat_claimed of an open seat, if the name and bot of that claim hold it
        (not another's that got there first), whatever its token is since."""
        seat = note.seat
        if seat is None or not 0 <= seat < then.players or seat in then.invites:
            return False
        taken_by = then.seats[seat]
        if claimed_member(then.id, note.version, seat, taken_by) != member:
            return False
        await self.notifier.seat_claimed(then, seat, taken_by)
        return True

    async def _send_replaced(self, note: OwedNote, then: GameRecord, member: str) -> bool:
        """seat.token_replaced, if the seat holds that very token (not one of a replacement
        that lost, nor of one made since)."""
        seat = note.seat
        if seat is None or not 0 <= seat < then.players:
            return False
        token_hash = then.seats[seat].token_hash
        if token_hash is None:
            return False
        for by in REPLACED_BY:
            if replaced_member(then.id, note.version, seat, by, token_hash) == member:
                await self.notifier.token_replaced(then, seat, by, token_hash)
                return True
        return False

    async def _send_ended(self, note: OwedNote, record: GameRecord, member: str) -> bool:
        """game.cancelled or game.aborted, if the game was aborted at that version with
        that reason (an abort decided there for another reason lost, or is another's;
        one at a later version is another's, with a note of its own)."""
        reason = record.abort_reason
        ended = record.status is GameStatus.ABORTED and record.version == note.version
        if not ended or reason is None:
            return False
        if note.kind is OwedKind.CANCELLED:
            if cancelled_member(record.id, note.version, reason) != member:
                return False
            await self.notifier.cancelled(record, reason)
            return True
        if aborted_member(record.id, note.version, reason) != member:
            return False
        await self.notifier.aborted(record, reason)
        return True

    async def give_up(self, game_id: str, version: int, reason: str) -> bool:
        """End a game whose step at `version` keeps killing the workers that take it:
        aborted with `reason`, rather than tried forever. False if it moved meanwhile."""
        record = await self.store.load(game_id)
        if record is None or record.version != version or not self.work_due(record):
            return False
        await self._abort(record, reason)
        return True


def _prompted_bot(record: GameRecord, prompts: Sequence[Prompt]) -> int | None:
    """A prompted seat that a bot plays: a bot seat, or one that left or stepped away."""
    for prompt in prompts:
        if bot_of(record, prompt.seat) is not None:
            return prompt.seat
    return None
