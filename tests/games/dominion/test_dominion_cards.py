"""The 25 Rising Sun kingdom cards, one test per rule and per note in "Kingdom Card Notes"
(with the rulebook's own example where it gives one)."""

import pytest
from dominion_kit import (
    act,
    choose,
    deck_top_first,
    me,
    new_game,
    play,
    prompt,
    prompts,
    start,
    with_prophecy,
)

from services.engine import IllegalMove
from services.games.dominion import game


def in_play(state, *cards, seat=0):
    me(state, seat).in_play += list(cards)
    return state


# --- Alley ----------------------------------------------------------------------------


def test_alley_draws_a_card_gives_an_action_then_discards_a_card():
    state = start(new_game("Alley"), hand=["Alley", "Estate", "Gold"], deck=["Silver"])
    state = play(state, "Alley")
    assert prompt(state).kind == "discard"
    assert sorted(prompt(state).options) == ["Estate", "Gold", "Silver"]
    state = choose(state, "Estate")
    assert sorted(me(state).hand) == ["Gold", "Silver"] and me(state).discard == ["Estate"]


# --- Aristocrat -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "already,expected",
    [
        (0, {"actions": 3}),
        (1, {"cards": 3}),
        (2, {"coins": 3}),
        (3, {"buys": 4}),
        (4, {"actions": 3}),
        (5, {"cards": 3}),
        (6, {"coins": 3}),
        (7, {"buys": 4}),
        (8, {}),
        (9, {}),
    ],
)
def test_aristocrat_counts_the_aristocrats_you_have_in_play(already, expected):
    """1 or 5: +3 Actions; 2 or 6: +3 Cards; 3 or 7: +$3 (the card's coins; the rulebook's
    "+1 coin" is a transcription error); 4 or 8: +3 Buys; 9 or 10: nothing."""
    state = start(new_game("Aristocrat"), hand=["Aristocrat"], deck=["Copper"] * 5)
    state = in_play(state, *["Aristocrat"] * already)
    state = play(state, "Aristocrat")
    assert state.turn.actions == expected.get("actions", 0)
    assert len(me(state).hand) == expected.get("cards", 0)
    assert state.turn.coins == expected.get("coins", 0)
    assert state.turn.buys == expected.get("buys", 1)


def test_aristocrat_with_daimyo_gives_three_actions_for_each_play():
    """ "If you play Daimyo and then Aristocrat, you'll get +3 Actions for each play.\""""
    state = start(
        new_game("Aristocrat", "Daimyo"), hand=["Daimyo", "Aristocrat"], deck=["Estate"] * 3
    )
    state = play(state, "Daimyo")
    state = play(state, "Aristocrat")
    assert state.turn.actions == 6


# --- Artist ---------------------------------------------------------------------------


def test_artist_draws_a_card_per_card_you_have_exactly_one_copy_of_in_play():
    state = start(new_game("Artist"), hand=["Artist"], deck=["Copper"] * 6)
    state = in_play(state, "Silver", "Litter", "Litter")
    state = play(state, "Artist")  # Silver and Artist itself: two single copies
    assert len(me(state).hand) == 2 and state.turn.actions == 1


def test_artist_counts_cards_from_other_turns_still_in_play():
    state = start(new_game("Artist", "Samurai"), hand=["Artist"], deck=["Copper"] * 6)
    me(state).durations = [["Samurai", "game"]]
    state = play(state, "Artist")
    assert len(me(state).hand) == 2


# --- Change ---------------------------------------------------------------------------


def test_change_with_any_debt_gives_3_coins():
    state = start(new_game("Change"), hand=["Change", "Copper"])
    me(state).debt = 1
    state = play(state, "Change")
    assert state.turn.coins == 3 and me(state).hand == ["Copper"] and state.trash == []


