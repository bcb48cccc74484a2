"""The designed components: what the rulebook counts, in the one effect vocabulary."""

import json

import pytest
from pydantic import ValidationError

from services.games.sky_lanterns import effects as fx
from services.games.sky_lanterns import game
from services.games.sky_lanterns.components import (
    BOARD,
    CARDS,
    EFFECTS,
    ERAS,
    PLAYER_BOARDS,
    PROJECTS,
    STARTING_IDS,
    TEAPOT_IDS,
    TILES,
    TeapotCard,
)


def test_the_box_holds_what_the_components_list_says():
    assert len(TEAPOT_IDS) == 66 and len(STARTING_IDS) == 12
    assert len(TILES) == 16 and sum(t.dots == 4 for t in TILES.values()) == 4
    assert sum(t.dots == 3 for t in TILES.values()) == 3  # the 2-player game removes 7
    assert BOARD.dice == {"red": 5, "blue": 5, "green": 5, "black": 3}
    assert sorted(e.card for e in ERAS.values()) == [1, 1, 2, 2, 3, 3]
    assert len({e.year for e in ERAS.values()}) == 6
    for track in ("lantern", "railway"):
        sides = sorted((p.card, p.side) for p in PROJECTS.values() if p.track == track)
        assert sides == [(n, s) for n in (1, 2, 3, 4) for s in ("A", "B")]
    assert sorted(PLAYER_BOARDS) == ["P-00", "P-01", "P-02", "P-03", "P-04"]


def test_four_dot_tiles_cover_the_spaces_used_only_with_four_players():
    four_dot = {t.space for t in TILES.values() if t.dots == 4}
    assert four_dot == {"red-5", "blue-5", "green-5", "black-3"}
    assert {s.id for s in BOARD.spaces if s.dots == 4} == four_dot


def test_every_player_board_has_three_railway_zones_six_core_slots_and_four_incomes():
    for board in PLAYER_BOARDS.values():
        assert sorted(s.zone for s in board.track if s.zone is not None) == [0, 1, 2]
        assert len(board.upgrade_incomes) == 4 and len(board.core_slots) >= 6
    assert len(PLAYER_BOARDS["P-00"].compensation) == 3
    assert (
        len(PLAYER_BOARDS["P-01"].compensation) == 1 and len(PLAYER_BOARDS["P-01"].core_slots) == 8
    )
    assert PLAYER_BOARDS["P-03"].coal_trade == "coins"


def test_every_card_has_a_lantern_colour_requirement_costs_contract_and_railway_reward():
    colours = {c.lantern for c in CARDS.values()}
    assert colours == {"red", "yellow", "blue"}
    for card in CARDS.values():
        assert card.requirement and all(1 <= v <= 6 for v in card.requirement)
        assert card.lantern_reward and card.contract and card.railway


def test_every_icon_of_the_icon_reference_is_used_somewhere():
    used = {effect.kind for effects in EFFECTS.values() for effect in effects}
    assert used == {
        "gain",
        "train",
        "lanterns",
        "draw",
        "develop",
        "vp_per",
        "card_railway",
        "first_player",
        "player_to_right",
        "contract",
        "one_of",
        "change_die",
        "any_space",
        "convert",
        "income",
        "upgrade",
    }
    core_dice = [
        e
        for es in EFFECTS.values()
        for e in es
        if isinstance(e, fx.Convert) and "core_dice" in e.pay.values()
    ]
    assert core_dice


def test_data_with_an_unknown_effect_is_refused_at_load():
    row = json.loads(json.dumps(CARDS["T01"].model_dump(mode="json")))
    row["contract"] = [{"kind": "teleport"}]
    with pytest.raises(ValidationError):
        TeapotCard.model_validate(row)
    row["contract"] = [{"kind": "gain", "res": {"gold": 1}}]
    with pytest.raises(ValidationError):
        TeapotCard.model_validate(row)
    row["contract"] = [{"kind": "convert", "pay": {"vp": 2}, "effects": [{"kind": "draw"}]}]
    with pytest.raises(ValidationError):
        TeapotCard.model_validate(row)


def test_the_catalog_publishes_every_component_with_its_effects():
    catalog = game.catalog()
    assert len(catalog["cards"]) == 78 and len(catalog["upgrade_tiles"]) == 16
    assert catalog["cards"][0]["contract"][0]["kind"] == "gain"
    assert {"main_board", "player_boards", "eras", "projects"} <= catalog.keys()
    # every dice space and round, the 5 boards, 3 two-sided Eras, 4 + 4 two-sided Projects
    assert len(catalog["main_board"]["spaces"]) == 18
    assert [r["round"] for r in catalog["main_board"]["round_track"]] == [1, 2, 3, 4, 5, 6]
    assert [b["id"] for b in catalog["player_boards"]] == ["P-00", "P-01", "P-02", "P-03", "P-04"]
    assert (len(catalog["eras"]), len(catalog["projects"])) == (6, 16)
    p03 = catalog["player_boards"][3]["exclusive_contracts"][0][0]
    assert (p03["kind"], p03["pay"], p03["times"]) == ("convert", {"coal": 1}, 4)
