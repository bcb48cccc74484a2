"""Playing whole games between bots, through the game contract alone."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from services.engine import Game, GameState, Move, Result, Seat

from .bot import Bot


@dataclass
class MatchRecord:
    game: str
    seed: int
    players: int
    state: GameState
    result: Result
    moves: list[tuple[Seat, Move]] = field(default_factory=list)


def play_match(
    game: Game,
    bots: Sequence[Bot],
    seed: int,
    config: Mapping[str, Any] | None = None,
    *,
    max_moves: int = 200_000,
    on_step: Callable[[GameState, Seat, Move], None] | None = None,
) -> MatchRecord:
    """Play one game to the end. `on_step` sees every state before each move (for
    invariant checks in tests). The first prompted seat moves first when several are."""
    state = game.setup(config, len(bots), seed)
    moves: list[tuple[Seat, Move]] = []
    for _ in range(max_moves):
        prompts = game.prompts(state)
        if not prompts:
            break
        seat = prompts[0].seat
        move = bots[seat].choose(game, state, seat)
        if on_step is not None:
            on_step(state, seat, move)
        if on_step is None:
            game.apply_in_place(state, seat, move)  # nobody else holds the states
        else:
            state = game.apply(state, seat, move).state  # `on_step` may keep the old one
        moves.append((seat, move))
    else:
        raise RuntimeError(f"{game.id} seed {seed}: no end after {max_moves} moves")
    result = game.result(state)
    assert result is not None, f"{game.id}: no prompts left but no result"
    return MatchRecord(game.id, seed, len(bots), state, result, moves)
