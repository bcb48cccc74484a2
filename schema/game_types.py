"""GraphQL types that hold a game view, built once the registered games are known."""

# No `from __future__ import annotations`: strawberry needs the evaluated annotations.

from dataclasses import dataclass
from typing import Annotated, Any

import strawberry

from services.engine import Game as GameRules
from services.gameplay import payloads

from .types import Clock, GameEvent, GameResult, GameStatus, Prompt, Rejected, Seat, VersionConflict
from .types import status_of as status
from .views import ViewTypes


@dataclass(frozen=True)
class GameTypes:
    game: Any
    move_applied: Any
    move_result: Any
    views: ViewTypes
    game_at_version: Any


def build_game_types(views: ViewTypes) -> GameTypes:
    view_union = views.union

    @strawberry.type(name="Game", description="A game as your token may see it.")
    class Game:
        id: strawberry.ID
        game: str
        status: GameStatus
        version: int
        seats: list[Seat]
        you: int | None = strawberry.field(description="Your seat; null for spectators.")
        turn: list[int] = strawberry.field(description="Seats that must act now.")
        prompts: list[Prompt]
        view: view_union
        seat_views: list[view_union] | None = strawberry.field(
            description="Every seat's view: finished games read with the API key that created them."
        )
        result: GameResult | None
        clock: Clock | None = strawberry.field(description="Time control, if the game has one.")
        tags: list[str]
        created_at: str
        updated_at: str
        abort_reason: str | None = strawberry.field(
            description="Why an aborted game was stopped ('cancelled by its creator', or what "
            "went wrong)."
        )
        lobby: bool = strawberry.field(
            description="Its creator listed it in the public lobby (createGame with lobby: "
            "true): it is shown there while it waits for players."
        )

        @classmethod
        def of(cls, document: payloads.GameDocument, rules: GameRules) -> "Game":
            return cls(
                id=strawberry.ID(document.id),
                game=document.game,
                status=status(document.status),
                version=document.version,
                seats=[Seat.of(s) for s in document.seats],
                you=document.you,
                turn=document.turn,
                prompts=[Prompt.of(p) for p in document.prompts],
                view=views.convert(rules, document.view),
                seat_views=[views.convert(rules, v) for v in document.seat_views]
                if document.seat_views is not None
                else None,
                result=GameResult.of(document.result) if document.result else None,
                clock=Clock.of(document.clock) if document.clock else None,
                tags=document.tags,
                created_at=document.created_at,
                updated_at=document.updated_at,
                abort_reason=document.abort_reason,
                lobby=document.lobby,
            )

    def applied_view(root: "MoveApplied") -> view_union:
        return views.convert(root.rules, root.view_document)

    @strawberry.type(name="MoveApplied", description="The move (or resignation) committed.")
    class MoveApplied:
        game_id: strawberry.ID
        version: int
        status: GameStatus
        seat: int
        events: list[GameEvent]
        # Typed only when asked for: most movers select just the version and the turn.
        view: view_union = strawberry.field(resolver=applied_view)
        turn: list[int]
        prompts: list[Prompt]
        replayed: bool = strawberry.field(
            description="True when answered from an earlier request with the same key."
        )
        abandoned: bool = strawberry.field(
            description="A resignation under onLeave bot_takes_over: nothing was committed; "
            "the seat is abandoned and a bot plays it from here."
        )
        view_document: strawberry.Private[dict[str, Any]] = None  # type: ignore[assignment]
        rules: strawberry.Private[GameRules] = None  # type: ignore[assignment]

        @classmethod
        def of(
            cls, accepted: payloads.MoveAccepted, rules: GameRules, replayed: bool
        ) -> "MoveApplied":
            return cls(
                game_id=strawberry.ID(accepted.id),
                version=accepted.version,
                status=status(accepted.status),
                seat=accepted.seat,
                events=[GameEvent.of(e) for e in accepted.events],
                turn=accepted.turn,
                prompts=[Prompt.of(p) for p in accepted.prompts],
                replayed=replayed,
                abandoned=accepted.abandoned,
                view_document=accepted.view,
                rules=rules,
            )

    @strawberry.type(
        name="GameAtVersion", description="A finished game as a spectator saw it at a version."
    )
    class GameAtVersion:
        game_id: strawberry.ID
        game: str
        version: int
        last_version: int
        view: view_union

        @classmethod
        def of(cls, document: payloads.VersionView, rules: GameRules) -> "GameAtVersion":
            return cls(
                game_id=strawberry.ID(document.id),
                game=document.game,
                version=document.version,
                last_version=document.last_version,
                view=views.convert(rules, document.view),
            )

    move_result = Annotated[
        MoveApplied | Rejected | VersionConflict,
        strawberry.union("MoveResult", description="Applied, or why not (nothing changed)."),
    ]
    return GameTypes(
        game=Game,
        move_applied=MoveApplied,
        move_result=move_result,
        views=views,
        game_at_version=GameAtVersion,
    )
