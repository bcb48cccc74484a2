"""The 26 base-set kingdom cards (2nd edition), one test per card text and clarification
in the supplement ("Base set kingdom cards")."""

import pytest
from dominion_kit import act, choose, deck_top_first, me, new_game, play, prompt, prompts, start

from services.engine import IllegalMove
from services.games.dominion import game


def in_play(state, *cards, seat=0):
    me(state, seat).in_play += list(cards)
    return state


# --- Cellar ---------------------------------------------------------------------------


def test_cellar_discards_any_number_then_draws_that_many():
    state = start(
        new_game("Cellar"),
        hand=["Cellar", "Estate", "Estate", "Copper"],
        deck=["Gold", "Silver", "Copper"],
    )
    state = play(state, "Cellar")
    assert prompt(state).kind == "discard" and prompt(state).min_picks == 0
    state = choose(state, "Estate", "Estate")
    assert sorted(me(state).hand) == ["Copper", "Gold", "Silver"]
    assert me(state).discard == ["Estate", "Estate"] and state.turn.actions == 1


def test_cellar_may_discard_nothing():
    state = start(new_game("Cellar"), hand=["Cellar", "Estate"], deck=["Gold"])
    state = choose(play(state, "Cellar"))
    assert me(state).hand == ["Estate"] and deck_top_first(state) == ["Gold"]


# --- Chapel ---------------------------------------------------------------------------


def test_chapel_trashes_up_to_four_cards():
    hand = ["Chapel", "Copper", "Copper", "Estate", "Estate", "Curse"]
    state = start(new_game("Chapel"), hand=hand)
    state = play(state, "Chapel")
    assert prompt(state).max_picks == 4 and prompt(state).min_picks == 0
    with pytest.raises(IllegalMove) as error:
        choose(state, "Copper", "Copper", "Estate", "Estate", "Curse")
    assert error.value.code == "not_a_legal_choice"
    state = choose(state, "Estate", "Estate", "Curse", "Copper")
    assert me(state).hand == ["Copper"] and sorted(state.trash) == [
        "Copper",
        "Curse",
        "Estate",
        "Estate",
    ]


# --- Moat (the Reaction is in test_dominion_reactions.py) -------------------------------


def test_moat_draws_two_cards():
    state = start(new_game("Moat"), hand=["Moat"], deck=["Gold", "Silver", "Copper"])
    state = play(state, "Moat")
    assert sorted(me(state).hand) == ["Gold", "Silver"]


# --- Harbinger ------------------------------------------------------------------------


def test_harbinger_may_put_a_card_from_the_discard_pile_onto_the_deck():
    state = start(
        new_game("Harbinger"),
        hand=["Harbinger"],
        deck=["Copper", "Estate"],
        discard=["Gold", "Curse"],
    )
    state = play(state, "Harbinger")
    assert me(state).hand == ["Copper"] and state.turn.actions == 1
    assert sorted(prompt(state).options) == ["Curse", "Gold"] and prompt(state).min_picks == 0
    state = choose(state, "Gold")
    assert deck_top_first(state) == ["Gold", "Estate"] and me(state).discard == ["Curse"]


def test_harbinger_with_an_empty_discard_pile_asks_nothing():
    state = start(new_game("Harbinger"), hand=["Harbinger"], deck=["Copper", "Estate"], discard=[])
    state = play(state, "Harbinger")
    assert prompt(state).kind != "topdeck"


def test_harbinger_put_card_is_hidden_from_other_players():
    state = start(
        new_game("Harbinger"),
        hand=["Harbinger"],
        deck=["Copper", "Estate"],
        discard=["Gold", "Curse"],
    )
    state = play(state, "Harbinger")
    events = game.apply(state, 0, {"kind": "choose", "picks": ["Gold"]}).events
    put = [e for e in events if e.kind == "cards_put_on_deck"][0]
    assert "cards" not in put.visible_to(1) and put.visible_to(0)["cards"] == ["Gold"]


# --- Merchant -------------------------------------------------------------------------


def test_merchant_gives_a_coin_for_the_first_silver_played():
    state = start(new_game("Merchant"), hand=["Merchant", "Silver", "Silver"], deck=["Copper"])
    state = play(state, "Merchant")
    state = act(state, kind="play_treasure", card="Silver")
    assert state.turn.coins == 3
    state = act(state, kind="play_treasure", card="Silver")
    assert state.turn.coins == 5


