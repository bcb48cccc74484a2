"""GraphQL types that do not depend on which games are registered. Each is a view over
a document of the gameplay service (`services.gameplay.payloads`), built by `of(...)`."""

# No `from __future__ import annotations`: strawberry needs the evaluated annotations.

from enum import Enum
from typing import TYPE_CHECKING, Annotated, Any

import strawberry
from strawberry.scalars import JSON

from services.ai.bot import STAND_IN_DEFAULT
from services.gameplay import payloads
from services.store import GameStatus as StoreStatus

from .connections import Connection

if TYPE_CHECKING:
    GameStatus = StoreStatus  # the same members, made into a GraphQL enum below
else:
    GameStatus = strawberry.enum(
        Enum("GameStatus", {status.name: status.value for status in StoreStatus}),
        description="waiting: open seats wait for players (no moves yet); active: moves "
        "accepted; scoring: the last move ended it; finished: standings are final; "
        "aborted: stopped without a result (or cancelled while waiting).",
    )


def status_of(value: StoreStatus | str) -> Any:
    return GameStatus(StoreStatus(value).value)


@strawberry.type(description="A seat at the table.")
class Seat:
    seat: int
    name: str
    bot: str | None
    resigned: bool
    abandoned: bool = strawberry.field(
        description="The seat left; a bot plays it to the end (onLeave bot_takes_over)."
    )
    autopilot: bool = strawberry.field(
        description="The seat stepped away; a bot plays its turns for now."
    )
    open: bool = strawberry.field(
        description="The seat waits for a player to claim it (name is empty)."
    )
    invite_expires_at: str | None = strawberry.field(
        description="When an open seat's invite code expires."
    )

    @classmethod
    def of(cls, info: payloads.SeatInfo) -> "Seat":
        return cls(
            seat=info.seat,
            name=info.name,
            bot=info.bot,
            resigned=info.resigned,
            abandoned=info.abandoned,
            autopilot=info.autopilot,
            open=info.open,
            invite_expires_at=info.invite_expires_at,
        )


@strawberry.type(description="A seat that must act now. Text and options only for that seat.")
class Prompt:
    seat: int
    kind: str
    text: str | None
    options: list[str] | None
    min_picks: int | None
    max_picks: int | None

    @classmethod
    def of(cls, info: payloads.PromptInfo) -> "Prompt":
        return cls(**info.model_dump())


@strawberry.type(description="Points of one scoring category.")
class ScorePart:
    category: str
    points: int


@strawberry.type
class Standing:
    seat: int
    name: str
    rank: int
    score: int
    breakdown: list[ScorePart]
    resigned: bool
    abandoned: bool = strawberry.field(description="The seat left and a bot played it to the end.")
    left_reason: str | None = strawberry.field(
        default=None,
        description="Why a seat that resigned or left did: resigned (it chose to) or timeout "
        "(its clock ran out). Null for a seat that stayed, and in results scored before "
        "reasons were kept.",
    )

    @classmethod
    def of(cls, info: payloads.StandingInfo) -> "Standing":
        return cls(
            seat=info.seat,
            name=info.name,
            rank=info.rank,
            score=info.score,
            breakdown=[ScorePart(category=k, points=v) for k, v in info.breakdown.items()],
            resigned=info.resigned,
            abandoned=info.abandoned,
            left_reason=info.left_reason,
        )


@strawberry.type(
    description="The virtual opponent of a solo game (an automa, a ghost) or a scenario's "
    "target: scored and ranked beside the seats, never a seat itself."
)
class Opponent:
    name: str
    rank: int
    score: int
    breakdown: list[ScorePart]

    @classmethod
    def of(cls, info: payloads.OpponentInfo) -> "Opponent":
        return cls(
            name=info.name,
            rank=info.rank,
            score=info.score,
            breakdown=[ScorePart(category=k, points=v) for k, v in info.breakdown.items()],
        )


