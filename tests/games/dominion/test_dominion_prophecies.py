"""Omens, Sun tokens and the 15 Prophecies, with every note under "Prophecy Notes"."""

from dominion_kit import (
    act,
    buy,
    choose,
    deck_top_first,
    me,
    play,
    prompt,
    prompts,
    start,
    with_prophecy,
)

from services.games.dominion import game
from services.games.dominion.cards import CARDS


def test_a_prophecy_does_nothing_until_the_last_sun_is_removed():
    state = with_prophecy("Great Leader", "Litter", active=False)
    state = start(state, hand=["Litter"], deck=["Copper"] * 3)
    state = play(state, "Litter")
    assert state.turn.actions == 2 and not game.view(state, 0).prophecy_active


def test_removing_the_last_sun_activates_the_prophecy_right_then():
    state = with_prophecy("Great Leader", active=False)
    state.sun = 1
    state = start(state, hand=["Poet"], deck=["Estate", "Estate"])
    state = play(state, "Poet")  # +1 Sun (the last) first, then +1 Action, then Great Leader
    assert state.sun == 0 and state.turn.actions == 2
    assert game.view(state, 0).prophecy_active


def test_plus_sun_does_nothing_once_all_tokens_are_gone():
    state = with_prophecy("Progress")
    state = start(state, hand=["Poet"], deck=["Estate", "Estate"])
    state = play(state, "Poet")
    assert state.sun == 0


# --- Approaching Army -----------------------------------------------------------------


def test_approaching_army_gives_a_coin_after_each_attack_played():
    state = with_prophecy("Approaching Army", "Ninja")
    state = start(state, hand=["Ninja", "Fishmonger"], deck=["Copper"])
    me(state, 1).hand = ["Copper"] * 3
    state = play(state, "Ninja")
    assert state.turn.coins == 1


def test_approaching_army_counts_a_samurai_only_on_the_turn_it_is_played():
    state = with_prophecy("Approaching Army", "Samurai", army_pile="Ninja")
    state = start(state, hand=["Samurai"], deck=["Copper"] * 10)
    me(state, 1).hand = ["Copper"] * 3
    state = play(state, "Samurai")
    assert state.turn.coins == 1
    state = act(state, kind="end_turn")
    state = act(state, 1, kind="end_turn")
    assert state.turn.coins == 1  # Samurai's own +$1, nothing from the Prophecy


# --- Biding Time ----------------------------------------------------------------------


def test_biding_time_sets_the_hand_aside_and_returns_it_next_turn():
    state = with_prophecy("Biding Time")
    state = start(state, hand=["Estate", "Gold"], deck=["Copper"] * 5, phase="buy")
    state = act(state, kind="end_turn")
    assert sorted(me(state).biding) == ["Estate", "Gold"] and me(state).discard == []
    assert game.view(state, 1).players[0].biding_time is None
    assert game.view(state, 1).players[0].biding_time_size == 2
    state = act(state, 1, kind="end_turn")
    assert sorted(me(state).hand) == ["Copper"] * 5 + ["Estate", "Gold"]


# --- Bureaucracy ----------------------------------------------------------------------


def test_bureaucracy_gains_a_copper_with_each_card_not_costing_0():
    state = with_prophecy("Bureaucracy", "Artist")
    state = start(state, hand=["Silver", "Copper"], phase="buy", buys=4)
    state = act(state, kind="play_treasures")
    state = buy(state, "Silver")
    assert me(state).discard == ["Silver", "Copper"]
    state = buy(state, "Curse")
    assert me(state).discard == ["Silver", "Copper", "Curse"]
    state = buy(state, "Artist")  # Debt costs don't cost exactly $0
    assert state.supply["Copper"] == 46 - 2 and me(state).debt == 8


# --- Divine Wind ----------------------------------------------------------------------


