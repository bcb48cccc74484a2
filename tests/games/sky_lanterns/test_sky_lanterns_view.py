"""Views: hands only for their owner, face-down Upgrade Tiles for nobody, the deck as a
count; and what the bots use to search (determinize, evaluate)."""

import orjson
from sky_lanterns_kit import new_game, play, table

from services.ai import play_match
from services.ai.greedy import GreedyBot
from services.ai.mcts import MctsBot
from services.engine import Rng
from services.games.sky_lanterns import game


def test_a_hand_is_shown_to_its_owner_only():
    state = new_game()
    for viewer in (None, 0, 1, 2, 3):
        players = game.view(state, viewer).players
        for seat, player in enumerate(players):
            assert player.hand_size == 3
            assert player.hand == (state.seats[seat].hand if seat == viewer else None)


def test_face_down_upgrade_tiles_are_hidden_even_from_their_owner():
    state = new_game()
    for viewer in (None, 0, 1):
        text = orjson.dumps(game.view(state, viewer).model_dump(mode="json")).decode()
        assert not any(tile in text for p in state.seats for tile in p.upgrades)
        spaces = game.view(state, viewer).players[0].upgrade_spaces
        assert [s.face_down for s in spaces] == [True] * 4


def test_a_flipped_tile_shows_on_the_main_board():
    state = table(dice={"green-3": 3})
    state.seats[0].train = 5
    tile = state.seats[0].upgrades[2]
    state = play(
        state,
        0,
        {"kind": "decline"},
        {"kind": "take_die", "space": "green-3"},
        {"kind": "upgrade", "position": 2},
    )
    view = game.view(state, 1)
    assert [s.upgrade_tile for s in view.dice_spaces if s.upgrade_tile] == [tile]
    assert view.players[0].upgrade_spaces[2].face_down is False


def test_the_deck_shows_only_its_size():
    state = new_game()
    view = game.view(state, 0).model_dump(mode="json")
    assert view["deck_size"] == 66 and "deck" not in view
    text = orjson.dumps(view).decode()
    assert not any(f'"{card}"' in text for card in state.deck)


def test_determinize_keeps_what_the_seat_knows_and_redeals_the_rest():
    state = new_game()
    dealt = game.determinize(state, 0, Rng.from_seed(9))
    assert dealt.seats[0].hand == state.seats[0].hand
    assert game.view(dealt, 0) == game.view(state, 0)
    assert sorted(dealt.deck + [c for p in dealt.seats[1:] for c in p.hand]) == sorted(
        state.deck + [c for p in state.seats[1:] for c in p.hand]
    )
    assert dealt.rng != state.rng
    others = [c for p in state.seats for c in p.upgrades]
    assert sorted(c for p in dealt.seats for c in p.upgrades) == sorted(others)
    assert [c for p in dealt.seats for c in p.upgrades] != others


def test_evaluate_is_a_share_between_0_and_1():
    state = new_game()
    assert all(0 <= game.evaluate(state, s) <= 1 for s in range(4))


def test_greedy_and_mcts_play_whole_games():
    bots = [GreedyBot(1), MctsBot(2, iterations=8, depth=8), GreedyBot(3)]
    record = play_match(game, bots, seed=4)
    assert record.state.over and record.result.winners
