"""Every bot level and the Big Money bot, on positions of every recommended set and card-set
mix at 2–6 players: never a crash, never a change to the state shown, always a legal
move. (The generic bot test plays default, Rising Sun-only kingdoms.)

SKYPORT_DOMINION_BOT_POSITIONS sets the positions per level (default 70: one per kingdom
choice and player count).
"""

from __future__ import annotations

import os

import pytest
from test_dominion_random_games import CONFIGS, SaneRandomBot, config_and_players

from services.ai import make_bot
from services.ai.bot import levels_for
from services.ai.mcts import MctsBot
from services.engine import Rng
from services.games.dominion import game
from services.games.dominion.big_money import BigMoneyBot
from services.games.dominion.state import DominionState

POSITIONS = int(os.environ.get("SKYPORT_DOMINION_BOT_POSITIONS", str(len(CONFIGS) * 5)))


def positions(count: int) -> list[tuple[str, DominionState]]:
    found = []
    for seed in range(count):
        config, players = config_and_players(seed)
        state = game.setup(config, players, seed)
        bot, stop = SaneRandomBot(seed), Rng.from_seed(seed).below(150)
        for step in range(stop):
            prompts = game.prompts(state)
            if not prompts:
                break
            seat = prompts[step % len(prompts)].seat
            state = game.apply(state, seat, bot.choose(state, seat)).state
        if game.prompts(state):
            found.append((f"{config} {players}p seed {seed}", state))
    return found


def bot_of(level: str, seed: int):
    if level == "mcts":
        return MctsBot(seed, iterations=4, depth=6)
    if level == "big_money":
        return BigMoneyBot()
    return make_bot(level, seed)


@pytest.mark.parametrize("level", [*levels_for(game), "big_money"])
def test_every_bot_returns_a_legal_move_on_every_kind_of_kingdom(level):
    failures = []
    for label, state in positions(POSITIONS):
        before = game.dump_state(state)
        for prompt in game.prompts(state):
            move = bot_of(level, 1).choose(game, state, prompt.seat)
            legal = [game.dump_move(m) for m in game.legal_moves(state, prompt.seat)]
            if game.dump_state(state) != before:
                failures.append(f"{label}: changed the state")
            elif game.dump_move(move) not in legal:
                failures.append(f"{label}: illegal {game.dump_move(move)}")
            else:
                game.apply(state, prompt.seat, move)
    assert not failures, "\n".join(failures[:10])
