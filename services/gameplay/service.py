"""The one service layer: creating games, reading them, moving, resigning, events,
results and listings. REST routes and GraphQL resolvers both call this and nothing else,
so every rule (auth, redaction, compare-and-set, idempotency) lives here once. What
follows a commit is the commit pipeline's (`commits.py`); what happens between requests
is the referee's (`referee.py`).
"""

from __future__ import annotations

import asyncio
import hmac
import re
import secrets
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

import orjson
import redis.exceptions
import structlog

from services.ai.bot import levels_for
from services.engine import Game, GameError, GameState, IllegalMove, Move, Outcome, seats_to_act
from services.store import (
    FINAL_STATUSES,
    RESIGNED,
    Commit,
    CommitOutcome,
    CommitVerdict,
    GameRecord,
    GameStatus,
    GameStore,
    KeptAnswer,
    LiveStatus,
    LiveUpdates,
    SeatRecord,
)
from services.store.seats import OpenSeats, SeatTokens

from . import idempotency, metrics
from .archive import ArchivedRecord, RecordArchive, archived_from_store, full_log
from .auth import (
    Credentials,
    derived_token,
    hash_secret,
    new_salt,
    new_token,
    require_api_key,
    seat_of,
)
from .clocks import clock_info, clock_of, first_clock, now, now_ms
from .commits import CommitPipeline, commit_of, due_on_creation
from .creation_quota import CreationQuota
from .deals import DealsInPlay
from .game_ids import created_game_id
from .idempotency import fingerprint
from .invites import Invites, expiry_text, invites_for
from .leavers import (
    ABANDONED,
    AUTOPILOT,
    AwayVerdict,
    check_autopilot_allowed,
    is_abandoned,
    leave_policy,
    leave_policy_of_request,
    on_autopilot,
)
from .listing import Listing
from .lobby import LobbyDesk
from .lobby_join import LobbyJoin
from .lobby_tables import LobbyTables
from .outages import StoreOutage
from .parsed_states import ParsedStates
from .payloads import (
    CURSOR_PATTERN,
    GAME_ID_PATTERN,
    GAME_TYPE_PATTERN,
    MAX_EVENTS_PAGE,
    MAX_GAMES_PAGE,
    MAX_VERSION,
    TAG_PATTERN,
    AutopilotDocument,
    Catalog,
    CreatedSeat,
    CreateGameRequest,
    EventsPage,
    GameCreated,
    GameDocument,
    GameList,
    GameResult,
    GameSummaryDocument,
    LegalMovesDocument,
    LogEntryDocument,
    MoveAccepted,
    RecordList,
    RecordSummary,
    SeatInfo,
    VersionView,
)
from .problems import (
    STORE_ERRORS,
    Problem,
    bad_request,
    conflict,
    forbidden,
    from_game_error,
    idempotency_key_reused,
    move_unconfirmed,
    not_found,
    unauthorized,
    unprocessable,
    version_conflict,
)
from .recent_records import RecentRecords
from .records import Record, ReplayMismatch
from .referee import Referee
from .rematches import RematchDesk
from .results import result_of
from .seat_tokens import TokenDesk
from .seats import SeatDesk, check_seat
from .served import ServedGames
from .version_views import VersionViews
from .visibility import Viewer, entry_for, prompts_for, seat_infos
from .webhook_targets import check_webhook_url

log = structlog.get_logger(__name__)

GAME_ID = re.compile(GAME_ID_PATTERN)
GAME_TYPE = re.compile(GAME_TYPE_PATTERN)
TAG = re.compile(TAG_PATTERN)
CURSOR = re.compile(CURSOR_PATTERN)

MAX_COMMIT_ATTEMPTS = 8
"""Retries of a move sent without expected_version when other moves keep winning."""

Action = Callable[[Game, GameState, int], tuple[Move | None, Outcome]]
"""What a seat does to a private copy of the state: a move, or resigning."""


@dataclass(frozen=True)
class FeedEntry:
    entry: LogEntryDocument


@dataclass(frozen=True)
class FeedStart:
    """The last open seat of a game that waited for players was filled: it is active,
    and these seats are prompted. It comes after version 0, before any entry."""

    version: int
    at: str
    turn: list[int]


@dataclass(frozen=True)
class FeedEnd:
    """The game is over (finished or aborted) and every entry has been sent."""

    version: int
    status: GameStatus
    result: GameResult | None
    reason: str | None = None
    """Why an aborted game was stopped (e.g. its creator cancelled it while it waited)."""


@dataclass(frozen=True)
class FeedSeat:
    """A seat's status, sent when it changes without a commit (the seat left under
    `bot_takes_over`, by resigning or running out of time; its autopilot went on or off),
    and, for every seat a bot plays for now, once the reader has caught up with the log
    (so one who connects or reconnects later still learns it). A status, not an event:
    a reader may get the same status again after reconnecting."""

    seat: int
    abandoned: bool
    autopilot: bool
    version: int
    """The game version the status holds from: the version the seat left or stepped
    away at; for a seat back in play, the version it was seen back at (the change rings
    at once, so that is the version it came back at unless a move came in between)."""
    at: str
    """When the seat left or stepped away; for a seat back in play, when it was seen."""
    reason: str | None = None
    """Why an abandoned seat left: "resigned" or "timeout" (None: in play, on autopilot,
    or it left before reasons were kept)."""


@dataclass(frozen=True)
class FeedLobby:
    """The seats of a game that waits for players, as everyone sees them, whenever they
    change (an open seat claimed, an invite reissued) and once when a reader catches up
    while it waits; the last one, with every seat filled, comes just before the start.
    A status, not an event: a reader may get the same seats again after reconnecting."""

    seats: list[SeatInfo]


@dataclass(frozen=True)
class FeedIdle:
    """Nothing happened for a while (time for a keep-alive)."""


FeedItem = FeedEntry | FeedStart | FeedLobby | FeedSeat | FeedEnd | FeedIdle


