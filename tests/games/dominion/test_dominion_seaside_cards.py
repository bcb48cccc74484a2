"""The Seaside cards of "Invasion Fleet" (and Bazaar): Durations with set-aside cards,
an attack lasting until your next turn, an extra turn; one test per text and note."""

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

from services.games.dominion import game
from services.games.dominion.scoring import final_result


def end_turn(state, seat=0):
    """End the Action phase if open, then the turn."""
    if state.turn.phase == "action":
        state = act(state, seat, kind="end_phase")
    if state.turn.phase == "buy" and state.turn.seat == seat and not state.stack:
        state = act(state, seat, kind="end_turn")
    return state


def pass_turn(state, seat):
    """Let `seat` do nothing this turn."""
    assert state.turn.seat == seat, (state.turn.seat, seat)
    return end_turn(state, seat)


# --- Bazaar ---------------------------------------------------------------------------


def test_bazaar_gives_a_card_two_actions_and_a_coin():
    state = start(new_game("Bazaar"), hand=["Bazaar"], deck=["Gold"])
    state = play(state, "Bazaar")
    assert me(state).hand == ["Gold"] and (state.turn.actions, state.turn.coins) == (2, 1)


# --- Blockade -------------------------------------------------------------------------


def blockaded_silver(players=2):
    state = start(new_game("Blockade", players=players), hand=["Blockade"], deck=["Copper"] * 10)
    state = choose(play(state, "Blockade"), "Silver")
    return state


def test_blockade_sets_the_gained_card_aside_and_puts_it_in_hand_next_turn():
    state = blockaded_silver()
    assert me(state).blockades == ["Silver"] and "Silver" not in me(state).discard
    state = end_turn(state)
    assert [c for c, _ in me(state).durations] == ["Blockade"]
    state = pass_turn(state, 1)
    assert "Silver" in me(state).hand and me(state).blockades == []
    assert state.turn.seat == 0


def test_blockade_gives_a_curse_to_another_player_gaining_a_copy_on_their_turn():
    state = end_turn(blockaded_silver())
    state.turn.coins = 3
    state = act(state, 1, kind="buy_card", card="Silver") if state.turn.phase == "buy" else state
    owned = me(state, 1).discard + me(state, 1).hand + me(state, 1).deck
    assert owned.count("Curse") == 1 and owned.count("Silver") == 1


def test_two_copies_set_aside_give_two_curses_for_one_gain():
    """Each Blockade play's set-aside card is its own attack: a Throne-Roomed Blockade
    holding two Silvers curses a Silver's gainer twice."""
    state = start(
        new_game("Blockade", "Throne Room"), hand=["Throne Room", "Blockade"], deck=["Copper"] * 10
    )
    state = choose(choose(choose(play(state, "Throne Room"), "Blockade"), "Silver"), "Silver")
    assert me(state).blockades == ["Silver", "Silver"]
    state = end_turn(state)
    state.turn.coins = 3
    state = act(state, 1, kind="buy_card", card="Silver") if state.turn.phase == "buy" else state
    owned = me(state, 1).discard + me(state, 1).hand + me(state, 1).deck
    assert owned.count("Curse") == 2 and owned.count("Silver") == 1


def test_two_players_blockades_of_one_card_each_curse_its_gainer():
    state = new_game("Blockade", players=3)
    for owner in (0, 2):
        me(state, owner).blockades = ["Gold"]
        me(state, owner).blockade_victims = [0b111 & ~(1 << owner)]
    state = start(state, 1, hand=[], deck=["Copper"] * 10, phase="buy", coins=6, buys=1)
    state = act(state, 1, kind="buy_card", card="Gold")
    owned = me(state, 1).discard + me(state, 1).hand + me(state, 1).deck
    assert owned.count("Curse") == 2


def test_blockade_gives_no_curse_for_a_gain_on_another_players_turn():
    state = start(new_game("Blockade", "Witch"), hand=["Blockade", "Witch"], deck=["Copper"] * 10)
    state.turn.actions = 2
    state = choose(play(state, "Blockade"), "Curse")  # Blockade a Curse...
    state = play(state, "Witch")  # ...then give one on my own turn
    assert me(state, 1).discard == ["Curse"]


