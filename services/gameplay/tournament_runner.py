"""Tournaments in the service: created by a platform, stored with compare-and-set, and
run by the workers.

A round's games are made by whoever starts the round: the request that creates the
tournament (round 1), then the worker that scores the last game of a round (the
referee calls `game_ended` after every game's end). The creating request (and its
Idempotency-Key retry) only opens the current round (`open_round`): with bots in the API
process, round 1's games may all end while it is still creating them, and stepping on
from there would play round after round before it answered; what is due then is left to
the scoring workers' `game_ended` and to the sweep, which steps such a tournament at once.
Each step reads the stored tournament and swaps in the next one with compare-and-set, so
concurrent workers cannot start a round twice, and every step may be run again: the games
of a table are created with an idempotency key derived from the tournament's secret, its
round and its table, so a second creation (a redelivered task) answers the same game, ids
and seat tokens; a round is marked announced only once its games exist and its
`tournament.round_started` webhook was sent.

Nothing else would step a tournament whose round's last report was lost (its worker
killed after scoring, the task never redelivered), so every step also notes the time in
the index of running tournaments (`RunningTournaments`), and the periodic sweep
(`sweep_stalled`) steps those not stepped for a while: `progress` records the results of
games that ended unreported and goes on. A finished tournament leaves the index. Each
step of a running tournament also renews its lifetime in Redis (a round waiting on a
table is never swapped), and a table whose game is gone (it expired unplayed, after
SKYPORT_ABANDONED_GAME_TTL) is void, so such a tournament neither expires with its results
nor waits for good.

Creating one with an Idempotency-Key derives its id and participant tokens from the key
(as a game's are): a retry answers the same tournament and creates nothing.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import random
import secrets
from collections import OrderedDict
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Literal, TypeVar, cast

import structlog
from pydantic import ValidationError

from services.engine import Result
from services.store import GameRecord, GameStatus
from services.store.tournaments import RunningTournaments, StoredDocument, TournamentStore

from . import metrics
from .auth import (
    Credentials,
    derived_token,
    hash_secret,
    new_salt,
    new_token,
    require_api_key,
)
from .clocks import now, now_ms
from .dispatch import WebhookSender
from .game_ids import new_game_id
from .participant_seats import ParticipantSeats
from .payloads import CreateGameRequest, SeatRequest
from .problems import (
    Problem,
    engine_facts,
    idempotency_key_reused,
    unauthorized,
    unprocessable,
)
from .records.document import Reason, known_reason
from .service import GameService, fingerprint
from .tournament_payloads import (
    MAX_TOURNAMENT_GAMES,
    CreatedParticipant,
    CreateTournamentRequest,
    MyRound,
    MyTournament,
    StoredTournament,
    TournamentCreated,
    TournamentDocument,
)
from .tournament_tags import TOURNAMENT_ID, table_tag, tournaments_tagged
from .tournament_tokens import (
    owed_replacement,
    participant_of,
    seat_generation_key,
    table_game_id,
    table_key,
    table_seat_token,
    token_generation,
)
from .tournament_views import tournament_document
from .tournaments import (
    InvalidTournament,
    Participant,
    Round,
    Tournament,
    TournamentSpec,
    create_tournament,
    is_finished,
    needs_schedule,
    published,
    record_result,
    scheduled_games,
    set_game_id,
    standings,
    standings_csv,
    start_next_round,
    tiebreak_name,
    total_rounds,
    with_schedule,
)

log = structlog.get_logger(__name__)

MAX_SWAPS = 64
"""Compare-and-set tries of one step before giving up (others keep winning)."""
SWAP_BACKOFF = 0.01
"""Most seconds to wait, at random, after losing a compare-and-set to another worker."""
SWEEP_BATCH = 20
"""Most stalled tournaments one sweep steps (the oldest first; the next sweep goes on)."""

_step_pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="tournament-step")
_read_pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="tournament-read")
"""Tournament work that takes CPU time in proportion to a tournament's size (reading its
stored document, a round robin's schedule, Swiss pairings, the API's document and the
standings) runs on pools of its own, never on the event loop nor in the loop's default
executor, which bot turns use: many reads of big tournaments at once wait for the read
pool, and neither bots nor the tournaments' own steps wait behind them."""

DOCUMENTS_KEPT = 8
"""Documents (and standings CSVs) a process keeps, each for one version of a tournament."""

T = TypeVar("T")


