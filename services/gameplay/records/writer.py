"""Making records: by hand, one committed action at a time (`RecordWriter`), or by
letting bots play a whole game through the engine (`play_recorded`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, Literal

from services.ai import make_bot
from services.engine import Event, Game, GameState, Move, Outcome, Seat

from .document import Reason, Record, RecordedAction, RecordedSeat, state_sha256

Clock = Callable[[], str]
Action = Literal["move", "resign"]


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class RecordWriter:
    """Plays a game through the engine and writes down every action as it goes."""

    def __init__(
        self,
        game: Game,
        seats: Sequence[RecordedSeat],
        seed: int,
        options: Mapping[str, Any] | None = None,
        *,
        game_id: str = "local",
        clock: Clock = utc_now,
        tags: Sequence[str] = (),
    ) -> None:
        self.game = game
        self.clock = clock
        self.state: GameState = game.setup(options, len(seats), seed)
        self.record = Record(
            id=game_id,
            game=game.id,
            options=dict(options or {}),
            seed=seed,
            seats=list(seats),
            tags=list(tags),
        )

    def move(self, seat: Seat, move: Move | Mapping[str, Any]) -> Outcome:
        parsed = self.game.parse_move(move)
        outcome = self.game.apply(self.state, seat, parsed)
        self._write(seat, "move", self.game.dump_move(parsed), outcome)
        return outcome

    def resign(self, seat: Seat, reason: Reason = "resigned") -> Outcome:
        """`seat` resigns (`reason`: it chose to, or its clock ran out: "timeout")."""
        outcome = self.game.resign(self.state, seat)
        self._write(seat, "resign", None, outcome, reason)
        return outcome

    def leave(self, seat: Seat, bot: str, reason: Reason = "resigned") -> None:
        """`seat` left (`reason` as for `resign`); from the current version on, a bot of
        level `bot` plays it."""
        seats = list(self.record.seats)
        seats[seat] = seats[seat].model_copy(
            update={"bot": bot, "left_at_version": self.record.version, "left_reason": reason}
        )
        self.record = self.record.model_copy(update={"seats": seats})

    def finish(self) -> Record:
        """The record as it stands, with the result once the game is over."""
        return self.record.model_copy(
            update={
                "result": self.game.standings(self.state),
                "final_state_sha256": state_sha256(self.game, self.state),
            }
        )

    def _write(
        self,
        seat: Seat,
        action: Action,
        move: dict[str, Any] | None,
        outcome: Outcome,
        reason: Reason | None = None,
    ) -> None:
        self.state = outcome.state
        entry = RecordedAction(
            version=self.record.version + 1,
            seat=seat,
            action=action,
            move=move,
            at=self.clock(),
            events=full_events(outcome.events),
            state_sha256=state_sha256(self.game, outcome.state),
            reason=reason,
        )
        self.record.moves.append(entry)


def full_events(events: Sequence[Event]) -> list[dict[str, Any]]:
    return [event.full() for event in events]


def play_recorded(
    game: Game,
    seats: Sequence[RecordedSeat],
    seed: int,
    options: Mapping[str, Any] | None = None,
    *,
    game_id: str = "local",
    clock: Clock = utc_now,
    bot_seed: int | None = None,
    max_moves: int = 200_000,
) -> Record:
    """Play a whole game with a bot in every seat (its `bot` level, random when None) and
    return its record. The first prompted seat moves first when several are."""
    writer = RecordWriter(game, seats, seed, options, game_id=game_id, clock=clock)
    base = seed if bot_seed is None else bot_seed
    bots = [make_bot(seat.bot or "random", base * 101 + i) for i, seat in enumerate(seats)]
    for _ in range(max_moves):
        prompts = game.prompts(writer.state)
        if not prompts:
            return writer.finish()
        seat = prompts[0].seat
        writer.move(seat, bots[seat].choose(game, writer.state, seat))
    raise RuntimeError(f"{game.id} seed {seed}: no end after {max_moves} moves")