def test_divine_wind_replaces_every_kingdom_pile_when_the_last_sun_goes():
    state = with_prophecy("Divine Wind", "Litter", active=False)
    state.sun = 1
    old = list(state.kingdom)
    state.supply["Litter"] = 0
    state = start(state, hand=["Poet"], deck=["Estate", "Estate"])
    state = play(state, "Poet")
    assert state.sun == 0 and len(state.kingdom) == 10
    assert not set(old) & set(state.kingdom)
    assert all(state.supply[name] == 10 for name in state.kingdom)
    assert set(old) <= set(state.removed_piles) and "Litter" not in state.supply
    assert sorted(game.view(state, 0).removed_piles) == sorted(old)


def test_divine_wind_does_any_setup_the_new_piles_need():
    for seed in range(30):
        state = with_prophecy("Divine Wind", active=False, seed=seed)
        state.sun = 1
        state = start(state, hand=["Poet"], deck=["Estate", "Estate"])
        state = play(state, "Poet")
        if "Riverboat" in state.kingdom:
            assert state.riverboat_card not in state.supply
            assert CARDS[state.riverboat_card].cost.coins == 5
            return
    raise AssertionError("no deal included Riverboat")


# --- Enlightenment --------------------------------------------------------------------


def test_enlightenment_makes_treasures_actions_that_draw_in_the_action_phase():
    state = with_prophecy("Enlightenment")
    state = start(state, hand=["Gold", "Copper"], deck=["Silver"])
    assert prompt(state).kind == "action_phase"
    state = play(state, "Gold")
    assert state.turn.coins == 0 and state.turn.actions == 1
    assert sorted(me(state).hand) == ["Copper", "Silver"]


def test_enlightened_treasures_still_make_coins_in_the_buy_phase():
    state = with_prophecy("Enlightenment")
    state = start(state, hand=["Gold", "Copper"], phase="buy")
    state = act(state, kind="play_treasures")
    assert state.turn.coins == 4


def test_rice_broker_trashing_a_copper_under_enlightenment_draws_7():
    state = with_prophecy("Enlightenment", "Rice Broker")
    state = start(state, hand=["Rice Broker", "Copper", "Estate"], deck=["Silver"] * 8)
    state = play(state, "Rice Broker")
    state = choose(state, "Copper")
    assert len(me(state).hand) == 8


# --- Flourishing Trade ----------------------------------------------------------------


def test_flourishing_trade_makes_cards_cost_1_less():
    state = with_prophecy("Flourishing Trade")
    state = start(state, hand=["Gold", "Gold", "Copper"], phase="buy", actions=0)
    state = act(state, kind="play_treasures")
    state = buy(state, "Province")
    assert state.supply["Province"] == 7


def test_flourishing_trade_lets_unused_action_plays_be_buys():
    """ "If you play no Actions at all, you have one Action play you didn't use, and so can
    use that as an extra Buy.\""""
    state = with_prophecy("Flourishing Trade")
    state = start(state, hand=["Silver", "Silver"], phase="buy")
    state = act(state, kind="play_treasures")
    state = buy(state, "Silver")  # $2 each now
    state = buy(state, "Silver")
    assert state.supply["Silver"] == 38 and state.turn.seat == 1


def pile(state, name: str):
    return next(p for p in game.view(state, 0).supply if p.card == name)


def test_the_supply_shows_costs_and_types_as_the_active_prophecy_makes_them():
    """Flourishing Trade's lower costs and Enlightenment's Action Treasures show on the
    piles once the Prophecy is active, and not before."""
    for active in (False, True):
        trade = with_prophecy("Flourishing Trade", active=active)
        assert (pile(trade, "Province").coins, pile(trade, "Copper").coins) == (
            (7, 0) if active else (8, 0)
        )
        assert pile(trade, "Gold").types == ("Treasure",)
        light = with_prophecy("Enlightenment", active=active)
        assert pile(light, "Gold").types == (("Action", "Treasure") if active else ("Treasure",))
        assert pile(light, "Province").coins == 8 and pile(light, "Estate").types == ("Victory",)


# --- Good Harvest ---------------------------------------------------------------------


