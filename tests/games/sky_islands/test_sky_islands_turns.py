"""Setup and the flow of a turn: ① income, ② placing (or discarding), ③ gaining,
the skipped steps, ⑥ refilling, and the end after ten turns each."""

import pytest
from sky_islands_helpers import (
    at_phase,
    check_conserved,
    empty_supply,
    end_current_turn,
    give_hand,
    house,
    kinds,
    new_game,
    play,
    put,
    put_peninsulas_on_every_island_edge,
    refused,
    set_cubes,
)

from services.engine import InvalidConfig
from services.games.sky_islands import SkyIslandsOptions, game
from services.games.sky_islands.events import HandRevealed, IncomeReceived, ResourcesGained
from services.games.sky_islands.moves import DiscardTile, EndTurn, FinishBuilding, PlaceTile
from services.games.sky_islands.state import Cubes


def hand_over(state):
    """End the active player's turn at once (nothing to dispose of)."""
    at_phase(state, "dispose")
    set_cubes(state, state.current)
    return play(state, EndTurn())


# --- setup -------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "used"), [(2, 20), (3, 30), (4, 40)])
def test_setup_uses_ten_tiles_per_player_and_returns_the_rest_unseen(players, used):
    state = new_game(players)
    in_play = len(state.pile) + sum(len(m.hand) for m in state.merchants)
    assert in_play == used
    assert len(state.returned) == 40 - used
    assert [len(m.hand) for m in state.merchants] == [2] * players
    check_conserved(state)


def test_setup_supply_and_pieces():
    state = new_game(4)
    assert state.supply == Cubes(red=20, white=20, blue=20)
    assert (state.towers_left, state.harbours_left) == (12, 12)
    assert all(m.trading_houses_left == 11 and m.vp.total == 0 for m in state.merchants)
    assert all(m.cubes.total == 0 for m in state.merchants)


def test_starting_player_option_takes_the_first_turn():
    state = new_game(4, starting_player=2)
    assert state.current == state.starting_player == 2
    assert [p.seat for p in game.prompts(state)] == [2]


def test_random_starting_player_comes_from_the_seed():
    starts = {game.setup(None, 4, seed).starting_player for seed in range(40)}
    assert starts == {0, 1, 2, 3}
    assert game.setup({}, 4, 7) == game.setup({}, 4, 7)


def test_starting_player_outside_the_seats_is_refused():
    with pytest.raises(InvalidConfig) as error:
        game.setup({"starting_player": 3}, 3, 1)
    assert error.value.code == "invalid_options"
    assert "starting_player must be a seat of this 3-player game (0 to 2)" in error.value.message
    with pytest.raises(InvalidConfig) as error:
        game.setup(SkyIslandsOptions(starting_player=4), 2, 1)
    assert "0 to 1" in error.value.message


def test_unknown_option_is_refused():
    with pytest.raises(InvalidConfig) as error:
        game.setup({"expansion": True}, 3, 1)
    assert error.value.code == "invalid_options"
    assert "expansion" in error.value.message


def test_turn_passes_to_the_left():
    state = new_game(3, starting_player=2)
    state, events = hand_over(state)
    assert state.current == 0
    assert kinds(events)[-1] == "turn_started"
    state, _ = hand_over(state)
    assert state.current == 1


# --- ① income ----------------------------------------------------------------------


def income_events(events):
    return [e for e in events if isinstance(e, IncomeReceived)]


def test_income_skipped_on_first_turn():
    state = new_game(3)
    house(state, 1, 1, 0, harbour=True)  # white ship
    state, events = hand_over(state)
    assert state.current == 1
    assert state.merchants[1].cubes.total == 0
    assert income_events(events) == []


def test_income_one_cube_per_harbour_equipped_trading_house():
    state = new_game(3)
    state.merchants[1].turns_taken = 1
    house(state, 1, 1, 0, harbour=True)  # NE quarter: white ship
    house(state, 1, 1, 1, harbour=True)  # SE quarter: blue ship
    house(state, 1, 0, 0)  # NW quarter, red ship, but no harbour
    state, events = hand_over(state)
    assert state.merchants[1].cubes == Cubes(red=0, white=1, blue=1)
    [income] = income_events(events)
    assert (income.red, income.white, income.blue, income.vp) == (0, 1, 1, 0)