@dataclass
class GameService:
    store: GameStore
    served: ServedGames
    live: LiveUpdates
    pipeline: CommitPipeline
    referee: Referee
    anonymous_create: bool = True
    keepalive: float = 15.0
    outage_limit: float = 60.0
    """Seconds a live reader waits for a store it cannot reach before its feed ends."""
    key_webhooks: Mapping[str, str] = field(default_factory=dict)
    """Callback URL per API key scope (`Credentials.scope`): every game it creates."""
    webhook_allow_private: bool = False
    """Whether a game's webhook URL may name a private or cluster-internal host."""
    archive: RecordArchive | None = None
    """Where finished games' records are kept; None: built from the live game only."""
    invite_ttl: int = 24 * 3600
    """Seconds open seats' invite codes are valid unless a creation asks otherwise."""
    states: ParsedStates = field(default_factory=ParsedStates)
    recent: RecentRecords = field(default_factory=RecentRecords)
    version_views: VersionViews = field(default_factory=VersionViews)
    creation_quota: CreationQuota | None = None
    """Games an IP may create per hour without an API key; None: no limit."""
    deals: DealsInPlay | None = None
    """Tournament deals still in play, which a finished table's full read waits for."""

    @property
    def games(self) -> Mapping[str, Game]:
        return self.served.games

    @cached_property
    def seats(self) -> SeatDesk:
        """Open seats: claiming, filling with a bot, cancelling a waiting game."""
        return SeatDesk(
            self._load, self.served, self.referee, OpenSeats(self.store), self.invite_ttl
        )

    @cached_property
    def rematches(self) -> RematchDesk:
        """Finished games played again by the same players."""
        return RematchDesk(self, self._load)

    @cached_property
    def lobby(self) -> LobbyDesk:
        """The public lobby: listed games' open seats, for anyone to claim."""
        return LobbyDesk(self.store, self.served)

    @cached_property
    def lobby_join(self) -> LobbyJoin:
        """Taking the first open seat the lobby has, in one call."""
        return LobbyJoin(self.store, self.lobby, self.seats, LobbyTables(self))

    @cached_property
    def seat_tokens(self) -> TokenDesk:
        """Taken seats' tokens replaced (lost or leaked)."""
        archived_ttl_ms = self.archive.ttl_ms if self.archive is not None else None
        return TokenDesk(self._load, SeatTokens(self.store, archived_ttl_ms), self.referee.notifier)

    # --- creating ------------------------------------------------------------------

    async def _count_creation(
        self, who: Credentials, game_id: str, idempotency_key: str | None
    ) -> None:
        """Counts an anonymous creation against its IP's quota. Over it, a retry of a
        creation that went through (same idempotency key) still gets its game back."""
        if who.platform or who.acting_for is not None or self.creation_quota is None:
            return
        try:
            await self.creation_quota.take(who.client_ip)
        except Problem:
            if idempotency_key is None or await self.store.version_and_status(game_id) is None:
                raise

    async def create_game(
        self,
        who: Credentials,
        request: CreateGameRequest,
        idempotency_key: str | None,
        *,
        rematch_of: GameRecord | None = None,
    ) -> tuple[GameCreated, bool]:
        """A new game and its seat tokens. Returns the answer and whether it is a replay.
        A rematch (`rematch_of`) keeps the first game's creator token, so whoever managed
        the first game manages it too."""
        if who.bearer is not None or not self.anonymous_create:
            require_api_key(who, "Creating games")
        game, policy, seed, state = await self.checked_setup(request, who)
        request_print = fingerprint(request.model_dump(mode="json"))
        game_id = created_game_id(who.scope, idempotency_key)
        await self._count_creation(who, game_id, idempotency_key)
        salt = new_salt()
        tokens = self._tokens(request, who, idempotency_key, salt)
        invites = self.invites(who, request, idempotency_key, salt)
        record = self._new_record(game_id, game, request, state, seed, tokens, who, salt)
        record = replace(
            record,
            create_fingerprint=request_print,
            leave_policy=policy,
            creator_token_hash=(
                invites.creator_token_hash if rematch_of is None else rematch_of.creator_token_hash
            ),
            invites=invites.stored,
        )
        record = self._with_created_answer(record)
        turn = prompted_seats(game, state)
        stored_print = await self.store.create(record, work_due=due_on_creation(record, turn))
        if stored_print is None:
            await self.pipeline.created(record, turn)
            return invites.shown_in(self._created_answer(record, tokens)), False
        if stored_print != request_print or idempotency_key is None:
            raise idempotency_key_reused()
        existing = await self.store.load(game_id)
        if existing is None:
            raise not_found(game_id)
        await self.finish_creation(existing)
        metrics.IDEMPOTENT_REPLAYS.inc()
        replayed = self._tokens(request, who, idempotency_key, existing.token_salt)
        again = invites_for(
            request.seats,
            scope=who.scope,
            idempotency_key=idempotency_key,
            salt=existing.token_salt,
            expires_ms=0,  # the codes only: the answer kept says when they expire
            lobby=request.lobby,
        )
        return again.shown_in(self._created_answer(existing, replayed)), True

    async def check_webhook_url(self, url: str, who: Credentials) -> None:
        """Refuse a URL that may not receive webhooks (its DNS lookups counted against the
        caller's address)."""
        await check_webhook_url(url, allow_private=self.webhook_allow_private, client=who.client_ip)

    async def finish_creation(self, record: GameRecord) -> None:
        """Redo what follows the creation of a game, for a replayed creation: the first
        attempt may have died right after storing it. Each step is idempotent: the
        listing indexes, the clocks' deadline, and the first step (a bot's turn) if one
        is due at the game's version now."""
        await self.store.add_to_indexes(record)
        await self.referee.deadlines.note(record)
        await self._nudge(record)

    async def checked_setup(
        self, request: CreateGameRequest, who: Credentials, *, webhook_checked: bool = False
    ) -> tuple[Game, dict[str, Any], int, GameState]:
        """A creation request checked (game, webhook URL unless `webhook_checked`, bot
        levels, leave policy, options) and its game set up: the game, its leave policy,
        seed and first state."""
        self.served.named(request.game)
        if request.webhook_url is not None and not webhook_checked:
            await self.check_webhook_url(request.webhook_url, who)
        return self.set_up(request)

    def set_up(self, request: CreateGameRequest) -> tuple[Game, dict[str, Any], int, GameState]:
        """`checked_setup` but for the webhook URL, which the caller has checked: no I/O,
        so a batch of them may run off the event loop."""
        game = self.served.named(request.game)
        levels = levels_for(game)
        for seat in request.seats:
            if seat.bot is not None and seat.bot not in levels:
                raise unprocessable(
                    "unknown_bot_level",
                    f"{game.title} has no bot level {seat.bot!r}; known: {', '.join(levels)}.",
                    known=levels,
                )
        policy = leave_policy_of_request(request, game)
        seed = request.seed if request.seed is not None else secrets.randbits(63)
        try:
            state = game.setup(request.options, len(request.seats), seed)
        except GameError as error:
            raise from_game_error(error) from None
        return game, policy, seed, state

    def _tokens(
        self, request: CreateGameRequest, who: Credentials, key: str | None, salt: str
    ) -> list[str | None]:
        return [
            None
            if seat.bot is not None or seat.open
            else (derived_token(salt, who.scope, key, index) if key else new_token())
            for index, seat in enumerate(request.seats)
        ]

    def _new_record(
        self,
        game_id: str,
        game: Game,
        request: CreateGameRequest,
        state: GameState,
        seed: int,
        tokens: list[str | None],
        who: Credentials,
        salt: str,
    ) -> GameRecord:
        at = now()
        seats = [
            SeatRecord(seat.name or "", seat.bot, hash_secret(token) if token else None, seat.open)
            for seat, token in zip(request.seats, tokens, strict=True)
        ]
        waiting = any(seat.open for seat in request.seats)
        return GameRecord(
            id=game_id,
            game=game.id,
            version=0,
            status=GameStatus.WAITING if waiting else GameStatus.ACTIVE,
            state=game.dump_state(state),
            seats=seats,
            options=request.options,
            seed=seed,
            tags=list(request.tags),
            created_at=at,
            updated_at=at,
            creator=who.scope,
            token_salt=salt,
            webhooks=list(
                dict.fromkeys(
                    url for url in (request.webhook_url, self.key_webhooks.get(who.scope)) if url
                )
            ),
            webhook_events=list(dict.fromkeys(request.webhook_events)),
            clock_rules=request.clock.model_dump() if request.clock else None,
            clock=first_clock(request, game, state),
            lobby=request.lobby,
        )

    def invites(
        self, who: Credentials, request: CreateGameRequest, idempotency_key: str | None, salt: str
    ) -> Invites:
        """The invite codes of the new game's open seats, and its creator token (derived
        from the key with one, so that a retry answers them again)."""
        ttl_ms = (request.invite_ttl_seconds or self.invite_ttl) * 1000
        return invites_for(
            request.seats,
            scope=who.scope,
            idempotency_key=idempotency_key,
            salt=salt,
            expires_ms=now_ms() + ttl_ms,
            lobby=request.lobby,
        )

    def _with_created_answer(self, record: GameRecord) -> GameRecord:
        answer = self._created_answer(record, [None] * record.players)
        return replace(record, created=answer.model_dump_json())

    def _created_answer(self, record: GameRecord, tokens: list[str | None]) -> GameCreated:
        answer = GameCreated.model_validate_json(record.created) if record.created else None
        if answer is None:
            answer = GameCreated(
                id=record.id,
                game=record.game,
                version=record.version,
                status=record.status,
                seats=[CreatedSeat(**info.model_dump()) for info in seat_infos(record)],
                tags=record.tags,
                created_at=record.created_at,
            )
        seats = [
            seat.model_copy(update={"token": token})
            for seat, token in zip(answer.seats, tokens, strict=True)
        ]
        return answer.model_copy(update={"seats": seats})

    # --- reading ---------------------------------------------------------------------

    async def get_game(self, game_id: str, who: Credentials) -> GameDocument:
        record = await self._load(game_id, keep=True)
        viewer = self._viewer(record, who)
        full = await self._sees_everything(record, viewer)
        game = self._game_of(record)
        state = self.states.load(game, record.state)
        prompts = game.prompts(state) if record.status is GameStatus.ACTIVE else []
        await self.referee.nudge(record, prompts)
        return GameDocument(
            id=record.id,
            game=record.game,
            status=record.status,
            version=record.version,
            seats=seat_infos(record, state.resigned),
            you=viewer.seat,
            turn=seats_to_act(prompts),
            prompts=prompts_for(prompts, viewer),
            view=game.view(state, viewer.seat).model_dump(mode="json"),
            seat_views=[
                game.view(state, seat).model_dump(mode="json") for seat in range(record.players)
            ]
            if full
            else None,
            result=result_of(game, record, state) if record.status is GameStatus.FINISHED else None,
            clock=clock_info(record),
            tags=record.tags,
            created_at=record.created_at,
            updated_at=record.updated_at,
            abort_reason=record.abort_reason if record.status is GameStatus.ABORTED else None,
            lobby=record.lobby,
        )

    async def legal_moves(
        self, game_id: str, who: Credentials, *, labelled: bool = True
    ) -> LegalMovesDocument:
        """The mover's legal moves, each with its `label` unless not `labelled` (a GraphQL
        query that does not ask for labels is spared making them)."""
        record = await self._load(game_id, keep=True)
        seat = self._acting_seat(self._viewer(record, who))
        game = self._game_of(record)
        moves: list[dict[str, Any]] = []
        turn: list[int] = []
        if record.status is GameStatus.ACTIVE:
            _check_present(record, seat)  # a bot plays the seat: it has no moves to send
            state = self.states.load(game, record.state)
            turn = seats_to_act(game.prompts(state))
            moves = [
                {**game.dump_move(move), "label": game.label(state, seat, move)}
                if labelled
                else game.dump_move(move)
                for move in game.legal_moves(state, seat)
            ]
        await self._nudge(record)  # a bot's turn or the scoring a crashed process dropped
        return LegalMovesDocument.model_construct(
            id=record.id,
            version=record.version,
            seat=seat,
            moves=moves,
            status=record.status,
            turn=turn,
        )

    async def events(self, game_id: str, who: Credentials, since: int, limit: int) -> EventsPage:
        _check_range("since", since, 0, MAX_VERSION)
        _check_range("limit", limit, 1, MAX_EVENTS_PAGE)
        record = await self._load(game_id)
        viewer = self._viewer(record, who)
        full = await self._sees_everything(record, viewer)
        _check_since(record, since, "invalid_query")
        entries = await self.store.log(game_id, after=since, count=limit)
        version = max([record.version, *(entry.version for entry in entries)])
        return EventsPage(
            id=game_id,
            since=since,
            version=version,
            status=record.status,
            entries=[entry_for(entry, viewer, full) for entry in entries],
            more=bool(entries) and entries[-1].version < version,
        )

    async def follow(
        self,
        game_id: str,
        who: Credentials,
        since: int,
        after_start: bool = False,
        *,
        resumed: bool = False,
    ) -> AsyncIterator[FeedItem]:
        """Checks access now, then gives every entry after `since`, then live ones as
        they commit, then the end. Fed from the Redis log (rung by pub/sub), so any
        replica serves any game and a reconnecting reader misses nothing. A game that
        waited for players has its start first (unless `after_start`: the reader had it).
        Once caught up, the status of each seat a bot plays for now (`FeedSeat`), then
        each change of a seat's status, which commits nothing: it is read from the
        game's record (public: every reader of the game sees its seats' status).
        A `since` past the game's version is refused (`resumed`: it is the Last-Event-ID
        a stream was resumed with): nothing would be sent until the game caught up.
        A seat's stream raises `invalid_token` (401) once its token is replaced: it
        sends nothing more, the seat's or the spectators'."""
        _check_range("since", since, 0, MAX_VERSION)
        record = await self._load(game_id)
        viewer = self._viewer(record, who)
        full = await self._sees_everything(record, viewer)
        _check_since(record, since, "invalid_last_event_id" if resumed else "invalid_query")
        await self._nudge(record)
        start_due = (
            since == 0
            and not after_start
            and (record.status is GameStatus.WAITING or record.started is not None)
        )
        token_hash = who.token_hash if viewer.seat is not None else None
        return self._feed(game_id, viewer, full, since, start_due, record.players, token_hash)

    async def stream_ended(self, game_id: str, who: Credentials) -> bool:
        """Whether a stream of this game has ended (so `<version>-end` is an id it sent),
        checking access as `follow` does."""
        record = await self._load(game_id)
        self._viewer(record, who)
        return record.status in FINAL_STATUSES

    async def _feed(
        self,
        game_id: str,
        viewer: Viewer,
        full: bool,
        since: int,
        start_due: bool,
        players: int,
        token_hash: str | None = None,
    ) -> AsyncIterator[FeedItem]:
        """`token_hash`: the token of the seat whose stream it is, checked whenever the
        stream wakes up, after reading the log and before sending what it read: an entry
        read while the token was still the seat's was committed before it was replaced.

        A store that cannot be reached costs latency, not the stream: the reader keeps
        its connection (and keep-alives) and reads again, waiting longer each time,
        until the store answers or the outage outlasts `outage_limit`."""
        sent = _Sent(last=since, start_due=start_due)
        outage = StoreOutage(self.outage_limit, self.keepalive)
        async with self.live.watch(game_id) as bell:
            while not self.live.closing:
                seen = bell.rings
                before = sent.copy()
                try:
                    news = await self._news(game_id, viewer, full, players, sent, seen, token_hash)
                except STORE_ERRORS as error:
                    sent = before  # nothing of this look was sent
                    if not await bell.wait(seen, outage.next_wait(game_id, error)):
                        yield FeedIdle()
                    continue
                outage.over()
                for item in news.items:
                    yield item
                if news.over:
                    return
                if news.again:
                    continue
                if not await bell.wait(seen, self.keepalive):
                    yield FeedIdle()

    async def _news(
        self,
        game_id: str,
        viewer: Viewer,
        full: bool,
        players: int,
        sent: _Sent,
        seen: int,
        token_hash: str | None,
    ) -> _News:
        """What the reader has not been sent yet, noted in `sent` as sent."""
        items: list[FeedItem] = []
        entries = await self.store.log(game_id, after=sent.last, count=200)
        if token_hash is not None and viewer.seat is not None:
            await self._check_still_seat(game_id, viewer.seat, token_hash)
        if sent.start_due:
            # Read after the log: a start is stored before entry 1, so entries read here
            # find it (read first, a start missed then came after the entries).
            start = await self.seats.open_seats.start_of(game_id)
            if start is not None:
                if sent.lobby.sent is not None:  # the last claim's name, before the start
                    last_seats = await sent.lobby.changed(self.store, game_id, seen)
                    if last_seats is not None:
                        items.append(last_seats)
                items.append(FeedStart(0, start.at, start.turn))
                sent.start_due = False
        for entry in entries:
            items.append(FeedEntry(entry_for(entry, viewer, full)))
            sent.last = entry.version
        if entries:
            return _News(items, again=True)
        current = await self.store.live_status(game_id, players)
        if current is None:
            return _News(items, over=True)
        version, status = current.version, current.status
        if status is GameStatus.WAITING:
            seats = await sent.lobby.changed(self.store, game_id, seen)
            if seats is not None:
                items.append(seats)
        over = status in FINAL_STATUSES and sent.last >= version
        end = await self._end(game_id, version, status) if over else None
        if sent.last >= version:  # caught up: the seats' status now goes with it
            items.extend(_seat_changes(sent.seats, current, players))
        if end is not None:
            items.append(end)
        return _News(items, over=over)

    async def _check_still_seat(self, game_id: str, seat: int, token_hash: str) -> None:
        """Ends a seat's stream whose token was replaced since it was opened (its seat's
        field `seat:<n>` then holds another hash; without one the seat is as created,
        and the stream's token was checked against that when it was opened)."""
        taken = await self.seat_tokens.tokens.taken_seat(game_id, seat)
        stored = token_hash if taken is None else (taken.token_hash or "")
        if not hmac.compare_digest(stored, token_hash):
            raise unauthorized(
                "invalid_token",
                f"This stream's token is no longer seat {seat}'s: it was replaced. Open the "
                "stream again with the seat's new token.",
            )

    async def _end(self, game_id: str, version: int, status: GameStatus) -> FeedEnd:
        record = await self._load(game_id)
        if status is not GameStatus.FINISHED:
            return FeedEnd(version, status, None, record.abort_reason)
        game = self._game_of(record)
        return FeedEnd(
            version, status, result_of(game, record, self.states.load(game, record.state))
        )

    async def result(self, game_id: str, who: Credentials) -> GameResult:
        """The final standings. Anyone reads them, but for a tournament table whose deal
        another table still plays: its own seats only, till then (its scores tell the
        other table's players what the deal yields)."""
        record = await self._load(game_id)
        if self._viewer(record, who).seat is None:
            await self._check_deal_out_of_play(record.id, record.tags, "scored for others")
        if record.status is GameStatus.ABORTED:
            raise _aborted(record, "it has no standings")
        if record.status is not GameStatus.FINISHED:
            await self.referee.nudge(record, [])
            raise Problem(
                409,
                "not_finished",
                f"The game is {record.status.value}; standings exist once it is finished.",
                status_now=record.status.value,
            )
        game = self._game_of(record)
        return result_of(game, record, self.states.load(game, record.state))

    async def list_games(
        self,
        who: Credentials,
        *,
        status: GameStatus | None,
        game: str | None,
        tag: str | None,
        limit: int,
        cursor: str | None,
    ) -> GameList:
        listing = await self.game_listing(
            who, status=status, game=game, tag=tag, limit=limit, cursor=cursor
        )
        return GameList(games=listing.items, next_cursor=listing.next_cursor)

    async def game_listing(
        self,
        who: Credentials,
        *,
        status: GameStatus | None,
        game: str | None,
        tag: str | None,
        limit: int,
        cursor: str | None,
    ) -> Listing[GameSummaryDocument]:
        """The games the caller's API key created (itself, in bulk or by its
        tournaments), newest first, `limit` of them after `cursor`, each with its cursor."""
        require_api_key(who, "Listing games")
        _check_range("limit", limit, 1, MAX_GAMES_PAGE)
        _check_pattern("game", game, GAME_TYPE)
        _check_pattern("tag", tag, TAG)
        _check_pattern("cursor", cursor, CURSOR)
        page = await self.store.list_games(
            creator=who.scope, status=status, game=game, tag=tag, limit=limit + 1, cursor=cursor
        )
        documents = [
            GameSummaryDocument(
                id=summary.id,
                game=summary.game,
                status=summary.status,
                version=summary.version,
                seats=[_listed_seat(i, seat) for i, seat in enumerate(summary.seats)],
                tags=summary.tags,
                created_at=summary.created_at,
                updated_at=summary.updated_at,
                lobby=summary.lobby,
            )
            for summary in page.games
        ]
        return Listing.peeked(documents, page.cursors, limit, page.resume)

    def catalog(self) -> Catalog:
        return self.served.catalog()

    # --- moving ----------------------------------------------------------------------

    async def make_move(
        self,
        game_id: str,
        who: Credentials,
        move: Mapping[str, Any],
        expected_version: int | None,
        idempotency_key: str | None,
        *,
        with_view: bool = True,
    ) -> tuple[MoveAccepted, bool]:
        """Apply a seat's move by compare-and-set. Returns the answer and whether it is a
        replay of an earlier request with the same Idempotency-Key.

        With `with_view` False the answer's `view` is left empty unless the request has
        an Idempotency-Key (whose stored answer must be whole): for callers that do not
        show the mover's view, since building it is much of a move's cost."""
        _check_expected_version(expected_version)
        payload = {key: value for key, value in move.items() if key != "label"}
        request = {"move": payload, "expected_version": expected_version}

        def act(game: Game, state: GameState, seat: int) -> tuple[Move | None, Outcome]:
            parsed = game.parse_move(payload)
            return parsed, game.apply(state, seat, parsed)

        return await self._act(
            game_id, who, act, expected_version, idempotency_key, request, with_view
        )

    async def resign(
        self,
        game_id: str,
        who: Credentials,
        expected_version: int | None,
        idempotency_key: str | None,
        *,
        with_view: bool = True,
    ) -> tuple[MoveAccepted, bool]:
        """Resign: under on_leave bot_takes_over the seat is abandoned and a bot plays it
        on (nothing is committed); under end_game the engine's resignation ends the game.
        `with_view` as for `make_move`."""
        _check_expected_version(expected_version)
        record = await self._load(game_id)
        seat = self._acting_seat(self._viewer(record, who))
        game = self._game_of(record)
        request = {"resign": True, "expected_version": expected_version}
        if leave_policy(record, game).bot_takes_over:
            return await idempotency.once(
                self.store,
                game_id,
                who,
                idempotency_key,
                request,
                lambda keeping: self._leave(
                    record,
                    game,
                    who,
                    seat,
                    expected_version,
                    with_view or idempotency_key is not None,
                    keeping,
                ),
                MoveAccepted,
            )

        def act(game: Game, state: GameState, seat: int) -> tuple[Move | None, Outcome]:
            return None, game.resign(state, seat)

        return await self._act(
            game_id, who, act, expected_version, idempotency_key, request, with_view, resigning=True
        )

    async def _leave(
        self,
        record: GameRecord,
        game: Game,
        who: Credentials,
        seat: int,
        expected_version: int | None,
        with_view: bool,
        keeping: idempotency.Keeping | None,
    ) -> MoveAccepted:
        # The seat is marked only at the version the answer was made for: a move landing
        # first would leave the answer, `expected_version` and the seat's `since` stale.
        # And only on the record as read (its revision): the seat's token replaced
        # meanwhile, the old one must not make it leave.
        for _ in range(MAX_COMMIT_ATTEMPTS):
            if record.status is not GameStatus.ACTIVE:
                raise _closed(record.status)
            if expected_version is not None and expected_version != record.version:
                raise version_conflict(record.version, expected_version)
            _check_present(record, seat, resigning=True)
            answer = self._left_answer(record, game, seat, with_view)
            keep = KeptAnswer(keeping.digest, keeping.kept(answer)) if keeping else None
            verdict = await self.referee.take_over(
                record, seat, reason=RESIGNED, at_version=True, keep=keep, at_revision=True
            )
            if verdict not in (AwayVerdict.MOVED, AwayVerdict.CLOSED):
                _check_away_verdict(verdict, record)
                return answer
            record = await self._load(record.id)  # decided again on what is stored now
            seat = self._acting_seat(self._viewer(record, who))
        raise version_conflict(record.version)

    def _left_answer(
        self, record: GameRecord, game: Game, seat: int, with_view: bool
    ) -> MoveAccepted:
        """The answer to a resignation under bot_takes_over: nothing but the seat changes,
        so it is known before the change, and kept with it."""
        state = self.states.load(game, record.state)
        prompts = game.prompts(state)
        return MoveAccepted(
            id=record.id,
            game=record.game,
            version=record.version,
            status=record.status,
            seat=seat,
            events=[],
            view=game.view(state, seat).model_dump(mode="json") if with_view else {},
            turn=seats_to_act(prompts),
            prompts=prompts_for(prompts, Viewer(seat=seat)),
            abandoned=True,
        )

    async def autopilot(
        self, game_id: str, who: Credentials, seat: int, on: bool
    ) -> AutopilotDocument:
        """A seat steps away (a bot plays its turns) or comes back, with its own token:
        only on the record as read, so that a token replaced meanwhile does not."""
        for _ in range(MAX_COMMIT_ATTEMPTS):
            record = await self._load(game_id)
            self._check_autopilot(record, who, seat, on)
            verdict = await self.referee.autopilot(record, seat, on, at_revision=True)
            if verdict is AwayVerdict.CLOSED:  # it ended meanwhile: say how
                raise _closed((await self._load(game_id)).status)
            if verdict is not AwayVerdict.MOVED:  # else the seats changed: judged again
                break
        else:
            raise version_conflict(record.version)
        _check_away_verdict(verdict, record)
        game = self._game_of(record)
        return AutopilotDocument(
            id=record.id,
            seat=seat,
            version=record.version,
            autopilot=on,
            bot=leave_policy(record, game).leave_bot if on else None,
        )

    def _check_autopilot(self, record: GameRecord, who: Credentials, seat: int, on: bool) -> None:
        acting = self._acting_seat(self._viewer(record, who))
        check_seat(record, seat)
        if acting != seat:
            raise forbidden("not_your_seat", f"Your token is seat {acting}'s, not seat {seat}'s.")
        if record.status is not GameStatus.ACTIVE:
            raise _closed(record.status)
        if is_abandoned(record, seat):
            raise _abandoned(seat)
        if on:
            check_autopilot_allowed(record, seat)  # off stays allowed, to come back

    # --- records -------------------------------------------------------------------------

    async def record(self, game_id: str, who: Credentials) -> ArchivedRecord:
        """The record of a finished game, for its seats and the API key that created it:
        its JSON as kept (`record_json`), to serve as it is. A caller without any token
        is refused before the record is read (or made from the game's log)."""
        if who.bearer is None:
            raise unauthorized(
                "seat_token_required",
                "A game's record reveals its hidden information: send one of its seat tokens "
                "or the API key that created it.",
            )
        archived = await self._archived(game_id)
        if who.platform:
            if who.scope != archived.creator:
                raise unauthorized(
                    "invalid_token",
                    "That API key did not create this game: its record is only for its seats "
                    "and the API key that created it.",
                )
        elif who.token_hash not in archived.token_hashes:
            raise unauthorized("invalid_token", "That token is not a seat of this game.")
        await self._check_deal_out_of_play(game_id, archived.tags, "given its record")
        return archived

    async def version_view(self, game_id: str, version: int) -> VersionView:
        """A spectator's view of a finished game at `version` (0: before any move),
        replayed off the event loop from the nearest state kept (`VersionViews`)."""

        async def load() -> Record:
            archived = await self._archived(game_id)
            await self._check_deal_out_of_play(game_id, archived.tags, "watched")
            return await asyncio.to_thread(archived.parsed)

        def check(record: Record) -> None:
            if not 0 <= version <= record.version:
                raise Problem(
                    404,
                    "version_not_found",
                    f"The game has versions 0 to {record.version}, not {version}.",
                    last_version=record.version,
                )

        def game_of(record: Record) -> Game:
            return self.served.named(record.game)

        try:
            record, view = await self.version_views.view(game_id, version, load, game_of, check)
        except ReplayMismatch as error:  # the engine changed under an old record
            log.error("record_does_not_replay", game_id=game_id, error=str(error))
            raise Problem(
                500, "record_does_not_replay", "This record no longer replays here."
            ) from None
        return VersionView(
            id=record.id,
            game=record.game,
            version=version,
            last_version=record.version,
            view=view,
        )

    async def list_records(
        self, who: Credentials, *, tag: str | None, limit: int, cursor: str | None
    ) -> RecordList:
        listing = await self.record_listing(who, tag=tag, limit=limit, cursor=cursor)
        return RecordList(records=listing.items, next_cursor=listing.next_cursor)

    async def record_listing(
        self, who: Credentials, *, tag: str | None, limit: int, cursor: str | None
    ) -> Listing[RecordSummary]:
        """The records of the games the caller's API key created, newest first, `limit`
        of them after `cursor`, each with its cursor."""
        require_api_key(who, "Listing records")
        _check_range("limit", limit, 1, MAX_GAMES_PAGE)
        _check_pattern("tag", tag, TAG)
        _check_pattern("cursor", cursor, CURSOR)
        if self.archive is None:
            return Listing([], [], more=False)
        found, cursors = await self.archive.listing(who.scope, tag, limit + 1, cursor)
        return Listing.peeked(found, cursors, limit)

    async def _archived(self, game_id: str) -> ArchivedRecord:
        """The archived record, or one made now from a finished game (and archived)."""
        if not GAME_ID.fullmatch(game_id):
            raise not_found(game_id[:64])
        if self.archive is not None:
            archived = await self.archive.load(game_id)
            if archived is not None:
                return archived
        stored = await self._load(game_id)
        if stored.status is GameStatus.ABORTED:
            raise _aborted(stored, "it has no record")
        if stored.status is not GameStatus.FINISHED:
            await self.referee.nudge(stored, [])
            raise conflict(
                "not_finished",
                f"The game is {stored.status.value}; its record exists once it is finished.",
                status_now=stored.status.value,
            )
        entries = await full_log(self.store, game_id, stored.version)
        archived = await archived_from_store(stored, entries, self._game_of(stored))
        if self.archive is not None:
            await self.archive.keep(archived)
        return archived

    async def _act(
        self,
        game_id: str,
        who: Credentials,
        act: Action,
        expected_version: int | None,
        idempotency_key: str | None,
        request: Mapping[str, Any],
        with_view: bool = True,
        *,
        resigning: bool = False,
    ) -> tuple[MoveAccepted, bool]:
        """`request` is what the request asked for: under an Idempotency-Key, a retry
        that asks for anything else is refused. `resigning`: a seat on autopilot may
        (it may not move)."""
        if idempotency_key is None:
            read = self.recent.take(game_id)
            if read is not None:
                accepted = await self._act_on_read(
                    read, who, act, expected_version, with_view, resigning
                )
                if accepted is not None:
                    return accepted, False
        record = await self._load(game_id)
        seat = self._acting_seat(self._viewer(record, who))
        digest: str | None = None
        request_print: str | None = None
        if idempotency_key:
            digest = idempotency.key_digest(who, idempotency_key)
            request_print = fingerprint(request)
            first = await self.store.idempotent_answer(game_id, digest)
            if first is not None:
                return idempotency.replayed(first, request_print, MoveAccepted), True
        for _ in range(MAX_COMMIT_ATTEMPTS):
            if expected_version is not None and expected_version != record.version:
                raise version_conflict(record.version, expected_version)
            try:
                accepted, commit = self._prepare(
                    record, seat, act, digest, request_print, with_view, resigning
                )
            except Problem as problem:
                if problem.code == "out_of_time":
                    # The clock decides: make sure the sweep knows its deadline has passed
                    # (whoever committed the turn may have died before noting it).
                    await self.referee.deadlines.note(record)
                raise
            outcome = await self._commit_move(record, commit, accepted)
            if outcome.verdict is CommitVerdict.COMMITTED:
                self._keep_committed(record, commit)
                return accepted, False
            if outcome.verdict is CommitVerdict.REPLAYED:
                return idempotency.replayed(
                    outcome.answer or "", request_print or "", MoveAccepted
                ), True
            if outcome.verdict is CommitVerdict.MISSING:
                raise not_found(game_id)
            if outcome.verdict is CommitVerdict.CLOSED:
                raise _closed(GameStatus(outcome.status or "finished"))
            if outcome.verdict is CommitVerdict.STALE:
                record = await self._load(game_id)
                seat = self._acting_seat(self._viewer(record, who))
                continue
            metrics.CAS_CONFLICTS.inc()
            if expected_version is not None:
                raise version_conflict(outcome.version or 0, expected_version)
            record = await self._load(game_id)
        raise version_conflict(record.version)

    async def _commit_move(
        self, record: GameRecord, commit: Commit, accepted: MoveAccepted
    ) -> CommitOutcome:
        """A seat's move through the pipeline. Sent but unanswered, and not settled from
        the log, it may still land: the client must not be told simply to try again."""
        try:
            return await self.pipeline.commit(record, commit, "human", tuple(accepted.turn))
        except redis.exceptions.TimeoutError:
            raise move_unconfirmed() from None

    async def _act_on_read(
        self,
        record: GameRecord,
        who: Credentials,
        act: Action,
        expected_version: int | None,
        with_view: bool,
        resigning: bool = False,
    ) -> MoveAccepted | None:
        """The move made on a record read lately (`RecentRecords`), if it lands as is;
        None if it fails on that record or the stored record is another by now. The
        caller then reads the record afresh: every refusal is judged on the stored one."""
        if expected_version is not None and expected_version != record.version:
            return None
        try:
            seat = self._acting_seat(self._viewer(record, who))
            accepted, commit = self._prepare(record, seat, act, None, None, with_view, resigning)
        except Problem:
            return None
        outcome = await self._commit_move(record, commit, accepted)
        if outcome.verdict is not CommitVerdict.COMMITTED:
            return None
        self._keep_committed(record, commit)
        return accepted

    def _keep_committed(self, record: GameRecord, commit: Commit) -> None:
        """Keep the record as the commit left it, for the mover's next move: a seat that
        moves twice running, or a client that moves on the answer's prompts without
        reading the game again, then needs no read either (the next commit still
        compare-and-sets the version and revision)."""
        after = commit.applied_to(record)
        if after is not None:
            self.recent.keep(after)

    def _prepare(
        self,
        record: GameRecord,
        seat: int,
        act: Action,
        digest: str | None,
        request_print: str | None,
        with_view: bool,
        resigning: bool = False,
    ) -> tuple[MoveAccepted, Commit]:
        """Validate and apply on a private copy; nothing is stored yet."""
        if record.status is not GameStatus.ACTIVE:
            raise _closed(record.status)
        _check_present(record, seat, resigning=resigning)
        clock = clock_of(record)
        if clock is not None and seat in clock.overdue(now_ms()):
            raise from_game_error(
                IllegalMove("out_of_time", "Your time has run out; the clock decides this move.")
            )
        game = self._game_of(record)
        state = self.states.load(game, record.state)
        try:
            move, outcome = act(game, state, seat)
        except GameError as error:
            raise from_game_error(error) from None
        return self._accepted_and_commit(
            record, game, seat, move, outcome, digest, request_print, with_view
        )

    def _accepted_and_commit(
        self,
        record: GameRecord,
        game: Game,
        seat: int,
        move: Move | None,
        outcome: Outcome,
        digest: str | None,
        request_print: str | None,
        with_view: bool = True,
    ) -> tuple[MoveAccepted, Commit]:
        """The answer to the mover, and the commit (remembering that answer under the
        idempotency key, if the request had one)."""
        commit, prompts = commit_of(record, game, seat, move, outcome, at_revision=True)
        self.states.remember(game, commit.state, outcome.state)
        whole = with_view or digest is not None
        # Built from checked values of our own: constructed, not validated again.
        accepted = MoveAccepted.model_construct(
            id=record.id,
            game=record.game,
            version=commit.entry.version,
            status=commit.status,
            seat=seat,
            events=commit.entry.events.for_seat(seat),
            view=game.view(outcome.state, seat) if whole else {},
            turn=seats_to_act(prompts),
            prompts=prompts_for(prompts, Viewer(seat=seat)),
            abandoned=False,
        )
        if digest is None:
            return accepted, commit
        answer = {"fingerprint": request_print, "answer": accepted.model_dump(mode="json")}
        remembered = replace(
            commit, idempotency_digest=digest, idempotency_answer=orjson.dumps(answer).decode()
        )
        return accepted, remembered

    # --- helpers ---------------------------------------------------------------------

    async def _nudge(self, record: GameRecord) -> None:
        """Re-kick a step a crashed process may have dropped (see `Referee.nudge`)."""
        if record.status is GameStatus.ACTIVE:
            game = self._game_of(record)
            await self.referee.nudge(record, game.prompts(self.states.load(game, record.state)))
        elif record.status is GameStatus.SCORING:
            await self.referee.nudge(record, [])

    async def _load(self, game_id: str, *, keep: bool = False) -> GameRecord:
        """The stored record; `keep` it for the move its reader may make next."""
        if not GAME_ID.fullmatch(game_id):
            raise not_found(game_id[:64])
        record = await self.store.load(game_id)
        if record is None:
            raise not_found(game_id)
        if keep:
            self.recent.keep(record)
        return record

    def _viewer(self, record: GameRecord, who: Credentials) -> Viewer:
        if who.bearer is None:
            return Viewer()
        if who.platform:
            return Viewer(platform=True, creator=who.scope == record.creator)
        seat = seat_of(record.seats, who.token_hash or "")
        if seat is None:
            raise unauthorized("invalid_token", "That token is not a seat of this game.")
        return Viewer(seat=seat)

    async def _sees_everything(self, record: GameRecord, viewer: Viewer) -> bool:
        """Whether `viewer` reads the game in full (the API key that created it, once the
        game is over), after checking that it may read it at all: anyone but the game's
        own seats (spectators, API keys) reads a tournament table only once no other
        table plays its deal, since what one table shows (the tiles played, the cards
        bought) is another's hidden information."""
        if viewer.seat is None:
            await self._check_deal_out_of_play(record.id, record.tags, "watched")
        return viewer.sees_everything(record.status)

    async def _check_deal_out_of_play(self, game_id: str, tags: list[str], what: str) -> None:
        holding = await self._tournament_holding(game_id, tags)
        if holding is not None:
            raise conflict(
                "deal_in_play",
                f"Another table of tournament {holding} is still playing this game's deal; "
                f"the game can be {what} once every table dealt it has finished.",
                tournament_id=holding,
            )

    async def _tournament_holding(self, game_id: str, tags: list[str]) -> str | None:
        """The tournament of which another table still plays game `game_id`'s deal: its
        record, full read and watching by anyone but its seats wait till then (a seed, or
        what the game shows, reveals the other table's hidden information)."""
        if self.deals is None:
            return None
        return await self.deals.tournament_holding(game_id, tags)

    def _acting_seat(self, viewer: Viewer) -> int:
        if viewer.platform:
            raise forbidden("seat_token_required", "Only a seat's own token can act for it.")
        if viewer.seat is None:
            raise unauthorized("seat_token_required", "Send your seat's token to act.")
        return viewer.seat

    def _game_of(self, record: GameRecord) -> Game:
        return self.served.of(record)


