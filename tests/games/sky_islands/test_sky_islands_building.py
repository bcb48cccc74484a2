"""Step ④: trading houses, towers and harbours."""

from sky_islands_helpers import (
    at_phase,
    check_conserved,
    give_hand,
    house,
    new_game,
    play,
    put,
    put_hole_ring,
    refused,
    set_cubes,
)

from services.games.sky_islands import game
from services.games.sky_islands.board import connected_islands
from services.games.sky_islands.building import trading_house_spots
from services.games.sky_islands.moves import (
    BuildHarbour,
    BuildTower,
    BuildTradingHouse,
    PlaceTile,
)
from services.games.sky_islands.state import Cubes


def building(cubes=(3, 3, 3), players=3):
    """Seat 0 in the build step, nothing placed this turn."""
    state = new_game(players)
    at_phase(state, "build")
    set_cubes(state, 0, *cubes)
    return state


def house_at(state, x, y, island=0):
    return state.house_at(x, y, island)


# --- paying ------------------------------------------------------------------------


def test_building_costs_one_red_one_white_one_blue_paid_to_the_supply():
    state = building()
    state, events = play(state, BuildTradingHouse(x=0, y=0))
    assert state.merchants[0].cubes == Cubes(red=2, white=2, blue=2)
    assert state.supply == Cubes(red=18, white=18, blue=18)
    assert state.merchants[0].trading_houses_left == 10
    assert events[0].kind == "built" and events[0].building == "trading_house"
    check_conserved(state)


def test_building_without_one_of_each_colour_is_refused():
    state = building(cubes=(2, 2, 0))
    error = refused(state, BuildTradingHouse(x=0, y=0), "cannot_afford")
    assert "1 red, 1 white and 1 blue" in error.message


def test_the_same_building_may_be_built_several_times_in_a_turn():
    state = building()
    state, _ = play(state, BuildTradingHouse(x=0, y=0))
    state, _ = play(state, BuildTradingHouse(x=1, y=0))
    assert len(state.houses_of(0)) == 2
    assert state.merchants[0].cubes.total == 3


def test_building_ends_by_itself_when_nothing_more_can_be_paid():
    state = building(cubes=(1, 1, 1))
    state, events = play(state, BuildTradingHouse(x=0, y=0))
    assert state.current == 1  # nothing to build, nothing to dispose of: turn over
    assert "turn_ended" in [e.kind for e in events]


# --- ④a trading houses -------------------------------------------------------------


def test_trading_house_may_not_go_on_the_tile_placed_this_turn():
    state = building()
    placed = put(state, 3, 0, -1, 180)
    at_phase(state, "build", placed)
    error = refused(state, BuildTradingHouse(x=0, y=-1), "placed_this_turn")
    assert "other than the one placed this turn" in error.message
    assert BuildTradingHouse(x=0, y=-1) not in game.legal_moves(state, 0)
    assert BuildTradingHouse(x=0, y=0) in game.legal_moves(state, 0)


def test_trading_house_may_go_on_initial_tile_others_connected_islands_and_closed_islands():
    state = building(cubes=(3, 3, 3))
    put(state, 38, -1, 0)  # an islet: a closed island
    house(state, 1, 1, 0)  # another player's house on the initial tile's island
    state, _ = play(state, BuildTradingHouse(x=0, y=0))
    state, _ = play(state, BuildTradingHouse(x=-1, y=0))
    assert house_at(state, 0, 0).owner == 0 and house_at(state, -1, 0).owner == 0


def test_one_trading_house_per_island_of_a_tile():
    state = building()
    house(state, 1, 0, 0)
    error = refused(state, BuildTradingHouse(x=0, y=0), "island_taken")
    assert "only one trading house" in error.message.lower()


def test_split_tile_takes_a_second_trading_house_on_its_other_island():
    state = building()
    put(state, 14, 0, -1)  # two opposite peninsulas
    house(state, 1, 0, -1, 1)
    state, _ = play(state, BuildTradingHouse(x=0, y=-1, island=0))
    assert house_at(state, 0, -1, 0).owner == 0 and house_at(state, 0, -1, 1).owner == 1


def test_trading_house_on_a_missing_tile_or_island_is_refused():
    state = building()
    error = refused(state, BuildTradingHouse(x=5, y=5), "no_such_island")
    assert "no tile at (5, 5)" in error.message
    error = refused(state, BuildTradingHouse(x=0, y=0, island=1), "no_such_island")
    assert "has 1 island(s)" in error.message


def test_eleven_trading_houses_to_build_because_the_twelfth_marks_the_score():
    """Setup D: of the colour's 12 pieces one goes on the score board's 0 space."""
    state = building(cubes=(12, 12, 12))
    put_hole_ring(state)
    assert [m.trading_houses_left for m in state.merchants] == [11, 11, 11]
    spots = trading_house_spots(state)
    assert len(spots) >= 12
    for x, y, island in spots[:11]:
        state, _ = play(state, BuildTradingHouse(x=x, y=y, island=island))
    assert len(state.houses_of(0)) == 11 and state.merchants[0].trading_houses_left == 0
    assert game.view(state, 1).players[0].trading_houses_left == 0
    x, y, island = spots[11]
    error = refused(state, BuildTradingHouse(x=x, y=y, island=island), "no_trading_houses_left")
    assert "no trading house pieces left" in error.message
    assert not any(m.kind == "build_trading_house" for m in game.legal_moves(state, 0))
    check_conserved(state)


