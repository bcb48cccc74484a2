"""One test per rule of the 3–4 player game, named after it."""

import pytest
from sky_lanterns_kit import asked, dice_count, give, hand, hold, legal, new_game, play, table

from services.ai import RandomBot, play_match
from services.engine import IllegalMove, InvalidConfig, copy_state
from services.games.sky_lanterns import game
from services.games.sky_lanterns.components import ERAS, PLAYER_BOARDS, TILES
from services.games.sky_lanterns.rounds import carry_on, event_phase
from services.games.sky_lanterns.scoring import final_result, railway_points, resource_points
from services.games.sky_lanterns.state import Die

DECLINE = {"kind": "decline"}


# --- setup -----------------------------------------------------------------------------------


def test_three_players_remove_a_die_of_each_colour_and_the_four_dot_tiles():
    state = new_game(players=3)
    assert dice_count(state) == 14 and sum(v is not None for v in state.spaces.values()) == 8
    assert sorted(state.removed_tiles) == sorted(t.id for t in TILES.values() if t.dots == 4)
    dealt = [t for p in state.seats for t in p.upgrades]
    assert len(dealt) == 12 and not set(dealt) & set(state.removed_tiles)
    assert len(state.unused_starting) == 3


def test_four_players_draw_ten_of_eighteen_dice_and_use_every_tile():
    state = new_game(players=4)
    assert dice_count(state) == 18 and sum(v is not None for v in state.spaces.values()) == 10
    assert sorted(t for p in state.seats for t in p.upgrades) == sorted(TILES)
    assert state.unused_starting == []


@pytest.mark.parametrize("players,first", [(4, 2), (3, 1)])
def test_starting_coins_rise_clockwise_from_the_first_player(players, first):
    state = new_game(players=players, first_player=first)
    coins = [state.seats[(first + k) % players].coins for k in range(players)]
    assert coins == [5, 6, 7, 8][:players]
    assert all(p.camphor == 1 and len(p.hand) == 3 for p in state.seats)
    assert state.order[0] == first and asked(state) == (first, "contract")