def test_change_trashes_a_copper_gains_a_province_and_takes_8_debt():
    state = start(new_game("Change"), hand=["Change", "Copper", "Estate"])
    state = play(state, "Change")
    state = choose(state, "Copper")
    assert "Copper" not in prompt(state).options and "Province" in prompt(state).options
    state = choose(state, "Province")
    assert me(state).debt == 8 and state.trash == ["Copper"]
    assert "Province" in me(state).discard


def test_change_cannot_gain_a_card_costing_the_same_or_less():
    state = start(new_game("Change"), hand=["Change", "Silver", "Gold"])
    state = play(state, "Change")
    state = choose(state, "Silver")
    options = prompt(state).options
    assert "Silver" not in options and "Estate" not in options and "Gold" in options


def test_repaying_debt_first_lets_you_choose_what_change_does():
    state = start(
        new_game("Change", "Fishmonger"), hand=["Fishmonger", "Change", "Curse"], actions=2
    )
    me(state).debt = 1
    state = play(state, "Fishmonger")
    state = act(state, kind="pay_debt", amount=1)
    state = play(state, "Change")
    assert state.trash == ["Curse"] and prompt(state).kind == "gain"


# --- Craftsman ------------------------------------------------------------------------


def test_craftsman_takes_2_debt_and_gains_a_card_costing_up_to_5_even_with_debt():
    state = start(new_game("Craftsman"), hand=["Craftsman", "Copper"])
    me(state).debt = 3
    state = play(state, "Craftsman")
    assert me(state).debt == 5
    assert "Duchy" in prompt(state).options and "Gold" not in prompt(state).options
    state = choose(state, "Duchy")
    assert me(state).discard == ["Duchy"]


# --- Daimyo ---------------------------------------------------------------------------


def test_daimyo_replays_the_next_non_command_action_afterwards():
    state = start(new_game("Daimyo", "Litter"), hand=["Daimyo", "Litter"], deck=["Copper"] * 9)
    state = play(state, "Daimyo")
    assert state.turn.actions == 1 and len(me(state).hand) == 2
    state = play(state, "Litter")
    assert me(state).debt == 2 and state.turn.actions == 4 and len(me(state).hand) == 5


def test_two_daimyos_then_a_craftsman_play_the_craftsman_three_times():
    state = start(
        new_game("Daimyo", "Craftsman"), hand=["Daimyo", "Daimyo", "Craftsman"], deck=["Copper"] * 9
    )
    state = play(state, "Daimyo")
    state = play(state, "Daimyo")
    state = play(state, "Craftsman")
    for _ in range(3):
        state = choose(state, "Silver")
    assert me(state).debt == 6 and me(state).discard.count("Silver") == 3


def test_daimyo_waits_past_command_cards():
    state = start(
        new_game("Daimyo", "Litter"), hand=["Daimyo", "Daimyo", "Litter"], deck=["Copper"] * 9
    )
    state = play(state, "Daimyo")
    state = play(state, "Daimyo")  # a Command card: not replayed, and the first one waits
    assert state.turn.daimyo == 2
    state = play(state, "Litter")
    assert me(state).debt == 3


def test_daimyo_does_nothing_more_if_the_turn_ends_first():
    state = start(new_game("Daimyo"), hand=["Daimyo"], deck=["Copper"] * 9)
    state = play(state, "Daimyo")
    state = act(state, kind="play_treasures")
    state = act(state, kind="end_turn")
    assert state.turn.daimyo == 0


def test_daimyo_replays_a_snake_witch_that_returned_itself_but_it_cannot_return_again():
    state = start(
        new_game("Daimyo", "Snake Witch"),
        hand=["Daimyo", "Snake Witch"],
        deck=["Gold", "Silver", "Copper"],
    )
    state = play(state, "Daimyo")  # draws Gold
    state = play(state, "Snake Witch")  # draws Silver: hand Gold, Silver
    state = choose(state, "Yes")
    assert me(state, 1).discard == ["Curse"] and state.supply["Snake Witch"] == 11
    # The replay draws Copper (no duplicates) and may reveal, but the card is gone.
    state = choose(state, "Yes")
    assert me(state, 1).discard == ["Curse"]
    assert me(state).in_play == ["Daimyo"]


