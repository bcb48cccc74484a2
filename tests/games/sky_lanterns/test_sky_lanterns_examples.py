"""Every example of the rulebook, reproduced with the designed components and its numbers."""

import pytest
from sky_lanterns_kit import asked, give, hand, hold, legal, play, table

from services.games.sky_lanterns.components import CARDS, PLAYER_BOARDS
from services.games.sky_lanterns.rounds import carry_on, event_phase, upkeep
from services.games.sky_lanterns.scoring import breakdowns, lantern_majority, resource_points
from services.games.sky_lanterns.state import Die

DECLINE = {"kind": "decline"}


def test_round_2_blue_lantern_bonus_is_2_vp_and_a_card_per_lantern():
    """ "In the event phase of round 2, each blue sky lantern rewards 2 VP and 1 Teapot card.
    If a player has launched 3 blue sky lanterns ... they will receive 6 VP and draw 3." """
    state = table(eras=("E1A", "E2A", "E3A"))
    player = state.seats[1]
    player.lantern_zones = [["T03"], ["T06"], ["T09"]]  # three blue lanterns
    state.deck = [c for c in state.deck if c not in ("T03", "T06", "T09")]
    state.round, state.turn = 2, 8
    event_phase(state)
    carry_on(state)
    assert (player.vp, len(player.hand)) == (6, 3)
    assert all(p.vp == 0 and not p.hand for s, p in enumerate(state.seats) if s != 1)


def test_era_contract_pay_2_coal_to_draw_1_card_up_to_2_times():
    state = table(eras=("E1A", "E2A", "E3A"))
    give(state, 0, coal=5)
    state = play(state, 0, {"kind": "era_contract", "option": 0})
    assert asked(state) == (0, "convert")
    assert [m["times"] for m in legal(state, 0) if m["kind"] == "convert"] == [0, 1, 2]
    state = play(state, 0, {"kind": "convert", "times": 2})
    assert (state.seats[0].basics["coal"], len(state.seats[0].hand)) == (1, 2)
    assert asked(state) == (0, "take")


def test_hand_contract_gain_2_camphor_and_a_sky_lantern_development():
    """Starting card S01: "Gain 2 Camphor and perform 1 Sky Lantern Development"; a
    Starting card played as a contract leaves the game."""
    state = table()
    state.seats[0].hand = ["S01"]
    hand(state, 0, "T01")
    state = play(state, 0, {"kind": "play_contract_card", "card": "S01"})
    assert state.seats[0].camphor == 3 and asked(state) == (0, "develop")
    state = play(state, 0, {"kind": "develop", "card": "T01", "zone": 0})
    assert state.seats[0].lantern_zones[0] == ["T01"] and state.seats[0].coins == 5 - 2
    assert "S01" in state.removed and "S01" not in state.discard


def test_p03_exclusive_contract_pay_1_coal_for_2_of_a_resource_up_to_4_times():
    state = table()
    state.seats[0].board = "P-03"
    give(state, 0, coal=4, indigo=0, tea=0, yam=0)
    state = play(state, 0, {"kind": "exclusive_contract", "option": 0})
    state = play(state, 0, {"kind": "convert", "times": 4})
    for resource in ("indigo", "tea", "yam", "tea"):
        assert asked(state) == (0, "one_of")
        state = play(state, 0, {"kind": "choose_resource", "resource": resource})
    assert state.seats[0].basics == {"coal": 0, "indigo": 2, "tea": 4, "yam": 2}


def test_dice_space_pay_1_dyeing_yam_to_gain_3_vp():
    state = table(dice={"red-3": 4})
    give(state, 0, yam=2)
    state = play(state, 0, DECLINE, {"kind": "take_die", "space": "red-3"})
    state = play(state, 0, {"kind": "convert", "times": 1})
    assert (state.seats[0].basics["yam"], state.seats[0].vp) == (1, 3)


def test_dice_space_gain_3_tea():
    state = play(table(dice={"blue-2": 2}), 0, DECLINE, {"kind": "take_die", "space": "blue-2"})
    assert state.seats[0].basics["tea"] == 1 + 3 and asked(state) == (0, "place")