def test_two_merchants_give_a_coin_each_for_the_first_silver():
    state = start(
        new_game("Merchant"), hand=["Merchant", "Merchant", "Silver"], deck=["Copper", "Copper"]
    )
    state = play(play(state, "Merchant"), "Merchant")
    state = act(state, kind="play_treasure", card="Silver")
    assert state.turn.coins == 4


def test_merchant_played_after_the_first_silver_gives_nothing():
    state = start(
        new_game("Merchant"), hand=["Silver", "Silver"], phase="buy", treasures_played=["Silver"]
    )
    state.turn.merchants = 0
    state = act(state, kind="play_treasure", card="Silver")
    assert state.turn.coins == 2


# --- Vassal ---------------------------------------------------------------------------


def test_vassal_discards_the_top_card_and_may_play_it_if_an_action():
    state = start(
        new_game("Vassal", "Smithy"), hand=["Vassal"], deck=["Smithy", "Gold", "Gold", "Gold"]
    )
    state = play(state, "Vassal")
    assert state.turn.coins == 2 and prompt(state).kind == "play"
    state = choose(state, "Yes")
    assert me(state).hand == ["Gold", "Gold", "Gold"] and "Smithy" in me(state).in_play
    assert me(state).discard == [] and state.turn.actions == 0


def test_vassal_may_leave_the_discarded_action_in_the_discard_pile():
    state = start(new_game("Vassal", "Smithy"), hand=["Vassal"], deck=["Smithy", "Gold"])
    state = choose(play(state, "Vassal"), "No")
    assert me(state).discard == ["Smithy"] and me(state).hand == []


def test_vassal_discarding_a_non_action_asks_nothing():
    state = start(new_game("Vassal"), hand=["Vassal"], deck=["Gold"])
    state = play(state, "Vassal")
    assert me(state).discard == ["Gold"] and state.turn.coins == 2 and state.turn.phase == "buy"


# --- Village, Smithy, Festival, Laboratory, Market, Council Room ----------------------


@pytest.mark.parametrize(
    "card,cards,actions,buys,coins",
    [
        ("Village", 1, 2, 1, 0),
        ("Smithy", 3, 0, 1, 0),
        ("Festival", 0, 2, 2, 2),
        ("Laboratory", 2, 1, 1, 0),
        ("Market", 1, 1, 2, 1),
        ("Council Room", 4, 0, 2, 0),
    ],
)
def test_plus_cards_actions_buys_and_coins(card, cards, actions, buys, coins):
    state = start(new_game(card), hand=[card], deck=["Estate"] * 6)
    state = play(state, card)
    assert len(me(state).hand) == cards
    assert (state.turn.actions, state.turn.buys, state.turn.coins) == (actions, buys, coins)


def test_council_room_makes_each_other_player_draw_a_card():
    state = start(new_game("Council Room", players=3), hand=["Council Room"], deck=["Estate"] * 5)
    before = [len(me(state, s).hand) for s in (1, 2)]
    state = play(state, "Council Room")
    assert [len(me(state, s).hand) for s in (1, 2)] == [n + 1 for n in before]


# --- Workshop -------------------------------------------------------------------------


def test_workshop_gains_a_card_costing_up_to_4():
    state = start(new_game("Workshop", "Artist", "Smithy"), hand=["Workshop"])
    state = play(state, "Workshop")
    options = prompt(state).options
    assert "Smithy" in options and "Silver" in options
    assert "Duchy" not in options and "Artist" not in options  # Debt costs are not "up to $4"
    state = choose(state, "Smithy")
    assert me(state).discard == ["Smithy"]


# --- Bureaucrat -----------------------------------------------------------------------


def test_bureaucrat_gains_silver_onto_deck_and_others_put_a_victory_card_back():
    state = start(new_game("Bureaucrat", players=3), hand=["Bureaucrat"], deck=["Copper"])
    me(state, 1).hand = ["Estate", "Duchy", "Copper"]
    me(state, 2).hand = ["Copper", "Copper"]
    state = play(state, "Bureaucrat")
    assert deck_top_first(state)[0] == "Silver"
    assert [p.seat for p in prompts(state)] == [1]
    state = choose(state, "Duchy", seat=1)
    assert deck_top_first(state, 1)[0] == "Duchy" and sorted(me(state, 1).hand) == [
        "Copper",
        "Estate",
    ]
    assert me(state, 2).hand == ["Copper", "Copper"]