def test_daimyo_replaying_a_duration_stays_in_play_with_it():
    state = start(new_game("Daimyo", "Samurai"), hand=["Daimyo", "Samurai"], deck=["Copper"] * 9)
    me(state, 1).hand = ["Copper"] * 3
    state = play(state, "Daimyo")
    state = play(state, "Samurai")
    state = act(state, kind="play_treasures")
    state = act(state, kind="end_turn")
    assert sorted(c for c, _ in me(state).durations) == ["Daimyo", "Samurai"]
    assert me(state).samurai == 2  # +$2 at the start of each turn from now on


# --- Fishmonger -----------------------------------------------------------------------


def test_fishmonger_gives_a_buy_and_a_coin():
    state = start(new_game("Fishmonger"), hand=["Fishmonger", "Alley"])
    state = play(state, "Fishmonger")
    assert state.turn.buys == 2 and state.turn.coins == 1


# --- Gold Mine ------------------------------------------------------------------------


def test_gold_mine_may_gain_a_gold_with_4_debt():
    state = start(new_game("Gold Mine"), hand=["Gold Mine"], deck=["Copper"])
    state = play(state, "Gold Mine")
    assert state.turn.actions == 1 and state.turn.buys == 2 and me(state).hand == ["Copper"]
    state = choose(state, "Yes")
    assert me(state).discard == ["Gold"] and me(state).debt == 4


def test_gold_mine_gaining_is_optional_and_works_with_debt():
    state = start(new_game("Gold Mine"), hand=["Gold Mine"], deck=["Copper"])
    me(state).debt = 2
    state = play(state, "Gold Mine")
    state = choose(state, "No")
    assert me(state).discard == [] and me(state).debt == 2


def test_gold_mine_without_golds_offers_no_debt():
    """ "You can't gain a Gold without taking 4 Debt" — nor take Debt for no reason."""
    state = start(new_game("Gold Mine"), hand=["Gold Mine"], deck=["Copper"])
    state.supply["Gold"] = 0
    state = play(state, "Gold Mine")
    assert me(state).debt == 0 and prompt(state).kind != "choose_options"


# --- Imperial Envoy, Litter, Root Cellar, Tea House -----------------------------------


def test_imperial_envoy_draws_5_with_a_buy_and_2_debt():
    state = start(new_game("Imperial Envoy"), hand=["Imperial Envoy"], deck=["Copper"] * 6)
    me(state).debt = 1
    state = play(state, "Imperial Envoy")
    assert len(me(state).hand) == 5 and state.turn.buys == 2 and me(state).debt == 3


def test_root_cellar_draws_3_with_an_action_and_3_debt():
    state = start(new_game("Root Cellar"), hand=["Root Cellar"], deck=["Copper"] * 4)
    state = play(state, "Root Cellar")
    assert len(me(state).hand) == 3 and me(state).debt == 3


def test_tea_house_removes_a_sun_then_gives_card_action_and_2_coins():
    state = start(new_game("Tea House"), hand=["Tea House"], deck=["Alley"])
    sun = state.sun
    state = play(state, "Tea House")
    assert state.sun == sun - 1
    assert me(state).hand == ["Alley"] and state.turn.actions == 1 and state.turn.coins == 2


# --- Kitsune --------------------------------------------------------------------------


def test_kitsune_does_two_different_options_in_the_order_listed():
    state = start(new_game("Kitsune", players=3), hand=["Kitsune"])
    sun = state.sun
    state = play(state, "Kitsune")
    assert state.sun == sun - 1
    assert prompt(state).kind == "choose_options"
    assert (prompt(state).min_picks, prompt(state).max_picks) == (2, 2)
    state = choose(state, "Gain a Silver", "Each other player gains a Curse")
    assert me(state).discard == ["Silver"]
    assert me(state, 1).discard == ["Curse"] and me(state, 2).discard == ["Curse"]