@strawberry.type(description="Final standings, best first, with every score's breakdown.")
class GameResult:
    game_id: strawberry.ID
    game: str = strawberry.field(description="The game's type, as in the catalog.")
    version: int
    winners: list[int] = strawberry.field(
        description="Seats that won; empty when nobody did (a solo player who lost)."
    )
    standings: list[Standing]
    opponent: Opponent | None = strawberry.field(
        description="A solo game's virtual opponent, with its score breakdown next to the "
        "player's; null in games between seats only."
    )
    summary: str | None = strawberry.field(
        description="Why the game ended as it did, when the game says."
    )

    @classmethod
    def of(cls, result: payloads.GameResult) -> "GameResult":
        return cls(
            game_id=strawberry.ID(result.id),
            game=result.game,
            version=result.version,
            winners=result.winners,
            standings=[Standing.of(s) for s in result.standings],
            opponent=Opponent.of(result.opponent) if result.opponent else None,
            summary=result.summary,
        )


@strawberry.type(description="Time control: each human seat's bank, running while prompted.")
class Clock:
    initial_seconds: float
    increment_seconds: float
    on_timeout: str = strawberry.field(description="forfeit or bot")
    remaining: list[float | None] = strawberry.field(
        description="Seconds each seat has left now (null for bot seats)."
    )
    running: list[int] = strawberry.field(description="Seats whose clock is running now.")

    @classmethod
    def of(cls, clock: payloads.ClockInfo) -> "Clock":
        return cls(
            initial_seconds=clock.initial_seconds,
            increment_seconds=clock.increment_seconds,
            on_timeout=clock.on_timeout,
            remaining=clock.remaining,
            running=clock.running,
        )


@strawberry.type(description="A legal move. Send `move` back verbatim to make it.")
class LegalMove:
    kind: str
    label: str
    move: JSON


@strawberry.type
class LegalMoves:
    game_id: strawberry.ID
    version: int
    seat: int
    moves: list[LegalMove] = strawberry.field(
        description="Empty when the game is not active (status) or seat is not in turn."
    )
    status: GameStatus = strawberry.field(
        description="The game's status: only an active game has moves."
    )
    turn: list[int] = strawberry.field(
        description="The seats that must act now (none unless the game is active)."
    )

    @classmethod
    def of(cls, document: payloads.LegalMovesDocument) -> "LegalMoves":
        return cls(
            game_id=strawberry.ID(document.id),
            version=document.version,
            seat=document.seat,
            status=status_of(document.status),
            turn=document.turn,
            # Built inline, without a method call per move: a game may offer hundreds.
            # `move` is the move alone; a query that selects no `label` was listed
            # without labels (the empty one is never read).
            moves=[
                LegalMove(kind=m["kind"], label=m.pop("label", ""), move=JSON(m))
                for m in document.moves
            ],
        )


@strawberry.type(
    description="Something that happened, as you may see it. `data` holds "
    "the event's own fields (they differ per game and kind)."
)
class GameEvent:
    kind: str
    seat: int | None
    data: JSON

    @classmethod
    def of(cls, event: dict[str, Any]) -> "GameEvent":
        return cls(kind=event.get("kind", ""), seat=event.get("seat"), data=JSON(event))


@strawberry.type(description="One committed version: who acted, and what happened.")
class LogEntry:
    version: int
    seat: int
    action: str
    move: JSON | None = strawberry.field(description="Only for the seat that made it.")
    events: list[GameEvent]
    status: GameStatus
    at: str
    reason: str | None = strawberry.field(
        default=None,
        description='Why a seat resigned: "resigned" (it chose to) or "timeout" (its clock '
        "ran out, onTimeout forfeit). Null for a move.",
    )

    @classmethod
    def of(cls, entry: payloads.LogEntryDocument) -> "LogEntry":
        return cls(
            version=entry.version,
            seat=entry.seat,
            action=entry.action,
            move=JSON(entry.move) if entry.move is not None else None,
            events=[GameEvent.of(e) for e in entry.events],
            status=status_of(entry.status),
            at=entry.at,
            reason=entry.reason,
        )


@strawberry.type(
    name="EventConnection",
    description="A game's log, oldest first, redacted for you: one edge per committed "
    "version, with the game's version and status now.",
)
class EventConnection(Connection[LogEntry]):
    game_id: strawberry.ID
    version: int = strawberry.field(description="The game's current version.")
    status: GameStatus


