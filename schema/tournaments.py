"""GraphQL for tournaments (`tournament(id)`, `myTournament(id)`, `createTournament`) and
bulk creation (`createGames`): thin views over the gameplay service's tournament
documents."""

# No `from __future__ import annotations`: strawberry needs the evaluated annotations.

from typing import Annotated

import strawberry
from pydantic import ValidationError
from strawberry.scalars import JSON

from services.gameplay import tournament_payloads as t
from services.gameplay.auth import check_idempotency_key
from services.gameplay.bulk import MAX_BULK_GAMES, BulkCreateRequest, BulkCreation
from services.gameplay.participant_tokens import participant_tokens
from services.gameplay.problems import Problem
from services.gameplay.tournament_runner import TournamentRunner

from .context import GraphQLContext
from .inputs import invalid_input, plain_input, read_seed_text, rejected
from .types import SEED_TEXT_DESCRIPTION, ClockInput, CreateGameInput, GameCreated, Rejected

Info = strawberry.Info[GraphQLContext, None]

MAX_TOURNAMENT_ITEMS = t.MAX_TOURNAMENT_GAMES + t.MAX_PARTICIPANTS * 2
"""Tables, rounds and standings rows one answer gives over all its tournaments: the largest
tournament whole (every table, round and row), not many copies of it by aliases. The
cost rule counts an unpaged list as 10 items; a round robin's rounds and tables are
thousands, so the answer is counted as it is built."""


@strawberry.type(description="A participant's place in the standings.")
class TournamentStanding:
    rank: int
    participant: int
    name: str
    bot: str | None
    played: int
    wins: int
    byes: int
    points: float = strawberry.field(description="A win 1, a draw ½; larger tables: share beaten.")
    score: int = strawberry.field(description="The sum of their scores in their games.")
    tiebreak: float = strawberry.field(description="The format's tie-break (see `tiebreak`).")


@strawberry.type(description="One table of a round: its participants by seat and its game.")
class TournamentTable:
    number: int
    participants: list[int] = strawberry.field(description="The participant in each seat.")
    game_id: strawberry.ID | None
    status: str = strawberry.field(description="playing, finished or void (aborted).")
    ranks: list[int] | None
    scores: list[int] | None
    left_reasons: list[str | None] | None = strawberry.field(
        description="Once the table is finished, why each seat that left did, in its game "
        "record's words (a seat's left_reason, a resignation's reason): resigned (it chose "
        "to) or timeout (its clock ran out); null for a seat that stayed. Null while the "
        "table plays, or if it is void."
    )
    seed: str | None = strawberry.field(
        description="The table's seed, once it and every table dealt the same seed are done."
    )


@strawberry.type
class TournamentRound:
    number: int
    done: bool
    byes: list[int]
    tables: list[TournamentTable]


@strawberry.type(description="A tournament: standings and every round's tables.")
class Tournament:
    id: strawberry.ID
    game: str
    options: JSON
    format: JSON
    seats_per_table: int
    status: str = strawberry.field(description="running or finished.")
    rounds_total: int
    tiebreak: str
    clock: JSON | None = strawberry.field(
        description="Every table's time control: initial_seconds, increment_seconds, "
        "on_timeout (null: untimed)."
    )
    on_leave: str | None = strawberry.field(
        description="Every table's on_leave (null: the game's default)."
    )
    created_at: str
    updated_at: str
    finished_at: str | None
    document: strawberry.Private[t.TournamentDocument]

    @strawberry.field
    def standings(self, info: Info) -> list[TournamentStanding]:
        _count(info, len(self.document.standings))
        return [TournamentStanding(**row.model_dump()) for row in self.document.standings]

    @strawberry.field
    def rounds(self, info: Info) -> list[TournamentRound]:
        rounds = self.document.rounds
        _count(info, len(rounds) + sum(len(r.tables) for r in rounds))
        return [
            TournamentRound(
                number=r.number,
                done=r.done,
                byes=r.byes,
                tables=[
                    TournamentTable(
                        number=table.number,
                        participants=table.participants,
                        game_id=strawberry.ID(table.game_id) if table.game_id else None,
                        status=table.status,
                        ranks=table.ranks,
                        scores=table.scores,
                        left_reasons=list(table.left_reasons)
                        if table.left_reasons is not None
                        else None,
                        seed=str(table.seed) if table.seed is not None else None,
                    )
                    for table in r.tables
                ],
            )
            for r in rounds
        ]

    @classmethod
    def of(cls, document: t.TournamentDocument) -> "Tournament":
        return cls(
            id=strawberry.ID(document.id),
            game=document.game,
            options=JSON(document.options),
            format=JSON(document.format),
            seats_per_table=document.seats_per_table,
            status=document.status,
            rounds_total=document.rounds_total,
            tiebreak=document.tiebreak,
            clock=JSON(document.clock.model_dump()) if document.clock else None,
            on_leave=document.on_leave,
            created_at=document.created_at,
            updated_at=document.updated_at,
            finished_at=document.finished_at,
            document=document,
        )


