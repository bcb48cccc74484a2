"""The bots' game knowledge: the playout policy plays only legal, sensible moves, and the
evaluation is a win chance that rewards what a player would call progress.

SKYPORT_PLAYOUT_GAMES sets how many games the playout policy plays per setting (default 6).
"""

from __future__ import annotations

import os

import pytest
from sky_lanterns_kit import give, table

from services.ai.greedy import GreedyBot
from services.engine import Rng, copy_state
from services.games.sky_lanterns import game
from services.games.sky_lanterns import moves as mv
from services.games.sky_lanterns.evaluation import rival_projection, win_chance

GAMES = int(os.environ.get("SKYPORT_PLAYOUT_GAMES", "6"))
SETTINGS = [
    (2, {}),
    (3, {}),
    (4, {}),
    (1, {"scenario": "dead-mine"}),
    (1, {"scenario": "burning-hut", "challenge": True}),
]


@pytest.mark.parametrize(("players", "options"), SETTINGS)
def test_playout_policy_finishes_games_with_legal_sensible_moves(
    players: int, options: dict[str, object]
) -> None:
    rng = Rng.from_seed(7)
    for seed in range(GAMES):
        state = game.setup(options, players, seed)
        while not state.over:
            prompt = game.prompts(state)[0]
            seat = prompt.seat
            legal = game.legal_moves(state, seat)
            move = game.playout_move(state, seat, rng)
            assert move in legal
            if any(not isinstance(m, (mv.CoalTrade, mv.CamphorTrade)) for m in legal):
                assert not isinstance(move, (mv.CoalTrade, mv.CamphorTrade))
            if isinstance(move, mv.TakeDie):
                assert not move.forfeit
            if isinstance(move, mv.Decline) and prompt.kind == "develop":
                assert all(isinstance(m, (mv.Decline, mv.CoalTrade)) for m in legal)
            state = game.apply(state, seat, move).state
        assert game.result(state) is not None


@pytest.mark.parametrize(("players", "options"), SETTINGS)
def test_bots_do_not_throw_coal_away_into_a_full_track(
    players: int, options: dict[str, object]
) -> None:
    """A Coal Trade into a full track is legal (the gain is lost) and on offer at nearly
    every prompt of a player with a full track: the evaluation counts it a loss, so the
    greedy bot does not take it, and the playout policy leaves Coal Trades out."""
    state = game.setup(options, players, 2)
    while game.prompts(state)[0].kind in ("draft", "arrange"):  # play past any setup
        seat = game.prompts(state)[0].seat
        state = game.apply(state, seat, game.legal_moves(state, seat)[0]).state
    seat = game.prompts(state)[0].seat
    give(state, seat, coal=4, indigo=3, tea=10, yam=3)
    dump = mv.CoalTrade(into="tea")
    assert dump in game.legal_moves(state, seat)
    dumped = game.apply(state, seat, dump).state
    assert dumped.seats[seat].basics["coal"] == 3 and dumped.seats[seat].basics["tea"] == 10
    assert game.evaluate(dumped, seat) < game.evaluate(state, seat)
    for bot_seed in range(3):
        assert GreedyBot(bot_seed).choose(game, state, seat) != dump
        assert game.playout_move(state, seat, Rng.from_seed(bot_seed)) != dump


def test_evaluation_is_a_chance_that_grows_with_a_lead() -> None:
    state = table(players=3)
    even = win_chance(state, 0)
    assert 0.0 < even < 1.0
    ahead = copy_state(state)
    give(ahead, 0, vp=15)
    assert win_chance(ahead, 0) > even + 0.2
    assert win_chance(ahead, 1) < win_chance(state, 1)


def test_solo_evaluation_fears_the_ghosts_coal_times_indigo() -> None:
    state = game.setup({"scenario": "dead-mine"}, 1, 3)
    fed = copy_state(state)
    assert fed.rival is not None
    fed.rival.basics["coal"] = 6
    fed.rival.basics["indigo"] = 6
    assert rival_projection(fed)[0] > rival_projection(state)[0] + 30
    assert win_chance(fed, 0) < win_chance(state, 0)
    full = copy_state(fed)
    assert full.rival is not None
    full.rival.basics["coal"] = 10
    full.rival.basics["indigo"] = 9
    assert rival_projection(full)[1] > 0.5  # losing by two full tracks is near