def test_blockade_cannot_gain_a_card_costing_debt_or_more_than_4():
    state = start(new_game("Blockade", "Artist"), hand=["Blockade"])
    state = play(state, "Blockade")
    assert "Artist" not in prompt(state).options and "Duchy" not in prompt(state).options


def test_a_moat_revealed_against_blockade_protects_until_it_ends():
    state = start(new_game("Blockade", "Moat"), hand=["Blockade"], deck=["Copper"] * 10)
    me(state, 1).hand = ["Moat", "Copper", "Copper", "Copper", "Copper"]
    state = choose(play(state, "Blockade"), "Moat", seat=1)
    state = choose(state, "Silver")
    state = end_turn(state)
    state.turn.coins = 3
    if state.turn.phase != "buy":
        state = act(state, 1, kind="end_phase")
    state = act(state, 1, kind="buy_card", card="Silver")
    assert "Curse" not in me(state, 1).discard


def test_blockade_with_nothing_set_aside_is_discarded_this_turn():
    """Under Progress the gain goes onto the deck, so Blockade has nothing set aside."""
    state = start(with_prophecy("Progress", "Blockade"), hand=["Blockade"], deck=["Copper"] * 10)
    state = choose(play(state, "Blockade"), "Silver")
    assert me(state).blockades == [] and deck_top_first(state)[0] == "Silver"
    state = end_turn(state)
    assert me(state).durations == [] and "Blockade" in me(state).discard


def test_the_blockaded_card_is_public_in_every_view():
    state = blockaded_silver()
    assert game.view(state, 1).players[0].blockade == ["Silver"]
    assert game.view(state, None).players[0].blockade == ["Silver"]


def test_the_blockaded_card_going_to_hand_is_logged_for_everyone():
    state = end_turn(blockaded_silver())
    if state.turn.phase == "action":
        state = act(state, 1, kind="end_phase")
    events = game.apply(state, 1, {"kind": "end_turn"}).events
    [to_hand] = [event for event in events if event.kind == "cards_to_hand"]
    for viewer in (0, 1, None):
        assert to_hand.visible_to(viewer)["cards"] == ["Silver"], viewer


# --- Corsair --------------------------------------------------------------------------


def corsair_played(players=2):
    state = start(new_game("Corsair", players=players), hand=["Corsair"], deck=["Copper"] * 12)
    return play(state, "Corsair")


def test_corsair_gives_2_now_and_a_card_at_the_start_of_the_next_turn():
    state = corsair_played()
    assert state.turn.coins == 2
    state = end_turn(state)
    assert [c for c, _ in me(state).durations] == ["Corsair"]
    me(state, 1).hand = ["Copper"]
    state = pass_turn(state, 1)
    assert len(me(state).hand) == 6 and me(state).corsairs == []


def test_corsair_makes_others_trash_the_first_silver_or_gold_they_play_still_getting_its_coins():
    state = end_turn(corsair_played())
    me(state, 1).hand = ["Gold", "Silver", "Silver"]
    state.turn.phase = "buy"
    state = act(state, 1, kind="play_treasure", card="Silver")
    assert state.trash == ["Silver"] and state.turn.coins == 2
    state = act(state, 1, kind="play_treasure", card="Gold")
    state = act(state, 1, kind="play_treasure", card="Silver")
    assert state.trash == ["Silver"] and state.turn.coins == 7
    assert sorted(me(state, 1).in_play) == ["Gold", "Silver"]


def test_several_corsairs_still_cost_a_player_only_one_card_a_turn():
    state = start(
        new_game("Corsair", "Village", players=3),
        hand=["Village", "Corsair"],
        deck=["Corsair"] + ["Copper"] * 10,
    )
    state = play(play(state, "Village"), "Corsair")
    state = play(state, "Corsair")
    state = end_turn(state)
    me(state, 1).hand = ["Silver", "Silver"]
    state.turn.phase = "buy"
    state = act(state, 1, kind="play_treasures")
    assert state.trash == ["Silver"]


def test_corsair_attack_ends_at_the_start_of_its_owners_next_turn():
    state = end_turn(corsair_played())
    state = pass_turn(state, 1)
    assert me(state).corsairs == []
    state = end_turn(state)
    me(state, 1).hand = ["Silver"]
    state.turn.phase = "buy"
    state = act(state, 1, kind="play_treasure", card="Silver")
    assert state.trash == []


