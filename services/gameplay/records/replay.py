"""Replaying a record through the engine, checking it as it goes.

From the seed and options, every recorded action is applied in order; the replay stops
at the first thing that does not match — a missing or repeated version, a move the
engine refuses, different events, a different state digest, a game that ends too early
or too late, or a different result — and says which version and what differs.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import orjson
from pydantic import ValidationError

from services.engine import Game, GameError, GameState, Result, get_game, seats_to_act
from services.engine.game import describe_validation_error

from .document import Record, RecordedAction, state_sha256
from .writer import full_events


class ReplayMismatch(Exception):
    """The record does not replay. `code` is stable; `version` is where it broke (0: at
    set-up or before any move; None: the record itself could not be read)."""

    def __init__(self, code: str, message: str, version: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.version = version

    def __str__(self) -> str:
        where = "" if self.version is None else f" at version {self.version}"
        return f"{self.code}{where}: {self.message}"


@dataclass(frozen=True)
class Replayed:
    record: Record
    state: GameState
    result: Result | None


def load_record(data: str | bytes | Mapping[str, Any]) -> Record:
    """A record from JSON (text, bytes or parsed), or a ReplayMismatch saying why not."""
    try:
        raw = orjson.loads(data) if isinstance(data, str | bytes) else dict(data)
        return Record.model_validate(raw)
    except orjson.JSONDecodeError as error:
        raise ReplayMismatch("malformed_record", f"The record is not JSON: {error}.") from None
    except ValidationError as error:
        raise ReplayMismatch(
            "malformed_record", f"Not a game record: {describe_validation_error(error)}."
        ) from None


def replay(record: Record, game: Game | None = None) -> Replayed:
    """Replay every action and check the end: the game must be over after the last
    action exactly when the record has a result, and the result must be the same."""
    game = game or _game_of(record)
    _, state = deque(states(record, game), maxlen=1)[0]
    left = [seat for seat, kept in enumerate(record.seats) if kept.left_at_version is not None]
    result = game.standings(state, left=left)
    if record.result is not None and not game.is_over(state):
        raise ReplayMismatch(
            "not_over",
            f"The record ends with a result, but after its last action the game goes on "
            f"(seats {seats_to_act(game.prompts(state))} are still to act).",
            record.version,
        )
    if record.result is None and result is not None:
        raise ReplayMismatch(
            "result_missing",
            "The game is over after the last action but the record has no result.",
            record.version,
        )
    before_leavers_lost = game.standings(state)  # records made before 2026-12-04
    if record.result is not None and record.result not in (result, before_leavers_lost):
        raise ReplayMismatch(
            "result_differs",
            f"The recorded result is {_compact(record.result)}, the engine's is "
            f"{_compact(result)}.",
            record.version,
        )
    if record.final_state_sha256 is not None:
        _check_digest(game, state, record.final_state_sha256, record.version)
    return Replayed(record=record, state=state, result=result)


def state_at(record: Record, version: int, game: Game | None = None) -> GameState:
    """The state at `version` (0: before any move), checked on the way there."""
    if not 0 <= version <= record.version:
        raise ReplayMismatch(
            "no_such_version", f"The record has versions 0 to {record.version}, not {version}."
        )
    for at, state in states(record, game or _game_of(record)):
        if at == version:
            return state
    raise AssertionError("unreachable: every version up to the last is yielded")


def states(record: Record, game: Game) -> Iterator[tuple[int, GameState]]:
    """(version, state) from version 0 to the record's last, each checked against it."""
    if game.id != record.game:
        raise ReplayMismatch("wrong_game", f"The record is of {record.game}, not {game.id}.", 0)
    try:
        # Leniently: a record keeps the options as they were sent, and games created
        # before options were checked strictly may hold e.g. `true` for 1; it was played so.
        state = game.setup(record.options, record.players, record.seed, strict=False)
    except GameError as error:
        raise ReplayMismatch(error.code, f"The game cannot be set up: {error.message}", 0) from None
    yield 0, state
    yield from states_after(record, game, 0, state)


def states_after(
    record: Record, game: Game, version: int, state: GameState
) -> Iterator[tuple[int, GameState]]:
    """(version, state) after `version` to the record's last, each checked against it,
    from the state at `version` (as `states` yielded it: the versions up to it are not
    checked again)."""
    for expected, action in enumerate(record.moves[version:], start=version + 1):
        if action.version != expected:
            raise ReplayMismatch(
                "version_gap",
                f"Action {expected} of the record says version {action.version}; versions "
                "must count 1, 2, 3… without gaps or repeats.",
                expected,
            )
        state = _apply(game, state, action, record.players)
        yield expected, state


def _apply(game: Game, state: GameState, action: RecordedAction, players: int) -> GameState:
    version = action.version
    if not 0 <= action.seat < players:
        raise ReplayMismatch(
            "no_such_seat", f"Seat {action.seat} acts, but the game has {players} seats.", version
        )
    try:
        if action.action == "resign":
            outcome = game.resign(state, action.seat)
        elif action.move is None:
            raise ReplayMismatch("missing_move", "A move action has no move.", version)
        else:
            outcome = game.apply(state, action.seat, action.move)
    except GameError as error:
        what = "resignation" if action.action == "resign" else f"move {_compact(action.move)}"
        raise ReplayMismatch(
            "illegal_move",
            f"The engine refuses seat {action.seat}'s {what}: {error.code}: {error.message}",
            version,
        ) from None
    events = full_events(outcome.events)
    if events != action.events:
        raise ReplayMismatch(
            "events_differ",
            f"The recorded events are {_compact(action.events)}, the engine's are "
            f"{_compact(events)}.",
            version,
        )
    if action.state_sha256 is not None:
        _check_digest(game, outcome.state, action.state_sha256, version)
    new_state: GameState = outcome.state
    return new_state


def _check_digest(game: Game, state: GameState, expected: str, version: int) -> None:
    actual = state_sha256(game, state)
    if actual != expected:
        raise ReplayMismatch(
            "state_differs",
            f"The recorded state digest is {expected[:12]}…, the replayed state's is "
            f"{actual[:12]}….",
            version,
        )


def _game_of(record: Record) -> Game:
    try:
        return get_game(record.game)
    except GameError as error:
        raise ReplayMismatch(error.code, error.message, 0) from None


def _compact(value: Any, limit: int = 300) -> str:
    if hasattr(value, "model_dump"):
        value = value.model_dump(mode="json")
    text = orjson.dumps(value).decode()
    return text if len(text) <= limit else text[: limit - 1] + "…"
