"""The Intrigue cards of "Solving the Puzzle" and "Cold Calculation" (and Upgrade), one
test per text and per implementer note in the supplement. Diplomat: see
test_dominion_reactions.py."""

import pytest
from dominion_kit import (
    act,
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
from services.games.dominion.cards import Cost
from services.games.dominion.intrigue_cards import exactly_one_more
from services.games.dominion.scoring import vp_breakdown

# --- Baron ----------------------------------------------------------------------------


def test_baron_may_discard_an_estate_for_4():
    state = start(new_game("Baron"), hand=["Baron", "Estate", "Copper"])
    state = play(state, "Baron")
    assert state.turn.buys == 2 and prompt(state).options == ["Yes", "No"]
    state = choose(state, "Yes")
    assert state.turn.coins == 4 and me(state).discard == ["Estate"]
    assert state.supply["Estate"] == 8


def test_baron_not_discarding_gains_an_estate():
    state = start(new_game("Baron"), hand=["Baron", "Estate"])
    state = choose(play(state, "Baron"), "No")
    assert state.turn.coins == 0 and me(state).discard == ["Estate"] and state.supply["Estate"] == 7


def test_baron_with_no_estate_in_hand_gains_one():
    state = start(new_game("Baron"), hand=["Baron", "Copper"])
    state = play(state, "Baron")
    assert me(state).discard == ["Estate"] and state.turn.buys == 2


def test_baron_with_the_estate_pile_empty_gains_nothing():
    state = start(new_game("Baron"), hand=["Baron", "Copper"])
    state.supply["Estate"] = 0
    state = play(state, "Baron")
    assert me(state).discard == []


# --- Conspirator ----------------------------------------------------------------------


def test_conspirator_as_the_third_action_gives_a_card_and_an_action():
    state = start(
        new_game("Conspirator", "Village"),
        hand=["Village", "Village", "Conspirator"],
        deck=["Gold", "Silver"],
    )
    state = play(play(state, "Village"), "Village")
    actions = state.turn.actions
    state = play(state, "Conspirator")
    assert state.turn.coins == 2 and state.turn.actions == actions
    assert "Gold" in me(state).hand


def test_conspirator_as_the_second_action_gives_only_2():
    state = start(
        new_game("Conspirator", "Village"), hand=["Village", "Conspirator"], deck=["Gold", "Silver"]
    )
    state = play(play(state, "Village"), "Conspirator")
    assert state.turn.coins == 2 and me(state).hand == ["Gold"] and state.turn.actions == 1


def test_conspirator_counts_throne_room_and_each_play_it_gives():
    """Throne Room (1), Conspirator (2): no bonus; its replay (3): +1 Card +1 Action."""
    state = start(
        new_game("Conspirator", "Throne Room"),
        hand=["Throne Room", "Conspirator"],
        deck=["Gold", "Silver"],
    )
    state = choose(play(state, "Throne Room"), "Conspirator")
    assert state.turn.coins == 4 and me(state).hand == ["Gold"] and state.turn.actions == 1


# --- Courtier -------------------------------------------------------------------------


def test_courtier_gives_one_choice_per_type_of_the_revealed_card():
    state = start(new_game("Courtier", "Witch"), hand=["Courtier", "Witch", "Copper"])
    state = choose(play(state, "Courtier"), "Witch")  # Action–Attack: 2 choices
    assert prompt(state).min_picks == prompt(state).max_picks == 2
    state = choose(state, "+$3", "Gain a Gold")
    assert state.turn.coins == 3 and me(state).discard == ["Gold"]
    assert sorted(me(state).hand) == ["Copper", "Witch"]


def test_courtier_choices_must_be_different():
    state = start(new_game("Courtier", "Witch"), hand=["Courtier", "Witch"])
    state = play(state, "Courtier")  # the only card in hand is revealed without asking
    with pytest.raises(IllegalMove):
        game.apply(state, 0, {"kind": "choose", "picks": ["+$3", "+$3"]})


def test_courtier_revealing_a_one_type_card_gives_one_choice():
    state = start(new_game("Courtier"), hand=["Courtier", "Copper"])
    state = play(state, "Courtier")  # the only card is revealed without asking
    assert prompt(state).max_picks == 1
    state = choose(state, "+1 Buy")
    assert state.turn.buys == 2


def test_courtier_with_no_card_in_hand_gives_no_bonus():
    state = start(new_game("Courtier"), hand=["Courtier"])
    state = play(state, "Courtier")
    assert state.turn.coins == 0 and state.turn.buys == 1 and prompt(state).kind == "buy_phase"


# --- Duke -----------------------------------------------------------------------------


def test_duke_is_worth_one_vp_per_duchy():
    state = new_game("Duke")
    p = me(state)
    p.deck, p.hand, p.discard = ["Duke", "Duke", "Duchy", "Duchy", "Duchy", "Estate"], [], []
    breakdown = vp_breakdown(state, 0)
    assert breakdown["Duke"] == 6 and breakdown["Duchy"] == 9 and breakdown["Estate"] == 1


def test_duke_pile_follows_the_victory_pile_size():
    assert new_game("Duke").supply["Duke"] == 8
    assert new_game("Duke", players=4).supply["Duke"] == 12


# --- Ironworks ------------------------------------------------------------------------


def test_ironworks_gaining_an_action_gives_an_action():
    state = start(new_game("Ironworks", "Village"), hand=["Ironworks"])
    state = choose(play(state, "Ironworks"), "Village")
    assert me(state).discard == ["Village"] and state.turn.actions == 1


def test_ironworks_gaining_a_treasure_gives_a_coin():
    state = start(new_game("Ironworks"), hand=["Ironworks"])
    state = choose(play(state, "Ironworks"), "Silver")
    assert state.turn.coins == 1


def test_ironworks_gaining_a_victory_card_draws_a_card():
    state = start(new_game("Ironworks"), hand=["Ironworks"], deck=["Gold"])
    state = choose(play(state, "Ironworks"), "Estate")
    assert me(state).hand == ["Gold"] and me(state).discard == ["Estate"]


def test_ironworks_gaining_a_curse_gives_nothing():
    state = start(new_game("Ironworks"), hand=["Ironworks"], deck=["Gold"])
    state = choose(play(state, "Ironworks"), "Curse")
    assert me(state).hand == [] and state.turn.coins == 0 and state.turn.actions == 0


def test_ironworks_gives_every_matching_bonus_of_a_card_with_two_types():
    """Under Enlightenment Treasures are also Actions: a Silver gives +1 Action and +$1."""
    state = start(with_prophecy("Enlightenment", "Ironworks"), hand=["Ironworks"])
    state = choose(play(state, "Ironworks"), "Silver")
    assert state.turn.actions == 1 and state.turn.coins == 1


def test_ironworks_cannot_gain_a_card_costing_debt():
    state = start(new_game("Ironworks", "Artist", "Mountain Shrine"), hand=["Ironworks"])
    state = play(state, "Ironworks")
    assert "Artist" not in prompt(state).options and "Mountain Shrine" not in prompt(state).options


# --- Lurker ---------------------------------------------------------------------------


def test_lurker_trashes_the_top_card_of_an_action_supply_pile():
    state = start(new_game("Lurker", "Smithy"), hand=["Lurker"])
    state = play(state, "Lurker")
    assert state.turn.actions == 1
    state = choose(state, "Trash an Action card from the Supply")
    assert "Smithy" in prompt(state).options and "Gold" not in prompt(state).options
    state = choose(state, "Smithy")
    assert state.supply["Smithy"] == 9 and state.trash == ["Smithy"]


def test_lurker_gains_an_action_card_from_the_trash():
    state = start(new_game("Lurker", "Smithy"), hand=["Lurker"])
    state.trash = ["Copper", "Smithy", "Estate"]
    state = choose(play(state, "Lurker"), "Gain an Action card from the trash")
    state = choose(state, "Smithy") if state.stack else state
    assert me(state).discard == ["Smithy"] and state.trash == ["Copper", "Estate"]


def test_lurker_may_choose_an_option_with_nothing_to_gain():
    state = start(new_game("Lurker"), hand=["Lurker"])
    state.trash = ["Copper"]
    state = choose(play(state, "Lurker"), "Gain an Action card from the trash")
    assert me(state).discard == [] and state.trash == ["Copper"]


def test_cards_lurker_trashes_count_for_mountain_shrine():
    state = start(
        new_game("Lurker", "Smithy", "Mountain Shrine"),
        hand=["Lurker", "Mountain Shrine"],
        deck=["Gold", "Gold"],
    )
    state = choose(play(state, "Lurker"), "Trash an Action card from the Supply")
    state = choose(state, "Smithy")
    state = play(state, "Mountain Shrine")
    state = choose(state) if state.stack else state
    assert me(state).hand.count("Gold") == 2


# --- Secret Passage -------------------------------------------------------------------


def test_secret_passage_puts_a_card_at_any_depth_of_the_deck():
    state = start(
        new_game("Secret Passage"),
        hand=["Secret Passage", "Estate"],
        deck=["Copper", "Silver", "Gold", "Curse", "Duchy"],
    )
    state = play(state, "Secret Passage")
    assert sorted(me(state).hand) == ["Copper", "Estate", "Silver"] and state.turn.actions == 1
    state = choose(state, "Silver")  # a card just drawn may go back
    assert prompt(state).options == ["0", "1", "2", "3"]
    state = choose(state, "2")
    assert deck_top_first(state) == ["Gold", "Curse", "Silver", "Duchy"]


def test_secret_passage_can_put_the_card_on_top_or_at_the_bottom():
    state = start(
        new_game("Secret Passage"),
        hand=["Secret Passage", "Estate"],
        deck=["Copper", "Silver", "Gold"],
    )
    state = choose(choose(play(state, "Secret Passage"), "Estate"), "0")
    assert deck_top_first(state) == ["Estate", "Gold"]
    state = start(
        new_game("Secret Passage"),
        hand=["Secret Passage", "Estate"],
        deck=["Copper", "Silver", "Gold"],
    )
    state = choose(choose(play(state, "Secret Passage"), "Estate"), "1")
    assert deck_top_first(state) == ["Gold", "Estate"]


def test_secret_passage_with_an_empty_deck_makes_the_card_the_only_one_there():
    state = start(
        new_game("Secret Passage"),
        hand=["Secret Passage", "Estate"],
        deck=["Copper", "Silver"],
        discard=[],
    )
    state = choose(play(state, "Secret Passage"), "Estate")
    assert deck_top_first(state) == ["Estate"]


def test_secret_passage_position_is_public_but_the_card_is_not():
    state = start(
        new_game("Secret Passage"),
        hand=["Secret Passage", "Estate"],
        deck=["Copper", "Silver", "Gold"],
    )
    state = choose(play(state, "Secret Passage"), "Estate")
    events = game.apply(state, 0, {"kind": "choose", "picks": ["1"]}).events
    put = [e for e in events if e.kind == "cards_put_on_deck"][0]
    assert put.visible_to(1)["position"] == 1 and "cards" not in put.visible_to(1)
    assert put.visible_to(0)["cards"] == ["Estate"]


# --- Shanty Town ----------------------------------------------------------------------


def test_shanty_town_draws_two_with_no_action_in_hand():
    state = start(new_game("Shanty Town"), hand=["Shanty Town", "Copper"], deck=["Gold", "Silver"])
    state = play(state, "Shanty Town")
    assert state.turn.actions == 2 and sorted(me(state).hand) == ["Copper", "Gold", "Silver"]


def test_shanty_town_with_an_action_in_hand_gives_only_actions():
    state = start(
        new_game("Shanty Town", "Smithy"), hand=["Shanty Town", "Smithy"], deck=["Gold", "Silver"]
    )
    state = play(state, "Shanty Town")
    assert state.turn.actions == 2 and me(state).hand == ["Smithy"]


def test_shanty_town_counts_cards_with_action_among_their_types():
    state = start(
        new_game("Shanty Town", "Witch"), hand=["Shanty Town", "Witch"], deck=["Gold", "Silver"]
    )
    state = play(state, "Shanty Town")
    assert me(state).hand == ["Witch"]


# --- Upgrade --------------------------------------------------------------------------


def test_upgrade_draws_then_trashes_and_gains_a_card_costing_exactly_1_more():
    state = start(
        new_game("Upgrade", "Village", "Smithy"), hand=["Upgrade", "Estate"], deck=["Copper"]
    )
    state = play(state, "Upgrade")
    assert sorted(prompt(state).options) == ["Copper", "Estate"]
    state = choose(state, "Estate")
    assert {"Silver", "Village"} <= set(prompt(state).options)
    assert all(game.catalog() and c not in prompt(state).options for c in ("Estate", "Smithy"))
    state = choose(state, "Village")
    assert me(state).discard == ["Village"] and state.trash == ["Estate"]


def test_upgrade_skips_the_gain_when_nothing_costs_exactly_1_more():
    state = start(new_game("Upgrade"), hand=["Upgrade", "Gold"], deck=["Gold"])
    state = play(state, "Upgrade")  # the only card in hand is trashed without asking
    assert state.trash == ["Gold"] and me(state).discard == [] and prompt(state).kind != "gain"


def test_upgrade_needs_the_same_debt_to_find_a_card_1_more():
    """A Debt cost is neither more nor less than a $ cost: trashing a $0 card finds no
    Debt card, and "$1 more" than Artist (8 Debt) would need $1 and 8 Debt."""
    assert exactly_one_more(Cost(coins=1, debt=8), Cost(coins=0, debt=8))
    assert not exactly_one_more(Cost(coins=1), Cost(coins=0, debt=8))
    assert not exactly_one_more(Cost(coins=1, debt=8), Cost(coins=0))
    state = start(
        new_game("Upgrade", "Artist", "Daimyo"), hand=["Upgrade", "Copper"], deck=["Copper"]
    )
    state = play(state, "Upgrade")
    assert state.trash == ["Copper"] and me(state).discard == [] and not state.stack


def test_upgrade_trash_is_mandatory():
    state = start(new_game("Upgrade"), hand=["Upgrade", "Estate", "Copper"], deck=["Copper"])
    state = play(state, "Upgrade")
    assert prompt(state).min_picks == 1


# --- Wishing Well ---------------------------------------------------------------------


def test_wishing_well_draws_first_then_a_right_guess_goes_to_hand():
    state = start(new_game("Wishing Well"), hand=["Wishing Well"], deck=["Copper", "Gold"])
    state = play(state, "Wishing Well")
    assert me(state).hand == ["Copper"] and prompt(state).kind == "name_card"
    assert "Gold" in prompt(state).options and "Province" in prompt(state).options
    state = choose(state, "Gold")
    assert sorted(me(state).hand) == ["Copper", "Gold"]


def test_wishing_well_wrong_guess_stays_on_top():
    state = start(new_game("Wishing Well"), hand=["Wishing Well"], deck=["Copper", "Gold"])
    state = choose(play(state, "Wishing Well"), "Silver")
    assert me(state).hand == ["Copper"] and deck_top_first(state) == ["Gold"]


def test_wishing_well_cannot_name_a_card_not_in_the_game():
    state = start(new_game("Wishing Well"), hand=["Wishing Well"], deck=["Copper", "Gold"])
    state = play(state, "Wishing Well")
    with pytest.raises(IllegalMove):
        act(state, kind="choose", picks=["Platinum"])