def prompted_seats(game: Game, state: GameState) -> tuple[int, ...]:
    return tuple(seats_to_act(game.prompts(state)))


def _aborted(record: GameRecord, lacking: str) -> Problem:
    """A game that was called off will never finish: say so, and why."""
    reason = record.abort_reason or "aborted"
    return conflict(
        "game_aborted",
        f"The game was aborted ({reason}): it will never finish, and {lacking}.",
        status_now=record.status.value,
        abort_reason=reason,
    )


def _check_range(name: str, value: int, low: int, high: int) -> None:
    if not low <= value <= high:
        raise bad_request("invalid_query", f"{name} must be a whole number from {low} to {high}.")


def _check_expected_version(version: int | None) -> None:
    """As REST's body model checks it, for the doors that pass it on unchecked (GraphQL):
    a version no game can have is a bad request, not a conflict."""
    if version is not None and not 0 <= version <= MAX_VERSION:
        raise unprocessable(
            "invalid_request", f"expected_version must be a whole number from 0 to {MAX_VERSION}."
        )


def _check_pattern(name: str, value: str | None, pattern: re.Pattern[str]) -> None:
    if value is not None and not pattern.fullmatch(value):
        raise bad_request("invalid_query", f"{name} is not valid here.")


@dataclass
class _Lobby:
    """What a live reader was last sent of a waiting game's seats."""

    sent: list[SeatInfo] | None = None
    read_at_ring: int | None = None

    async def changed(self, store: GameStore, game_id: str, rings: int) -> FeedLobby | None:
        """The seats, if they changed since last sent; read again only when the game's
        bell rang since the last read (claims and reissues ring it), not on keep-alives."""
        if rings == self.read_at_ring:
            return None
        self.read_at_ring = rings
        record = await store.load(game_id)
        if record is None:
            return None
        seats = seat_infos(record)
        if seats == self.sent:
            return None
        self.sent = seats
        return FeedLobby(seats)