async def off_loop(pool: ThreadPoolExecutor, function: Callable[..., T], *args: Any) -> T:
    """`function(*args)` on one of the tournaments' pools (with this context, as
    `asyncio.to_thread` would)."""
    call = functools.partial(contextvars.copy_context().run, function, *args)
    return await asyncio.get_running_loop().run_in_executor(pool, call)


Outcome = Literal["running", "due", "over", "gave_up"]
"""How a `progress` left a tournament: still running (waiting on its round's tables), a
bounded step's stop with more to do (`due`: results to record, a round to start or the
end to announce), over (finished, gone, or refused for good), or not done (others kept
winning the compare-and-set)."""


def tournament_not_found(tournament_id: str) -> Problem:
    return Problem(
        404,
        "tournament_not_found",
        f"There is no tournament {tournament_id[:64]!r} (or it has expired).",
    )


class TournamentRunner:
    def __init__(
        self,
        service: GameService,
        store: TournamentStore,
        sender: WebhookSender | None,
        key_webhooks: Mapping[str, str],
    ) -> None:
        self.service = service
        self.store = store
        self.sender = sender
        self.key_webhooks = key_webhooks
        self.running = RunningTournaments(store.redis, store.prefix)
        self.participant_seats = ParticipantSeats(self._load, service.store, service.seat_tokens)
        self._reads: OrderedDict[tuple[Any, ...], asyncio.Future[Any]] = OrderedDict()
        """What `document` and `csv` made, by tournament, version and document: asked
        again (or while being made) it is answered from here, made once."""

    # --- creating ------------------------------------------------------------------

    async def create(
        self,
        who: Credentials,
        request: CreateTournamentRequest,
        idempotency_key: str | None = None,
    ) -> tuple[TournamentCreated, bool]:
        """A new tournament, its round 1 started, and its participants' tokens. Returns
        the answer and whether it is a replay: with an Idempotency-Key the id and tokens
        follow from the key (as `create_game`'s do), so a retry answers the same ones
        and creates nothing; the same key with another body is refused."""
        require_api_key(who, "Creating tournaments")
        request_print = fingerprint(_asked(request))
        tournament_id = (
            new_game_id(f"tournament\x00{who.scope}\x00{idempotency_key}")
            if idempotency_key
            else new_game_id()
        )
        if idempotency_key:
            first = await self.store.load(tournament_id)
            if first is not None:
                return await self._replayed(who, first.document, request_print, idempotency_key)
        game = self.service.served.named(request.game)
        if request.webhook_url is not None:
            await self.service.check_webhook_url(request.webhook_url, who)
        spec = TournamentSpec(
            game=game.id,
            options=request.options,
            seats_per_table=request.seats_per_table,
            participants=[Participant(name=p.name, bot=p.bot) for p in request.participants],
            format=request.format,
            seed=request.seed if request.seed is not None else secrets.randbits(63),
        )
        _check_size(spec)
        secret = secrets.token_urlsafe(24)
        try:
            # Made here once and stored: a round robin's schedule, which takes a few
            # tenths of a second at most (`_check_size` bounds it), off the loop.
            tournament, _ = await off_loop(_step_pool, _first_round, spec, game, secret)
        except InvalidTournament as error:
            raise unprocessable(error.code, error.message, **engine_facts(error.details)) from None
        _check_scheduled_size(tournament)
        salt = new_salt()
        tokens = [
            _participant_token(salt, who, idempotency_key, n) if idempotency_key else new_token()
            for n in range(len(spec.participants))
        ]
        at = now()
        stored = StoredTournament(
            id=tournament_id,
            tournament=tournament,
            creator=who.scope,
            secret=secret,
            token_hashes=[hash_secret(token) for token in tokens],
            webhooks=list(
                dict.fromkeys(
                    url for url in (request.webhook_url, self.key_webhooks.get(who.scope)) if url
                )
            ),
            created_at=at,
            updated_at=at,
            create_fingerprint=request_print,
            token_salt=salt,
            clock=request.clock,
            on_leave=request.on_leave,
        )
        stored = stored.model_copy(update={"tournament": self._with_game_ids(stored, tournament)})
        # Indexed first: if this request dies before round 1's games exist, the sweep
        # makes them (an entry whose tournament never got stored leaves at the sweep).
        await self.running.stepped(tournament_id, now_ms())
        if not await self.store.create(tournament_id, stored.model_dump_json()):
            if idempotency_key:
                # the same key, sent twice at once: the other one's tournament stands
                first = await self.store.load(tournament_id)
                if first is not None:
                    return await self._replayed(who, first.document, request_print, idempotency_key)
            raise Problem(409, "tournament_exists", "Try again.")
        await self.open_round(tournament_id)
        log.info("tournament_created", tournament_id=tournament_id, participants=len(tokens))
        return _created_answer(stored, tokens), False

    async def _replayed(
        self, who: Credentials, document: str, request_print: str, idempotency_key: str
    ) -> tuple[TournamentCreated, bool]:
        """The answer of the first creation with this key (and what it left undone, done:
        the first request may have died before its round 1's games were created)."""
        stored = await self._scheduled(await _parsed(document))
        if stored.create_fingerprint != request_print or stored.token_salt is None:
            raise idempotency_key_reused()
        await self.open_round(stored.id)
        metrics.IDEMPOTENT_REPLAYS.inc()
        tokens = [
            _participant_token(stored.token_salt, who, idempotency_key, index)
            for index in range(len(stored.tournament.spec.participants))
        ]
        return _created_answer(stored, tokens), True

    # --- reading -------------------------------------------------------------------

    async def document(self, tournament_id: str) -> TournamentDocument:
        document: TournamentDocument = await self._read(tournament_id, _document_of)
        return document

    async def csv(self, tournament_id: str) -> str:
        text: str = await self._read(tournament_id, _csv_of)
        return text

    async def _read(self, tournament_id: str, make: Callable[[str], T]) -> T:
        """`make(stored document)`, made on the read pool once per version of the
        tournament in this process, however many ask at once (anyone may, and a
        finished tournament of 4,096 games takes about a CPU-second)."""
        found = await self._found(tournament_id)
        key = (make, tournament_id, found.version, hash(found.document))
        future = self._reads.get(key)
        if future is None or future.get_loop() is not asyncio.get_running_loop():
            future = asyncio.ensure_future(off_loop(_read_pool, make, found.document))
            future.add_done_callback(lambda done: self._forget_failed(key, done))
            self._reads[key] = future
            while len(self._reads) > DOCUMENTS_KEPT:
                self._reads.popitem(last=False)
        else:
            self._reads.move_to_end(key)
        made: T = await asyncio.shield(future)
        return made

    def _forget_failed(self, key: tuple[Any, ...], done: asyncio.Future[Any]) -> None:
        if done.cancelled() or done.exception() is not None:
            self._reads.pop(key, None)

    async def mine(self, tournament_id: str, who: Credentials) -> MyTournament:
        """The caller's rounds and seat tokens, for their participant token."""
        if who.bearer is None or who.token_hash is None:
            raise unauthorized("participant_token_required", "Send your participant token.")
        stored, version = await self._load(tournament_id)
        index = participant_of(stored.token_hashes, who.token_hash)
        if index is None:
            raise unauthorized("invalid_token", "That token is not a participant of this event.")
        participant = stored.tournament.spec.participants[index]
        rounds: list[MyRound] = []
        for round_ in stored.tournament.rounds:
            if index in round_.byes:
                rounds.append(
                    MyRound(
                        number=round_.number,
                        bye=True,
                        table=None,
                        seat=None,
                        game_id=None,
                        seat_token=None,
                    )
                )
                continue
            for table in round_.tables:
                if index not in table.seats:
                    continue
                seat = table.seats.index(index)
                token, replaced = None, False
                if participant.bot is None:
                    token, replaced = await self._seat_token(
                        stored, round_.number, table.number, seat, index
                    )
                rounds.append(
                    MyRound(
                        number=round_.number,
                        bye=False,
                        table=table.number,
                        seat=seat,
                        game_id=table.game_id,
                        seat_token=token,
                        token_replaced=replaced,
                    )
                )
        await self._still_holder(tournament_id, version, who.token_hash, index)
        return MyTournament(
            id=stored.id,
            participant=index,
            name=participant.name,
            bot=participant.bot,
            rounds=rounds,
        )

    async def _still_holder(
        self, tournament_id: str, version: int, token_hash: str, index: int
    ) -> None:
        """Refuse if the caller's token was replaced while `/me` read the tables (from
        the tournament at `version`): a table made after the replacement has a seat
        token only the new token may read."""
        found = await self._found(tournament_id)
        if found.version == version:
            return
        stored = await _parsed(found.document, _read_pool)
        if participant_of(stored.token_hashes, token_hash) != index:
            raise unauthorized("invalid_token", "That token is not a participant of this event.")

    async def _seat_token(
        self,
        stored: StoredTournament,
        round_number: int,
        table: int,
        seat: int,
        participant: int,
    ) -> tuple[str | None, bool]:
        """The seat's token as the tournament derived it - when the game was made, or
        when its participant's token was replaced while the table was in play - and
        whether it was replaced since by other means (then None: it no longer works)."""
        record = await self.service.store.load(table_game_id(stored, round_number, table))
        if record is None:
            return None, False
        set_then = stored.seat_generations.get(
            seat_generation_key(round_number, table, participant), []
        )
        current = token_generation(stored, participant)
        for made in dict.fromkeys((current, *reversed(set_then), 0)):
            token = table_seat_token(record, stored, round_number, table, seat, made)
            if record.seats[seat].token_hash == hash_secret(token):
                return token, False
        return None, True

    async def stored(self, tournament_id: str) -> tuple[StoredTournament, int]:
        """The stored tournament and its version (404 if there is none)."""
        return await self._load(tournament_id)

    async def changed(self, stored: StoredTournament, version: int, **update: Any) -> bool:
        """Store `stored` with `update` if it is still at `version` (compare-and-set)."""
        return await self._swap(stored, version, **update)

    # --- running -------------------------------------------------------------------

    async def game_ended(self, record: GameRecord) -> None:
        """A game finished (or was aborted): if it is a table of a tournament, record
        its result there, and start the next round if that was the round's last."""
        tagged = tournaments_tagged(record.tags)
        if not tagged:
            return
        tournament_id = tagged[0]
        result = _engine_result(record)
        if record.status is GameStatus.FINISHED and result is None:
            return  # not scored yet: the scoring calls again
        left = self._left_reasons(record) if result is not None else {}
        for _ in range(MAX_SWAPS):
            found = await self.store.load(tournament_id)
            if found is None:
                return
            stored = await self._scheduled(await _parsed(found.document))
            place = _table_of(stored.tournament, record.id)
            if place is None:
                return  # a game merely tagged so, not one of its tables
            round_number, table = place
            try:
                updated = record_result(stored.tournament, round_number, table, result)
            except InvalidTournament as error:
                log.error(
                    "tournament_result_refused", tournament_id=tournament_id, error=str(error)
                )
                return
            if updated is stored.tournament:
                break  # recorded before (a redelivered task)
            reasons = _with_left_reasons(stored, {record.id: left})
            if await self._swap(stored, found.version, **_recorded(updated), **reasons):
                log.info(
                    "tournament_table_done",
                    tournament_id=tournament_id,
                    round=round_number,
                    table=table,
                )
                break
            await asyncio.sleep(random.uniform(0, SWAP_BACKOFF))
        else:
            log.warning("tournament_result_deferred", tournament_id=tournament_id, game=record.id)
        await self.progress(tournament_id)

    async def progress(self, tournament_id: str) -> None:
        """Do what is due, step by step, each a compare-and-set: create the current
        round's games and announce it, start the next round once this one is done, or
        announce the end. Safe to run any number of times, anywhere, at once. Notes the
        step in the index of running tournaments (or takes a finished one out)."""
        await self._noted(tournament_id, await self._progress(tournament_id))

    async def open_round(self, tournament_id: str) -> None:
        """A bounded `progress`, for a request: create the current round's games and
        announce it if that is not done yet, and nothing more, so that a request creates
        at most one round's games however fast bots play them. What else is due (the
        round's results, the next round, the end) is left to `game_ended`, which every
        game's end calls, and to the sweep, told to step the tournament at its next
        pass: nothing is lost if the round's games all ended before this returned."""
        await self._noted(tournament_id, await self._progress(tournament_id, bounded=True))

    async def _noted(self, tournament_id: str, outcome: Outcome) -> None:
        """Note a step in the index of running tournaments (or take a finished one out)."""
        if outcome in ("running", "due"):
            # Only a compare-and-set swap renewed its lifetime: a round waiting on a table
            # longer than that lost the tournament and every result. The sweep steps a
            # running tournament every SKYPORT_TASK_STALL_SECONDS, so this keeps it.
            await self.store.keep(tournament_id)
            # One left with more to do is noted as stepped long ago: the next sweep steps
            # it first (should no game's end step it before).
            await self.running.stepped(tournament_id, now_ms() if outcome == "running" else 0)
        elif outcome == "over":
            await self.running.ended(tournament_id)

    async def sweep_stalled(self, stall_seconds: float, limit: int = SWEEP_BATCH) -> int:
        """The periodic sweep's part for tournaments: step each running one not stepped
        for `stall_seconds` (up to `limit`, oldest first). Safe on any number of sweepers
        at once: each stalled entry is claimed by a compare-and-set on its score, and a
        step is a compare-and-set anyway. Returns how many it stepped."""
        at = now_ms()
        stepped = 0
        for tournament_id, seen in await self.running.stalled(
            at - round(stall_seconds * 1000), limit
        ):
            try:
                if await self.running.claim(tournament_id, seen, at):
                    await self.progress(tournament_id)
                    stepped += 1
            except Exception as error:
                log.error("tournament_sweep_failed", tournament_id=tournament_id, exc_info=error)
        return stepped

    async def _progress(self, tournament_id: str, bounded: bool = False) -> Outcome:
        """The steps of `progress`; `bounded`, only opening the current round (at most
        one round's games), then `due` if more is to be done."""
        opened = 0
        """The round this step opened (its games created, its start announced)."""
        settled = False
        for _ in range(MAX_SWAPS):
            found = await self.store.load(tournament_id)
            if found is None:
                return "over"
            stored = await self._scheduled(await _parsed(found.document))
            if stored.tokens_owed and not settled:
                # What a participant-token replacement owes: usually settled by the
                # replacement itself; here if its process died first.
                settled = True
                try:
                    await self.settle_tokens(tournament_id)
                except Exception as error:  # the tournament plays on; the next step retries
                    log.error(
                        "participant_tokens_unsettled", tournament_id=tournament_id, exc_info=error
                    )
                continue
            tournament = stored.tournament
            if tournament.rounds and stored.announced < len(tournament.rounds):
                round_ = tournament.rounds[-1]
                if opened != round_.number:
                    if bounded and opened:
                        return "due"  # another round, started since: its starter opens it
                    await self._open_tables(stored, round_)
                    await self._announce_round(stored, round_)
                    opened = round_.number
                # Lost to a result recorded meanwhile, it only marks the round announced
                # again: its games exist and its webhook went (they are not made again
                # for every result a round's fast tables record while it is opened).
                if not await self._swap(stored, found.version, announced=len(tournament.rounds)):
                    await asyncio.sleep(random.uniform(0, SWAP_BACKOFF))
                continue
            if bounded:
                if tournament.rounds and not tournament.rounds[-1].done:
                    return "running"
                if is_finished(tournament) and stored.finish_announced:
                    return "over"
                return "due"
            if tournament.rounds and not tournament.rounds[-1].done:
                ended = await self._ended_unrecorded(tournament.rounds[-1])
                if not ended:
                    return "running"
                updated = tournament
                try:
                    for done in ended:
                        updated = record_result(updated, done.round, done.table, done.result)
                except InvalidTournament as error:
                    log.error(
                        "tournament_result_refused", tournament_id=tournament_id, error=str(error)
                    )
                    return "over"  # stepping it again would be refused again
                reasons = _with_left_reasons(stored, {done.game_id: done.left for done in ended})
                if await self._swap(stored, found.version, **_recorded(updated), **reasons):
                    log.warning(
                        "tournament_results_recovered",
                        tournament_id=tournament_id,
                        tables=len(ended),
                    )
                else:
                    await asyncio.sleep(random.uniform(0, SWAP_BACKOFF))
                continue
            if is_finished(tournament):
                if stored.finish_announced:
                    return "over"
                at = stored.finished_at or now()
                await self._announce_end(stored.model_copy(update={"finished_at": at}))
                await self._swap(stored, found.version, finished_at=at, finish_announced=True)
                continue
            try:
                # Seeds keyed by the secret. A tournament that was running before they
                # were keeps its earlier rounds (and their games) as they were dealt;
                # only the rounds made from now on get keyed seeds.
                advanced, _ = await off_loop(
                    _step_pool, start_next_round, tournament, stored.secret
                )
            except InvalidTournament as error:
                log.error("tournament_round_refused", tournament_id=tournament_id, error=str(error))
                return "over"
            if await self._swap(
                stored, found.version, tournament=self._with_game_ids(stored, advanced)
            ):
                log.info(
                    "tournament_round_started",
                    tournament_id=tournament_id,
                    round=len(advanced.rounds),
                )
        log.warning("tournament_progress_gave_up", tournament_id=tournament_id)
        return "gave_up"

    async def _ended_unrecorded(self, round_: Round) -> list[_Ended]:
        """Tables of the round whose game ended but whose result is not recorded yet
        (its worker lost every compare-and-set, or died): their results, to record now."""
        waiting = [t for t in round_.tables if not t.done and t.game_id is not None]
        if not waiting:
            return []
        store = self.service.store
        async with store.redis.pipeline(transaction=False) as pipe:
            for table in waiting:
                pipe.hget(store.keys(cast(str, table.game_id)).record, "status")
            statuses = await pipe.execute()
        ended: list[_Ended] = []
        for table, status in zip(waiting, statuses, strict=True):
            if status is not None and status not in (
                GameStatus.FINISHED.value,
                GameStatus.ABORTED.value,
            ):
                continue
            record = await store.load(cast(str, table.game_id))
            if record is None:
                # Its games are made before a round is announced (only then is this
                # asked): the game expired unplayed. Nobody can finish it; void.
                log.warning(
                    "tournament_table_game_gone", game_id=table.game_id, round=round_.number
                )
                ended.append(
                    _Ended(round_.number, table.number, cast(str, table.game_id), None, {})
                )
                continue
            result = _engine_result(record)
            if record.status is GameStatus.FINISHED and result is None:
                continue
            left = self._left_reasons(record) if result is not None else {}
            ended.append(_Ended(round_.number, table.number, record.id, result, left))
        return ended

    @staticmethod
    def _left_reasons(record: GameRecord) -> dict[int, Reason]:
        """Why each seat of a finished table's game that left did, as its scored
        standings say (`left_reason`: the scoring read it from the record or the
        resignation's log entry). Results scored before reasons were kept say none."""
        standings = (record.standings or {}).get("standings") or []
        found = {s.get("seat"): known_reason(s.get("left_reason")) for s in standings}
        return {seat: reason for seat, reason in found.items() if reason is not None}

    async def _open_tables(self, stored: StoredTournament, round_: Round) -> None:
        """Create every table's game of the round (again: the same games, answered from
        their idempotency keys)."""
        spec = stored.tournament.spec
        who = Credentials(bearer=None, client_ip="", platform=True, acting_for=stored.creator)
        for table in round_.tables:
            request = CreateGameRequest(
                game=spec.game,
                seats=[
                    SeatRequest(name=spec.participants[p].name, bot=spec.participants[p].bot)
                    for p in table.seats
                ],
                options=spec.options,
                seed=table.seed,
                tags=[table_tag(stored.id)],
                clock=stored.clock,
                on_leave=stored.on_leave,
            )
            key = table_key(stored, round_.number, table.number)
            created, _ = await self.service.create_game(who, request, key)
            if created.id != table.game_id:
                log.error("tournament_game_id_mismatch", tournament_id=stored.id, game=created.id)

    def _with_game_ids(self, stored: StoredTournament, tournament: Tournament) -> Tournament:
        round_ = tournament.rounds[-1]
        for table in round_.tables:
            if table.game_id is None:
                tournament = set_game_id(
                    tournament,
                    round_.number,
                    table.number,
                    table_game_id(stored, round_.number, table.number),
                )
        return tournament

    async def _swap(self, stored: StoredTournament, version: int, **update: Any) -> bool:
        changed = stored.model_copy(update={**update, "updated_at": now()})
        return await self.store.swap(stored.id, version, changed.model_dump_json())

    async def _scheduled(self, stored: StoredTournament) -> StoredTournament:
        """The tournament with its round robin's schedule: one stored before schedules
        were kept makes it now (off the loop; the next compare-and-set stores it), so
        that `is_finished` and `total_rounds` never make it on the event loop."""
        if not needs_schedule(stored.tournament):
            return stored
        tournament = await off_loop(_step_pool, with_schedule, stored.tournament)
        return stored.model_copy(update={"tournament": tournament})

    async def _load(self, tournament_id: str) -> tuple[StoredTournament, int]:
        found = await self._found(tournament_id)
        return await _parsed(found.document, _read_pool), found.version

    async def _found(self, tournament_id: str) -> StoredDocument:
        if not TOURNAMENT_ID.fullmatch(tournament_id):
            raise tournament_not_found(tournament_id)
        found = await self.store.load(tournament_id)
        if found is None:
            raise tournament_not_found(tournament_id)
        return found

    # --- webhooks ------------------------------------------------------------------

    async def _announce_round(self, stored: StoredTournament, round_: Round) -> None:
        tables = [
            {"table": t.number, "game_id": t.game_id, "participants": t.seats}
            for t in round_.tables
        ]
        await self._send(
            stored,
            f"{stored.id}:round:{round_.number}:tournament.round_started",
            "tournament.round_started",
            {"round": round_.number, "tables": tables, "byes": round_.byes},
        )

    async def settle_tokens(self, tournament_id: str) -> None:
        """Finish what replacements of participant tokens owe (`tokens_owed`): their
        seats' tokens set, then the platform told; then strike them off."""
        stored, _ = await self._load(tournament_id)
        owed = dict(stored.tokens_owed)
        if not owed:
            return
        replaced = {key: owed_replacement(key) for key in owed}
        for participant in sorted({p for p, _ in replaced.values()}):
            await self.participant_seats.settle(tournament_id, participant)
        for key, (participant, generation) in replaced.items():
            await self.announce_token_replaced(stored, participant, owed[key], generation)
        for _ in range(MAX_SWAPS):
            stored, version = await self._load(tournament_id)
            left = {key: by for key, by in stored.tokens_owed.items() if key not in owed}
            if len(left) == len(stored.tokens_owed):
                return
            if await self._swap(stored, version, tokens_owed=left):
                return
            await asyncio.sleep(random.uniform(0, SWAP_BACKOFF))

    async def announce_token_replaced(
        self, stored: StoredTournament, participant: int, by: str, generation: int
    ) -> None:
        """tournament.participant_token_replaced: who did it (the participant's own token,
        perhaps a leaked one, or the creating API key), never the token. Sent after a
        change that stands: a failure to hand it over is logged, not raised."""
        name = stored.tournament.spec.participants[participant].name
        try:
            await self._send(
                stored,
                f"{stored.id}:participant:{participant}:{generation}"
                ":tournament.participant_token_replaced",
                "tournament.participant_token_replaced",
                {"participant": participant, "name": name, "by": by},
            )
        except Exception as error:
            log.error("tournament_webhook_not_sent", tournament_id=stored.id, error=repr(error))

    async def _announce_end(self, stored: StoredTournament) -> None:
        rows = [row.model_dump(mode="json") for row in standings(stored.tournament)]
        await self._send(
            stored,
            f"{stored.id}:tournament.finished",
            "tournament.finished",
            {
                "standings": rows,
                "tiebreak": tiebreak_name(stored.tournament),
                "finished_at": stored.finished_at,
            },
        )

    async def _send(
        self, stored: StoredTournament, event_id: str, event_type: str, body: dict[str, Any]
    ) -> None:
        if self.sender is None or not stored.webhooks:
            return
        payload = {
            "id": event_id,
            "type": event_type,
            "tournament_id": stored.id,
            "game": stored.tournament.spec.game,
            "at": now(),
            **body,
        }
        for url in stored.webhooks:
            await self.sender.send_webhook(event_id, event_type, url, payload)


