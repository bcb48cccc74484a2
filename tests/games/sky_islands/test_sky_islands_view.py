"""What each seat sees, the move labels and the catalog."""

import orjson
import pytest
from pydantic import ValidationError
from sky_islands_helpers import give_hand, house, new_game, put, put_hole_ring, set_cubes

from services.games.sky_islands import SkyIslandsView, game
from services.games.sky_islands.moves import (
    BuildHarbour,
    BuildTower,
    BuildTradingHouse,
    DiscardTile,
    EndTurn,
    Exchange,
    FinishBuilding,
    Keep,
    PlaceTile,
)


def test_view_shows_own_hand_and_only_counts_of_others():
    state = new_game(3)
    view = game.view(state, 1)
    assert isinstance(view, SkyIslandsView)
    assert [t.id for t in view.hand] == state.merchants[1].hand
    assert view.hand[0].islands and view.hand[0].ship
    assert [p.hand_count for p in view.players] == [2, 2, 2]
    assert view.draw_pile == len(state.pile) and view.returned_to_box == 10


def test_spectator_sees_no_hand():
    view = game.view(new_game(3), None)
    assert view.hand is None and view.viewer is None


def test_view_never_shows_the_draw_pile_the_box_or_the_rng():
    state = new_game(2)
    data = game.view(state, 0).model_dump(mode="json")
    assert "rng" not in data and "pile" not in data and "returned" not in data
    assert isinstance(data["draw_pile"], int) and isinstance(data["returned_to_box"], int)


def test_view_board_tiles_lie_turned_with_their_buildings():
    state = new_game(3)
    put(state, 14, 0, -1, 180)  # two opposite peninsulas, turned half round
    house(state, 2, 0, -1, 1, tower=True)
    view = game.view(state, None)
    tile = next(t for t in view.board if (t.x, t.y) == (0, -1))
    assert (tile.tile, tile.rotation, tile.shape) == (14, 180, "two opposite peninsulas")
    assert tile.edges == {"N": "island", "E": "sky", "S": "island", "W": "sky"}
    assert [i.edges for i in tile.islands] == [("S",), ("N",)]
    assert tile.islands[1].trading_house.model_dump() == {
        "owner": 2,
        "tower": True,
        "harbour": False,
    }
    assert tile.islands[0].trading_house is None


def test_view_has_derived_connected_islands():
    state = new_game(3)
    put_hole_ring(state)
    house(state, 0, -1, 0, tower=True)
    house(state, 1, -1, -1)
    view = game.view(state, 0)
    by_id = {i.id: i for i in view.connected_islands}
    ring_id = next(t for t in view.board if (t.x, t.y) == (-1, 0)).islands[0].connected_island
    ring = by_id[ring_id]
    assert (ring.tile_count, ring.closed, ring.has_tower) == (6, True, True)
    assert ring.influence == (2, 1, 0)
    assert {(n.x, n.y) for n in ring.nodes} == {
        (-1, 0),
        (-1, -1),
        (-1, -2),
        (-2, -2),
        (-3, -2),
        (-2, 0),
    }
    central = by_id[next(t for t in view.board if t.tile == 101).islands[0].connected_island]
    assert (central.tile_count, central.closed) == (4, False)


def test_view_tells_whose_turn_and_which_step():
    state = new_game(3, starting_player=1)
    view = game.view(state, 0)
    assert (view.current_player, view.phase, view.turn_number) == (1, "place", 1)
    assert view.placed_this_turn is None and view.final_scores is None
    assert view.supply.model_dump() == {
        "red": 20,
        "white": 20,
        "blue": 20,
        "towers": 12,
        "harbours": 12,
    }
    assert view.players[0].trading_houses_left == 11 and view.players[0].turns_taken == 0


def test_view_shows_the_tile_placed_this_turn():
    state = new_game(3)
    give_hand(state, 0, [5, 6])
    set_cubes(state, 0, 1, 1, 1)  # enough to build: the turn stops at step ④
    state = game.apply(state, 0, PlaceTile(tile=5, x=0, y=-1, rotation=180)).state
    assert game.view(state, 2).placed_this_turn.model_dump() == {"x": 0, "y": -1}


def test_view_is_json():
    orjson.dumps(game.view(new_game(4), 3).model_dump(mode="json"))


def test_describe_labels_moves_in_the_rulebook_words():
    assert game.describe(PlaceTile(tile=17, x=2, y=-1, rotation=90)) == (
        "Place tile 17 at (2, -1) turned 90°"
    )
    assert game.describe(PlaceTile(tile=3, x=0, y=-1)) == "Place tile 3 at (0, -1)"
    assert game.describe(DiscardTile(tile=8)) == "Discard tile 8"
    assert game.describe(BuildTradingHouse(x=1, y=2)) == (
        "Build a trading house on the tile at (1, 2)"
    )
    assert game.describe(BuildTradingHouse(x=1, y=2, island=1)) == (
        "Build a trading house on the tile at (1, 2), island 1"
    )
    assert game.describe(BuildTower(x=0, y=0)).startswith("Build a tower")
    assert game.describe(BuildHarbour(x=0, y=0)).startswith("Build a harbour")
    assert game.describe(FinishBuilding()) == "Finish building"
    assert game.describe(Exchange(give="red", take="blue")) == "Exchange 3 red for 1 blue"
    assert game.describe(Keep(red=2, blue=1)) == "Keep 2 red, 1 blue"
    assert game.describe(Keep()) == "Keep no resources"
    assert game.describe(EndTurn()) == "End the turn"


def test_catalog_lists_every_tile_and_the_pieces():
    catalog = game.catalog()
    assert len(catalog["tiles"]) == 44
    assert {t["id"] for t in catalog["tiles"]} == set(range(1, 41)) | {101, 102, 103, 104}
    assert catalog["initial_tile"]["NW"] == {"x": 0, "y": 0, "tile": 101}
    assert catalog["pieces"] == {
        "trading_houses_per_player": 11,
        "towers": 12,
        "harbours": 12,
        "cubes_per_colour": 20,
    }
    orjson.dumps(catalog)


def test_the_parts_views_share_cannot_be_changed():
    """Board tiles and connected islands are built once and shared by every view that
    shows them: editing one would change the others."""
    state = new_game(3)
    put_hole_ring(state)
    house(state, 0, -1, 0, tower=True)
    first, second = game.view(state, 0), game.view(state, 1)
    assert first.board[0] is second.board[0]
    assert first.connected_islands[0] is second.connected_islands[0]
    with pytest.raises(ValidationError, match="frozen"):
        first.board[0].rotation = 3
    with pytest.raises(ValidationError, match="frozen"):
        first.connected_islands[0].closed = True
    with pytest.raises(AttributeError):
        first.connected_islands[0].influence.append(9)  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        first.board[0].islands[0].edges.append("N")  # type: ignore[attr-defined]