def _count(info: Info, items: int) -> None:
    """Counts `items` toward the answer's `MAX_TOURNAMENT_ITEMS`, before they are built."""
    context = info.context
    context.tournament_items += items
    if context.tournament_items > MAX_TOURNAMENT_ITEMS:
        raise Problem(
            422,
            "answer_too_large",
            f"This answer would hold more than {MAX_TOURNAMENT_ITEMS} tournament tables, "
            "rounds and standings rows; ask for one tournament's rounds at a time.",
            limit=MAX_TOURNAMENT_ITEMS,
        )


@strawberry.type(description="One round of yours: your table, seat, game and seat token.")
class MyRound:
    number: int
    bye: bool
    table: int | None
    seat: int | None
    game_id: strawberry.ID | None
    seat_token: str | None = strawberry.field(
        description="The seat token for that game (null for a bye, a bot, an expired game, "
        "a token replaced since, or for a moment while the round's games are being made: "
        "ask again)."
    )
    token_replaced: bool = strawberry.field(
        description="The seat's token was replaced (replaceSeatToken): the one derived for "
        "it no longer works, and the new one is only in the replacement's answer."
    )


@strawberry.type(description="A participant's own rounds, read with their participant token.")
class MyTournament:
    id: strawberry.ID
    participant: int
    name: str
    bot: str | None
    rounds: list[MyRound]

    @classmethod
    def of(cls, mine: t.MyTournament) -> "MyTournament":
        return cls(
            id=strawberry.ID(mine.id),
            participant=mine.participant,
            name=mine.name,
            bot=mine.bot,
            rounds=[
                MyRound(
                    number=r.number,
                    bye=r.bye,
                    table=r.table,
                    seat=r.seat,
                    game_id=strawberry.ID(r.game_id) if r.game_id else None,
                    seat_token=r.seat_token,
                    token_replaced=r.token_replaced,
                )
                for r in mine.rounds
            ],
        )


@strawberry.type
class CreatedParticipant:
    participant: int
    name: str
    bot: str | None
    token: str = strawberry.field(
        description="The participant's secret token (reads their seat tokens). Shown only here."
    )


@strawberry.type
class TournamentCreated:
    id: strawberry.ID
    game: str
    format: str
    rounds_total: int
    participants: list[CreatedParticipant]
    replayed: bool = strawberry.field(description="True when answered from an idempotency key.")


@strawberry.input
class ParticipantInput:
    name: str
    bot: str | None = strawberry.field(
        default=strawberry.UNSET, description="Bot level that plays them; omit for a person."
    )


@strawberry.input(description="round_robin; swiss with rounds; duplicate (rounds optional).")
class TournamentFormatInput:
    kind: str
    rounds: int | None = strawberry.UNSET


@strawberry.input
class CreateTournamentInput:
    game: str
    participants: list[ParticipantInput]
    format: TournamentFormatInput
    options: JSON | None = strawberry.UNSET
    seats_per_table: int | None = strawberry.UNSET
    seed: int | None = strawberry.field(
        default=strawberry.UNSET,
        description="Every table's seed is derived from it and the tournament's own secret "
        "(random if omitted). Up to 2147483647 (GraphQL's Int): for a larger one, seedText.",
    )
    seed_text: str | None = strawberry.field(
        default=strawberry.UNSET, description=SEED_TEXT_DESCRIPTION
    )
    webhook_url: str | None = strawberry.UNSET
    clock: ClockInput | None = strawberry.field(
        default=strawberry.UNSET,
        description="Every table's time control, as createGame's (it starts with the "
        "table's round); omit for untimed tables.",
    )
    on_leave: str | None = strawberry.field(
        default=strawberry.UNSET,
        description="Every table's onLeave, as createGame's: bot_takes_over (default at "
        "3+ seats) or end_game (default at 1 or 2).",
    )


