"""Hidden information, checked the same way on every game that can deal a hidden state
(`determinize`), with no per-game code: whatever a determinization deals anew must be
invisible to the seat it was dealt for, and to spectators.

At random positions of random games, for every seat:
- `view(state, seat)` equals `view(determinize(state, seat, rng), seat)`: the seat cannot
  tell the real state from a re-dealt one, so nothing re-dealt leaks into its view;
- the seat's legal moves are the same in both (bots search re-dealt states and must
  return moves that are legal in the real one);
- a spectator's view is unchanged under any seat's determinization;
- determinize leaves the real state untouched.
The hand-written leak checks of each game (its view tests, the API's hidden-information
tests) stay: they name what must be hidden; this one finds what was forgotten.
"""

from __future__ import annotations

import os
from typing import Any

import orjson
import pytest
from blind_bid import blind_bid, blind_bid_solo

from services.ai import RandomBot, play_match
from services.engine import Game, Rng, all_games

POSITIONS = int(os.environ.get("SKYPORT_HIDDEN_POSITIONS", "40"))
"""Positions checked per game (every seat and a spectator at each)."""

GAMES = [
    game
    for game in [*all_games(), blind_bid, blind_bid_solo]
    if type(game).determinize is not Game.determinize
]


def view_of(game: Game, state: Any, viewer: int | None) -> Any:
    return orjson.loads(
        orjson.dumps(game.view(state, viewer).model_dump(mode="json"), option=orjson.OPT_SORT_KEYS)
    )


def differences(real: Any, dealt: Any, path: str = "view") -> list[str]:
    """Where two JSON documents differ, as `path: real != dealt` lines."""
    if isinstance(real, dict) and isinstance(dealt, dict):
        found = []
        for key in sorted(real.keys() | dealt.keys()):
            found += differences(real.get(key), dealt.get(key), f"{path}.{key}")
        return found
    if isinstance(real, list) and isinstance(dealt, list) and len(real) == len(dealt):
        found = []
        for index, (a, b) in enumerate(zip(real, dealt, strict=True)):
            found += differences(a, b, f"{path}[{index}]")
        return found
    return [] if real == dealt else [f"{path}: {real!r} != {dealt!r}"]


def random_positions(game: Game, count: int) -> list[tuple[str, Any]]:
    """`count` positions (label, state) sampled from random games of every player count."""
    counts = list(range(game.min_players, game.max_players + 1))
    picker = Rng.from_seed(sum(map(ord, game.id)))
    positions: list[tuple[str, Any]] = []
    match = 0
    while len(positions) < count:
        players = counts[match % len(counts)]
        seed = 1000 + match
        seen = states_of_a_random_game(game, players, seed)
        wanted = min(len(seen), max(1, count // 8), count - len(positions))
        for index in sorted(picker.sample(list(range(len(seen))), wanted)):
            positions.append((f"{players}p seed {seed} step {index}", seen[index]))
        match += 1
    return positions


def states_of_a_random_game(game: Game, players: int, seed: int) -> list[Any]:
    seen: list[Any] = []
    bots = [RandomBot(seed * 10 + s) for s in range(players)]
    play_match(game, bots, seed=seed, on_step=lambda state, seat, move: seen.append(state))
    return seen


def check_position(game: Game, state: Any, rng: Rng) -> list[str]:
    """Every way this position breaks the rules above, in words."""
    problems: list[str] = []
    before = game.dump_state(state)
    spectator = view_of(game, state, None)
    for seat in range(state.players):
        dealt = game.determinize(state, seat, rng)
        if game.dump_state(state) != before:
            problems.append(f"determinize for seat {seat} changed the real state")
        for line in differences(view_of(game, state, seat), view_of(game, dealt, seat)):
            problems.append(f"seat {seat} sees its own view change: {line}")
        for line in differences(spectator, view_of(game, dealt, None)):
            problems.append(f"spectators see seat {seat}'s determinization: {line}")
        real_moves = [game.dump_move(m) for m in game.legal_moves(state, seat)]
        dealt_moves = [game.dump_move(m) for m in game.legal_moves(dealt, seat)]
        if real_moves != dealt_moves:
            problems.append(
                f"seat {seat}'s legal moves differ: {len(real_moves)} real, "
                f"{len(dealt_moves)} after determinize"
            )
    return problems


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_a_determinization_is_invisible_to_its_seat_and_to_spectators(game):
    rng = Rng.from_seed(7)
    failures = []
    for label, state in random_positions(game, POSITIONS):
        failures += [f"{label}: {problem}" for problem in check_position(game, state, rng)]
    assert not failures, f"{len(failures)} problems, first ones:\n" + "\n".join(failures[:15])


def test_the_check_catches_a_determinization_that_leaks():
    """A determinize that re-deals a seat's own hand must be caught."""

    class Leaky(type(blind_bid)):
        def determinize(self, state, seat, rng):
            dealt = super().determinize(state, seat, rng)
            dealt.hands[seat] = sorted(dealt.hands[(seat + 1) % state.players])
            return dealt

    leaky = Leaky()
    state = leaky.setup({}, 2, 3)
    problems = check_position(leaky, state, Rng.from_seed(1))
    assert any(p.startswith("seat 0 sees its own view change: view.hand[0]") for p in problems)
    assert "seat 0's legal moves differ: 3 real, 3 after determinize" in problems


def test_the_check_catches_a_spectator_leak():
    """A determinize that changes public points must be caught for spectators too."""

    class Public(type(blind_bid)):
        def determinize(self, state, seat, rng):
            dealt = super().determinize(state, seat, rng)
            dealt.points = [p + 1 for p in dealt.points]
            return dealt

    public = Public()
    problems = check_position(public, public.setup({}, 2, 3), Rng.from_seed(1))
    assert "spectators see seat 1's determinization: view.points[0]: 0 != 1" in problems


def test_every_game_that_searches_is_checked():
    searching = {g.id for g in all_games() if g.supports_search()}
    assert searching <= {g.id for g in GAMES}
    assert {"blind-bid", "blind-bid-solo"} <= {g.id for g in GAMES}