def test_kitsune_options_must_differ():
    state = start(new_game("Kitsune"), hand=["Kitsune"])
    state = play(state, "Kitsune")
    with pytest.raises(IllegalMove) as error:
        choose(state, "+$2", "+$2")
    assert error.value.code == "not_a_legal_choice"
    state = choose(state, "+2 Actions", "+$2")
    assert state.turn.coins == 2


def test_kitsunes_sun_comes_first_and_can_trigger_the_prophecy_mid_card():
    state = with_prophecy("Kind Emperor", "Kitsune", active=False)
    state.sun = 1
    state = start(state, hand=["Kitsune"])
    state = play(state, "Kitsune")
    assert state.sun == 0 and prompt(state).text.startswith("Kind Emperor")
    state = choose(state, "Poet")
    assert "Poet" in me(state).hand
    assert prompt(state).text.startswith("Kitsune")


# --- Mountain Shrine ------------------------------------------------------------------


def test_mountain_shrine_draws_2_if_the_action_it_just_trashed_is_in_the_trash():
    state = start(
        new_game("Mountain Shrine"),
        hand=["Mountain Shrine", "Alley", "Estate"],
        deck=["Copper", "Copper"],
    )
    state = play(state, "Mountain Shrine")
    assert state.turn.coins == 2
    state = choose(state, "Alley")
    assert sorted(me(state).hand) == ["Copper", "Copper", "Estate"]


def test_mountain_shrine_with_no_action_in_the_trash_draws_nothing():
    state = start(
        new_game("Mountain Shrine"), hand=["Mountain Shrine", "Estate"], deck=["Copper", "Copper"]
    )
    state = play(state, "Mountain Shrine")
    state = choose(state, "Estate")
    assert me(state).hand == []


def test_mountain_shrine_trashing_is_optional_and_any_action_in_the_trash_counts():
    state = start(
        new_game("Mountain Shrine"), hand=["Mountain Shrine", "Estate"], deck=["Copper", "Copper"]
    )
    state.trash = ["Ninja"]  # who trashed it, or when, does not matter
    state = play(state, "Mountain Shrine")
    state = choose(state)
    assert sorted(me(state).hand) == ["Copper", "Copper", "Estate"]


# --- Ninja and Samurai: discard down to 3 ---------------------------------------------


def test_ninja_makes_each_other_player_discard_down_to_3_at_the_same_time():
    state = new_game("Ninja", players=4)
    state = start(state, hand=["Ninja"], deck=["Copper"])
    me(state, 1).hand = ["Copper", "Copper", "Estate", "Silver", "Gold"]
    me(state, 2).hand = ["Copper", "Estate", "Estate"]  # 3 cards: not asked
    me(state, 3).hand = ["Copper", "Copper", "Copper", "Copper", "Estate"]
    state = play(state, "Ninja")
    assert me(state).hand == ["Copper"]
    asked = {p.seat: p for p in prompts(state)}
    assert set(asked) == {1, 3}
    assert (asked[3].min_picks, asked[3].max_picks) == (2, 2)
    state = choose(state, "Copper", "Estate", seat=3)  # seat 3 answers first
    assert [p.seat for p in prompts(state)] == [1]
    state = choose(state, "Copper", "Estate", seat=1)
    assert sorted(me(state, 1).hand) == ["Copper", "Gold", "Silver"]
    assert sorted(me(state, 3).hand) == ["Copper", "Copper", "Copper"]
    assert prompt(state).seat == 0


