"""Illegal moves are refused with a stable code and a message in Dominion words, and leave
the state untouched."""

import pytest
from dominion_kit import act, buy, choose, me, new_game, play, start

from services.engine import IllegalMove
from services.games.dominion import game


def refused(state, seat=0, **move):
    before = game.dump_state(state)
    with pytest.raises(IllegalMove) as error:
        game.apply(state, seat, move)
    assert game.dump_state(state) == before
    assert len(error.value.message) > 10
    return error.value


def test_playing_an_action_with_no_actions_left_is_refused():
    state = start(new_game("Litter"), hand=["Litter", "Litter"], actions=0)
    error = refused(state, kind="play_card", card="Litter")
    assert error.code == "no_actions_left"
    assert "no Actions left" in error.message


def test_playing_a_card_not_in_hand_is_refused():
    state = start(new_game("Litter"), hand=["Litter"])
    assert refused(state, kind="play_card", card="Ninja").code == "card_not_in_hand"


def test_playing_a_non_action_in_the_action_phase_is_refused():
    state = start(new_game("Litter"), hand=["Litter", "Copper"])
    assert refused(state, kind="play_card", card="Copper").code == "not_an_action"


def test_treasures_are_played_in_the_buy_phase():
    state = start(new_game("Litter"), hand=["Litter", "Copper"])
    error = refused(state, kind="play_treasure", card="Copper")
    assert error.code == "wrong_phase" and "Buy phase" in error.message


def test_buying_in_the_action_phase_is_refused():
    state = start(new_game("Litter"), hand=["Litter", "Copper"])
    assert refused(state, kind="buy_card", card="Copper").code == "wrong_phase"


def test_buying_with_debt_is_refused():
    state = start(new_game(), hand=["Gold"], phase="buy", coins=3)
    me(state).debt = 1
    error = refused(state, kind="buy_card", card="Silver")
    assert error.code == "cannot_buy_with_debt" and "pay it off" in error.message


def test_buying_without_enough_coins_is_refused():
    state = start(new_game(), hand=["Gold"], phase="buy", coins=5)
    error = refused(state, kind="buy_card", card="Gold")
    assert error.code == "not_enough_coins" and "$6" in error.message


def test_buying_with_no_buys_left_is_refused():
    state = start(new_game(), hand=["Gold"], phase="buy", coins=5, buys=0)
    assert refused(state, kind="buy_card", card="Copper").code == "no_buys_left"


def test_buying_from_an_empty_pile_is_refused():
    state = start(new_game(), hand=["Gold"], phase="buy", coins=5)
    state.supply["Estate"] = 0
    assert refused(state, kind="buy_card", card="Estate").code == "pile_empty"


def test_buying_a_card_not_in_the_supply_is_refused():
    state = start(new_game(), hand=["Gold"], phase="buy", coins=5)
    assert refused(state, kind="buy_card", card="Tea House").code == "not_in_supply"


def test_playing_treasures_after_buying_is_refused():
    state = start(new_game(), hand=["Gold", "Copper"], phase="buy", buys=2)
    state = act(state, kind="play_treasure", card="Gold")
    state = buy(state, "Silver")
    assert refused(state, kind="play_treasure", card="Copper").code == "treasures_locked"


def test_playing_all_treasures_with_none_in_hand_is_refused():
    state = start(new_game(), hand=["Estate"], phase="buy")
    assert refused(state, kind="play_treasures").code == "no_treasures"


def test_phase_moves_wait_for_an_open_decision():
    state = start(new_game("Alley"), hand=["Alley", "Estate", "Copper"], deck=["Silver"])
    state = play(state, "Alley")
    assert refused(state, kind="end_phase").code == "decision_pending"


def test_answering_with_a_card_not_offered_is_refused():
    state = start(new_game("Alley"), hand=["Alley", "Estate", "Copper"], deck=["Silver"])
    state = play(state, "Alley")
    error = refused(state, kind="choose", picks=["Gold"])
    assert error.code == "not_a_legal_choice" and "Gold" in error.message
    assert refused(state, kind="choose", picks=[]).code == "not_a_legal_choice"
    assert refused(state, kind="choose", picks=["Estate", "Copper"]).code == "not_a_legal_choice"