@strawberry.type(description="Every game of a bulk creation, in the order asked.")
class GamesCreated:
    games: list[GameCreated]
    replayed: bool = strawberry.field(description="True when answered from an idempotency key.")


CreateTournamentResult = Annotated[
    TournamentCreated | Rejected, strawberry.union("CreateTournamentResult")
]
CreateGamesResult = Annotated[GamesCreated | Rejected, strawberry.union("CreateGamesResult")]


def _runner(info: Info) -> TournamentRunner:
    runner: TournamentRunner = info.context.request.app.state.tournaments
    return runner


def _bulk(info: Info) -> BulkCreation:
    creation: BulkCreation = info.context.request.app.state.bulk
    return creation


async def resolve_tournament(info: Info, id: strawberry.ID) -> Tournament | None:
    try:
        document = await _runner(info).document(str(id))
    except Problem as problem:
        if problem.code == "tournament_not_found":
            return None
        raise
    return Tournament.of(document)


async def resolve_my_tournament(info: Info, id: strawberry.ID) -> MyTournament | None:
    """As GET /v1/tournaments/{id}/me: refusals (401, 404) are errors with their codes."""
    mine = await _runner(info).mine(str(id), info.context.credentials())
    return MyTournament.of(mine)


async def resolve_create_tournament(
    info: Info, input: CreateTournamentInput, idempotency_key: str | None = None
) -> CreateTournamentResult:
    key = check_idempotency_key(idempotency_key)
    asked = plain_input(input)
    refused = read_seed_text(asked, [])
    if refused is not None:
        return refused
    try:
        request = t.CreateTournamentRequest.model_validate(asked)
    except ValidationError as error:
        return invalid_input(error)
    try:
        created, replayed = await _runner(info).create(info.context.credentials(), request, key)
    except Problem as problem:
        return _rejected_or_raise(problem)
    return TournamentCreated(
        id=strawberry.ID(created.id),
        game=created.game,
        format=created.format,
        rounds_total=created.rounds_total,
        participants=[CreatedParticipant(**p.model_dump()) for p in created.participants],
        replayed=replayed,
    )


@strawberry.type(
    description="A participant's token was replaced: the old one no longer works, and the "
    "seat tokens of their tables in play were replaced too (myTournament gives the new ones)."
)
class ParticipantTokenReplaced:
    tournament_id: strawberry.ID
    participant: int
    token: str = strawberry.field(
        description="The participant's new secret token. Shown only here."
    )
    issued_at: str = strawberry.field(description="When the new token was issued.")
    replayed: bool = strawberry.field(description="True when answered from an idempotency key.")


ParticipantTokenResult = Annotated[
    ParticipantTokenReplaced | Rejected, strawberry.union("ParticipantTokenResult")
]


async def resolve_replace_participant_token(
    info: Info, tournament_id: strawberry.ID, participant: int, idempotency_key: str | None = None
) -> ParticipantTokenResult:
    key = check_idempotency_key(idempotency_key)
    desk = participant_tokens(_runner(info))
    try:
        replaced, replayed = await desk.replace(
            str(tournament_id), info.context.credentials(), participant, key
        )
    except Problem as problem:
        return _rejected_or_raise(problem)
    return ParticipantTokenReplaced(
        tournament_id=strawberry.ID(replaced.id),
        participant=replaced.participant,
        token=replaced.token or "",
        issued_at=replaced.issued_at,
        replayed=replayed,
    )


async def resolve_create_games(
    info: Info, games: list[CreateGameInput], idempotency_key: str | None = None
) -> CreateGamesResult:
    key = check_idempotency_key(idempotency_key)
    asked = [plain_input(g) for g in games]
    if len(asked) <= MAX_BULK_GAMES:  # more is refused as a whole, before any game is read
        for index, spec in enumerate(asked):
            refused = read_seed_text(spec, ["games", str(index)])
            if refused is not None:
                return refused
    try:
        request = BulkCreateRequest.model_validate({"games": asked})
    except ValidationError as error:
        return invalid_input(error)
    try:
        created, replayed = await _bulk(info).create_games(info.context.credentials(), request, key)
    except Problem as problem:
        return _rejected_or_raise(problem)
    return GamesCreated(
        games=[GameCreated.of(g, replayed) for g in created.games], replayed=replayed
    )


def _rejected_or_raise(problem: Problem) -> Rejected:
    if problem.refusal:
        return rejected(problem)
    raise problem
