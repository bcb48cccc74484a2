"""Illegal moves in step ② and out of turn: refused with a stable code and a reason."""

from sky_islands_helpers import give_hand, new_game, refused

from services.games.sky_islands.moves import BuildTradingHouse, EndTurn, Keep, PlaceTile


def placing():
    state = new_game(3)
    give_hand(state, 0, [30, 38])  # a crossing and an islet in open sky
    return state


def test_placing_a_tile_you_do_not_hold_is_refused():
    error = refused(placing(), PlaceTile(tile=12, x=0, y=-1), "tile_not_in_hand")
    assert "Tile 12 is not in your hand; you hold 30, 38" in error.message


def test_placing_on_an_occupied_cell_is_refused():
    error = refused(placing(), PlaceTile(tile=30, x=1, y=0), "cell_occupied")
    assert "already a tile at (1, 0)" in error.message


def test_placing_away_from_the_islands_is_refused():
    error = refused(placing(), PlaceTile(tile=38, x=4, y=4), "not_touching")
    assert "must touch an edge" in error.message


def test_placing_sky_against_island_is_refused():
    error = refused(placing(), PlaceTile(tile=38, x=0, y=-1), "edges_do_not_match")
    assert "island must meet island and sky must meet sky" in error.message


def test_rotation_must_be_a_quarter_turn():
    error = refused(
        placing(), {"kind": "place", "tile": 30, "x": 0, "y": -1, "rotation": 45}, "malformed_move"
    )
    assert "rotation" in error.message


def test_building_while_placing_is_refused():
    error = refused(placing(), BuildTradingHouse(x=0, y=0), "wrong_phase")
    assert "cannot build a trading house" in error.message.lower()
    assert "place a sky island tile" in error.message


def test_disposing_while_placing_is_refused():
    refused(placing(), EndTurn(), "wrong_phase")
    refused(placing(), Keep(), "wrong_phase")


def test_moves_of_a_seat_whose_turn_it_is_not_are_refused():
    state = placing()
    error = refused(state, PlaceTile(tile=30, x=0, y=-1), "not_your_turn", seat=1)
    assert "not being asked" in error.message


def test_unknown_move_kind_is_refused():
    error = refused(placing(), {"kind": "fly_away"}, "malformed_move")
    assert "not a move of Merchants of Sky Islands" in error.message