def test_income_green_ship_gives_a_victory_point():
    state = new_game(3)
    state.merchants[1].turns_taken = 1
    house(state, 1, 0, 1, harbour=True)  # SW quarter: green ship
    state, events = hand_over(state)
    assert state.merchants[1].vp.income == 1
    assert state.merchants[1].cubes.total == 0
    assert income_events(events)[0].vp == 1


def test_income_nothing_when_supply_empty():
    state = new_game(3)
    state.merchants[1].turns_taken = 1
    house(state, 1, 1, 0, harbour=True)  # white ship
    empty_supply(state, "white")
    state, events = hand_over(state)
    assert state.merchants[1].cubes.white == 0
    assert income_events(events)[0].missed == ["white"]
    check_conserved(state)


# --- ② placing and ③ gaining -------------------------------------------------------


def gains(events):
    return next(e for e in events if isinstance(e, ResourcesGained))


def test_gains_from_placed_tile_and_each_tile_touching_it_by_an_edge():
    # The rulebook's example: 1 red from the placed tile, 1 white and 1 victory point
    # from the tiles touching it.
    state = new_game(3)
    put(state, 40, 2, 1)  # islet in open sky, green ship, below the cell we fill
    give_hand(state, 0, [1, 5])
    state, events = play(state, PlaceTile(tile=1, x=2, y=0, rotation=270))  # red, faces NE
    assert state.merchants[0].cubes == Cubes(red=1, white=1, blue=0)
    assert state.merchants[0].vp.ships == 1
    gained = gains(events)
    assert (gained.red, gained.white, gained.blue, gained.vp) == (1, 1, 0, 1)
    assert gained.source == "placement"


def test_initial_tile_only_edge_touching_quarters_pay():
    # "a flying ship on a part that does not touch by an edge cannot give you resources"
    state = new_game(3)
    give_hand(state, 0, [3, 5])
    state, _ = play(state, PlaceTile(tile=3, x=0, y=-1, rotation=180))  # blue; touches NW only
    assert state.merchants[0].cubes == Cubes(red=1, white=0, blue=1)
    assert state.merchants[0].vp.total == 0  # the SW quarter's green ship does not touch


def test_gain_is_lost_when_the_supply_is_empty():
    state = new_game(3)
    give_hand(state, 0, [3, 5])
    empty_supply(state, "red")
    state, events = play(state, PlaceTile(tile=3, x=0, y=-1, rotation=180))
    assert state.merchants[0].cubes.red == 0
    assert gains(events).missed == ["red"]
    check_conserved(state)


def test_placed_tile_leaves_the_hand_and_is_remembered_for_this_turn():
    state = new_game(3)
    give_hand(state, 0, [3, 5])
    set_cubes(state, 0, 1, 1, 1)
    state, events = play(state, PlaceTile(tile=3, x=0, y=-1, rotation=180))
    assert state.merchants[0].hand == [5]
    assert state.board["0,-1"].tile == 3
    assert state.placed_this_turn.cell == (0, -1)
    assert kinds(events)[:2] == ["tile_placed", "resources_gained"]


def test_forced_discard_reveals_hand_and_pays_only_discarded_ship():
    state = new_game(3)
    put_peninsulas_on_every_island_edge(state)
    give_hand(state, 0, [30, 31])  # two crossings: they need island on every side
    [prompt] = game.prompts(state)
    assert prompt.kind == "discard_tile" and prompt.options == ["30", "31"]
    assert game.legal_moves(state, 0) == [DiscardTile(tile=30), DiscardTile(tile=31)]
    refused(state, PlaceTile(tile=30, x=0, y=-2), "edges_do_not_match")
    state, events = play(state, DiscardTile(tile=31))  # blue ship
    revealed = next(e for e in events if isinstance(e, HandRevealed))
    assert revealed.tiles == [30, 31]
    assert revealed.visible_to(None)["tiles"] == [30, 31]  # shown to everyone
    assert kinds(events)[:3] == ["hand_revealed", "tile_discarded", "resources_gained"]
    assert gains(events).source == "discard"
    assert state.merchants[0].cubes == Cubes(red=0, white=0, blue=1)
    assert state.discarded == [31]
    assert 31 not in [p.tile for p in state.board.values()]
    check_conserved(state)