@strawberry.type
class GameSummary:
    id: strawberry.ID
    game: str
    status: GameStatus
    version: int
    seats: list[Seat]
    tags: list[str]
    created_at: str
    updated_at: str
    lobby: bool = strawberry.field(
        description="Its creator listed it in the public lobby (createGame with lobby: true)."
    )

    @classmethod
    def of(cls, summary: payloads.GameSummaryDocument) -> "GameSummary":
        return cls(
            id=strawberry.ID(summary.id),
            game=summary.game,
            status=status_of(summary.status),
            version=summary.version,
            seats=[Seat.of(s) for s in summary.seats],
            tags=summary.tags,
            created_at=summary.created_at,
            updated_at=summary.updated_at,
            lobby=summary.lobby,
        )


@strawberry.type(description="The record of a finished game, as listed.")
class RecordSummary:
    id: strawberry.ID
    game: str
    version: int
    seats: list[str]
    winners: list[int]
    tags: list[str]
    finished_at: str

    @classmethod
    def of(cls, summary: payloads.RecordSummary) -> "RecordSummary":
        return cls(
            id=strawberry.ID(summary.id),
            game=summary.game,
            version=summary.version,
            seats=summary.seats,
            winners=summary.winners,
            tags=summary.tags,
            finished_at=summary.finished_at,
        )


@strawberry.type(description="A seat's autopilot was switched.")
class Autopilot:
    game_id: strawberry.ID
    seat: int
    version: int
    autopilot: bool
    bot: str | None = strawberry.field(description="The bot level playing the seat while on.")

    @classmethod
    def of(cls, document: payloads.AutopilotDocument) -> "Autopilot":
        return cls(
            game_id=strawberry.ID(document.id),
            seat=document.seat,
            version=document.version,
            autopilot=document.autopilot,
            bot=document.bot,
        )


@strawberry.type
class CatalogGame:
    id: str
    title: str
    min_players: int
    max_players: int
    options_schema: JSON
    components: JSON
    bot_levels: list[str]

    @classmethod
    def of(cls, game: payloads.CatalogGame) -> "CatalogGame":
        # The served catalog's own values, shared (read only), not a deep copy of them
        # per request: a game's components are tens of KB of JSON.
        return cls(
            id=game.id,
            title=game.title,
            min_players=game.min_players,
            max_players=game.max_players,
            options_schema=JSON(game.options_schema),
            components=JSON(game.components),
            bot_levels=game.bot_levels,
        )


@strawberry.type
class CreatedSeat:
    seat: int
    name: str
    bot: str | None
    token: str | None = strawberry.field(
        description="The seat's secret bearer token (human seats). Shown only here."
    )
    open: bool = strawberry.field(description="An open seat, waiting to be claimed.")
    invite_code: str | None = strawberry.field(
        description="An open seat's invite code (single use, until inviteExpiresAt). Shown "
        "only here, to the creator."
    )
    invite_expires_at: str | None


@strawberry.type
class GameCreated:
    id: strawberry.ID
    game: str
    version: int
    status: GameStatus
    seats: list[CreatedSeat]
    tags: list[str]
    created_at: str
    replayed: bool = strawberry.field(description="True when answered from an idempotency key.")
    creator_token: str | None = strawberry.field(
        description="A game with open seats: the creator's secret token (cancelGame, "
        "fillSeatWithBot). Shown only here."
    )

    @classmethod
    def of(cls, created: payloads.GameCreated, replayed: bool) -> "GameCreated":
        return cls(
            id=strawberry.ID(created.id),
            game=created.game,
            version=created.version,
            status=status_of(created.status),
            seats=[
                CreatedSeat(
                    seat=s.seat,
                    name=s.name,
                    bot=s.bot,
                    token=s.token,
                    open=s.open,
                    invite_code=s.invite_code,
                    invite_expires_at=s.invite_expires_at,
                )
                for s in created.seats
            ],
            tags=created.tags,
            created_at=created.created_at,
            replayed=replayed,
            creator_token=created.creator_token,
        )