# --- pure helpers ------------------------------------------------------------------------


def _participant_token(salt: str, who: Credentials, idempotency_key: str, index: int) -> str:
    """A participant's token when the tournament was created with an Idempotency-Key:
    a retry hands out the same tokens without the service keeping them."""
    return derived_token(salt, who.scope, f"tournament:{idempotency_key}", index)


def _asked(request: CreateTournamentRequest) -> dict[str, Any]:
    """The request as its Idempotency-Key's fingerprint reads it. Fields added later
    (`clock`, `on_leave`) count only when sent, so a retry of a tournament created
    before they existed still matches its first request."""
    asked = request.model_dump(mode="json")
    for name in ("clock", "on_leave"):
        if asked.get(name) is None:
            asked.pop(name, None)
    return asked


def _created_answer(stored: StoredTournament, tokens: list[str]) -> TournamentCreated:
    tournament = stored.tournament
    spec = tournament.spec
    return TournamentCreated(
        id=stored.id,
        game=spec.game,
        format=spec.format.kind,
        rounds_total=total_rounds(tournament),
        participants=[
            CreatedParticipant(participant=index, name=p.name, bot=p.bot, token=token)
            for index, (p, token) in enumerate(zip(spec.participants, tokens, strict=True))
        ],
    )


def _check_size(spec: TournamentSpec) -> None:
    """Refuse, before any work, a tournament whose games would be too many. A round
    robin's count here is the least any schedule could play; every size this admits
    (at most 256 participants) makes its schedule in a few tenths of a CPU-second at
    most (measured over every size at tables of 3 to 8)."""
    n, k = len(spec.participants), spec.seats_per_table
    rounds = getattr(spec.format, "rounds", None) or (k if spec.format.kind == "duplicate" else 0)
    if spec.format.kind == "round_robin":
        # every pair meets: at least n(n-1)/2 pairs, at most k(k-1)/2 a table
        games = -(-n * (n - 1) // max(1, k * (k - 1)))
    else:
        games = rounds * (n // max(1, k))
    if games > MAX_TOURNAMENT_GAMES:
        raise _too_large(f"This tournament would play {games} games or more")


def _check_scheduled_size(tournament: Tournament) -> None:
    """Refuse a round robin whose schedule plays too many games (the greedy schedule at
    tables of three or more plays up to 2.4 times the least `_check_size` counted)."""
    games = scheduled_games(tournament)
    if games is not None and games > MAX_TOURNAMENT_GAMES:
        raise _too_large(f"This round robin's schedule plays {games} games")


def _too_large(what: str) -> Problem:
    return unprocessable(
        "tournament_too_large",
        f"{what}; at most {MAX_TOURNAMENT_GAMES} are allowed.",
        limit=MAX_TOURNAMENT_GAMES,
    )


@dataclass(frozen=True)
class _Ended:
    """A table whose game ended: its result (None: void) and why seats left it."""

    round: int
    table: int
    game_id: str
    result: Result | None
    left: dict[int, Reason]


def _with_left_reasons(
    stored: StoredTournament, left: Mapping[str, dict[int, Reason]]
) -> dict[str, Any]:
    """The field to store with new results: why seats left, by game id (games where
    nobody left add nothing)."""
    added = {game_id: seats for game_id, seats in left.items() if seats}
    if not added:
        return {}
    return {"left_reasons": {**stored.left_reasons, **added}}


def _recorded(tournament: Tournament) -> dict[str, Any]:
    """The fields to store with new results: the end's time too, if that was the last."""
    fields: dict[str, Any] = {"tournament": tournament}
    if is_finished(tournament):
        fields["finished_at"] = now()
    return fields


async def _parsed(document: str, pool: ThreadPoolExecutor = _step_pool) -> StoredTournament:
    """The stored tournament, read off the loop (a big one's document is megabytes): on
    the step pool for the tournament's steps, on the read pool for the API's reads."""
    return await off_loop(pool, StoredTournament.model_validate_json, document)


def _document_of(document: str) -> TournamentDocument:
    stored = StoredTournament.model_validate_json(document)
    tournament = with_schedule(stored.tournament)  # one stored before schedules were kept
    return tournament_document(stored.model_copy(update={"tournament": tournament}))


def _csv_of(document: str) -> str:
    return standings_csv(published(StoredTournament.model_validate_json(document).tournament))


def _first_round(spec: TournamentSpec, game: Any, secret: str) -> tuple[Tournament, Round]:
    return start_next_round(create_tournament(spec, game), secret)


def _table_of(tournament: Tournament, game_id: str) -> tuple[int, int] | None:
    for round_ in reversed(tournament.rounds):
        for table in round_.tables:
            if table.game_id == game_id:
                return round_.number, table.number
    return None


def _engine_result(record: GameRecord) -> Result | None:
    """The engine's result as the game's stored standings say (None: aborted, or not
    scored yet)."""
    if record.status is not GameStatus.FINISHED or record.standings is None:
        return None
    stored = record.standings
    try:
        return Result.model_validate(
            {
                "standings": [
                    {
                        "seat": s["seat"],
                        "score": s["score"],
                        "breakdown": s["breakdown"],
                        "rank": s["rank"],
                    }
                    for s in stored["standings"]
                ],
                "winners": stored["winners"],
                "opponent": stored.get("opponent"),
                "summary": stored.get("summary"),
            }
        )
    except (KeyError, ValidationError) as error:
        log.error("tournament_result_unreadable", game_id=record.id, error=repr(error))
        return None
