"""Step ⑤, stock disposal: exchanging 3 for 1, then keeping at most 3."""

from sky_islands_helpers import (
    at_phase,
    check_conserved,
    empty_supply,
    new_game,
    play,
    refused,
    set_cubes,
)

from services.games.sky_islands import game
from services.games.sky_islands.moves import EndTurn, Exchange, Keep
from services.games.sky_islands.state import Cubes


def disposing(red=0, white=0, blue=0):
    state = new_game(3)
    at_phase(state, "dispose")
    set_cubes(state, 0, red, white, blue)
    return state


def test_exchange_three_of_one_colour_for_one_of_any_colour_in_the_supply():
    state = disposing(red=3, white=1)
    state, events = play(state, Exchange(give="red", take="blue"))
    assert state.merchants[0].cubes == Cubes(red=0, white=1, blue=1)
    assert state.supply == Cubes(red=20, white=19, blue=19)
    assert events[0].kind == "exchanged"
    assert state.current == 1  # nothing left to decide: the turn ended
    check_conserved(state)


def test_exchange_may_be_repeated():
    state = disposing(red=6)
    state, _ = play(state, Exchange(give="red", take="white"))
    state, _ = play(state, Exchange(give="red", take="blue"))
    assert state.merchants[0].cubes == Cubes(red=0, white=1, blue=1)


def test_exchange_needs_three_of_the_same_colour():
    state = disposing(red=2, white=2)
    error = refused(state, Exchange(give="red", take="blue"), "exchange_needs_three")
    assert "costs 3 red" in error.message and "you have 2" in error.message


def test_exchange_only_for_a_colour_the_supply_has():
    state = disposing(red=3)
    empty_supply(state, "blue")
    error = refused(state, Exchange(give="red", take="blue"), "supply_empty")
    assert "no blue" in error.message
    assert Exchange(give="red", take="blue") not in game.legal_moves(state, 0)
    assert Exchange(give="red", take="white") in game.legal_moves(state, 0)


def test_exchange_never_gives_a_victory_point():
    state = disposing(red=3)
    error = refused(state, {"kind": "exchange", "give": "red", "take": "green"}, "malformed_move")
    assert "take" in error.message


def test_with_four_or_more_keep_at_most_three_and_return_the_rest():
    state = disposing(red=2, white=2, blue=1)
    assert game.prompts(state)[0].text.startswith("You hold 5 resources")
    state, events = play(state, Keep(red=2, blue=1))
    assert state.merchants[0].cubes == Cubes(red=2, white=0, blue=1)
    returned = events[0]
    assert (returned.kind, returned.red, returned.white, returned.blue) == (
        "resources_returned",
        0,
        2,
        0,
    )
    assert state.current == 1
    check_conserved(state)


def test_keeping_more_than_three_is_refused():
    state = disposing(red=2, white=2, blue=1)
    error = refused(state, Keep(red=2, white=2), "must_keep_at_most_three")
    assert "at most 3" in error.message


def test_keeping_cubes_you_do_not_have_is_refused():
    state = disposing(red=4)
    error = refused(state, Keep(blue=1), "keep_more_than_you_have")
    assert "cannot keep 1 blue; you have 0" in error.message


def test_ending_the_turn_with_four_or_more_cubes_is_refused():
    state = disposing(red=2, white=2)
    error = refused(state, EndTurn(), "too_many_cubes")
    assert "at most 3 to keep" in error.message


def test_keep_with_three_or_fewer_is_refused():
    state = disposing(red=3)
    error = refused(state, Keep(red=1), "keep_not_needed")
    assert "end the turn" in error.message


def test_keep_moves_offered_with_four_or_more_and_no_end_turn():
    state = disposing(red=4, white=1)
    moves = game.legal_moves(state, 0)
    keeps = [m for m in moves if m.kind == "keep"]
    assert EndTurn() not in moves
    assert Keep() in keeps and Keep(red=3) in keeps and Keep(red=2, white=1) in keeps
    assert all(m.total <= 3 and m.white <= 1 and m.blue == 0 for m in keeps)
    assert len(keeps) == 7  # r+w <= 3 with w <= 1: (0..3, 0) and (0..2, 1)