def test_a_discard_with_only_one_possible_answer_is_made_without_asking():
    state = start(new_game("Ninja"), hand=["Ninja"], deck=["Copper"])
    me(state, 1).hand = ["Copper"] * 5
    state = play(state, "Ninja")
    assert me(state, 1).hand == ["Copper"] * 3 and prompt(state).seat == 0


def test_discard_choices_are_multisets_of_card_names():
    state = start(new_game("Ninja"), hand=["Ninja"], deck=["Copper"])
    me(state, 1).hand = ["Copper", "Copper", "Copper", "Estate", "Estate"]
    state = play(state, "Ninja")
    picks = sorted(tuple(m.picks) for m in game.legal_moves(state, 1))
    assert picks == [("Copper", "Copper"), ("Copper", "Estate"), ("Estate", "Estate")]


def test_samurai_attacks_once_then_gives_a_coin_at_the_start_of_each_turn():
    state = start(new_game("Samurai"), hand=["Samurai"], deck=["Copper"] * 10)
    me(state, 1).hand = ["Copper"] * 4 + ["Estate"]
    state = play(state, "Samurai")
    state = choose(state, "Copper", "Estate", seat=1)
    state = act(state, kind="end_turn")
    assert me(state).durations == [["Samurai", "game"]] and me(state).in_play == []
    state = act(state, 1, kind="end_turn")
    assert state.turn.seat == 0 and state.turn.coins == 1
    state = act(state, kind="end_turn")
    assert len(me(state, 1).hand) == 5  # no second attack
    state = act(state, 1, kind="end_turn")
    assert state.turn.coins == 1 and me(state).durations == [["Samurai", "game"]]


# --- Poet -----------------------------------------------------------------------------


def test_poet_puts_the_revealed_card_into_hand_if_it_costs_3_or_less():
    state = start(new_game("Poet"), hand=["Poet"], deck=["Copper", "Silver", "Gold"])
    state = play(state, "Poet")
    assert sorted(me(state).hand) == ["Copper", "Silver"]


def test_poet_leaves_a_costlier_card_on_top_of_the_deck():
    state = start(new_game("Poet"), hand=["Poet"], deck=["Copper", "Gold", "Silver"])
    state = play(state, "Poet")
    assert me(state).hand == ["Copper"] and deck_top_first(state) == ["Gold", "Silver"]


# --- Rice -----------------------------------------------------------------------------


def test_rice_makes_a_coin_per_type_in_play_the_rulebook_example():
    """Daimyo, Litter, Fishmonger, three Coppers and Rice in play: Action, Command, Shadow
    and Treasure — +4 coins (and +1 Buy)."""
    state = start(
        new_game("Rice", "Daimyo", "Litter", "Fishmonger"),
        hand=["Copper", "Copper", "Copper", "Rice"],
        phase="buy",
    )
    state = in_play(state, "Daimyo", "Litter", "Fishmonger")
    state = act(state, kind="play_treasures")
    assert state.turn.coins == 3 + 4 and state.turn.buys == 2


def test_play_treasures_plays_rice_last_to_count_every_type():
    state = start(new_game("Rice"), hand=["Rice", "Copper"], phase="buy")
    state = act(state, kind="play_treasures")
    assert me(state).in_play == ["Copper", "Rice"] and state.turn.coins == 2


# --- Rice Broker ----------------------------------------------------------------------


@pytest.mark.parametrize("trashed,drawn", [("Silver", 2), ("Alley", 5), ("Province", 0)])
def test_rice_broker_draws_by_the_type_it_trashed(trashed, drawn):
    state = start(
        new_game("Rice Broker"), hand=["Rice Broker", trashed, "Estate"], deck=["Copper"] * 8
    )
    state = play(state, "Rice Broker")
    state = choose(state, trashed)
    assert len(me(state).hand) == 1 + drawn and state.turn.actions == 1


# --- River Shrine ---------------------------------------------------------------------