def test_corsair_does_not_attack_its_owner():
    state = start(new_game("Corsair"), hand=["Corsair", "Silver"], deck=["Copper"] * 10)
    state = play(state, "Corsair")
    state = act(state, kind="play_treasure", card="Silver")
    assert state.trash == [] and state.turn.coins == 4


def test_a_moat_revealed_against_corsair_protects_until_it_ends():
    state = start(new_game("Corsair", "Moat"), hand=["Corsair"], deck=["Copper"] * 10)
    me(state, 1).hand = ["Moat", "Copper", "Copper", "Copper", "Copper"]
    state = choose(play(state, "Corsair"), "Moat", seat=1)
    state = end_turn(state)
    me(state, 1).hand = ["Silver"]
    state.turn.phase = "buy"
    state = act(state, 1, kind="play_treasure", card="Silver")
    assert state.trash == []


# --- Outpost --------------------------------------------------------------------------


def test_outpost_gives_an_extra_turn_with_a_3_card_hand():
    state = start(new_game("Outpost"), hand=["Outpost"], deck=["Copper"] * 10)
    state = end_turn(play(state, "Outpost"))
    assert state.turn.seat == 0 and state.turn.extra
    assert len(me(state).hand) == 3 and me(state).extra_turns == 1
    assert [c for c, _ in me(state).durations] == ["Outpost"]
    assert game.view(state, 1).turn.extra


def test_outpost_stays_in_play_until_the_extra_turns_clean_up():
    state = start(new_game("Outpost"), hand=["Outpost"], deck=["Copper"] * 10)
    state = end_turn(play(state, "Outpost"))
    state = end_turn(state)
    assert state.turn.seat == 1 and me(state).durations == [] and "Outpost" in me(state).discard


def test_outpost_played_on_the_extra_turn_gives_no_third_turn_but_still_a_3_card_hand():
    state = start(new_game("Outpost"), hand=["Outpost"], deck=["Copper"] * 20)
    state = end_turn(play(state, "Outpost"))
    me(state).hand = ["Outpost", "Copper", "Copper"]
    state.turn.phase = "action"
    state = end_turn(play(state, "Outpost"))
    assert state.turn.seat == 1 and len(me(state).hand) == 3
    assert "Outpost" in me(state).discard and me(state).durations == []


def test_two_outposts_in_one_turn_give_one_extra_turn():
    state = start(
        new_game("Outpost", "Village"), hand=["Village", "Outpost", "Outpost"], deck=["Copper"] * 20
    )
    state = play(play(play(state, "Village"), "Outpost"), "Outpost")
    state = end_turn(state)
    assert state.turn.seat == 0 and state.turn.extra and me(state).extra_turns == 1
    state = end_turn(state)
    assert state.turn.seat == 1


def test_extra_turns_do_not_count_for_the_fewer_turns_tiebreaker():
    state = new_game("Outpost")
    me(state, 0).turns, me(state, 0).extra_turns = 11, 1
    me(state, 1).turns = 10
    for p in state.player_states:
        p.deck, p.hand, p.discard = ["Estate"] * 3, [], []
    state.over, state.end_reason = True, "test"
    assert sorted(final_result(state).winners) == [0, 1]


# --- Salvager -------------------------------------------------------------------------


@pytest.mark.parametrize("card,coins", [("Gold", 6), ("Copper", 0), ("Curse", 0), ("Province", 8)])
def test_salvager_trashes_a_card_for_its_coin_cost_and_a_buy(card, coins):
    state = start(new_game("Salvager"), hand=["Salvager", card, "Estate"])
    state = choose(play(state, "Salvager"), card)
    assert state.trash == [card] and state.turn.coins == coins and state.turn.buys == 2


def test_salvager_trashing_a_debt_card_gives_no_coins():
    state = start(new_game("Salvager", "Artist"), hand=["Salvager", "Artist"])
    state = play(state, "Salvager")
    assert state.trash == ["Artist"] and state.turn.coins == 0


def test_salvager_with_an_empty_hand_still_gives_a_buy():
    state = start(new_game("Salvager"), hand=["Salvager"])
    state = play(state, "Salvager")
    assert state.turn.buys == 2 and state.trash == []


