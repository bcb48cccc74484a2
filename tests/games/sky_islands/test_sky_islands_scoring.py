"""Final scoring of connected islands, with the rulebook's two examples."""

from sky_islands_helpers import house, new_game, put, put_hole_ring

from services.games.sky_islands import game
from services.games.sky_islands.scoring import breakdown, island_points, score_islands

YELLOW, RED, BLUE = 0, 1, 2


def island_scores(state, x, y):
    return next(s for s in score_islands(state) if (x, y) in s.island.cells)


def over(state):
    state.over, state.phase = True, "over"
    return state


def test_rulebook_example_five_tile_island_scores_5_2_0():
    state = new_game(3)
    put(state, 9, 0, -1)  # the initial tile's four quarters and one straight: 5 tiles
    house(state, YELLOW, 0, 0, tower=True)
    house(state, YELLOW, 1, 0)
    house(state, RED, 0, 1)
    house(state, RED, 1, 1)
    house(state, BLUE, 0, -1, harbour=True)
    scored = island_scores(state, 0, 0)
    assert scored.island.tiles == 5 and not scored.island.closed
    assert scored.influence == [3, 2, 1]
    assert scored.points == [5, 2, 0]


def test_closed_island_with_hole_scores_double():
    state = new_game(3)
    put_hole_ring(state)  # 6 tiles around an empty hole, every island edge met
    house(state, YELLOW, -1, 0, tower=True)
    house(state, YELLOW, -1, -1)
    house(state, RED, -1, -2)
    house(state, RED, -2, -2)
    house(state, BLUE, -3, -2, harbour=True)
    scored = island_scores(state, -1, 0)
    assert scored.island.tiles == 6 and scored.island.closed
    assert scored.influence == [3, 2, 1]
    assert scored.points == [12, 6, 0]
    assert [parts["islands"] for parts in breakdown(state)] == [12, 6, 0]


def test_tower_equipped_trading_house_counts_two_and_a_harbour_adds_nothing():
    state = new_game(3)
    house(state, YELLOW, 0, 0, tower=True, harbour=True)
    house(state, RED, 1, 0, harbour=True)
    assert island_scores(state, 0, 0).influence == [2, 1, 0]


def test_shared_first_place_each_scores_half_and_nobody_else():
    assert island_points(9, [2, 2, 1]) == [4, 4, 0]
    assert island_points(9, [3, 3, 3]) == [4, 4, 4]


def test_sole_first_with_tied_seconds_seconds_score_nothing():
    assert island_points(8, [4, 1, 1]) == [8, 0, 0]


def test_third_place_or_lower_scores_nothing():
    assert island_points(10, [1, 3, 2, 1]) == [0, 10, 5, 0]


def test_zero_influence_scores_nothing():
    assert island_points(6, [0, 0, 0]) == [0, 0, 0]
    assert island_points(6, [2, 0, 0]) == [6, 0, 0]  # nobody is second with 0


def test_islet_scores_as_a_closed_one_tile_island():
    state = new_game(3)
    put(state, 38, -1, 0)
    house(state, RED, -1, 0)
    assert island_scores(state, -1, 0).points == [0, 2, 0]


def test_score_is_the_sum_of_its_breakdown_and_a_tie_shares_the_victory():
    state = new_game(3)
    house(state, YELLOW, 0, 0)
    house(state, RED, 1, 0)
    state.merchants[BLUE].vp.income = 2
    result = game.result(over(state))
    assert {s.seat: s.score for s in result.standings} == {0: 2, 1: 2, 2: 2}
    assert sorted(result.winners) == [0, 1, 2]
    for standing in result.standings:
        assert standing.score == sum(standing.breakdown.values())
        assert set(standing.breakdown) == {"income", "ships", "towers", "islands"}


def test_the_highest_total_wins():
    state = new_game(3)
    house(state, RED, 0, 0, tower=True)
    state.merchants[RED].vp.towers = 1
    state.merchants[BLUE].vp.ships = 3
    result = game.result(over(state))
    assert result.winners == [RED]  # 1 + 4 tiles
    assert [s.seat for s in result.standings][0] == RED
