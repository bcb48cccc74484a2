"""What searching bots and resigning players need from the game."""

import pytest
from sky_islands_helpers import check_conserved, new_game

from services.ai import make_bot, play_match
from services.engine import Rng
from services.games.sky_islands import game


def test_determinize_keeps_what_the_seat_sees_and_redeals_the_rest():
    state = new_game(4)
    dealt = game.determinize(state, 2, Rng.from_seed(5))
    assert dealt.merchants[2].hand == state.merchants[2].hand
    assert dealt.board == state.board and dealt.discarded == state.discarded
    assert [len(m.hand) for m in dealt.merchants] == [len(m.hand) for m in state.merchants]
    assert len(dealt.pile) == len(state.pile) and len(dealt.returned) == len(state.returned)
    assert dealt.rng != state.rng
    assert dealt.pile != state.pile or dealt.merchants[0].hand != state.merchants[0].hand
    check_conserved(dealt)


def test_evaluate_is_a_share_between_zero_and_one():
    state = new_game(3)
    assert game.evaluate(state, 0) == 0.5
    state.merchants[0].vp.ships = 3
    assert game.evaluate(state, 0) == 1.0 and game.evaluate(state, 1) == 0.0


def test_greedy_bot_plays_a_whole_game():
    record = play_match(game, [make_bot("greedy", 1), make_bot("random", 2)], seed=3)
    assert record.state.over and record.result.winners


def test_resigned_game_is_scored_as_it_stands():
    if not hasattr(game, "resign"):
        pytest.skip("the engine has no resignation")
    state = new_game(3)
    state = game.resign(state, 1).state
    assert game.prompts(state) == [] and game.legal_moves(state, 0) == []
    standings = game.standings(state)
    assert standings.standings[-1].seat == 1
    assert game.view(state, 0).current_player is None
