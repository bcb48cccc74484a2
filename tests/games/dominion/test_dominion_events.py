"""The 10 Events and the rules for buying them, with every note under "Event Notes"."""

import pytest
from dominion_kit import (
    act,
    buy,
    buy_event,
    choose,
    deck_top_first,
    me,
    new_game,
    play,
    prompt,
    start,
    with_prophecy,
)

from services.engine import IllegalMove
from services.games.dominion import game


def buying(*events, hand=("Gold", "Gold", "Gold"), kingdom=(), buys=1, **turn):
    state = start(
        new_game(*kingdom, events=list(events)),
        hand=list(hand) + ["Estate"],
        phase="buy",
        buys=buys,
        **turn,
    )
    return act(state, kind="play_treasures")


# --- buying Events --------------------------------------------------------------------


def test_buying_an_event_uses_a_buy_and_its_cost():
    state = buying("Foresight", buys=2, hand=("Gold",))
    state = buy_event(state, "Foresight")
    assert state.turn.buys == 1 and state.turn.coins == 1


def test_the_same_event_can_be_bought_again_with_buys_and_coins():
    state = buying("Foresight", buys=3, hand=("Gold", "Copper"))
    state = buy_event(state, "Foresight")
    state = buy_event(state, "Foresight")
    assert state.turn.buys == 1 and state.turn.coins == 0


def test_a_card_and_an_event_can_be_bought_in_either_order():
    state = buying("Foresight", buys=2, hand=("Gold", "Silver"))
    state = buy(state, "Silver")
    state = buy_event(state, "Foresight")
    assert state.supply["Silver"] == 39


def test_no_more_treasures_after_buying_an_event():
    state = start(
        new_game(events=["Foresight"]), hand=["Gold", "Copper", "Estate"], phase="buy", buys=2
    )
    state = act(state, kind="play_treasure", card="Gold")
    state = buy_event(state, "Foresight")
    with pytest.raises(IllegalMove) as error:
        act(state, kind="play_treasure", card="Copper")
    assert error.value.code == "treasures_locked"


def test_an_event_not_in_this_game_cannot_be_bought():
    state = buying("Foresight")
    with pytest.raises(IllegalMove) as error:
        buy_event(state, "Gather")
    assert error.value.code == "event_not_in_game"


def test_an_event_you_cannot_afford_is_refused():
    state = buying("Gather", hand=("Gold",))
    with pytest.raises(IllegalMove) as error:
        buy_event(state, "Gather")
    assert error.value.code == "not_enough_coins"


def test_event_costs_are_not_lowered_by_flourishing_trade():
    state = with_prophecy("Flourishing Trade", events=["Gather"])
    state = start(state, hand=["Gold", "Gold", "Estate"], phase="buy")
    state = act(state, kind="play_treasures")
    with pytest.raises(IllegalMove):
        buy_event(state, "Gather")
    assert [(e.event, e.coins) for e in game.view(state, 0).events] == [("Gather", 7)]


# --- Amass ----------------------------------------------------------------------------


def test_amass_gains_an_action_costing_up_to_5_with_no_action_in_play():
    state = buying("Amass", kingdom=["Litter", "Artist"])
    state = buy_event(state, "Amass")
    assert "Litter" in prompt(state).options
    assert "Artist" not in prompt(state).options and "Silver" not in prompt(state).options
    state = choose(state, "Litter")
    assert "Litter" in me(state).discard + me(state).hand + me(state).deck


def test_amass_does_nothing_with_an_action_in_play():
    state = buying("Amass", kingdom=["Litter"], buys=2)
    me(state).in_play.append("Litter")
    state = buy_event(state, "Amass")
    assert prompt(state).kind == "buy_phase" and state.supply["Litter"] == 10


def test_durations_from_earlier_turns_stop_amass():
    state = buying("Amass", kingdom=["Samurai"], buys=2)
    me(state).durations = [["Samurai", "game"]]
    state = buy_event(state, "Amass")
    assert prompt(state).kind == "buy_phase"