def test_dice_space_advance_train_and_gain_1_indigo():
    """…and the train example: "If your train advances by 1 space, you gain 1 Tea." """
    state = play(table(dice={"green-1": 1}), 0, DECLINE, {"kind": "take_die", "space": "green-1"})
    player = state.seats[0]
    assert player.train == 1 and player.basics["tea"] == 2 and player.basics["indigo"] == 2


def test_dice_space_first_player_marker_and_1_coin_and_1_for_the_player_on_the_right():
    state = table(dice={"red-1": 1})
    state.turn = 1  # seat 1's turn; seat 0 is on its right
    coins = [p.coins for p in state.seats]
    state = play(state, 1, DECLINE, {"kind": "take_die", "space": "red-1"})
    assert state.first_player == 1
    assert [p.coins - c for p, c in zip(state.seats, coins, strict=True)] == [1, 1, 0, 0]


def test_dice_are_sorted_by_colour_in_ascending_value_from_the_bottom():
    """4 Red, 1 Green, 3 Blue and 2 Black dice drawn are placed bottom to top ascending."""
    state = table()
    state.round = 2
    state.spaces = {s: None for s in state.spaces}
    state.bag = {"red": 4, "blue": 3, "green": 1, "black": 2}
    for player in state.seats:
        player.core = [None] * 6
    upkeep(state)
    values = {
        c: [state.spaces[f"{c}-{n}"] for n in range(1, 6) if f"{c}-{n}" in state.spaces]
        for c in ("red", "blue", "green", "black")
    }
    counts = {c: sum(v is not None for v in vs) for c, vs in values.items()}
    assert counts == {"red": 4, "blue": 3, "green": 1, "black": 2}
    for column in values.values():
        filled = [v for v in column if v is not None]
        assert filled == sorted(filled) and column[: len(filled)] == filled


def test_upgrade_after_the_loop_4_vp_then_the_second_tile_covers_red_four_dots_for_2_indigo():
    state = table(dice={"green-3": 3})
    player = state.seats[0]
    player.train = len(PLAYER_BOARDS["P-00"].track) - 2  # two spaces before the loop
    player.upgrades = ["U02", "U05", "U09", "U11"]
    vp, indigo = player.vp, player.basics["indigo"]
    state = play(state, 0, DECLINE, {"kind": "take_die", "space": "green-3"})
    assert asked(state) == (0, "upgrade")
    player = state.seats[0]
    assert player.train == 0 and player.vp == vp + 4
    state = play(state, 0, {"kind": "upgrade", "position": 1})
    player = state.seats[0]
    assert state.covered == {"red-5": "U05"} and player.upgrades[1] is None
    assert player.basics["indigo"] == indigo + 2
    # "You will receive the 2 Indigo again during each Income Event."
    state.round, state.turn = 3, 8
    before = state.seats[0].basics["indigo"]
    event_phase(state)
    carry_on(state)
    assert state.seats[0].basics["indigo"] == before + 2


def test_the_example_card_is_a_yellow_lantern_for_2_or_a_railway_for_4():
    """Teapot Cards: "This card provides 1 yellow sky lantern" and "using this card for Sky
    Lantern Development costs $2, while using it for Railway Development costs $4" (T65)."""
    assert (CARDS["T65"].lantern, CARDS["T65"].lantern_cost, CARDS["T65"].railway_cost) == (
        "yellow",
        2,
        4,
    )
    state = table(dice={"black-2": 2})
    state.seats[0].lantern_project = "L1A"  # no reward for a first tuck
    hand(state, 0, "T65")
    give(state, 0, coins=2)
    state = play(state, 0, DECLINE, {"kind": "take_die", "space": "black-2"})
    state = play(state, 0, {"kind": "develop", "card": "T65", "zone": 1})
    player = state.seats[0]
    assert player.coins == 0 and player.lantern_zones[1] == ["T65"]
    assert {c: player.lanterns(c) for c in ("red", "yellow", "blue")} == {
        "red": 0,
        "yellow": 1,
        "blue": 0,
    }
    state = table(dice={"black-3": 2})
    state.seats[0].railway_project = "R2A"  # 1 VP for a first tuck, no coins
    hand(state, 0, "T65")
    give(state, 0, coins=4)
    state = play(state, 0, DECLINE, {"kind": "take_die", "space": "black-3"})
    state = play(state, 0, {"kind": "develop", "card": "T65", "zone": 2})
    player = state.seats[0]
    assert player.coins == 0 and player.railway_zones[2] == ["T65"]
    assert player.lanterns("yellow") == 0  # a Railway Development is no lantern


