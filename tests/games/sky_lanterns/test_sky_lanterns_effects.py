"""What each icon of the effect vocabulary does, through the one resolver."""

from sky_lanterns_kit import asked, give, hand, legal, play, table

from services.games.sky_lanterns import game
from services.games.sky_lanterns.state import Die

DECLINE = {"kind": "decline"}


def contract(state, card, seat=0):
    hand(state, seat, card)
    return play(state, seat, {"kind": "play_contract_card", "card": card})


def test_vp_per_yellow_lantern_counts_tucked_cards_and_lantern_tokens():
    state = table()
    state.seats[0].lantern_zones = [["T02"], ["T05"], ["T04"]]  # yellow, yellow, red
    state.seats[0].lantern_tokens["yellow"] = 1
    for card in ("T02", "T05", "T04"):
        state.deck.remove(card)
    state = contract(state, "T18")
    assert state.seats[0].vp == 3 and "T18" in state.discard


def test_vp_per_railway_development_counts_every_zone():
    state = table()
    state.seats[0].railway_zones = [["T01"], ["T03", "T07"], []]
    for card in ("T01", "T03", "T07"):
        state.deck.remove(card)
    state = contract(state, "T11")
    assert state.seats[0].vp == 3


def test_this_cards_railway_rewards_now_pays_the_played_cards_railway_reward():
    state = table()
    coins = state.seats[0].coins
    state = contract(state, "T06")  # railway reward $2, then 1 VP
    assert (state.seats[0].coins, state.seats[0].vp) == (coins + 2, 1)


def test_the_player_to_the_right_gains_what_follows():
    state = table()
    state.turn = 2
    coins = [p.coins for p in state.seats]
    state = contract(state, "T05", seat=2)
    assert [p.coins - c for p, c in zip(state.seats, coins, strict=True)] == [0, 1, 2, 0]


def test_take_the_first_player_marker():
    state = contract(table(), "T20")
    assert state.first_player == 0 and state.seats[0].vp == 1
    state = table()
    state.turn = 3
    assert contract(state, "S11", seat=3).first_player == 3


def test_any_non_black_space_resolves_its_current_reward_even_without_a_die():
    state = table(dice={"red-1": 1})
    state.covered["blue-2"] = "U07"  # 3 Tea and 1 VP
    state = contract(state, "T19")
    assert asked(state) == (0, "any_space")
    spaces = {m["space"] for m in legal(state, 0) if m["kind"] == "choose_space"}
    assert len(spaces) == 15 and not any(s.startswith("black") for s in spaces)
    state = play(state, 0, {"kind": "choose_space", "space": "blue-2"})
    assert state.seats[0].basics["tea"] == 4 and state.seats[0].vp == 1


def test_with_3_players_four_dot_spaces_cannot_be_chosen():
    state = table(players=3, dice={"red-1": 1})
    state = contract(state, "T19")
    spaces = {m["space"] for m in legal(state, 0) if m["kind"] == "choose_space"}
    assert len(spaces) == 12 and not {"red-5", "blue-5", "green-5"} & spaces


def test_die_plus_or_minus_one_changes_the_die_just_taken():
    state = table(dice={"green-2": 3})
    state = play(state, 0, DECLINE, {"kind": "take_die", "space": "green-2"})
    assert asked(state) == (0, "change_die")
    state = play(state, 0, {"kind": "change_die", "delta": 1})
    assert state.held == Die(colour="green", value=4) and state.seats[0].basics["yam"] == 3


def test_one_of_gives_2_of_the_chosen_resource():
    state = contract(table(), "T02")
    state = play(state, 0, {"kind": "choose_resource", "resource": "yam"})
    assert state.seats[0].basics == {"coal": 1, "indigo": 1, "tea": 1, "yam": 3}


def test_a_conversion_with_nothing_to_pay_passes_without_asking():
    """(A contract that is such a conversion cannot be played at all: see
    test_a_contract_one_cannot_pay_is_refused_and_its_card_stays_in_hand.)"""
    state = table(dice={"red-3": 2})  # pay 1 Dyeing Yam for 3 VP
    give(state, 0, yam=0, coal=0)  # nor Coal to trade for Dyeing Yam
    state = play(state, 0, DECLINE, {"kind": "take_die", "space": "red-3"})
    assert asked(state) == (0, "place") and state.seats[0].vp == 0


def test_a_development_is_asked_of_a_hand_with_no_affordable_card_offering_only_decline():
    state = table(dice={"black-2": 1})
    hand(state, 0, "T13")  # $3 as a sky lantern
    give(state, 0, coins=2, coal=0)
    state = play(state, 0, DECLINE, {"kind": "take_die", "space": "black-2"})
    assert asked(state) == (0, "develop") and legal(state, 0) == [{"kind": "decline"}]
    state = play(state, 0, DECLINE)
    assert asked(state) == (0, "place") and state.seats[0].hand == ["T13"]


def test_a_development_with_no_card_in_hand_passes_without_asking():
    state = table(dice={"black-2": 1})
    state = play(state, 0, DECLINE, {"kind": "take_die", "space": "black-2"})
    assert asked(state) == (0, "place")


def test_others_cannot_tell_an_affordable_hand_from_an_unaffordable_one():
    """Whether a Development is asked is public (the prompts, the view's pending question,
    the log): it must not depend on what the hidden cards cost."""
    seen = []
    for card in ("T13", "T65"):  # $3 and $2 as sky lanterns, with $2 to pay
        state = table(dice={"black-2": 1})
        hand(state, 0, card)
        give(state, 0, coins=2, coal=0)
        state = play(state, 0, DECLINE, {"kind": "take_die", "space": "black-2"})
        view = game.view(state, 1)
        seen.append((asked(state), view.pending, view.players[0].hand))
    assert seen[0] == seen[1]