# --- Asceticism -----------------------------------------------------------------------


def test_asceticism_pays_3_more_coins_to_trash_3_cards():
    """You "could pay an additional 3 coins - so 5 coins total - and trash 3 cards"."""
    state = start(
        new_game(events=["Asceticism"]),
        hand=["Gold", "Silver", "Estate", "Curse", "Estate", "Copper"],
        phase="buy",
    )
    state = act(state, kind="play_treasure", card="Gold")
    state = act(state, kind="play_treasure", card="Silver")
    state = buy_event(state, "Asceticism")
    assert (prompt(state).min_picks, prompt(state).max_picks) == (0, 3)
    state = choose(state, "Estate", "Curse", "Estate")
    assert sorted(state.trash) == ["Curse", "Estate", "Estate"]
    assert state.turn.seat == 1  # $0 and no Buy left: the turn is over


def test_asceticism_can_trash_nothing():
    state = buying("Asceticism", hand=("Silver", "Copper"))
    state = buy_event(state, "Asceticism")
    state = choose(state)
    assert state.trash == []


# --- Continue -------------------------------------------------------------------------


def test_continue_gains_a_non_attack_action_returns_to_the_action_phase_and_plays_it():
    state = buying(
        "Continue",
        kingdom=["Fishmonger", "Ninja", "Ronin", "Snake Witch"],
        hand=("Gold", "Gold", "Gold"),
    )
    state = buy_event(state, "Continue")
    assert me(state).debt == 8
    options = prompt(state).options
    assert "Fishmonger" in options
    assert "Ninja" not in options and "Snake Witch" not in options  # Attacks
    assert "Ronin" not in options  # $5
    state = choose(state, "Fishmonger")
    assert state.turn.phase == "buy"  # nothing to play in the new Action phase
    assert me(state).in_play[-1] == "Fishmonger"
    assert state.turn.actions == 2 and state.turn.buys == 2 and state.turn.coins == 10


def test_continue_plays_its_card_though_a_when_gain_effect_put_a_copper_on_top_of_it():
    """Bureaucracy: "gain a Copper" with each gain; the gained Village did not move."""
    state = start(
        with_prophecy("Bureaucracy", "Village", events=["Continue"]),
        hand=["Gold", "Gold", "Gold"],
        deck=["Copper"] * 10,
        phase="buy",
    )
    state = buy_event(act(state, kind="play_treasures"), "Continue")
    state = choose(state, "Village")
    assert "Village" in me(state).in_play and "Village" not in me(state).discard
    assert me(state).discard == ["Copper"]


def test_continues_card_is_played_without_using_an_action_play():
    state = buying("Continue", kingdom=["Rustic Village"])
    state.turn.actions = 0
    state = buy_event(state, "Continue")
    state = choose(state, "Rustic Village")
    state = choose(state)  # Rustic Village: discard nothing
    assert state.turn.actions == 3 and state.turn.buys == 1


def test_continue_can_be_bought_only_once_per_turn():
    state = buying(
        "Continue",
        kingdom=["Fishmonger"],
        buys=3,
        hand=("Gold", "Gold", "Gold", "Gold", "Gold", "Gold"),
    )
    state = buy_event(state, "Continue")
    state = choose(state, "Fishmonger")
    state = act(state, kind="pay_debt", amount=8)
    assert me(state).debt == 0
    with pytest.raises(IllegalMove) as error:
        buy_event(state, "Continue")
    assert error.value.code == "once_per_turn"


# --- Credit ---------------------------------------------------------------------------


def test_credit_gains_an_action_or_treasure_up_to_8_and_takes_its_cost_in_debt():
    state = buying("Credit", kingdom=["Artist", "Rice"], hand=("Silver",))
    state = buy_event(state, "Credit")
    options = prompt(state).options
    assert "Rice" in options and "Gold" in options
    assert "Artist" not in options and "Province" not in options
    state = choose(state, "Rice")
    assert me(state).debt == 7