@pytest.mark.parametrize(
    ("space", "zones"), [("black-2", "lantern_zones"), ("black-3", "railway_zones")]
)
def test_a_card_can_be_tucked_left_first_row_middle_first_row_or_right_third_row(space, zones):
    """The same example is given for Sky Lantern and for Railway Developments."""
    state = table(dice={space: 2})
    setattr(state.seats[0], zones, [[], [], ["T04", "T07"]])
    hand(state, 0, "T10")
    state = play(state, 0, DECLINE, {"kind": "take_die", "space": space})
    assert {m["zone"] for m in legal(state, 0) if m["kind"] == "develop"} == {0, 1, 2}
    state = play(state, 0, {"kind": "develop", "card": "T10", "zone": 2})
    assert getattr(state.seats[0], zones) == [[], [], ["T04", "T07", "T10"]]


def test_lantern_project_first_row_full_gives_1_coin_and_2_vp_income():
    state = table(dice={"black-2": 2})
    player = state.seats[0]
    player.lantern_project = "L1A"
    player.lantern_zones = [["T04"], ["T07"], []]
    hand(state, 0, "T10")
    coins, vp = player.coins, player.vp
    state = play(state, 0, DECLINE, {"kind": "take_die", "space": "black-2"})
    state = play(state, 0, {"kind": "develop", "card": "T10", "zone": 2})
    player = state.seats[0]
    assert (player.coins, player.vp) == (coins - 2 + 1, vp + 2)
    assert player.incomes == ["project:L1A:row1:full/0"]


def test_lantern_project_second_row_full_gives_a_lantern_of_each_colour():
    state = table(dice={"black-2": 2})
    player = state.seats[0]
    player.lantern_project = "L1A"
    player.lantern_zones = [["T04", "T05"], ["T07", "T08"], ["T13"]]
    hand(state, 0, "T10")
    state = play(state, 0, DECLINE, {"kind": "take_die", "space": "black-2"})
    state = play(state, 0, {"kind": "develop", "card": "T10", "zone": 2})
    assert state.seats[0].lantern_tokens == {"red": 1, "yellow": 1, "blue": 1}


def test_lantern_project_third_row_tuck_gives_vp_per_railway_development():
    state = table(dice={"black-2": 2})
    player = state.seats[0]
    player.lantern_project = "L1A"
    player.lantern_zones = [["T04", "T05"], [], []]
    player.railway_zones = [["T20"], ["T21", "T22"], []]
    hand(state, 0, "T10")
    state = play(state, 0, DECLINE, {"kind": "take_die", "space": "black-2"})
    state = play(state, 0, {"kind": "develop", "card": "T10", "zone": 0})
    assert state.seats[0].vp == 3


def test_railway_project_second_card_on_the_left_advances_the_train_gains_2_vp_and_its_reward():
    """R1A: the second card into the left zone advances the train (1 Tea from the first
    space), gains 2 VP and the tucked card's railway reward (T11: 3 VP)."""
    state = table(dice={"black-3": 2})
    player = state.seats[0]
    player.railway_project = "R1A"
    player.railway_zones = [["T20"], [], []]
    hand(state, 0, "T11")
    give(state, 0, coins=4)
    state = play(state, 0, DECLINE, {"kind": "take_die", "space": "black-3"})
    state = play(state, 0, {"kind": "develop", "card": "T11", "zone": 0})
    player = state.seats[0]
    assert (player.train, player.basics["tea"], player.vp) == (1, 2, 2 + 3)