def test_discard_not_allowed_when_a_tile_fits():
    state = new_game(3)
    error = refused(state, DiscardTile(tile=state.merchants[0].hand[0]), "discard_not_allowed")
    assert "only when no tile in your hand can be placed" in error.message


def test_after_a_discard_a_trading_house_may_go_on_any_tile():
    state = new_game(3)
    put_peninsulas_on_every_island_edge(state)
    give_hand(state, 0, [30, 31])
    set_cubes(state, 0, 1, 1, 0)
    state, _ = play(state, DiscardTile(tile=31))
    assert state.phase == "build" and state.placed_this_turn is None
    assert len(game.legal_moves(state, 0)) == 1 + sum(1 for _ in state.board)  # + finish


# --- skipped steps -----------------------------------------------------------------


def test_build_step_skipped_when_the_player_cannot_afford():
    state = new_game(3)
    give_hand(state, 0, [5, 6])
    set_cubes(state, 0, 1, 1, 0)
    state, _ = play(state, PlaceTile(tile=5, x=0, y=-1, rotation=180))  # red ship + NW red
    assert state.phase == "dispose"  # 3 red, 1 white: must choose what to keep
    assert game.prompts(state)[0].kind == "dispose"


def test_build_step_offers_finish_building_when_the_player_can_build():
    state = new_game(3)
    give_hand(state, 0, [5, 6])
    set_cubes(state, 0, 1, 1, 1)
    state, _ = play(state, PlaceTile(tile=5, x=0, y=-1, rotation=180))
    assert game.prompts(state)[0].kind == "build"
    moves = game.legal_moves(state, 0)
    assert FinishBuilding() in moves
    assert {m.kind for m in moves} == {"build_trading_house", "finish_building"}


def test_stock_disposal_skipped_without_a_choice_and_the_turn_ends():
    state = new_game(3)
    give_hand(state, 0, [3, 5])
    state, events = play(state, PlaceTile(tile=3, x=0, y=-1, rotation=180))
    assert "turn_ended" in kinds(events)
    assert state.current == 1 and state.phase == "place"


def test_end_turn_offered_with_three_cubes_and_an_exchange():
    state = new_game(3)
    at_phase(state, "build")
    set_cubes(state, 0, red=3)
    state, _ = play(state, FinishBuilding())
    assert state.phase == "dispose"
    moves = game.legal_moves(state, 0)
    assert EndTurn() in moves and {m.kind for m in moves} == {"exchange", "end_turn"}


# --- ⑥ refilling and the end -------------------------------------------------------


def test_refill_draws_one_tile_private_to_the_drawer():
    state = new_game(3)
    drawn_next = state.pile[0]
    give_hand(state, 0, [3, 5])
    state, events = play(state, PlaceTile(tile=3, x=0, y=-1, rotation=180))
    [drawn] = [e for e in events if e.kind == "tile_drawn"]
    assert state.merchants[0].hand == [5, drawn_next]
    assert drawn.visible_to(0)["tile"] == drawn_next
    assert "tile" not in drawn.visible_to(1)
    assert "tile" not in drawn.visible_to(None)


def test_no_refill_on_ninth_and_tenth_turn():
    for turns_before, draws in ((7, True), (8, False), (9, False)):
        state = new_game(3)
        state.merchants[0].turns_taken = turns_before
        pile = list(state.pile)
        state, events = play(state, game.legal_moves(state, 0)[0])
        if state.current == 0:
            state, more = end_current_turn(state)
            events += more
        assert ("tile_drawn" in kinds(events)) is draws
        assert len(state.merchants[0].hand) == (2 if draws else 1)
        assert state.pile == (pile[1:] if draws else pile)


def test_game_ends_after_everyone_took_ten_turns():
    state = new_game(3, starting_player=1)
    for merchant in state.merchants:
        merchant.turns_taken = 10
    state.merchants[0].turns_taken = 9  # seat 0 plays the last turn of the game
    state.current = 0
    state, events = hand_over(state)
    assert state.over and state.phase == "over"
    assert kinds(events)[-1] == "game_ended"
    assert game.prompts(state) == []
    assert game.result(state) is not None
    refused(state, EndTurn(), "game_over")


def test_no_result_before_the_end():
    assert game.result(new_game(3)) is None
