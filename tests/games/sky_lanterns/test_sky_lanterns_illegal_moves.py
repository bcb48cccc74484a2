"""Every refusal: a stable code, a message naming the rule, and the state left untouched."""

import pytest
from sky_lanterns_kit import asked, give, hand, hold, legal, play, table

from services.engine import IllegalMove
from services.games.sky_lanterns import game
from services.games.sky_lanterns.state import Die

DECLINE = {"kind": "decline"}


def refused(state, seat, move, code, words):
    before = game.dump_state(state)
    with pytest.raises(IllegalMove) as error:
        game.apply(state, seat, move)
    assert error.value.code == code
    assert words in error.value.message
    assert game.dump_state(state) == before


def test_a_move_that_is_not_a_move_is_malformed():
    refused(table(), 0, {"kind": "fly_lantern"}, "malformed_move", "not a move of")
    refused(table(), 0, {"kind": "take_die"}, "malformed_move", "space")
    long = {"kind": "play_contract_card", "card": "T" * 10_000}
    refused(table(), 0, long, "malformed_move", "at most 8 characters")


def test_only_the_prompted_seat_may_move():
    refused(table(), 1, DECLINE, "not_your_turn", "Seat 1")


def test_a_move_of_another_step_is_refused_with_what_is_asked():
    refused(
        table(),
        0,
        {"kind": "take_die", "space": "red-1"},
        "not_now",
        "you must resolve one contract or decline",
    )
    state = play(table(dice={"red-2": 1}), 0, DECLINE)
    refused(state, 0, {"kind": "place_core", "slot": 0}, "not_now", "take a die")


def test_a_card_not_in_hand_cannot_be_played_or_developed():
    refused(table(), 0, {"kind": "play_contract_card", "card": "T01"}, "card_not_in_hand", "T01")
    state = table(dice={"black-2": 1})
    hand(state, 0, "T04")
    state = play(state, 0, DECLINE, {"kind": "take_die", "space": "black-2"})
    refused(state, 0, {"kind": "develop", "card": "T01", "zone": 0}, "card_not_in_hand", "T01")


def test_an_unaffordable_development_is_refused():
    state = table(dice={"black-2": 1})
    hand(state, 0, "T04", "T13")  # $1 and $3 as sky lanterns
    give(state, 0, coins=2)
    state = play(state, 0, DECLINE, {"kind": "take_die", "space": "black-2"})
    refused(state, 0, {"kind": "develop", "card": "T13", "zone": 0}, "cannot_afford", "$3")


def test_contract_options_must_exist():
    refused(table(), 0, {"kind": "era_contract", "option": 5}, "no_such_option", "no contract 6")
    refused(
        table(),
        0,
        {"kind": "exclusive_contract", "option": 0},
        "no_such_option",
        "P-00 has no exclusive contract",
    )


def test_a_contract_one_cannot_pay_is_refused_and_its_card_stays_in_hand():
    """ "You cannot perform the conversion if you do not have enough resources": the hand
    card cannot be played for nothing (it stays in hand), the Era and exclusive
    contracts are refused — also through a Contract icon."""
    state = table(eras=("E1A", "E2A", "E3A"))
    hand(state, 0, "T12")  # pay 2 Indigo for $3
    give(state, 0, indigo=1, coal=0, camphor=0)
    refused(
        state,
        0,
        {"kind": "play_contract_card", "card": "T12"},
        "cannot_afford",
        "T12's contract: it costs 2 Indigo, more than you have, Coal Trades included",
    )
    refused(
        state,
        0,
        {"kind": "era_contract", "option": 0},
        "cannot_afford",
        "contract 1: it costs 2 Coal",
    )
    state.seats[0].board = "P-01"  # spend 2 Camphor for $3
    state.seats[0].core, state.seats[0].compensation = [None] * 8, [None]
    refused(
        state,
        0,
        {"kind": "exclusive_contract", "option": 0},
        "cannot_afford",
        "exclusive contract 1: it costs 2 Camphor",
    )
    state = table(eras=("E1A", "E2A", "E3A"))
    hand(state, 0, "T12")
    give(state, 0, indigo=0, coal=0, camphor=0)
    hold(state, "red", 3)
    state = play(state, 0, {"kind": "place_compensation", "slot": 1})  # 2 VP and a Contract
    assert asked(state) == (0, "contract") and legal(state, 0) == [DECLINE]
    refused(state, 0, {"kind": "play_contract_card", "card": "T12"}, "cannot_afford", "2 Indigo")