def test_bureaucrat_with_one_kind_of_victory_card_asks_nothing():
    state = start(new_game("Bureaucrat"), hand=["Bureaucrat"])
    me(state, 1).hand = ["Estate", "Estate", "Copper"]
    state = play(state, "Bureaucrat")
    assert deck_top_first(state, 1)[0] == "Estate" and me(state, 1).hand.count("Estate") == 1


# --- Gardens --------------------------------------------------------------------------


def test_gardens_pile_has_8_cards_with_2_players_and_12_with_more():
    assert new_game("Gardens").supply["Gardens"] == 8
    assert new_game("Gardens", players=3).supply["Gardens"] == 12
    assert new_game("Gardens", players=6).supply["Gardens"] == 12


@pytest.mark.parametrize("cards,vp", [(9, 0), (10, 1), (19, 1), (20, 2), (39, 3)])
def test_gardens_is_worth_one_vp_per_ten_cards_rounded_down(cards, vp):
    from services.games.dominion.scoring import vp_breakdown

    state = new_game("Gardens")
    p = me(state)
    p.deck, p.hand, p.discard = ["Gardens"] + ["Copper"] * (cards - 1), [], []
    assert vp_breakdown(state, 0)["Gardens"] == vp


# --- Militia --------------------------------------------------------------------------


def test_militia_gives_2_and_others_discard_down_to_3():
    state = start(new_game("Militia", players=3), hand=["Militia"])
    me(state, 1).hand = ["Copper", "Copper", "Estate", "Silver", "Gold"]
    me(state, 2).hand = ["Copper", "Estate", "Estate"]
    state = play(state, "Militia")
    assert state.turn.coins == 2 and [p.seat for p in prompts(state)] == [1]
    assert prompt(state).min_picks == prompt(state).max_picks == 2
    state = choose(state, "Estate", "Copper", seat=1)
    assert sorted(me(state, 1).hand) == ["Copper", "Gold", "Silver"]


# --- Moneylender ----------------------------------------------------------------------


def test_moneylender_may_trash_a_copper_for_3():
    state = start(new_game("Moneylender"), hand=["Moneylender", "Copper", "Copper"])
    state = choose(play(state, "Moneylender"), "Copper")
    assert state.turn.coins == 3 and state.trash == ["Copper"] and me(state).hand == ["Copper"]


def test_moneylender_may_decline():
    state = start(new_game("Moneylender"), hand=["Moneylender", "Copper"])
    state = choose(play(state, "Moneylender"))
    assert state.turn.coins == 0 and state.trash == []


def test_moneylender_without_copper_does_nothing():
    state = start(new_game("Moneylender"), hand=["Moneylender", "Silver"])
    state = play(state, "Moneylender")
    assert state.turn.coins == 0 and prompt(state).kind == "buy_phase"


# --- Poacher --------------------------------------------------------------------------


def test_poacher_discards_a_card_per_empty_supply_pile():
    state = start(
        new_game("Poacher"), hand=["Poacher", "Copper", "Estate", "Gold"], deck=["Silver"]
    )
    state.supply["Curse"] = 0
    state.supply["Estate"] = 0
    state = play(state, "Poacher")
    assert state.turn.coins == 1 and state.turn.actions == 1
    assert prompt(state).min_picks == prompt(state).max_picks == 2
    state = choose(state, "Copper", "Estate")
    assert sorted(me(state).hand) == ["Gold", "Silver"]


def test_poacher_with_no_empty_pile_discards_nothing():
    state = start(new_game("Poacher"), hand=["Poacher", "Copper"], deck=["Silver"])
    state = play(state, "Poacher")
    assert sorted(me(state).hand) == ["Copper", "Silver"]


# --- Remodel --------------------------------------------------------------------------


def test_remodel_trashes_and_gains_a_card_costing_up_to_2_more():
    state = start(new_game("Remodel"), hand=["Remodel", "Silver", "Estate"])
    state = choose(play(state, "Remodel"), "Silver")
    options = prompt(state).options
    assert "Duchy" in options and "Gold" not in options
    state = choose(state, "Duchy")
    assert state.trash == ["Silver"] and me(state).discard == ["Duchy"]