# --- Sea Chart ------------------------------------------------------------------------


def test_sea_chart_puts_the_top_card_in_hand_if_a_copy_is_in_play():
    state = start(
        new_game("Sea Chart", "Village"),
        hand=["Village", "Sea Chart"],
        deck=["Copper", "Copper", "Village"],
    )
    state = play(play(state, "Village"), "Sea Chart")
    assert sorted(me(state).hand) == ["Copper", "Copper", "Village"]


def test_sea_chart_counts_itself_as_a_copy_in_play():
    state = start(new_game("Sea Chart"), hand=["Sea Chart"], deck=["Copper", "Sea Chart"])
    state = play(state, "Sea Chart")
    assert sorted(me(state).hand) == ["Copper", "Sea Chart"]


def test_sea_chart_counts_durations_from_earlier_turns():
    state = start(new_game("Sea Chart", "Corsair"), hand=["Sea Chart"], deck=["Copper", "Corsair"])
    me(state).durations = [["Corsair", "next_turn"]]
    state = play(state, "Sea Chart")
    assert sorted(me(state).hand) == ["Copper", "Corsair"]


def test_sea_chart_leaves_a_card_with_no_copy_in_play_on_top():
    state = start(new_game("Sea Chart"), hand=["Sea Chart"], deck=["Copper", "Gold"])
    state = play(state, "Sea Chart")
    assert me(state).hand == ["Copper"] and deck_top_first(state) == ["Gold"]


# --- Treasure Map ---------------------------------------------------------------------


def test_two_treasure_maps_gain_four_golds_onto_the_deck():
    state = start(new_game("Treasure Map"), hand=["Treasure Map", "Treasure Map"], deck=["Copper"])
    state = play(state, "Treasure Map")
    assert state.trash == ["Treasure Map", "Treasure Map"] and me(state).in_play == []
    assert deck_top_first(state) == ["Gold"] * 4 + ["Copper"]


def test_a_lone_treasure_map_just_trashes_itself():
    state = start(new_game("Treasure Map"), hand=["Treasure Map", "Copper"], deck=["Copper"])
    state = play(state, "Treasure Map")
    assert state.trash == ["Treasure Map"] and state.supply["Gold"] == 30


def test_a_throne_roomed_treasure_map_gives_golds_only_once():
    state = start(
        new_game("Treasure Map", "Throne Room"),
        hand=["Throne Room", "Treasure Map", "Treasure Map", "Treasure Map"],
        deck=["Copper"],
    )
    state = choose(play(state, "Throne Room"), "Treasure Map")
    assert state.trash.count("Treasure Map") == 3 and state.supply["Gold"] == 26


def test_treasure_map_gains_as_many_golds_as_remain():
    state = start(new_game("Treasure Map"), hand=["Treasure Map", "Treasure Map"], deck=[])
    state.supply["Gold"] = 2
    state = play(state, "Treasure Map")
    assert state.supply["Gold"] == 0 and me(state).deck.count("Gold") == 2


# --- Durations with nothing left to do leave in this turn's Clean-up --------------------


def test_a_throne_roomed_outpost_that_gives_no_extra_turn_leaves_with_its_throne_room():
    state = start(new_game("Outpost", "Throne Room"), hand=["Outpost"], deck=["Copper"] * 20)
    state = end_turn(play(state, "Outpost"))  # now on the extra turn
    me(state).hand = ["Throne Room", "Outpost", "Copper"]
    state.turn.phase = "action"
    state = end_turn(choose(play(state, "Throne Room"), "Outpost"))
    assert state.turn.seat == 1 and me(state).durations == []
    assert {"Throne Room", "Outpost"} <= set(me(state).discard)


def test_a_throne_roomed_outpost_gives_one_extra_turn_and_both_stay_for_it():
    state = start(
        new_game("Outpost", "Throne Room"), hand=["Throne Room", "Outpost"], deck=["Copper"] * 20
    )
    state = end_turn(choose(play(state, "Throne Room"), "Outpost"))
    assert state.turn.extra and sorted(c for c, _ in me(state).durations) == [
        "Outpost",
        "Throne Room",
    ]
    state = end_turn(state)
    assert state.turn.seat == 1 and me(state).durations == []