def test_a_die_must_be_on_the_space_taken():
    state = play(table(dice={"red-2": 1}), 0, DECLINE)
    refused(state, 0, {"kind": "take_die", "space": "red-1"}, "no_die_there", "red-1")
    refused(state, 0, {"kind": "take_die", "space": "purple-9"}, "no_such_space", "purple-9")


def test_camphor_trade_needs_camphor_and_keeps_the_die_between_1_and_6():
    state = table()
    give(state, 0, camphor=0)
    hold(state, "red", 3)
    refused(state, 0, {"kind": "camphor_trade", "delta": 1}, "not_enough_camphor", "Camphor")
    state = table()
    hold(state, "red", 6)
    refused(state, 0, {"kind": "camphor_trade", "delta": 1}, "die_out_of_range", "7")


def test_core_slots_refuse_a_decreasing_die_a_taken_slot_and_a_missing_slot():
    state = table()
    state.seats[0].core[3] = Die(colour="red", value=2)
    state.bag["red"] -= 1
    hold(state, "blue", 4)
    refused(state, 0, {"kind": "place_core", "slot": 1}, "slot_order", "equal or increasing")
    refused(state, 0, {"kind": "place_core", "slot": 3}, "slot_unavailable", "already holds")
    refused(state, 0, {"kind": "place_core", "slot": 6}, "slot_unavailable", "no Core Slot 7")


def test_a_compensation_slot_must_be_free():
    state = table()
    state.seats[0].compensation[0] = Die(colour="red", value=2)
    state.bag["red"] -= 1
    hold(state, "blue", 4)
    refused(state, 0, {"kind": "place_compensation", "slot": 0}, "slot_unavailable", "holds a die")
    refused(state, 0, {"kind": "place_compensation", "slot": 3}, "slot_unavailable", "has 3")


def refused_as_labelled(state, move, code, words):
    """Refused, and the message numbers the slot, space or contract as the move's label
    does ("Place the die in Core Slot 4" -> "Core Slot 4 ...")."""
    label = game.describe(game.parse_move(move))
    named = " ".join(label.split()[-2:])  # "Slot 4", "space 1", "contract 6"
    assert named in words, (label, words)
    refused(state, 0, move, code, words)


def test_refusals_count_slots_spaces_and_contracts_from_1_as_the_labels_do():
    state = table()
    state.seats[0].core[3] = Die(colour="red", value=2)
    state.seats[0].compensation[0] = Die(colour="red", value=2)
    state.bag["red"] -= 2
    hold(state, "blue", 4)
    place = "place_core"
    refused_as_labelled(
        state, {"kind": place, "slot": 3}, "slot_unavailable", "Core Slot 4 already holds a die"
    )
    refused_as_labelled(
        state, {"kind": place, "slot": 6}, "slot_unavailable", "no Core Slot 7; your board has 6"
    )
    refused_as_labelled(
        state, {"kind": place, "slot": 1}, "slot_order", "A 4 cannot go into Core Slot 2"
    )
    comp = "place_compensation"
    refused_as_labelled(
        state, {"kind": comp, "slot": 0}, "slot_unavailable", "Compensation Slot 1 already holds"
    )
    refused_as_labelled(
        state, {"kind": comp, "slot": 3}, "slot_unavailable", "no Compensation Slot 4; your board"
    )

    state = table(dice={"green-3": 2})  # train 1: the train loops and triggers an Upgrade
    state.seats[0].train = 6
    state.seats[0].upgrades[0] = None
    state = play(state, 0, DECLINE, {"kind": "take_die", "space": "green-3"})
    refused_as_labelled(
        state, {"kind": "upgrade", "position": 0}, "tile_flipped", "Tile on space 1 was flipped"
    )

    state = table(eras=("E1A", "E2A", "E3A"))
    era = {"kind": "era_contract", "option": 2}
    refused_as_labelled(state, era, "no_such_option", "E1A has no contract 3; it has 2")
    state.seats[0].board = "P-01"
    state.seats[0].core, state.seats[0].compensation = [None] * 8, [None]
    exclusive = {"kind": "exclusive_contract", "option": 1}
    refused_as_labelled(state, exclusive, "no_such_option", "no exclusive contract 2; it has 1")
    give(state, 0, camphor=0)
    exclusive = {"kind": "exclusive_contract", "option": 0}
    refused_as_labelled(state, exclusive, "cannot_afford", "the exclusive contract 1: it costs")