def test_railway_project_card_tucked_into_the_right_third_row_gains_its_2_tea():
    state = table(dice={"black-3": 2})
    player = state.seats[0]
    player.railway_project = "R1A"
    player.railway_zones = [[], [], ["T20", "T21"]]
    hand(state, 0, "T02")
    state = play(state, 0, DECLINE, {"kind": "take_die", "space": "black-3"})
    state = play(state, 0, {"kind": "develop", "card": "T02", "zone": 2})
    assert state.seats[0].basics["tea"] == 1 + 2


def test_core_slot_example_lantern_reward_advances_the_train_then_pay_2_yam_for_coal_and_railway():
    """A die in the fifth Core Slot leaves the four slots to its left for a smaller die. In
    slot 3 (under the middle zone, where T02 asks for a 1 or 2) it advances the train, then
    as the second die in the Core Slots it may pay 2 Dyeing Yams for 1 Coal and 1 Railway
    Development."""
    state = table()
    player = state.seats[0]
    player.core[4] = Die(colour="red", value=4)
    state.bag["red"] -= 1
    player.lantern_zones = [[], ["T02"], []]
    state.deck.remove("T02")
    hand(state, 0, "T05")
    give(state, 0, yam=3, coal=0)
    hold(state, "blue", 2)
    cores = {m["slot"] for m in legal(state, 0) if m["kind"] == "place_core"}
    assert cores == {0, 1, 2, 3}
    state = play(state, 0, {"kind": "place_core", "slot": 2})
    assert state.seats[0].train == 1 and state.seats[0].basics["tea"] == 2
    assert asked(state) == (0, "convert")
    state = play(state, 0, {"kind": "convert", "times": 1})
    assert state.seats[0].basics["yam"] == 1 and state.seats[0].basics["coal"] == 1
    state = play(state, 0, {"kind": "develop", "card": "T05", "zone": 1})
    assert state.seats[0].railway_zones[1] == ["T05"] and asked(state)[1] == "contract"


def test_compensation_slots_give_3_coins_2_vp_and_a_contract_or_2_train_spaces():
    state = table()
    coins = state.seats[0].coins
    hold(state, "red", 6)
    state = play(state, 0, {"kind": "place_compensation", "slot": 0})
    assert state.seats[0].coins == coins + 3
    state = table()
    hold(state, "red", 6)
    state = play(state, 0, {"kind": "place_compensation", "slot": 1})
    assert state.seats[0].vp == 2 and asked(state) == (0, "contract")
    state = play(state, 0, DECLINE)
    assert asked(state) == (1, "contract")
    state = table()
    hold(state, "red", 6)
    state = play(state, 0, {"kind": "place_compensation", "slot": 2})
    assert state.seats[0].train == 2


def test_scoring_example_player_a_scores_12_8_6_and_1():
    """A: 1st in yellow (12), tied 1st of three in red (8), tied 2nd of two in blue (6),
    4 Railway Developments (1)."""
    assert lantern_majority([3, 1, 1, 0])[0] == 12
    assert lantern_majority([2, 2, 2, 1]) == [8, 8, 8, 0]
    assert lantern_majority([2, 2, 3, 0]) == [6, 6, 12, 0]
    state = table()
    player = state.seats[0]
    player.lantern_tokens = {"red": 2, "yellow": 3, "blue": 2}
    for seat, tokens in ((1, (2, 1, 2)), (2, (2, 1, 3)), (3, (1, 0, 0))):
        state.seats[seat].lantern_tokens = dict(zip(("red", "yellow", "blue"), tokens, strict=True))
    player.railway_zones = [["T20", "T21"], ["T22"], ["T23"]]
    parts = breakdowns(state)[0]
    assert (parts["yellow_lanterns"], parts["red_lanterns"], parts["blue_lanterns"]) == (12, 8, 6)
    assert parts["railway"] == 1


def test_scoring_example_5_coal_4_indigo_5_tea_6_yam_score_4():
    state = table()
    give(state, 0, coal=5, indigo=4, tea=5, yam=6, coins=0, camphor=0)
    assert resource_points(state.seats[0]) == {"camphor": 0, "coins": 0, "resource_sets": 4}