# --- Throne Room ----------------------------------------------------------------------


def test_throne_room_plays_an_action_twice():
    state = start(
        new_game("Throne Room", "Smithy"), hand=["Throne Room", "Smithy"], deck=["Copper"] * 6
    )
    state = choose(play(state, "Throne Room"), "Smithy")
    assert len(me(state).hand) == 6 and me(state).in_play == ["Throne Room", "Smithy"]


def test_throne_room_may_play_nothing():
    state = start(
        new_game("Throne Room", "Smithy"), hand=["Throne Room", "Smithy"], deck=["Copper"] * 6
    )
    state = play(state, "Throne Room")
    assert prompt(state).min_picks == 0
    state = choose(state)
    assert me(state).hand == ["Smithy"]


def test_throne_room_on_a_duration_stays_in_play_with_it():
    state = start(
        new_game("Throne Room", "Corsair"), hand=["Throne Room", "Corsair"], deck=["Copper"] * 8
    )
    state = choose(play(state, "Throne Room"), "Corsair")
    assert state.turn.coins == 4
    state = act(state, kind="end_turn") if state.turn.phase == "buy" else state
    assert sorted(c for c, _ in me(state).durations) == ["Corsair", "Throne Room"]
    assert len(me(state).corsairs) == 2


@pytest.mark.parametrize("by", ["Throne Room", "Daimyo"])
def test_a_replayed_throne_room_whose_second_play_picks_a_duration_stays_with_it(by):
    """ "If a Duration card is played extra times by a card such as Daimyo, that card also
    stays in play": the Throne Room played Corsair twice on its second play only."""
    state = start(
        new_game("Throne Room", "Corsair", "Village", "Daimyo"),
        hand=[by, "Throne Room", "Village", "Corsair"],
        deck=["Copper"] * 20,
    )
    if by == "Throne Room":
        state = choose(play(state, "Throne Room"), "Throne Room")
    else:
        state = play(play(state, "Daimyo"), "Throne Room")
    state = choose(choose(state, "Village"), "Corsair")
    assert len(me(state).corsairs) == 2
    state = act(state, kind="end_phase") if state.turn.phase == "action" else state
    state = act(state, kind="end_turn")
    assert sorted(c for c, _ in me(state).durations) == ["Corsair", "Throne Room"]
    assert by in me(state).discard


def test_a_throne_room_played_twice_onto_two_durations_stays_as_long_as_the_longer():
    state = start(
        new_game("Throne Room", "Corsair", "Samurai"),
        hand=["Throne Room", "Throne Room", "Corsair", "Samurai"],
        deck=["Copper"] * 20,
    )
    state = choose(play(state, "Throne Room"), "Throne Room")
    state = choose(choose(state, "Corsair"), "Samurai")
    state = choose(state, "Copper", "Copper", seat=1)  # Samurai: down to 3 (then nothing)
    state = act(state, kind="end_phase") if state.turn.phase == "action" else state
    state = act(state, kind="end_turn")
    assert sorted(me(state).durations) == [
        ["Corsair", "next_turn"],
        ["Samurai", "game"],
        ["Throne Room", "game"],
    ]


# --- Bandit ---------------------------------------------------------------------------


def test_bandit_gains_gold_and_others_trash_a_non_copper_treasure():
    state = start(new_game("Bandit", players=3), hand=["Bandit"])
    me(state, 1).deck = ["Estate", "Gold", "Silver"]  # top: Silver, Gold
    me(state, 2).deck = ["Gold", "Copper", "Estate"]  # top: Estate, Copper
    state = play(state, "Bandit")
    assert me(state).discard == ["Gold"]
    assert [p.seat for p in prompts(state)] == [1] and sorted(prompt(state).options) == [
        "Gold",
        "Silver",
    ]
    state = choose(state, "Silver", seat=1)
    assert (
        state.trash == ["Silver"]
        and me(state, 1).discard == ["Gold"]
        and me(state, 1).deck == ["Estate"]
    )
    assert sorted(me(state, 2).discard) == ["Copper", "Estate"] and me(state, 2).deck == ["Gold"]
    assert me(state, 1).aside == []