@dataclass
class _Sent:
    """What a live reader has been sent."""

    last: int
    """The last version."""
    start_due: bool
    """The game's start is still to be sent."""
    seats: dict[int, tuple[str, int] | None] = field(default_factory=dict)
    """Per seat, the status last sent: why and since when it is away (None: in play)."""
    lobby: _Lobby = field(default_factory=_Lobby)

    def copy(self) -> _Sent:
        return _Sent(self.last, self.start_due, dict(self.seats), replace(self.lobby))


@dataclass
class _News:
    """One look at a game for a live reader: what to send it, whether to look again at
    once (the log had entries: it may have more), and whether the feed is over."""

    items: list[FeedItem]
    again: bool = False
    over: bool = False


def _seat_changes(
    sent: dict[int, tuple[str, int] | None], current: LiveStatus, players: int
) -> list[FeedSeat]:
    """The seats whose status differs from the one last `sent` (noting it as sent);
    before anything was sent, every seat counts as in play."""
    changes = []
    for seat in range(players):
        away = current.away.get(seat)
        status = (str(away.get("why")), int(away.get("since", current.version))) if away else None
        if status == sent.get(seat):
            continue
        sent[seat] = status
        abandoned = away is not None and away.get("why") == ABANDONED
        changes.append(
            FeedSeat(
                seat=seat,
                abandoned=abandoned,
                autopilot=status is not None and status[0] == AUTOPILOT,
                version=status[1] if status is not None else current.version,
                at=str(away.get("at") or now()) if away else now(),
                reason=away.get("reason") if away is not None and abandoned else None,
            )
        )
    return changes