def test_answering_when_nothing_is_asked_is_refused():
    state = start(new_game("Alley"), hand=["Alley"])
    assert refused(state, kind="choose", picks=[]).code == "not_a_legal_choice"


def test_a_seat_that_is_not_prompted_cannot_move():
    state = start(new_game("Alley"), hand=["Alley"])
    assert refused(state, 1, kind="end_phase").code == "not_your_turn"


def test_the_attacker_waits_while_others_discard():
    state = start(new_game("Ninja"), hand=["Ninja", "Estate"], deck=["Copper"])
    me(state, 1).hand = ["Copper", "Copper", "Estate", "Estate", "Silver"]
    state = play(state, "Ninja")
    assert refused(state, 1, kind="end_turn").code == "decision_pending"
    assert refused(state, 0, kind="end_phase").code == "not_your_turn"
    choose(state, "Estate", "Estate", seat=1)


def test_ending_the_wrong_phase_is_refused():
    state = start(new_game("Alley"), hand=["Alley"])
    assert refused(state, kind="end_turn").code == "wrong_phase"
    state = start(new_game(), hand=["Copper"], phase="buy")
    assert refused(state, kind="end_phase").code == "wrong_phase"


def test_malformed_moves_are_refused():
    state = start(new_game(), hand=["Copper"], phase="buy")
    assert refused(state, kind="fly").code == "malformed_move"
    assert refused(state, kind="pay_debt").code == "malformed_move"


def test_no_move_is_accepted_once_the_game_is_over():
    state = start(new_game(), hand=["Gold", "Gold", "Gold"], phase="buy")
    state.supply["Province"] = 1
    state = act(state, kind="play_treasures")
    state = buy(state, "Province")
    assert refused(state, kind="end_turn").code == "game_over"


def test_playing_a_card_that_is_not_a_treasure_as_one_is_refused():
    state = start(new_game(), hand=["Estate", "Copper"], phase="buy")
    error = refused(state, kind="play_treasure", card="Estate")
    assert error.code == "not_a_treasure"
    assert "Estate is not a Treasure" in error.message


# --- decisions of the base, Intrigue and Seaside cards -------------------------------------


def test_secret_passage_refuses_a_position_outside_the_deck():
    state = start(
        new_game("Secret Passage"), hand=["Secret Passage", "Estate"], deck=["Copper"] * 4
    )
    state = choose(play(state, "Secret Passage"), "Estate")
    error = refused(state, kind="choose", picks=["3"])
    assert error.code == "not_a_legal_choice" and "0, 1, 2" in error.message


def test_throne_room_refuses_a_card_that_is_not_an_action():
    state = start(new_game("Throne Room", "Smithy"), hand=["Throne Room", "Smithy", "Copper"])
    state = play(state, "Throne Room")
    assert refused(state, kind="choose", picks=["Copper"]).code == "not_a_legal_choice"


def test_a_reaction_that_is_not_in_hand_cannot_be_revealed():
    state = start(new_game("Witch", "Moat", "Diplomat"), hand=["Witch"], deck=["Copper"] * 3)
    me(state, 1).hand = ["Moat", "Copper"]
    state = play(state, "Witch")
    assert refused(state, 1, kind="choose", picks=["Diplomat"]).code == "not_a_legal_choice"


def test_playing_a_card_while_others_react_is_refused():
    state = start(new_game("Witch", "Moat"), hand=["Witch", "Smithy"], deck=["Copper"] * 3)
    me(state, 1).hand = ["Moat"]
    state.turn.actions = 2
    state = play(state, "Witch")
    assert refused(state, kind="end_phase").code in ("decision_pending", "not_your_turn")


def test_lurker_cannot_trash_a_non_action_from_the_supply():
    state = start(new_game("Lurker"), hand=["Lurker"])
    state = choose(play(state, "Lurker"), "Trash an Action card from the Supply")
    assert refused(state, kind="choose", picks=["Province"]).code == "not_a_legal_choice"


def test_an_outpost_extra_turn_belongs_to_its_player_only():
    state = start(new_game("Outpost"), hand=["Outpost"], deck=["Copper"] * 10)
    state = play(state, "Outpost")
    state = act(state, kind="end_turn")
    assert state.turn.seat == 0 and state.turn.extra
    assert refused(state, 1, kind="end_turn").code == "not_your_turn"