def test_bandit_never_trashes_copper():
    state = start(new_game("Bandit"), hand=["Bandit"])
    me(state, 1).deck = ["Copper", "Copper"]
    state = play(state, "Bandit")
    assert state.trash == [] and me(state, 1).discard == ["Copper", "Copper"]


# --- Library --------------------------------------------------------------------------


def test_library_draws_to_seven_and_may_skip_actions():
    state = start(
        new_game("Library", "Smithy"),
        hand=["Library", "Copper", "Copper", "Copper"],
        deck=["Smithy", "Gold", "Silver", "Estate", "Copper"],
    )
    state = play(state, "Library")
    assert prompt(state).kind == "set_aside"
    state = choose(state, "Yes")
    assert me(state).aside == []  # discarded once the drawing is done
    assert sorted(me(state).hand) == ["Copper"] * 4 + ["Estate", "Gold", "Silver"]
    assert me(state).discard == ["Smithy"]


def test_library_may_keep_an_action_it_draws():
    state = start(
        new_game("Library", "Smithy"), hand=["Library"] + ["Copper"] * 5, deck=["Smithy", "Gold"]
    )
    state = choose(play(state, "Library"), "No")
    assert sorted(me(state).hand) == ["Copper"] * 5 + ["Gold", "Smithy"]


# --- Mine -----------------------------------------------------------------------------


def test_mine_trashes_a_treasure_and_gains_one_costing_up_to_3_more_to_hand():
    state = start(new_game("Mine"), hand=["Mine", "Silver", "Estate"])
    state = play(state, "Mine")
    assert prompt(state).options == ["Silver"] and prompt(state).min_picks == 0
    state = choose(state, "Silver")
    assert prompt(state).options == ["Copper", "Silver", "Gold"]
    state = choose(state, "Gold")
    assert sorted(me(state).hand) == ["Estate", "Gold"] and state.trash == ["Silver"]


# --- Sentry ---------------------------------------------------------------------------


def test_sentry_trashes_discards_and_puts_back_in_any_order():
    state = start(new_game("Sentry"), hand=["Sentry"], deck=["Copper", "Curse", "Estate", "Gold"])
    state = play(state, "Sentry")
    assert me(state).hand == ["Copper"] and sorted(me(state).looking) == ["Curse", "Estate"]
    state = choose(state, "Curse")
    state = choose(state, "Estate")
    assert state.trash == ["Curse"] and me(state).discard == ["Estate"]
    assert deck_top_first(state) == ["Gold"] and me(state).looking == []


def test_sentry_orders_the_two_cards_put_back():
    state = start(new_game("Sentry"), hand=["Sentry"], deck=["Copper", "Silver", "Gold", "Estate"])
    state = choose(choose(play(state, "Sentry")))
    assert prompt(state).kind == "order"
    state = choose(state, "Gold")
    assert deck_top_first(state) == ["Gold", "Silver", "Estate"]


def test_sentrys_looked_at_cards_are_seen_only_by_their_owner():
    state = start(new_game("Sentry"), hand=["Sentry"], deck=["Copper", "Silver", "Gold", "Estate"])
    state = play(state, "Sentry")
    mine, theirs = game.view(state, 0).players[0], game.view(state, 1).players[0]
    assert sorted(mine.looking) == ["Gold", "Silver"] and theirs.looking is None
    assert theirs.looking_size == 2


# --- Witch ----------------------------------------------------------------------------


def test_witch_draws_two_and_each_other_player_gains_a_curse():
    state = start(new_game("Witch", players=3), hand=["Witch"], deck=["Copper"] * 3)
    state = play(state, "Witch")
    assert len(me(state).hand) == 2
    assert me(state, 1).discard[-1] == "Curse" and me(state, 2).discard[-1] == "Curse"
    assert state.supply["Curse"] == 18


# --- Artisan --------------------------------------------------------------------------


def test_artisan_gains_to_hand_then_puts_a_card_onto_the_deck():
    state = start(new_game("Artisan"), hand=["Artisan", "Estate"], deck=["Copper"])
    state = play(state, "Artisan")
    assert "Duchy" in prompt(state).options and "Gold" not in prompt(state).options
    state = choose(state, "Duchy")
    assert sorted(prompt(state).options) == ["Duchy", "Estate"]
    state = choose(state, "Estate")
    assert me(state).hand == ["Duchy"] and deck_top_first(state) == ["Estate", "Copper"]