def test_river_shrine_trashes_up_to_two_and_gains_at_the_start_of_clean_up():
    state = start(new_game("River Shrine"), hand=["River Shrine", "Estate", "Copper", "Curse"])
    state = play(state, "River Shrine")
    assert (prompt(state).min_picks, prompt(state).max_picks) == (0, 2)
    state = choose(state, "Estate", "Curse")
    state = act(state, kind="play_treasures")
    state = act(state, kind="end_turn")
    assert prompt(state).text.startswith("River Shrine")
    assert "Silver" in prompt(state).options and "Duchy" not in prompt(state).options
    state = choose(state, "Silver")
    assert "Silver" in me(state).discard


def test_river_shrine_gains_nothing_after_a_gain_in_the_buy_phase():
    state = start(new_game("River Shrine"), hand=["River Shrine", "Copper"])
    state = play(state, "River Shrine")
    state = choose(state)
    state = act(state, kind="play_treasures")
    state = act(state, kind="buy_card", card="Copper")
    assert state.turn.seat == 1


def test_gains_in_the_action_phase_do_not_stop_river_shrine_and_each_shrine_gains():
    state = start(
        new_game("River Shrine", "Craftsman"),
        hand=["River Shrine", "River Shrine", "Craftsman"],
        actions=3,
    )
    for _ in range(2):
        state = play(state, "River Shrine")
        state = choose(state)
    state = play(state, "Craftsman")
    state = choose(state, "Silver")  # nothing left to do this turn: Clean-up starts
    state = choose(state, "Silver")
    state = choose(state, "Estate")
    owned = me(state).discard + me(state).hand + me(state).deck
    assert owned.count("Silver") == 2 and owned.count("Estate") == 3


# --- Riverboat ------------------------------------------------------------------------


def test_riverboat_plays_the_set_aside_card_next_turn_leaving_it_there():
    state = new_game("Riverboat", riverboat_card="Litter")
    state = start(state, hand=["Riverboat"], deck=["Copper"] * 12)
    state = play(state, "Riverboat")
    state = act(state, kind="end_turn")
    assert me(state).durations == [["Riverboat", "next_turn"]]
    state = act(state, 1, kind="play_treasures")
    state = act(state, 1, kind="end_turn")
    assert len(me(state).hand) == 7 and me(state).debt == 1 and state.turn.actions == 3
    assert state.riverboat_card == "Litter" and "Litter" not in me(state).in_play
    assert me(state).durations == [["Riverboat", "next_turn"]]
    state = act(state, kind="end_turn")
    assert me(state).durations == [] and "Riverboat" in me(state).discard + me(state).hand


# --- Ronin ----------------------------------------------------------------------------


def test_ronin_draws_until_seven_cards_in_hand():
    state = start(new_game("Ronin"), hand=["Ronin", "Estate", "Estate"], deck=["Copper"] * 9)
    state = play(state, "Ronin")
    assert len(me(state).hand) == 7


def test_ronin_with_seven_cards_already_draws_none():
    state = start(new_game("Ronin"), hand=["Ronin"] + ["Estate"] * 8, deck=["Copper"] * 9)
    state = play(state, "Ronin")
    assert len(me(state).hand) == 8


# --- Rustic Village -------------------------------------------------------------------


def test_rustic_village_may_discard_two_including_the_drawn_card_for_a_card():
    state = start(
        new_game("Rustic Village"), hand=["Rustic Village", "Estate"], deck=["Curse", "Gold"]
    )
    sun = state.sun
    state = play(state, "Rustic Village")
    assert state.sun == sun - 1 and state.turn.actions == 2
    state = choose(state, "Estate", "Curse")
    assert me(state).hand == ["Gold"]


def test_rustic_village_discards_two_or_none_never_one():
    state = start(
        new_game("Rustic Village"), hand=["Rustic Village", "Estate"], deck=["Curse", "Gold"]
    )
    state = play(state, "Rustic Village")
    with pytest.raises(IllegalMove):
        choose(state, "Estate")
    state = choose(state)
    assert sorted(me(state).hand) == ["Curse", "Estate"]