def test_of_two_blockades_only_one_that_set_a_card_aside_stays():
    state = start(
        new_game("Blockade", "Village"),
        hand=["Village", "Blockade", "Blockade"],
        deck=["Copper"] * 10,
    )
    state = play(play(state, "Village"), "Blockade")
    state = choose(state, "Silver")
    state.supply = {
        name: (0 if name != "Province" else left) for name, left in state.supply.items()
    }
    state.supply["Copper"] = 0
    state = play(state, "Blockade")  # nothing left to gain
    state = end_turn(state)
    assert [c for c, _ in me(state).durations] == ["Blockade"] and "Blockade" in me(state).discard


def test_a_throne_roomed_blockade_sets_two_cards_aside_and_stays_with_its_throne_room():
    state = start(
        new_game("Blockade", "Throne Room"), hand=["Throne Room", "Blockade"], deck=["Copper"] * 10
    )
    state = choose(play(state, "Throne Room"), "Blockade")
    state = choose(choose(state, "Silver"), "Estate")
    assert me(state).blockades == ["Silver", "Estate"]
    state = end_turn(state)
    assert sorted(c for c, _ in me(state).durations) == ["Blockade", "Throne Room"]
    state = pass_turn(state, 1)
    assert prompt(state).kind == "start_of_turn"  # the player orders the two
    assert prompt(state).options == ["Blockade: Estate", "Blockade: Silver"]
    state = choose(state, "Blockade: Silver")
    assert {"Silver", "Estate"} <= set(me(state).hand)


def test_a_blockade_that_set_nothing_aside_leaves_beside_a_throne_roomed_one_that_set_two():
    """The count is of Blockade cards with work, not of cards set aside: two cards on one
    Throne-Roomed Blockade kept an idle second Blockade in play too."""
    state = with_prophecy("Rapid Expansion", "Blockade", "Throne Room", "Village")
    state = start(
        state, hand=["Village", "Throne Room", "Blockade", "Blockade"], deck=["Copper"] * 20
    )
    state = choose(play(play(state, "Village"), "Throne Room"), "Blockade")
    state = choose(choose(state, "Estate"), "Estate")
    state = choose(play(state, "Blockade"), "Silver")  # Rapid Expansion sets the Silver aside
    assert me(state).blockades == ["Estate", "Estate"] and me(state).rapid == ["Silver"]
    state = end_turn(state)
    assert sorted(c for c, _ in me(state).durations) == ["Blockade", "Throne Room"]
    assert me(state).discard.count("Blockade") == 1


def test_a_throne_room_whose_blockade_set_nothing_aside_leaves_beside_one_that_did():
    """A Throne Room stays with the very Blockade it played, not with any Blockade: here the
    first Blockade holds a Silver, then Poet's Omen takes the last Sun (Progress: gains go
    onto the deck), so the Throne-Roomed second Blockade sets nothing aside."""
    state = with_prophecy("Progress", "Blockade", "Throne Room", active=False)
    state.sun = 1
    state = start(
        state,
        hand=["Blockade", "Poet", "Throne Room", "Blockade"],
        deck=["Copper"] * 20,
        actions=3,
    )
    state = choose(play(state, "Blockade"), "Silver")
    state = play(state, "Poet")
    assert state.sun == 0
    state = choose(play(state, "Throne Room"), "Blockade")
    state = choose(choose(state, "Silver"), "Silver")  # both onto the deck
    assert me(state).blockades == ["Silver"]
    state = end_turn(state)
    assert [c for c, _ in me(state).durations] == ["Blockade"]
    assert me(state).discard.count("Throne Room") == 1


def test_a_daimyo_that_replays_an_outpost_giving_no_extra_turn_leaves_with_it():
    state = start(new_game("Outpost", "Daimyo"), hand=["Outpost"], deck=["Copper"] * 20)
    state = end_turn(play(state, "Outpost"))  # now on the extra turn
    me(state).hand = ["Daimyo", "Outpost", "Copper"]
    state.turn.phase = "action"
    state = end_turn(play(play(state, "Daimyo"), "Outpost"))
    assert state.turn.seat == 1 and me(state).durations == []