def test_first_player_is_random_by_default_and_must_be_a_seat():
    firsts = {game.setup(None, 4, seed).first_player for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    with pytest.raises(InvalidConfig) as error:
        game.setup({"first_player": 3}, 3, 1)
    assert error.value.code == "invalid_options"


def test_era_cards_lie_in_ascending_order_of_year_one_side_of_each():
    for seed in range(20):
        eras = game.setup(None, 4, seed).eras
        assert sorted(ERAS[e].card for e in eras) == [1, 2, 3]
        assert [ERAS[e].year for e in eras] == sorted(ERAS[e].year for e in eras)


def test_the_first_era_is_the_oldest_side_on_the_table_whichever_card_it_is():
    """ "Randomly flip ... Arrange them ... in ascending order of the year": the Era of
    rounds 1-2 is the oldest side showing, so card 3 leads when cards 1 and 2 lie on
    their (later) B sides, as with 3 players and seed 2."""
    state = game.setup(None, 3, 2)
    assert state.eras == ["E3A", "E1B", "E2B"]
    assert game.view(state, None).current_era == "E3A"
    leaders = {ERAS[game.setup(None, 4, seed).eras[0]].card for seed in range(60)}
    assert leaders == {1, 2, 3}


def test_each_player_gets_a_side_a_project_card_of_each_kind():
    state = new_game()
    assert len({p.lantern_project for p in state.seats}) == 4
    assert all(
        p.lantern_project.endswith("A") and p.railway_project.endswith("A") for p in state.seats
    )


# --- rounds ------------------------------------------------------------------------------------


def test_each_player_takes_two_turns_a_round_and_the_marker_holder_starts_the_next():
    spaces = ["blue-1", "blue-2", "red-1", "blue-3", "green-1", "green-2", "green-3", "red-2"]
    state = table(dice={space: 1 for space in spaces})
    turns = []
    for space in spaces:
        seat = state.active
        turns.append(seat)
        forfeit = space != "red-1"  # only seat 2 takes the First Player Marker
        state = play(state, seat, DECLINE, {"kind": "take_die", "space": space, "forfeit": forfeit})
        free = state.seats[seat].compensation.index(None)
        state = play(state, seat, {"kind": "place_compensation", "slot": free})
        while state.stack:  # decline the contract of the second Compensation Slot
            state = play(state, seat, DECLINE)
    assert turns == [0, 1, 2, 3, 0, 1, 2, 3]
    assert state.round == 2 and state.first_player == 2 and state.order == [2, 3, 0, 1]


def test_upkeep_of_rounds_3_and_5_returns_the_player_boards_dice():
    state = table()
    state.seats[0].core[0] = Die(colour="red", value=1)
    state.bag["red"] -= 1
    state.round, state.turn = 3, 8
    event_phase(state)
    carry_on(state)
    assert state.seats[0].core[0] is None and dice_count(state) == 18


def test_income_event_pays_every_income_again():
    state = table()
    state.seats[1].incomes = ["board:P-00:income:0", "project:L1A:row1:full/0"]
    coins, vp = state.seats[1].coins, state.seats[1].vp
    state.round, state.turn = 5, 8
    event_phase(state)
    carry_on(state)
    assert (state.seats[1].coins, state.seats[1].vp) == (coins + 2 + 1, vp + 2)


def test_rounds_4_and_6_pay_the_lanterns_of_the_second_and_third_eras_colour():
    """ "In Rounds 2, 4, and 6: check the number of your sky lanterns that match the color
    shown on the active Era Card": E2A (yellow, 3 VP each) in round 4, E3A (red, 3 VP and
    $1 each) in round 6; the other colours pay nothing."""
    state = table(eras=("E1A", "E2A", "E3A"))
    player = state.seats[1]
    player.lantern_tokens = {"red": 1, "yellow": 2, "blue": 3}
    vp, coins, cards = player.vp, player.coins, len(player.hand)
    state.round, state.turn = 4, 8
    event_phase(state)
    carry_on(state)
    player = state.seats[1]
    assert (player.vp, player.coins, len(player.hand)) == (vp + 6, coins, cards)
    state.round, state.turn = 6, 8
    event_phase(state)
    carry_on(state)
    player = state.seats[1]
    assert (player.vp, player.coins, len(player.hand)) == (vp + 6 + 3, coins + 1, cards)


def test_era_contracts_are_those_of_the_era_beside_the_round_marker():
    """Round 3 lies beside the second Era card: its first contract is E2A's "pay 2 Tea to
    advance the train", not E1A's "pay 2 Coal to draw"."""
    state = table(eras=("E1A", "E2A", "E3A"))
    state.round = 3
    give(state, 0, coal=2, tea=2)
    state = play(state, 0, {"kind": "era_contract", "option": 0}, {"kind": "convert", "times": 1})
    player = state.seats[0]
    # 2 Tea paid; the train's first space gives 1 Tea back
    assert (player.basics["tea"], player.basics["coal"], player.train) == (1, 2, 1)
    assert player.hand == []


def contracts_offered(state, seat=0):
    return [m for m in legal(state, seat) if m["kind"].endswith("contract") or "card" in m]


def test_only_contracts_one_can_pay_are_offered_coal_trades_included():
    """ "You cannot perform the conversion if you do not have enough resources": T12 (pay 2
    Indigo for $3) and E1A's "pay 2 Coal to draw" need 2 Coal to be offered with no Indigo
    (a Coal Trade makes 1 Indigo of 1 Coal); E1A's "pay 1 Camphor for 2 VP" needs Camphor.
    S02 pays nothing and is always offered."""
    state = table(eras=("E1A", "E2A", "E3A"))
    hand(state, 0, "T12", "S02")
    give(state, 0, indigo=0, coal=1, camphor=0)
    assert contracts_offered(state) == [{"kind": "play_contract_card", "card": "S02"}]
    give(state, 0, coal=2)
    assert contracts_offered(state) == [
        {"kind": "play_contract_card", "card": "T12"},
        {"kind": "play_contract_card", "card": "S02"},
        {"kind": "era_contract", "option": 0},
    ]
    # the Coal Trades then pay it, as the conversion's prompt offers them
    state = play(state, 0, {"kind": "play_contract_card", "card": "T12"})
    assert asked(state) == (0, "convert")
    state = play(
        state,
        0,
        {"kind": "coal_trade", "into": "indigo"},
        {"kind": "coal_trade", "into": "indigo"},
        {"kind": "convert", "times": 1},
    )
    assert state.seats[0].coins == 5 + 3 and state.seats[0].basics["coal"] == 0


def test_p03_coal_traded_for_coins_counts_towards_a_contract():
    """E1B's "pay $3 for 2 VP": on P-03 2 Coal make $2, so $1 and 2 Coal pay it, while $0
    and 3 Coal (one trade, $2) do not."""
    state = table(eras=("E1B", "E2A", "E3A"))
    state.seats[0].board = "P-03"
    give(state, 0, coins=0, coal=3, indigo=0)
    assert {"kind": "era_contract", "option": 1} not in contracts_offered(state)
    give(state, 0, coins=1, coal=2)
    assert {"kind": "era_contract", "option": 1} in contracts_offered(state)


def test_the_game_ends_after_round_6_with_final_scoring():
    record = play_match(game, [RandomBot(s) for s in range(4)], seed=5)
    assert record.state.over and record.state.round == 6
    assert record.result == final_result(record.state)


# --- a turn --------------------------------------------------------------------------------------


def test_the_contract_step_is_optional():
    state = table()
    assert DECLINE in legal(state, 0)
    assert asked(play(state, 0, DECLINE)) == (0, "take")


def test_a_die_may_be_taken_forfeiting_its_reward():
    state = table(dice={"blue-2": 3})
    state = play(state, 0, DECLINE, {"kind": "take_die", "space": "blue-2", "forfeit": True})
    assert state.seats[0].basics["tea"] == 1 and state.held == Die(colour="blue", value=3)


def test_camphor_changes_the_die_by_one_before_placing():
    state = table()
    give(state, 0, camphor=3)
    hold(state, "red", 5)
    state = play(
        state,
        0,
        {"kind": "camphor_trade", "delta": 1},
        {"kind": "camphor_trade", "delta": -1},
        {"kind": "camphor_trade", "delta": -1},
    )
    assert state.seats[0].camphor == 0 and state.held.value == 4 and state.camphor_supply == 12


def test_coal_trades_at_any_time_even_in_the_middle_of_a_choice():
    """ "Coal Trade — You may at any time convert 1 Coal into either 1 Dyeing yam, 1
    Indigo, or 1 Tea." """
    state = table(dice={"red-3": 2})
    give(state, 0, coal=0, yam=0)
    state = play(state, 0, DECLINE, {"kind": "take_die", "space": "red-3"})
    assert asked(state)[1] == "place"  # no Dyeing Yam, nor Coal to trade: not asked
    state = table(dice={"red-3": 2})
    give(state, 0, coal=2, yam=0)
    state = play(state, 0, DECLINE, {"kind": "take_die", "space": "red-3"})
    assert asked(state) == (0, "convert")  # a trade would pay: asked, with the trades
    assert [m for m in legal(state, 0) if m["kind"] == "convert"] == [
        {"kind": "convert", "times": 0}
    ]
    assert {"kind": "coal_trade", "into": "yam"} in legal(state, 0)
    state = play(state, 0, {"kind": "coal_trade", "into": "yam"}, {"kind": "convert", "times": 1})
    assert state.seats[0].basics["coal"] == 1 and state.seats[0].basics["yam"] == 0
    state = table(dice={"red-3": 2})
    give(state, 0, coal=2, yam=1)
    state = play(state, 0, DECLINE, {"kind": "take_die", "space": "red-3"})
    assert asked(state) == (0, "convert")
    state = play(state, 0, {"kind": "coal_trade", "into": "yam"})
    assert asked(state) == (0, "convert") and state.seats[0].basics["yam"] == 2


def test_coal_trade_into_a_full_track_spends_the_coal_and_loses_the_gain():
    """ "You may at any time convert 1 Coal into either 1 Dyeing yam, 1 Indigo, or 1 Tea"
    and "Any resources gained beyond the track's maximum limit are lost": legal, and of
    use (less Coal for the Raiders to plunder); the label and the log say it is lost."""
    state = table()
    give(state, 0, coal=3, tea=10, indigo=2, yam=2)
    trades = [m for m in legal(state, 0) if m["kind"] == "coal_trade"]
    assert trades == [{"kind": "coal_trade", "into": r} for r in ("indigo", "tea", "yam")]
    labels = {m["into"]: game.label(state, 0, game.parse_move(m)) for m in trades}
    assert labels == {
        "indigo": "Trade 1 Coal for 1 Indigo",
        "tea": "Trade 1 Coal for 1 Tea (track full: the Tea is lost)",
        "yam": "Trade 1 Coal for 1 Dyeing Yam",
    }
    applied = game.apply(state, 0, {"kind": "coal_trade", "into": "tea"})
    after = applied.state.seats[0].basics
    assert after == {"coal": 2, "indigo": 2, "tea": 10, "yam": 2}
    assert [e.text for e in applied.events] == [labels["tea"]]
    assert asked(applied.state) == asked(state)  # a free action: the prompt stays
    applied = game.apply(state, 0, {"kind": "coal_trade", "into": "indigo"})
    assert [e.text for e in applied.events] == ["Trade 1 Coal for 1 Indigo"]
    assert applied.state.seats[0].basics["indigo"] == 3


def test_coal_trade_into_a_full_track_is_offered_down_to_the_last_coal():
    state = table()
    give(state, 0, coal=1, indigo=10, tea=10, yam=10)
    assert {"kind": "coal_trade", "into": "yam"} in legal(state, 0)
    state = play(state, 0, {"kind": "coal_trade", "into": "yam"})
    assert state.seats[0].basics == {"coal": 0, "indigo": 10, "tea": 10, "yam": 10}
    assert not [m for m in legal(state, 0) if m["kind"] == "coal_trade"]


def test_final_scoring_s_coal_trades_fill_only_tracks_with_room():
    """The automatic Coal Trades of final scoring trade for what completes sets: never
    into a full track, though that is now a legal move."""
    player = table().seats[0]
    player.basics.update(coal=5, indigo=10, tea=10, yam=0)
    assert resource_points(player)["resource_sets"] == 2  # 2 sets: 2 Coal, 2 traded to Yam
    player.basics.update(coal=10, indigo=10, tea=10, yam=10)
    assert resource_points(player)["resource_sets"] == 10


def test_coal_gained_during_an_action_may_pay_a_later_step_of_it():
    """A card's lantern reward gives Coal; the slot's payment after it asks for Indigo:
    the player may trade the new Coal and pay (it used to pass without asking)."""
    state = table()
    state.deck.remove("S09")
    state.seats[0].lantern_zones[0] = ["S09"]  # 3-4: 1 VP and 1 Coal
    give(state, 0, coal=0, indigo=0)
    hold(state, "blue", 3)
    state = play(state, 0, {"kind": "place_core", "slot": 0})
    assert asked(state) == (0, "convert") and state.seats[0].basics["coal"] == 1
    state = play(
        state, 0, {"kind": "coal_trade", "into": "indigo"}, {"kind": "convert", "times": 1}
    )
    assert state.seats[0].basics["coal"] == 0 and state.seats[0].basics["indigo"] == 0
    assert state.seats[0].vp == 2  # S09's VP and the payment's


def test_p03_coal_traded_for_coins_may_pay_a_development():
    """P-03: "Your free action Coal Trade is changed to: pay 2 Coal to gain $2" — a
    Development that 2 Coal would pay for is asked, not passed."""
    state = table()
    state.seats[0].board = "P-03"
    hand(state, 0, "S04")  # a Railway Development costs $2
    give(state, 0, coal=1, yam=5, coins=0)
    hold(state, "red", 3)
    state = play(state, 0, {"kind": "place_core", "slot": 2}, {"kind": "convert", "times": 1})
    assert asked(state) == (0, "develop") and state.seats[0].basics["coal"] == 2
    assert legal(state, 0) == [{"kind": "decline"}, {"kind": "coal_trade", "into": "coins"}]
    state = play(
        state,
        0,
        {"kind": "coal_trade", "into": "coins"},
        {"kind": "develop", "card": "S04", "zone": 0},
    )
    assert state.seats[0].railway_zones[0] == ["S04"] and state.seats[0].coins == 0


def test_core_slots_need_equal_or_increasing_values_left_to_right():
    state = table()
    state.seats[0].core[1] = Die(colour="red", value=3)
    state.seats[0].core[4] = Die(colour="red", value=5)
    state.bag["red"] -= 2
    hold(state, "blue", 4)
    cores = {m["slot"] for m in legal(state, 0) if m["kind"] == "place_core"}
    assert cores == {2, 3}


def test_core_slot_payment_is_optional_and_scales_with_the_dice_in_core_slots():
    state = table()
    for slot, value in ((0, 1), (1, 1), (2, 2)):
        state.seats[0].core[slot] = Die(colour="green", value=value)
        state.bag["green"] -= 1
    give(state, 0, yam=3, coal=0)
    hold(state, "red", 6)
    before = copy_state(state)
    state = play(state, 0, {"kind": "place_core", "slot": 5})
    assert [m["times"] for m in legal(state, 0) if m["kind"] == "convert"] == []  # 4 > 3 yam
    assert asked(state)[1] == "contract"
    give(before, 0, coal=1)  # ...unless a Coal Trade makes the fourth
    state = play(before, 0, {"kind": "place_core", "slot": 5})
    assert asked(state) == (0, "convert")
    state = table()
    give(state, 0, yam=1)
    hold(state, "red", 6)
    state = play(state, 0, {"kind": "place_core", "slot": 5}, {"kind": "convert", "times": 0})
    assert state.seats[0].vp == 0 and state.seats[0].basics["yam"] == 1


def test_lantern_rewards_of_every_card_above_the_slot_resolve_top_to_bottom():
    state = table()
    state.seats[0].lantern_zones = [["T01", "T07", "S01"], [], []]  # 1-2: 2VP; 3/6; 1-2: 2VP
    for card in ("T01", "T07"):
        state.deck.remove(card)
    hold(state, "red", 2)
    state = play(state, 0, {"kind": "place_core", "slot": 0})
    assert state.seats[0].vp == 4


def test_the_player_to_your_right_is_the_previous_seat():
    state = table(dice={"red-1": 2})
    coins = [p.coins for p in state.seats]
    state = play(state, 0, DECLINE, {"kind": "take_die", "space": "red-1"})
    assert state.seats[3].coins == coins[3] + 1


# --- train, upgrades, projects --------------------------------------------------------------


def test_railway_cards_pay_when_the_train_reaches_or_passes_their_zone():
    state = table(dice={"green-3": 3})
    state.seats[0].railway_zones = [["T01", "T11"], [], []]  # 2 VP and 3 VP, under space 2
    state = play(state, 0, DECLINE, {"kind": "take_die", "space": "green-3"})
    player = state.seats[0]
    assert player.train == 2 and player.vp == 5 and player.basics["indigo"] == 2


def test_a_loop_without_face_down_tiles_gives_4_vp_and_no_upgrade():
    state = table(dice={"green-3": 3})
    player = state.seats[0]
    player.train, player.upgrades = 5, [None, None, None, None]
    state = play(state, 0, DECLINE, {"kind": "take_die", "space": "green-3"})
    assert state.seats[0].vp == 4 and asked(state) == (0, "place")


def test_an_empty_deck_is_formed_again_from_the_shuffled_discard_pile():
    """ "If the deck is empty when you need to draw, shuffle the discard pile to form a new
    draw deck." With both empty, nothing is drawn."""
    state = table(dice={"blue-5": 3})
    discarded = sorted(state.deck)
    state.deck, state.discard = [], list(discarded)
    after = play(state, 0, DECLINE, {"kind": "take_die", "space": "blue-5"})
    drawn = after.seats[0].hand
    assert len(drawn) == 2 and after.discard == []
    assert sorted(after.deck + drawn) == discarded
    state.discard = []
    after = play(state, 0, DECLINE, {"kind": "take_die", "space": "blue-5"})
    assert after.seats[0].hand == [] and asked(after) == (0, "place")


def test_upgraded_space_gives_the_tile_reward_to_whoever_takes_it():
    state = table(dice={"blue-2": 2})
    state.covered["blue-2"] = "U07"
    state.turn = 1
    state = play(state, 1, DECLINE, {"kind": "take_die", "space": "blue-2"})
    assert state.seats[1].basics["tea"] == 4 and state.seats[1].vp == 1


def test_project_rewards_stop_after_the_third_row():
    state = table(dice={"black-2": 2})
    player = state.seats[0]
    player.lantern_project = "L2A"
    player.lantern_zones = [["T04", "T05", "T07"], [], []]
    hand(state, 0, "T10")
    state = play(state, 0, DECLINE, {"kind": "take_die", "space": "black-2"})
    vp, coins = state.seats[0].vp, state.seats[0].coins
    state = play(state, 0, {"kind": "develop", "card": "T10", "zone": 0})
    assert (state.seats[0].vp, state.seats[0].coins) == (vp, coins - 2)


# --- resources ---------------------------------------------------------------------------------


def test_basic_resources_beyond_the_track_are_lost():
    state = table(dice={"blue-2": 2})
    give(state, 0, tea=9)
    state = play(state, 0, DECLINE, {"kind": "take_die", "space": "blue-2"})
    assert state.seats[0].basics["tea"] == 10


def test_an_empty_supply_takes_coins_from_the_richest_player_for_1_vp_each():
    state = table(dice={"red-2": 2})
    supply = state.coins_supply
    give(state, 2, coins=state.seats[2].coins + supply - 1)
    assert state.coins_supply == 1
    richest_before = state.seats[2].coins
    state = play(state, 0, DECLINE, {"kind": "take_die", "space": "red-2"})
    assert state.coins_supply == 0 and state.seats[2].coins == richest_before - 2
    assert state.seats[2].vp == 2


def test_when_the_richest_players_tie_the_active_player_chooses_who_gives():
    """ "... the active player chooses which tied player to take them from": all 3
    missing Coins come from the one chosen."""
    state = table(dice={"red-2": 2})
    for seat, coins in ((1, 10), (2, 10), (3, 0)):
        give(state, seat, coins=coins)
    give(state, 0, coins=state.seats[0].coins + state.coins_supply)
    state = play(state, 0, DECLINE, {"kind": "take_die", "space": "red-2"})
    assert asked(state) == (0, "donor")
    assert legal(state, 0)[:2] == [
        {"kind": "choose_donor", "seat": 1},
        {"kind": "choose_donor", "seat": 2},
    ]
    state = play(state, 0, {"kind": "choose_donor", "seat": 2})
    assert (state.seats[1].coins, state.seats[2].coins) == (10, 7)
    assert (state.seats[1].vp, state.seats[2].vp) == (0, 3) and asked(state) == (0, "place")


def test_the_missing_tokens_come_from_the_one_richest_player_until_they_have_none():
    """ "take the required tokens directly from the Player Board of the player who
    currently has the most": all of them from that player, even when that leaves them
    below the next; only when they run out does the next richest give the rest."""
    state = table(dice={"red-2": 2})
    for seat, coins in ((1, 10), (2, 9), (3, 0)):
        give(state, seat, coins=coins)
    give(state, 0, coins=state.seats[0].coins + state.coins_supply)
    after = play(state, 0, DECLINE, {"kind": "take_die", "space": "red-2"})
    assert [(p.coins, p.vp) for p in after.seats[1:]] == [(7, 3), (9, 0), (0, 0)]
    for seat, coins in ((1, 2), (2, 1)):
        give(state, seat, coins=coins)
    give(state, 0, coins=state.seats[0].coins + state.coins_supply)
    coins = state.seats[0].coins
    after = play(state, 0, DECLINE, {"kind": "take_die", "space": "red-2"})
    assert [(p.coins, p.vp) for p in after.seats[1:]] == [(0, 2), (0, 1), (0, 0)]
    assert after.seats[0].coins == coins + 3 and asked(after) == (0, "place")


def test_a_player_who_is_not_among_the_richest_cannot_be_chosen():
    from services.engine import IllegalMove

    state = table(dice={"red-2": 2})
    for seat, coins in ((1, 10), (2, 10), (3, 3)):
        give(state, seat, coins=coins)
    give(state, 0, coins=state.seats[0].coins + state.coins_supply)
    state = play(state, 0, DECLINE, {"kind": "take_die", "space": "red-2"})
    with pytest.raises(IllegalMove) as error:
        play(state, 0, {"kind": "choose_donor", "seat": 3})
    assert error.value.code == "not_the_richest"


# --- scoring -----------------------------------------------------------------------------------


def test_railway_scores_1_3_6_10_15_for_4_to_8_cards():
    assert [railway_points(n) for n in range(3, 10)] == [0, 1, 3, 6, 10, 15, 15]


def test_a_lantern_is_needed_to_rank_and_ties_share_the_next_ranks():
    from services.games.sky_lanterns.scoring import lantern_majority

    assert lantern_majority([0, 0, 0, 0]) == [0, 0, 0, 0]
    assert lantern_majority([2, 2, 1, 0]) == [10, 10, 4, 0]
    assert lantern_majority([1, 1, 1, 1]) == [6, 6, 6, 6]


def test_ties_go_to_the_player_closest_in_turn_order_to_the_marker():
    state = table()
    for seat in range(4):
        give(state, seat, coins=0, camphor=0, vp=10)
    state.over, state.first_player = True, 2
    result = final_result(state)
    assert {s.score for s in result.standings} == {11} and result.winners == [2]
    assert [s.seat for s in result.standings] == [2, 3, 0, 1]
    give(state, 1, vp=12)
    assert final_result(state).winners == [1]


# --- variants ----------------------------------------------------------------------------------


def test_unique_player_boards_deal_p01_to_p04_one_each():
    for seed in range(6):
        state = game.setup({"unique_player_boards": True}, 4, seed)
        assert sorted(p.board for p in state.seats) == ["P-01", "P-02", "P-03", "P-04"]
        for player in state.seats:
            board = PLAYER_BOARDS[player.board]
            assert len(player.core) == len(board.core_slots) and player.train == board.train_start
    assert {p.board for p in game.setup(None, 4, 1).seats} == {"P-00"}


def test_unique_project_cards_use_side_b():
    state = game.setup({"unique_project_cards": True}, 3, 2)
    assert all(
        p.lantern_project.endswith("B") and p.railway_project.endswith("B") for p in state.seats
    )


def test_p01_extra_core_slot_gains_the_rewards_of_both_zones():
    state = table()
    state.seats[0].board = "P-01"
    state.seats[0].core = [None] * 8
    state.seats[0].compensation = [None]
    state.seats[0].lantern_zones = [["T01"], ["S01"], []]  # both 2 VP on a 1 or 2
    state.deck.remove("T01")
    give(state, 0, coal=0)
    hold(state, "red", 2)
    state = play(state, 0, {"kind": "place_core", "slot": 2})
    assert state.seats[0].vp == 4


def test_p04_train_follows_its_own_path_from_its_own_start():
    state = table(dice={"green-3": 3})
    state.seats[0].board, state.seats[0].train = "P-04", PLAYER_BOARDS["P-04"].train_start
    state = play(state, 0, DECLINE, {"kind": "take_die", "space": "green-3"})
    player = state.seats[0]
    assert (player.vp, player.camphor, player.basics["coal"]) == (6, 2, 2)


def test_p04_has_no_exclusive_contract():
    """The rulebook's P-04 entry, unlike P-01 to P-03's, names no Exclusive Contract
    ("Certain unique Player Boards feature contract actions that are exclusive to you")."""
    state = table()
    state.seats[0].board, state.seats[0].train = "P-04", PLAYER_BOARDS["P-04"].train_start
    give(state, 0, coins=4)
    assert asked(state) == (0, "contract")
    assert not [m for m in legal(state, 0) if m["kind"] == "exclusive_contract"]
    with pytest.raises(IllegalMove) as refusal:
        play(state, 0, {"kind": "exclusive_contract", "option": 0})
    assert refusal.value.code == "no_such_option"
    assert "P-04 has no exclusive contract" in refusal.value.message


def test_a_die_no_slot_can_take_goes_back_to_the_bag():
    state = table()
    player = state.seats[0]
    player.board, player.core, player.compensation = "P-01", [None] * 8, [None]
    player.core[0] = player.core[7] = Die(colour="red", value=4)
    player.compensation[0] = Die(colour="red", value=1)
    state.bag["red"] -= 3
    give(state, 0, camphor=0)
    hold(state, "blue", 2)
    assert legal(state, 0) == [{"kind": "return_die"}] + [
        m for m in legal(state, 0) if m["kind"] == "coal_trade"
    ]
    bag = state.bag["blue"]
    state = play(state, 0, {"kind": "return_die"})
    assert state.bag["blue"] == bag + 1 and asked(state) == (1, "contract")
