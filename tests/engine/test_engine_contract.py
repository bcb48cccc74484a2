"""The behaviour the base `Game` class gives every game, shown on the Blind Bid toy."""

import pytest
from blind_bid import blind_bid

from services.engine import IllegalMove, InvalidConfig, Result, dump_state


def new_game(players=3, seed=11):
    return blind_bid.setup({}, players, seed)


def test_setup_refuses_a_player_count_outside_the_box():
    with pytest.raises(InvalidConfig) as error:
        blind_bid.setup({}, 5, 1)
    assert error.value.code == "player_count"
    assert "2 to 4 players" in error.value.message


def test_setup_refuses_unknown_options_with_their_name():
    with pytest.raises(InvalidConfig) as error:
        blind_bid.setup({"colour": "red"}, 2, 1)
    assert error.value.code == "invalid_options"
    assert "colour" in error.value.message


def test_several_seats_are_prompted_at_once_and_answer_in_any_order():
    state = new_game()
    assert [p.seat for p in blind_bid.prompts(state)] == [0, 1, 2]
    state = blind_bid.apply(state, 2, {"kind": "pick", "card": state.hands[2][0]}).state
    assert [p.seat for p in blind_bid.prompts(state)] == [0, 1]


def test_a_seat_that_is_not_prompted_is_refused():
    state = new_game()
    state = blind_bid.apply(state, 0, {"kind": "pick", "card": state.hands[0][0]}).state
    with pytest.raises(IllegalMove) as error:
        blind_bid.apply(state, 0, {"kind": "pick", "card": state.hands[0][0]})
    assert error.value.code == "not_your_turn"
    assert error.value.details == {"prompted": [1, 2]}


def test_malformed_moves_are_refused_with_what_is_wrong():
    state = new_game()
    with pytest.raises(IllegalMove) as error:
        blind_bid.apply(state, 0, {"kind": "pick", "card": "high"})
    assert error.value.code == "malformed_move"
    assert "card" in error.value.message
    with pytest.raises(IllegalMove) as error:
        blind_bid.apply(state, 0, {"kind": "fly"})
    assert error.value.code == "malformed_move"


def test_a_refused_move_leaves_the_state_untouched():
    state = new_game()
    before = dump_state(state)
    with pytest.raises(IllegalMove) as error:
        blind_bid.apply(state, 0, {"kind": "pick", "card": 99})
    assert error.value.code == "card_not_in_hand"
    assert dump_state(state) == before


def test_apply_never_mutates_the_state_it_was_given():
    state = new_game()
    before = dump_state(state)
    outcome = blind_bid.apply(state, 0, {"kind": "pick", "card": state.hands[0][0]})
    assert dump_state(state) == before
    assert dump_state(outcome.state) != before


def test_private_event_fields_reach_only_their_owner():
    state = new_game()
    card = state.hands[1][0]
    event = blind_bid.apply(state, 1, {"kind": "pick", "card": card}).events[0]
    assert event.visible_to(1)["card"] == card
    assert "card" not in event.visible_to(0)
    assert "card" not in event.visible_to(None)
    assert "private_to" not in event.visible_to(1)


def test_resigning_ends_the_game_and_ranks_the_resigner_last():
    state = new_game(players=2)
    outcome = blind_bid.resign(state, 0)
    assert outcome.state.over and blind_bid.prompts(outcome.state) == []
    standings = blind_bid.standings(outcome.state)
    assert standings.winners == [1]
    assert [s.seat for s in standings.standings] == [1, 0]
    with pytest.raises(IllegalMove) as error:
        blind_bid.apply(outcome.state, 1, {"kind": "pick", "card": state.hands[1][0]})
    assert error.value.code == "game_over"


def test_resigning_twice_or_from_a_missing_seat_is_refused():
    state = new_game(players=2)
    with pytest.raises(IllegalMove) as error:
        blind_bid.resign(state, 7)
    assert error.value.code == "no_such_seat"
    over = blind_bid.resign(state, 0).state
    with pytest.raises(IllegalMove) as error:
        blind_bid.resign(over, 1)
    assert error.value.code == "game_over"


def test_tied_scores_share_rank_and_victory():
    result = Result.rank({0: ({"a": 3}, (3,)), 1: ({"a": 5}, (5,)), 2: ({"a": 5}, (5,))})
    assert result.winners == [1, 2]
    assert [(s.seat, s.rank) for s in result.standings] == [(1, 1), (2, 1), (0, 3)]


def test_demoting_a_winner_hands_victory_to_the_best_of_the_rest():
    result = Result.rank({0: ({"a": 3}, (3,)), 1: ({"a": 5}, (5,)), 2: ({"a": 3}, (3,))})
    demoted = result.demote([1])
    assert demoted.winners == [0, 2]
    assert [(s.seat, s.rank) for s in demoted.standings] == [(0, 1), (2, 1), (1, 3)]


def test_an_unknown_game_id_is_refused_with_the_known_ones():
    from services.engine import UnknownGame, get_game

    assert get_game("sky-islands").id == "sky-islands"
    with pytest.raises(UnknownGame) as error:
        get_game("chess")
    assert error.value.code == "unknown_game"
    assert "sky-islands" in error.value.message and "chess" in error.value.message