# --- Foresight ------------------------------------------------------------------------


def test_foresight_sets_aside_the_first_action_and_discards_the_rest():
    state = buying("Foresight", kingdom=["Litter"], buys=2, hand=("Gold",))
    me(state).deck = list(reversed(["Copper", "Estate", "Litter", "Gold"]))
    state = buy_event(state, "Foresight")
    assert me(state).foresight == ["Litter"]
    assert me(state).discard == ["Copper", "Estate"] and deck_top_first(state) == ["Gold"]


def test_foresights_card_joins_the_hand_after_drawing_the_next_hand():
    state = buying("Foresight", kingdom=["Litter"], hand=("Gold",))
    me(state).deck = list(reversed(["Litter"] + ["Copper"] * 5))
    state = buy_event(state, "Foresight")
    assert me(state).hand == ["Copper"] * 5 + ["Litter"]


def test_foresight_with_no_action_discards_everything_revealed():
    state = buying("Foresight", buys=2, hand=("Gold",))
    me(state).deck = ["Copper", "Silver"]
    me(state).discard = []
    state = buy_event(state, "Foresight")
    assert me(state).foresight == [] and sorted(me(state).discard) == ["Copper", "Silver"]


# --- Gather ---------------------------------------------------------------------------


def test_gather_gains_a_3_a_4_and_a_5_in_that_order():
    state = buying("Gather", kingdom=["Alley", "Litter", "Craftsman"])
    state = buy_event(state, "Gather")
    assert "Silver" in prompt(state).options and "Craftsman" in prompt(state).options
    state = choose(state, "Silver")
    assert set(prompt(state).options) >= {"Alley"} and "Silver" not in prompt(state).options
    state = choose(state, "Alley")
    assert "Duchy" in prompt(state).options and "Litter" in prompt(state).options
    state = choose(state, "Duchy")
    gained = me(state).discard + me(state).hand + me(state).deck
    assert {"Silver", "Alley", "Duchy"} <= set(gained)


def test_gather_still_gains_the_others_when_nothing_costs_exactly_4():
    no_fours = [
        "Litter",
        "Aristocrat",
        "Artist",
        "Craftsman",
        "Daimyo",
        "Fishmonger",
        "Gold Mine",
        "Imperial Envoy",
        "Rice",
        "Ronin",
    ]
    state = start(new_game(kingdom=no_fours, events=["Gather"]), hand=["Gold"] * 3, phase="buy")
    state = act(state, kind="play_treasures")
    state = buy_event(state, "Gather")
    state = choose(state, "Silver")
    assert prompt(state).text.endswith("$5.")  # no $4 card in this kingdom
    state = choose(state, "Litter")
    assert state.supply["Silver"] == 39 and state.supply["Litter"] == 9


# --- Kintsugi -------------------------------------------------------------------------


def test_kintsugi_only_trashes_if_you_never_gained_a_gold():
    state = buying("Kintsugi", hand=("Gold",))
    me(state).hand = ["Estate", "Copper"]
    state = buy_event(state, "Kintsugi")
    state = choose(state, "Estate")
    assert state.trash == ["Estate"] and state.supply["Silver"] == 40


def test_kintsugi_remembers_a_gold_you_gained_even_if_you_no_longer_have_it():
    state = buying("Kintsugi", hand=("Gold", "Gold", "Gold"), buys=2)
    state = buy(state, "Gold")
    state.trash += [me(state).discard.pop()]  # that Gold is gone now
    me(state).hand = ["Estate", "Copper"]
    state = buy_event(state, "Kintsugi")
    state = choose(state, "Estate")
    assert "Silver" in prompt(state).options and "Gold" not in prompt(state).options
    state = choose(state, "Silver")
    assert state.supply["Silver"] == 39


# --- Practice -------------------------------------------------------------------------