@strawberry.interface(
    description="Every result that refuses what a mutation asked: a stable `code` (the same "
    "as REST's) and a sentence for people. Failures to reach or use the service (tokens, "
    "unknown games, limits) are GraphQL errors instead."
)
class Error:
    code: str
    message: str


@strawberry.type(
    description="The request breaks a rule or does not fit the game's state: an illegal "
    "move, bad options, a seat that left; nothing changed."
)
class Rejected(Error):
    details: JSON | None = strawberry.field(
        description="What the REST problem document adds to its code and detail, in one "
        "object: the rules' own details (an illegal move's card, the prompted seats) and "
        "the facts beside them (the game's status now, the known bot levels, ...); null "
        "when there is none."
    )


@strawberry.type(description="The game was not at the expected version; nothing changed.")
class VersionConflict(Error):
    current_version: int


@strawberry.input(description="A seat: a name (and a bot level for a bot), or open: true.")
class SeatInput:
    name: str | None = strawberry.UNSET
    bot: str | None = strawberry.UNSET
    open: bool = strawberry.field(
        default=False,
        description="An open seat: it gets an invite code (shown only to the creator, and "
        "in the lobby for a game listed there) that one player claims it with (claimSeat); "
        "the game waits until every one is filled.",
    )


@strawberry.input(description="Time control: a bank per human seat plus an increment per move.")
class ClockInput:
    initial_seconds: float
    increment_seconds: float | None = strawberry.UNSET
    on_timeout: str | None = strawberry.field(
        default=strawberry.UNSET, description="forfeit (default) or bot"
    )


SEED_TEXT_DESCRIPTION = (
    f"The seed as decimal digits, 0 to {payloads.MAX_SEED}: the range REST and records "
    "hold, where seed (an Int) stops at 2147483647. Give seed or seedText, not both."
)


@strawberry.input
class CreateGameInput:
    game: str
    seats: list[SeatInput]
    options: JSON | None = strawberry.UNSET
    seed: int | None = strawberry.field(
        default=strawberry.UNSET,
        description="Fixes all randomness; anyone who knows it can work out hidden "
        "information. Up to 2147483647 (GraphQL's Int): for a larger one (a record's), "
        "seedText.",
    )
    seed_text: str | None = strawberry.field(
        default=strawberry.UNSET, description=SEED_TEXT_DESCRIPTION
    )
    tags: list[str] | None = strawberry.UNSET
    webhook_url: str | None = strawberry.field(
        default=strawberry.UNSET, description="Callback URL for signed webhooks of this game."
    )
    webhook_events: list[str] | None = strawberry.field(
        default=strawberry.UNSET,
        description='Which webhooks: "game.finished" (default), "game.aborted" (also sent '
        'to those told of game.finished), "move", "game.seat_claimed", "game.started", '
        '"game.cancelled", "seat.left", "seat.token_replaced".',
    )
    clock: ClockInput | None = strawberry.UNSET
    on_leave: str | None = strawberry.field(
        default=strawberry.UNSET,
        description="When a seat resigns or runs out of time: bot_takes_over (default with "
        "3+ seats: the seat is abandoned and a bot plays it to the end) or end_game "
        "(default with 1 or 2 seats).",
    )
    leave_bot: str | None = strawberry.field(
        default=strawberry.UNSET,
        description="Bot level for abandoned seats and autopilot (see the catalog's "
        f"botLevels); default {STAND_IN_DEFAULT}.",
    )
    invite_ttl_seconds: int | None = strawberry.field(
        default=strawberry.UNSET,
        description="How long open seats' invite codes are valid (60-604800 s; default "
        "SKYPORT_INVITE_TTL).",
    )
    lobby: bool = strawberry.field(
        default=False,
        description="List the game in the public lobby (query lobby) while it waits: anyone "
        "sees its open seats' invite codes there and may claim one. Needs an open seat.",
    )


CreateGameResult = Annotated[
    GameCreated | Rejected,
    strawberry.union("CreateGameResult"),
]

AutopilotResult = Annotated[
    Autopilot | Rejected,
    strawberry.union("AutopilotResult"),
]