# --- Snake Witch ----------------------------------------------------------------------


def test_snake_witch_reveals_a_hand_without_duplicates_and_returns_to_curse_others():
    state = start(
        new_game("Snake Witch", players=3), hand=["Snake Witch", "Copper"], deck=["Estate"]
    )
    state = play(state, "Snake Witch")
    assert prompt(state).kind == "reveal"
    state = choose(state, "Yes")
    assert state.supply["Snake Witch"] == 11 and me(state).in_play == []
    assert me(state, 1).discard == ["Curse"] and me(state, 2).discard == ["Curse"]


def test_snake_witch_reveal_is_optional():
    state = start(new_game("Snake Witch"), hand=["Snake Witch", "Copper"], deck=["Estate"])
    state = play(state, "Snake Witch")
    state = choose(state, "No")
    assert me(state).in_play == ["Snake Witch"] and me(state, 1).discard == []


def test_snake_witch_with_duplicates_in_hand_offers_nothing():
    state = start(new_game("Snake Witch"), hand=["Snake Witch", "Copper", "Alley"], deck=["Copper"])
    state = play(state, "Snake Witch")
    assert prompt(state).kind == "action_phase"


def test_an_empty_hand_has_no_duplicates():
    state = start(new_game("Snake Witch"), hand=["Snake Witch"], deck=[])
    state = play(state, "Snake Witch")
    assert prompt(state).kind == "reveal"


def test_snake_witch_that_cannot_return_to_its_pile_curses_no_one():
    state = start(new_game("Snake Witch"), hand=["Snake Witch", "Copper"], deck=["Estate"])
    del state.supply["Snake Witch"]  # e.g. its pile was removed by Divine Wind
    state.removed_piles["Snake Witch"] = 10
    state = play(state, "Snake Witch")
    state = choose(state, "Yes")
    assert me(state, 1).discard == [] and me(state).in_play == ["Snake Witch"]


# --- Tanuki ---------------------------------------------------------------------------


def test_tanuki_trashes_a_card_and_gains_one_costing_up_to_2_more():
    state = start(new_game("Tanuki"), hand=["Tanuki", "Silver", "Estate"])
    state = play(state, "Tanuki")
    state = choose(state, "Silver")
    assert "Tanuki" in prompt(state).options and "Gold" not in prompt(state).options
    state = choose(state, "Tanuki")
    assert state.trash == ["Silver"] and me(state).discard == ["Tanuki"]


def test_daimyo_replaying_riverboat_plays_the_set_aside_card_twice_next_turn():
    """Durations "played extra times by Daimyo": Daimyo stays in play as long as the
    Riverboat, and both leave in the next turn's Clean-up."""
    state = new_game("Daimyo", "Riverboat", riverboat_card="Litter")
    state = start(state, hand=["Daimyo", "Riverboat"], deck=["Estate"] + ["Copper"] * 12)
    state = play(state, "Daimyo")
    state = play(state, "Riverboat")
    assert me(state).riverboats == 2
    state = act(state, kind="end_turn")
    assert sorted(c for c, _ in me(state).durations) == ["Daimyo", "Riverboat"]
    state = act(state, 1, kind="end_turn")
    assert me(state).debt == 2 and len(me(state).hand) == 9  # Litter played twice
    state = act(state, kind="play_treasures")
    state = act(state, kind="end_turn")
    assert me(state).durations == []
    assert {"Daimyo", "Riverboat"} <= set(me(state).discard + me(state).hand + me(state).deck)


def test_litter_works_even_with_debt():
    state = start(new_game("Litter"), hand=["Litter"], deck=["Copper"] * 3)
    me(state).debt = 5
    state = play(state, "Litter")
    assert me(state).debt == 6 and len(me(state).hand) == 2 and state.turn.actions == 2
