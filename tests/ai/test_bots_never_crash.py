"""Every bot level, on random positions of every game: it never crashes, never changes
the state it was shown, and always returns a move that is legal for its seat there
(so the service can apply it). MCTS runs with a tiny budget: this is about robustness,
not strength.

SKYPORT_BOT_POSITIONS sets the positions per game and level (default 400: over a thousand
per game across its levels, as issue 10 asks); a deeper run raises it.
"""

from __future__ import annotations

import os
import traceback
from typing import Any

import pytest
from blind_bid import blind_bid, blind_bid_solo

from services.ai import RandomBot, make_bot, play_match
from services.ai.bot import Bot, levels_for
from services.ai.mcts import MctsBot
from services.engine import Game, Rng, all_games

POSITIONS = int(os.environ.get("SKYPORT_BOT_POSITIONS", "400"))
GAMES = [*all_games(), blind_bid, blind_bid_solo]
CASES = [(game, level) for game in GAMES for level in levels_for(game)]


def bot_of(level: str, seed: int) -> Bot:
    if level == "mcts":
        return MctsBot(seed, iterations=4, depth=6)
    return make_bot(level, seed)


def random_positions(game: Game, count: int, salt: int) -> list[tuple[str, Any]]:
    """`count` positions (label, state) from random games of every player count, a few
    from each game so that openings, middles and ends all appear."""
    counts = list(range(game.min_players, game.max_players + 1))
    picker = Rng.from_seed(salt)
    positions: list[tuple[str, Any]] = []
    match = 0
    while len(positions) < count:
        players = counts[match % len(counts)]
        seed = salt + match
        seen = states_of_a_random_game(game, players, seed)
        wanted = min(len(seen), 8, count - len(positions))
        for index in picker.sample(list(range(len(seen))), wanted):
            positions.append((f"{players}p seed {seed} step {index}", seen[index]))
        match += 1
    return positions


def states_of_a_random_game(game: Game, players: int, seed: int) -> list[Any]:
    seen: list[Any] = []
    bots = [RandomBot(seed * 10 + s) for s in range(players)]
    play_match(game, bots, seed=seed, on_step=lambda state, *_: seen.append(state))
    return seen


def failure_at(game: Game, bot: Bot, state: Any, seat: int) -> str | None:
    """What went wrong when `bot` chose for `seat` here, or None."""
    before = game.dump_state(state)
    try:
        move = bot.choose(game, state, seat)
    except Exception as error:
        where = traceback.extract_tb(error.__traceback__)[-1]
        return f"crashed: {type(error).__name__}: {error} ({where.filename}:{where.lineno})"
    if game.dump_state(state) != before:
        return "changed the state it was shown"
    legal = [game.dump_move(m) for m in game.legal_moves(state, seat)]
    if game.dump_move(move) not in legal:
        return f"chose an illegal move {game.dump_move(move)}"
    game.apply(state, seat, move)
    return None


@pytest.mark.parametrize(
    ("game", "level"), CASES, ids=[f"{game.id}-{level}" for game, level in CASES]
)
def test_a_bot_always_returns_a_legal_move(game: Game, level: str):
    failures: list[str] = []
    salt = sum(map(ord, game.id + level))
    for number, (label, state) in enumerate(random_positions(game, POSITIONS, salt)):
        for seat in sorted({p.seat for p in game.prompts(state)}):
            problem = failure_at(game, bot_of(level, number), state, seat)
            if problem is None:
                continue
            failures.append(f"{label}, seat {seat}: {problem}")
    assert not failures, f"{len(failures)} failures, first ones:\n" + "\n".join(failures[:10])


class Cheat:
    """Picks a card nobody holds, or crashes when told to."""

    def __init__(self, crash: bool = False) -> None:
        self.crash = crash

    def choose(self, game: Game, state: Any, seat: int):
        if self.crash:
            raise KeyError("boom")
        return game.parse_move({"kind": "pick", "card": 99})


def test_the_check_catches_illegal_moves_and_crashes():
    state = blind_bid.setup({}, 2, 1)
    assert failure_at(blind_bid, Cheat(), state, 0) == (
        "chose an illegal move {'kind': 'pick', 'card': 99}"
    )
    assert failure_at(blind_bid, Cheat(crash=True), state, 0).startswith(
        "crashed: KeyError: 'boom' ("
    )
    assert failure_at(blind_bid, RandomBot(1), state, 0) is None


@pytest.mark.parametrize(
    "game", [blind_bid, next(g for g in GAMES if g.id == "dominion")], ids=lambda g: g.id
)
def test_mcts_moves_for_its_own_seat_when_several_are_prompted(game: Game):
    checked = 0
    for seed in range(60):
        for state in states_of_a_random_game(game, 3, seed):
            prompted = sorted({p.seat for p in game.prompts(state)})
            for seat in prompted[1:]:
                assert failure_at(game, MctsBot(seed, iterations=8, depth=4), state, seat) is None
                checked += 1
            if checked >= 10:
                return
    pytest.fail("no position with several seats prompted at once")
