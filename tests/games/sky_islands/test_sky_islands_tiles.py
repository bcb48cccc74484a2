"""The tiles: 40 sky island tiles and the initial tile's four quarters, checked on load."""

import json

import pytest
from pydantic import ValidationError

from services.games.sky_islands.tiles import (
    NORMAL_TILE_IDS,
    TILES,
    TILES_FILE,
    TileSet,
    orient,
    tile_set,
)


def raw_tiles() -> dict:
    return json.loads(TILES_FILE.read_text())


def test_tile_set_has_forty_tiles_and_four_initial_quarters():
    assert len(tile_set().tiles) == 40
    assert tuple(range(1, 41)) == NORMAL_TILE_IDS
    assert sorted(t.quarter for t in tile_set().initial_quarters) == ["NE", "NW", "SE", "SW"]
    assert len(TILES) == 44


def test_every_island_edge_is_touched_by_exactly_one_island_and_sky_edges_by_none():
    for tile in TILES.values():
        touched = [side for island in tile.islands for side in island.edges]
        assert sorted(touched) == sorted(s for s, kind in tile.edges.items() if kind == "island")


def test_initial_quarters_meet_island_to_island_and_sky_to_sky_inside():
    quarters = {t.quarter: t for t in tile_set().initial_quarters}
    assert quarters["NW"].edges["E"] == quarters["NE"].edges["W"]
    assert quarters["NW"].edges["S"] == quarters["SW"].edges["N"]
    assert quarters["NE"].edges["S"] == quarters["SE"].edges["N"]
    assert quarters["SW"].edges["E"] == quarters["SE"].edges["W"]


def test_ships_are_red_white_blue_or_green_about_ten_each():
    for colour in ("red", "white", "blue", "green"):
        assert 8 <= sum(t.ship == colour for t in tile_set().tiles) <= 12


def test_tile_set_is_varied():
    shapes = {t.shape for t in tile_set().tiles}
    for shape in (
        "peninsula",
        "straight",
        "corner",
        "T-junction",
        "crossing",
        "two corners",
        "two opposite peninsulas",
        "corner + islet",
        "islet in open sky",
    ):
        assert shape in shapes
    split = [t for t in tile_set().tiles if len(t.islands) > 1]
    islets = [t for t in tile_set().tiles if any(not i.edges for i in t.islands)]
    all_sky = [t for t in tile_set().tiles if set(t.edges.values()) == {"sky"}]
    assert len(split) >= 6 and len(islets) >= 5 and len(all_sky) >= 2


def test_island_edge_touched_by_no_island_is_refused():
    data = raw_tiles()
    data["tiles"][0]["islands"] = [{"edges": []}]
    with pytest.raises(ValidationError, match="touched by 0 islands"):
        TileSet.model_validate(data)


def test_sky_edge_touched_by_an_island_is_refused():
    data = raw_tiles()
    data["tiles"][0]["islands"] = [{"edges": ["N", "E"]}]
    with pytest.raises(ValidationError, match="sky edge E"):
        TileSet.model_validate(data)


def test_duplicate_tile_ids_are_refused():
    data = raw_tiles()
    data["tiles"][1]["id"] = 1
    with pytest.raises(ValidationError, match="unique"):
        TileSet.model_validate(data)


def test_a_missing_tile_is_refused():
    data = raw_tiles()
    data["tiles"].pop()
    with pytest.raises(ValidationError, match="tiles 1..40"):
        TileSet.model_validate(data)


def test_initial_quarters_with_mismatched_inner_edges_are_refused():
    data = raw_tiles()
    nw = data["initial_quarters"][0]
    assert nw["quarter"] == "NW"
    nw["edges"]["E"] = "sky"
    nw["islands"] = [{"edges": ["N", "S"]}]
    with pytest.raises(ValidationError, match="NW E edge does not match NE W"):
        TileSet.model_validate(data)


def test_unknown_ship_colour_is_refused():
    data = raw_tiles()
    data["tiles"][0]["ship"] = "purple"
    with pytest.raises(ValidationError):
        TileSet.model_validate(data)


def test_lopsided_ship_colours_are_refused():
    data = raw_tiles()
    for tile in data["tiles"][:20]:
        tile["ship"] = "red"
    with pytest.raises(ValidationError, match="expected about 10"):
        TileSet.model_validate(data)


def test_rotation_turns_the_tile_clockwise():
    peninsula = TILES[1]
    assert peninsula.edges["N"] == "island"
    masks = [orient(peninsula, r).mask for r in (0, 90, 180, 270)]
    assert masks == [0b0001, 0b0010, 0b0100, 0b1000]  # N, E, S, W


def test_rotation_carries_each_island_with_its_edges():
    corner_and_peninsula = next(t for t in TILES.values() if t.shape == "corner + peninsula")
    # printed: island 0 reaches N and E, island 1 reaches S; turned 90°: E, S and W.
    assert orient(corner_and_peninsula, 90).island_at == (-1, 0, 0, 1)