def test_practice_plays_an_action_from_hand_twice():
    state = buying("Practice", kingdom=["Craftsman"], hand=("Gold",))
    me(state).hand = ["Craftsman"]
    state = buy_event(state, "Practice")
    state = choose(state, "Craftsman")
    state = choose(state, "Silver")
    state = choose(state, "Silver")
    assert me(state).debt == 4 and state.supply["Silver"] == 38


def test_practice_is_optional():
    state = buying("Practice", kingdom=["Craftsman"], hand=("Gold",))
    me(state).hand = ["Craftsman"]
    state = buy_event(state, "Practice")
    state = choose(state)
    assert me(state).hand == ["Craftsman"] or state.turn.seat == 1


# --- Receive Tribute ------------------------------------------------------------------


def test_receive_tribute_needs_three_gains_this_turn():
    state = buying("Receive Tribute", kingdom=["Litter"], hand=("Gold", "Gold", "Gold"), buys=2)
    state = buy(state, "Silver")
    state = buy_event(state, "Receive Tribute")
    assert state.supply["Litter"] == 10


def test_receive_tribute_gains_up_to_three_differently_named_actions_not_in_play():
    state = buying(
        "Receive Tribute",
        kingdom=["Litter", "Alley", "Ninja", "Artist"],
        hand=("Gold", "Gold", "Gold"),
        buys=4,
    )
    me(state).in_play.append("Ninja")
    for _ in range(3):
        state = buy(state, "Copper")
    state = buy_event(state, "Receive Tribute")
    options = prompt(state).options
    assert "Ninja" not in options and "Artist" in options and "Gold" not in options
    assert prompt(state).min_picks == 0
    state = choose(state, "Artist")  # any cost: even 8 Debt
    assert "Artist" not in prompt(state).options
    state = choose(state, "Litter")
    state = choose(state)  # "You don't have to gain the full three."
    assert state.supply["Artist"] == 9 and state.supply["Litter"] == 9
    assert state.supply["Alley"] == 10 and me(state).debt == 0


# --- Sea Trade ------------------------------------------------------------------------


def test_sea_trade_draws_per_action_in_play_then_trashes_up_to_that_many():
    state = buying("Sea Trade", kingdom=["Litter", "Samurai"], hand=("Gold", "Silver"))
    me(state).in_play += ["Litter", "Litter"]
    me(state).durations = [["Samurai", "game"]]
    me(state).hand = []
    me(state).deck = ["Curse", "Estate", "Copper", "Gold"]
    state = buy_event(state, "Sea Trade")
    assert sorted(me(state).hand) == ["Copper", "Estate", "Gold"]
    assert prompt(state).max_picks == 3 and prompt(state).min_picks == 0
    state = choose(state, "Estate", "Copper")
    assert sorted(state.trash) == ["Copper", "Estate"]


def test_sea_trade_with_no_action_in_play_does_nothing():
    state = buying("Sea Trade", buys=2, hand=("Gold", "Silver"))
    hand = list(me(state).hand)
    state = buy_event(state, "Sea Trade")
    assert me(state).hand == hand and state.trash == []


def test_river_shrine_counts_every_buy_phase_of_a_turn_with_continue():
    """ "If you have multiple Buy phases, such as via Continue, River Shrine only gains you a
    card if you didn't gain a card in any of those Buy phases.\""""
    state = new_game("River Shrine", "Fishmonger", events=["Continue"])
    state = start(state, hand=["River Shrine", "Gold", "Gold", "Gold"])
    state = play(state, "River Shrine")
    state = choose(state)
    state = act(state, kind="play_treasures")
    state = buy_event(state, "Continue")  # gains Fishmonger in this Buy phase
    state = choose(state, "Fishmonger")
    state = act(state, kind="pay_debt", amount=8)
    state = act(state, kind="end_turn")
    assert state.turn.seat == 1  # no River Shrine gain at the start of Clean-up