def test_good_harvest_four_coppers_and_a_silver_make_2_buys_and_2_coins():
    state = with_prophecy("Good Harvest")
    state = start(state, hand=["Copper"] * 4 + ["Silver"], phase="buy")
    state = act(state, kind="play_treasures")
    assert state.turn.coins == 6 + 2 and state.turn.buys == 3


def test_good_harvest_is_not_retroactive():
    state = with_prophecy("Good Harvest", "Tea House", active=False)
    state.sun = 1
    state = start(state, hand=["Copper", "Copper", "Tea House"], deck=["Estate"])
    state = act(state, kind="end_phase")
    state = act(state, kind="play_treasure", card="Copper")
    state.sun = 0  # the last Sun goes (as if by an Omen) after a Copper was played
    state = act(state, kind="play_treasure", card="Copper")
    assert state.turn.coins == 2 and state.turn.buys == 1


# --- Great Leader ---------------------------------------------------------------------


def test_great_leader_gives_an_action_after_each_action_card():
    state = with_prophecy("Great Leader", "Ronin")
    state = start(state, hand=["Ronin"], deck=["Copper"] * 7)
    state = play(state, "Ronin")
    assert state.turn.actions == 1


# --- Growth ---------------------------------------------------------------------------


def test_growth_chains_rice_gold_silver_estate():
    state = with_prophecy("Growth", "Rice")
    state = start(state, hand=["Gold", "Gold", "Copper"], phase="buy")
    state = act(state, kind="play_treasures")
    state = buy(state, "Rice")
    assert prompt(state).text.startswith("Growth") and "Gold" in prompt(state).options
    assert "Rice" not in prompt(state).options
    state = choose(state, "Gold")
    state = choose(state, "Silver")
    assert "Estate" in prompt(state).options and "Silver" not in prompt(state).options
    state = choose(state, "Estate")
    gained = me(state).discard + me(state).hand + me(state).deck
    assert {"Rice", "Gold", "Silver", "Estate"} <= set(gained)
    assert state.supply["Estate"] == 7


def test_growth_is_not_optional_and_a_copper_has_nothing_cheaper():
    state = with_prophecy("Growth")
    state = start(state, hand=["Gold"], phase="buy", buys=2)
    state = act(state, kind="play_treasures")
    state = buy(state, "Copper")
    assert prompt(state).kind == "buy_phase"
    state = buy(state, "Silver")
    assert prompt(state).min_picks == 1


# --- Harsh Winter ---------------------------------------------------------------------


def test_harsh_winter_puts_2_debt_on_a_pile_then_the_next_gain_takes_it():
    state = with_prophecy("Harsh Winter")
    state = start(state, hand=["Gold", "Gold"], phase="buy", buys=2)
    state = act(state, kind="play_treasures")
    state = buy(state, "Silver")
    assert state.pile_debt == {"Silver": 2} and me(state).debt == 0
    assert next(p.debt_on_pile for p in game.view(state, 1).supply if p.card == "Silver") == 2
    state = buy(state, "Silver")
    assert state.pile_debt == {} and me(state).debt == 2


def test_harsh_winter_does_nothing_for_gains_on_other_players_turns():
    state = with_prophecy("Harsh Winter", "Kitsune")
    state = start(state, hand=["Kitsune"])
    state = play(state, "Kitsune")
    state = choose(state, "+$2", "Each other player gains a Curse")
    assert me(state, 1).discard == ["Curse"] and state.pile_debt == {}


# --- Kind Emperor ---------------------------------------------------------------------


def test_kind_emperor_gains_an_action_to_hand_at_the_start_of_each_turn():
    state = with_prophecy("Kind Emperor", "Artist")
    state = start(state, hand=[], phase="buy")
    state = act(state, kind="end_turn")
    assert prompt(state).seat == 1 and prompt(state).text.startswith("Kind Emperor")
    assert "Artist" in prompt(state).options  # regardless of cost
    assert "Silver" not in prompt(state).options
    state = choose(state, "Artist")
    assert "Artist" in me(state, 1).hand


# --- Panic ----------------------------------------------------------------------------