def _check_present(record: GameRecord, seat: int, *, resigning: bool = False) -> None:
    """A seat that left, or is on autopilot, does not act itself; but a seat on autopilot
    may still resign (leave for good)."""
    if is_abandoned(record, seat):
        raise _abandoned(seat)
    if on_autopilot(record, seat) and not resigning:
        raise conflict(
            "autopilot_on",
            f"Seat {seat} is on autopilot: a bot plays its turns. Turn autopilot off first.",
        )


def _abandoned(seat: int) -> Problem:
    return conflict("seat_abandoned", f"Seat {seat} left the game; a bot plays it to the end.")


def _check_since(record: GameRecord, since: int, code: str) -> None:
    """A `since` past the game's version names a version the game never had: a client's
    mistake that an empty page or a silent stream would hide."""
    if since > record.version:
        raise bad_request(
            code,
            f"The game is at version {record.version}; there is nothing after {since}.",
            version=record.version,
        )


def _listed_seat(index: int, listed: dict[str, Any]) -> SeatInfo:
    """A seat of a listed game, as `seat_infos` shows it in the game itself."""
    seat = dict(listed)
    return SeatInfo(seat=index, invite_expires_at=expiry_text(seat.pop("invite")), **seat)


def _check_away_verdict(verdict: AwayVerdict, record: GameRecord) -> None:
    if verdict is AwayVerdict.MISSING:
        raise not_found(record.id)
    if verdict is AwayVerdict.ABANDONED:
        raise conflict("seat_abandoned", "That seat left the game; a bot plays it to the end.")


def _closed(status: GameStatus) -> Problem:
    if status is GameStatus.WAITING:
        return conflict(
            "game_not_started",
            "The game waits for its open seats to be claimed; it starts when the last is.",
            status_now=status.value,
        )
    error = IllegalMove(
        "game_over" if status is not GameStatus.ABORTED else "game_aborted",
        f"The game is {status.value}; no more moves can be made.",
    )
    return from_game_error(error)
