"""Placement rules and connected islands, on real boards."""

from sky_islands_helpers import new_game, put, put_hole_ring, put_peninsulas_on_every_island_edge

from services.ai import RandomBot, play_match
from services.games.sky_islands import game
from services.games.sky_islands.board import (
    can_place,
    cell_key,
    connected_islands,
    initial_board,
    open_cells,
    placement_problem,
    placements,
)


def island_of(board, x, y, island=0):
    islands = connected_islands(board)
    return islands.islands[islands.of[(x, y, island)]]


def test_initial_tile_is_four_quarters_at_the_centre():
    board = initial_board()
    assert {key: p.tile for key, p in board.items()} == {
        "0,0": 101,
        "1,0": 102,
        "0,1": 103,
        "1,1": 104,
    }
    assert all(p.rotation == 0 for p in board.values())


def test_initial_tile_counts_as_four_tiles_of_one_connected_island():
    central = island_of(initial_board(), 0, 0)
    assert central.tiles == 4
    assert not central.closed


def test_tile_must_touch_an_existing_tile():
    code, message = placement_problem(initial_board(), 1, 5, 5, 0)
    assert code == "not_touching"
    assert "touch an edge" in message


def test_tile_may_not_be_placed_on_another_tile():
    code, message = placement_problem(initial_board(), 30, 1, 1, 0)
    assert code == "cell_occupied"
    assert "already a tile at (1, 1)" in message


def test_island_must_meet_island_and_sky_meet_sky():
    board = initial_board()
    # (0, -1) faces the NW quarter's island edge; a peninsula pointing north shows it sky.
    code, message = placement_problem(board, 1, 0, -1, 0)
    assert code == "edges_do_not_match"
    assert "island must meet island" in message and "S edge" in message
    # (-1, 0) faces the NW quarter's sky edge: a crossing cannot go there.
    assert placement_problem(board, 30, -1, 0, 0)[0] == "edges_do_not_match"


def test_turned_tile_fits_where_the_printed_one_does_not():
    board = initial_board()
    assert placement_problem(board, 1, 0, -1, 180) is None


def test_vertices_line_up_because_tiles_lie_on_grid_cells():
    board = initial_board()
    assert all(isinstance(c, int) for cell in open_cells(board) for c in cell)


def test_placements_are_only_on_empty_cells_next_to_the_board():
    board = initial_board()
    cells = {(x, y) for _, x, y, _ in placements(board, [30, 38])}
    assert cells <= set(open_cells(board))
    assert set(open_cells(board)) == {
        (0, -1),
        (1, -1),
        (2, 0),
        (2, 1),
        (1, 2),
        (0, 2),
        (-1, 1),
        (-1, 0),
    }
    # the crossing fits the four cells facing island edges, the all-sky islet the other four
    assert {(x, y) for t, x, y, _ in placements(board, [30]) if t == 30} == {
        (0, -1),
        (2, 0),
        (1, 2),
        (-1, 1),
    }


def test_an_enclosed_empty_hole_may_be_left():
    state = new_game()
    put_hole_ring(state)
    hole = cell_key(-2, -1)
    assert hole not in state.board
    assert all(
        cell_key(-2 + dx, -1 + dy) in state.board for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0))
    )


def test_connected_island_joins_islands_across_island_edges():
    state = new_game()
    put(state, 9, 0, -1, 0)  # straight N-S on the NW quarter's north island edge
    island = island_of(state.board, 0, -1)
    assert island.tiles == 5
    assert island == island_of(state.board, 1, 1)


def test_tiles_touching_by_sky_edges_are_separate_islands():
    state = new_game()
    put(state, 9, -1, 0, 0)  # straight N-S west of the NW quarter: sky against sky
    assert island_of(state.board, -1, 0).tiles == 1
    assert island_of(state.board, -1, 0) != island_of(state.board, 0, 0)


def test_split_tile_islands_belong_to_different_connected_islands():
    state = new_game()
    put(state, 14, 0, -1, 0)  # two opposite peninsulas: N (island 0) and S (island 1)
    assert island_of(state.board, 0, -1, 1) == island_of(state.board, 0, 0)
    assert island_of(state.board, 0, -1, 0).tiles == 1
    assert island_of(state.board, 0, -1, 0) != island_of(state.board, 0, -1, 1)


def test_islet_is_a_closed_one_tile_island():
    state = new_game()
    put(state, 38, -1, 0, 0)
    islet = island_of(state.board, -1, 0)
    assert islet.tiles == 1 and islet.closed


def test_closed_island_has_no_island_edge_facing_an_empty_cell():
    state = new_game()
    put_hole_ring(state)
    ring = island_of(state.board, -1, 0)
    assert ring.tiles == 6 and ring.closed
    assert not island_of(state.board, 0, 0).closed


def test_placing_a_tile_can_join_two_connected_islands():
    state = new_game()
    put(state, 9, -1, 0, 0)
    assert island_of(state.board, -1, 0) != island_of(state.board, 0, 1)
    put(state, 16, -1, 1, 0)  # corner N-E: meets the straight and the SW quarter
    assert island_of(state.board, -1, 0) == island_of(state.board, 0, 1)
    assert island_of(state.board, -1, 0).tiles == 6


def test_can_place_is_false_when_no_tile_fits_anywhere():
    state = new_game()
    put_peninsulas_on_every_island_edge(state)
    assert not can_place(state.board, [30, 31])
    assert can_place(state.board, [38])


def test_placements_listed_are_exactly_the_legal_ones():
    for seed in range(3):
        board = play_match(game, [RandomBot(seed), RandomBot(seed + 1)], seed=seed).state.board
        xs = [p.x for p in board.values()]
        ys = [p.y for p in board.values()]
        for tile in (1, 9, 14, 16, 24, 30, 36, 38):
            listed = {(x, y, r) for _, x, y, r in placements(board, [tile])}
            legal = {
                (x, y, r)
                for x in range(min(xs) - 2, max(xs) + 3)
                for y in range(min(ys) - 2, max(ys) + 3)
                for r in (0, 90, 180, 270)
                if placement_problem(board, tile, x, y, r) is None
            }
            assert listed == legal
            assert can_place(board, [tile]) == bool(legal)