def test_panic_treasures_give_2_buys_and_return_to_their_pile_from_play():
    state = with_prophecy("Panic")
    state = start(state, hand=["Silver", "Copper"], phase="buy")
    state = act(state, kind="play_treasures")
    assert state.turn.buys == 5
    state = act(state, kind="end_turn")
    assert state.supply["Silver"] == 41 and state.supply["Copper"] == 47
    assert "Silver" not in me(state).discard


# --- Progress -------------------------------------------------------------------------


def test_progress_puts_every_gained_card_onto_the_deck_even_on_other_turns():
    state = with_prophecy("Progress", "Kitsune")
    state = start(state, hand=["Kitsune", "Copper"])
    state = play(state, "Kitsune")
    state = choose(state, "Each other player gains a Curse", "Gain a Silver")
    assert deck_top_first(state)[0] == "Silver"
    assert deck_top_first(state, 1)[0] == "Curse"


# --- Rapid Expansion ------------------------------------------------------------------


def test_rapid_expansion_sets_gained_actions_and_treasures_aside_to_play_next_turn():
    state = with_prophecy("Rapid Expansion", "Litter")
    state = start(state, hand=["Gold"] * 4, phase="buy", buys=3)
    state = act(state, kind="play_treasures")
    state = buy(state, "Litter")
    state = buy(state, "Silver")
    state = buy(state, "Estate")
    assert me(state).rapid == ["Litter", "Silver"] and "Estate" in me(state).discard
    state = act(state, 1, kind="end_turn")
    assert prompt(state).kind == "start_of_turn"
    assert prompt(state).options == ["Rapid Expansion: Litter", "Rapid Expansion: Silver"]
    state = choose(state, "Rapid Expansion: Silver")
    assert state.turn.coins == 2
    assert sorted(me(state).in_play) == ["Litter", "Silver"] and me(state).debt == 1
    assert me(state).rapid == []


def test_start_of_turn_effects_can_be_ordered_against_each_other():
    state = with_prophecy("Rapid Expansion", "Samurai")
    state = start(state, hand=[], phase="buy")
    me(state).rapid = ["Silver"]
    me(state).samurai = 1
    me(state).durations = [["Samurai", "game"]]
    state = act(state, kind="end_turn")
    state = act(state, 1, kind="end_turn")
    assert prompt(state).options == ["Rapid Expansion: Silver", "Samurai"]
    state = choose(state, "Samurai")
    assert state.turn.coins == 3


# --- Sickness -------------------------------------------------------------------------


def test_sickness_can_gain_a_curse_onto_the_deck():
    state = with_prophecy("Sickness")
    state = start(state, hand=[], phase="buy")
    state = act(state, kind="end_turn")
    assert prompt(state).seat == 1 and prompt(state).kind == "choose_options"
    state = choose(state, "Gain a Curse onto your deck")
    assert deck_top_first(state, 1)[0] == "Curse"


def test_sickness_can_discard_3_cards():
    state = with_prophecy("Sickness")
    state = start(state, hand=[], phase="buy")
    state = act(state, kind="end_turn")
    me(state, 1).hand = ["Copper", "Copper", "Estate", "Estate", "Silver"]
    state = choose(state, "Discard 3 cards")
    state = choose(state, "Estate", "Estate", "Copper")
    assert sorted(me(state, 1).hand) == ["Copper", "Silver"]


def test_sickness_curse_can_be_chosen_with_the_pile_empty_and_discards_what_there_is():
    state = with_prophecy("Sickness")
    state.supply["Curse"] = 0
    state = start(state, hand=[], phase="buy")
    state = act(state, kind="end_turn")
    state = choose(state, "Gain a Curse onto your deck")
    assert "Curse" not in me(state, 1).deck
    state = start(state, 1, hand=[], phase="buy")
    state = act(state, 1, kind="end_turn")
    me(state).hand = ["Estate", "Copper"]
    state = choose(state, "Discard 3 cards")
    assert me(state).hand == [] and prompts(state)[0].seat == 0