def test_no_trading_house_pieces_left():
    state = building()
    state.merchants[0].trading_houses_left = 0
    error = refused(state, BuildTradingHouse(x=0, y=0), "no_trading_houses_left")
    assert "no trading house pieces left" in error.message
    assert not any(m.kind == "build_trading_house" for m in game.legal_moves(state, 0))


# --- ④b towers ---------------------------------------------------------------------


def test_tower_scores_all_players_trading_houses_on_connected_island():
    state = building()
    house(state, 0, 0, 0)
    house(state, 1, 1, 0)
    house(state, 2, 0, 1)
    put(state, 38, -1, 0)
    house(state, 1, -1, 0)  # on an islet: another connected island, not counted
    state, events = play(state, BuildTower(x=0, y=0))
    assert events[0].vp == 3  # own house included
    assert state.merchants[0].vp.towers == 3
    assert house_at(state, 0, 0).tower and state.towers_left == 11
    check_conserved(state)


def test_tower_goes_only_next_to_your_own_trading_house():
    state = building()
    house(state, 1, 1, 0)
    error = refused(state, BuildTower(x=1, y=0), "not_your_trading_house")
    assert "one of your own trading houses" in error.message
    refused(state, BuildTower(x=1, y=1), "not_your_trading_house")


def test_tower_not_on_connected_island_with_a_tower_equipped_trading_house():
    state = building()
    house(state, 1, 1, 0, tower=True)
    house(state, 0, 0, 1)
    error = refused(state, BuildTower(x=0, y=1), "tower_already_on_connected_island")
    assert "already has a tower-equipped trading house" in error.message
    assert not any(m.kind == "build_tower" for m in game.legal_moves(state, 0))


def test_two_towers_may_end_up_on_one_island_after_a_merge():
    state = building()
    put(state, 9, -1, 0)  # straight N-S: its own connected island, west of the initial tile
    house(state, 0, 0, 0, tower=True)
    house(state, 1, -1, 0, tower=True)  # allowed: a different connected island then
    give_hand(state, 0, [16])
    at_phase(state, "place")
    state, _ = play(state, PlaceTile(tile=16, x=-1, y=1))  # corner N-E joins both
    islands = connected_islands(state.board)
    assert islands.of[(0, 0, 0)] == islands.of[(-1, 0, 0)]
    towers = [h for h in state.trading_houses if h.tower]
    assert len(towers) == 2


def test_a_trading_house_has_at_most_one_tower():
    state = building()
    house(state, 0, 0, 0, tower=True)
    error = refused(state, BuildTower(x=0, y=0), "already_has_tower")
    assert "already has a tower" in error.message


def test_no_towers_left_in_the_supply():
    state = building()
    house(state, 0, 0, 0)
    state.towers_left = 0
    error = refused(state, BuildTower(x=0, y=0), "no_towers_left")
    assert "no tower pieces left" in error.message


# --- ④c harbours -------------------------------------------------------------------


def test_harbour_goes_under_your_own_trading_house():
    state = building()
    house(state, 0, 0, 0)
    state, events = play(state, BuildHarbour(x=0, y=0))
    assert house_at(state, 0, 0).harbour and state.harbours_left == 11
    assert events[0].building == "harbour"
    house(state, 1, 1, 0)
    error = refused(state, BuildHarbour(x=1, y=0), "not_your_trading_house")
    assert "harbour" in error.message


def test_a_trading_house_has_at_most_one_harbour():
    state = building()
    house(state, 0, 0, 0, harbour=True)
    error = refused(state, BuildHarbour(x=0, y=0), "already_has_harbour")
    assert "already has a harbour" in error.message


def test_no_harbours_left_in_the_supply():
    state = building()
    house(state, 0, 0, 0)
    state.harbours_left = 0
    error = refused(state, BuildHarbour(x=0, y=0), "no_harbours_left")
    assert "no harbour pieces left" in error.message


def test_trading_house_may_have_both_tower_and_harbour():
    state = building(cubes=(3, 3, 3))
    house(state, 0, 0, 0)
    state, _ = play(state, BuildHarbour(x=0, y=0))
    state, _ = play(state, BuildTower(x=0, y=0))
    assert house_at(state, 0, 0).tower and house_at(state, 0, 0).harbour


def test_building_moves_offered_are_exactly_the_allowed_ones():
    state = building()
    house(state, 0, 0, 0, tower=True)
    house(state, 0, 1, 0)
    moves = game.legal_moves(state, 0)
    assert BuildTower(x=1, y=0) not in moves  # the island has a tower already
    assert BuildHarbour(x=0, y=0) in moves and BuildHarbour(x=1, y=0) in moves
    assert BuildTradingHouse(x=0, y=1) in moves and BuildTradingHouse(x=0, y=0) not in moves
    for move in moves:
        game.apply(state, 0, move)