def test_a_conversion_cannot_be_done_more_often_than_paid_for():
    state = table(dice={"red-3": 1})
    give(state, 0, yam=1)
    state = play(state, 0, DECLINE, {"kind": "take_die", "space": "red-3"})
    refused(state, 0, {"kind": "convert", "times": 2}, "cannot_afford", "at most 1 time here")


def test_choices_must_be_among_those_offered():
    state = table(dice={"blue-4": 1})
    state = play(state, 0, DECLINE, {"kind": "take_die", "space": "blue-4"})
    refused(state, 0, {"kind": "choose_resource", "resource": "coal"}, "no_such_option", "Indigo")
    state = table(dice={"black-1": 1})
    state = play(state, 0, DECLINE, {"kind": "take_die", "space": "black-1"})
    refused(state, 0, {"kind": "choose_space", "space": "black-2"}, "no_such_option", "Black dice")


def test_a_four_dot_space_is_refused_with_3_players_for_what_it_is():
    """With 3 players the four-dot spaces are off the board (RULES-NOTES "Any non-black
    space"): the refusal says so, where it used to call red-5 "not a non-black space"."""
    state = table(players=3, dice={"black-1": 1})
    state = play(state, 0, DECLINE, {"kind": "take_die", "space": "black-1"})
    words = "red-5 is not in play with 3 players: a four-dot space"
    refused(state, 0, {"kind": "choose_space", "space": "red-5"}, "no_such_option", words)
    refused(state, 0, {"kind": "choose_space", "space": "black-2"}, "no_such_option", "Black")
    refused(state, 0, {"kind": "choose_space", "space": "red-9"}, "no_such_option", "no dice")
    state = table(dice={"green-2": 1})
    state = play(state, 0, DECLINE, {"kind": "take_die", "space": "green-2"})
    refused(state, 0, {"kind": "change_die", "delta": -1}, "die_out_of_range", "0")


def test_a_flipped_upgrade_tile_cannot_be_flipped_again():
    state = table(dice={"green-3": 1})
    state.seats[0].train = 5
    state.seats[0].upgrades[0] = None
    state = play(state, 0, DECLINE, {"kind": "take_die", "space": "green-3"})
    refused(state, 0, {"kind": "upgrade", "position": 0}, "tile_flipped", "flipped already")


def test_coal_trade_needs_coal_and_the_board_s_own_trade():
    state = table()
    give(state, 0, coal=0)
    refused(state, 0, {"kind": "coal_trade", "into": "tea"}, "not_enough_coal", "no Coal")
    give(state, 0, coal=0, tea=10)  # a full track does not change why: there is no Coal
    refused(state, 0, {"kind": "coal_trade", "into": "tea"}, "not_enough_coal", "no Coal")
    give(state, 0, coal=1, tea=10)
    refused(state, 0, {"kind": "coal_trade", "into": "coins"}, "wrong_coal_trade", "Indigo")
    state.seats[0].board = "P-03"
    refused(state, 0, {"kind": "coal_trade", "into": "coins"}, "not_enough_coal", "2 Coal")
    refused(state, 0, {"kind": "coal_trade", "into": "tea"}, "wrong_coal_trade", "2 Coal for $2")


def test_no_move_after_the_end():
    state = table()
    state.over = True
    refused(state, 0, DECLINE, "game_over", "over")


def test_a_die_that_fits_a_slot_cannot_be_returned():
    state = table()
    hold(state, "red", 3)
    refused(state, 0, {"kind": "return_die"}, "die_fits", "must be placed")
