"""The solo game against the virtual opponent: Scenario I, The Dead Mine, and Scenario II,
The Burning Hut, each with Challenge Mode. The opponent is not a seat; its steps show as
events."""

from __future__ import annotations

import os
import re

import orjson
import pytest
from sky_lanterns_kit import asked, give, legal, play

from services.ai import RandomBot, play_match
from services.engine import IllegalMove, copy_state
from services.games.sky_lanterns import game
from services.games.sky_lanterns.components import CARDS, SOLO_CARDS, TILES
from services.games.sky_lanterns.resolver import develop, most_conversions
from services.games.sky_lanterns.resources import pay
from services.games.sky_lanterns.rounds import carry_on, end_turn, event_phase, upkeep
from services.games.sky_lanterns.scoring import breakdowns, solo_outcome
from services.games.sky_lanterns.state import ROUNDS

GAMES = int(os.environ.get("SKYPORT_RANDOM_GAMES", "200"))
DECLINE = {"kind": "decline"}


def solo_setup(options: dict, seed: int):
    return game.new_state(game.parse_config(options, 1), 1, seed)


def solo_playout(seed: int, options: dict | None = None):
    """A random player's whole solo game: the final state and the seats that moved."""
    state = solo_setup(options or {}, seed)
    bot, movers = RandomBot(seed), set()
    while prompts := game.prompts(state):
        movers.add(prompts[0].seat)
        state = game.apply(state, prompts[0].seat, bot.choose(game, state, 0)).state
    return state, movers


def solo_game(seed: int = 1, **options):
    return copy_state(solo_setup({"scenario": "dead-mine", **options}, seed))


def board(state, dice: dict[str, int]):
    """Exactly these dice on the Main Board (the others back in the bag)."""
    for space, value in state.spaces.items():
        if value is not None:
            state.bag[space.split("-")[0]] += 1
    state.spaces = {space: None for space in state.spaces}
    for space, value in dice.items():
        state.bag[space.split("-")[0]] -= 1
        state.spaces[space] = value


def rival_turn_with(state, card: str, dice: dict[str, int]):
    board(state, dice)
    if card in state.rival.deck:  # moved to the top, not copied
        state.rival.deck.remove(card)
    state.rival.deck.insert(0, card)
    state.turn = 0
    state.step = "end"
    end_turn(state)
    carry_on(state)
    return state


# --- setup ---------------------------------------------------------------------------------


def test_solo_setup_is_the_two_player_setup_plus_the_opponent():
    state = solo_game()
    assert state.players == 1 and state.rival is not None
    assert state.influence == {"red": 3, "blue": 3, "green": 3}
    assert len(state.removed_tiles) == 7 and len(state.covered) == 1
    assert len(state.seats[0].upgrades) == len(state.rival.upgrades) == 4
    tiles = {*state.seats[0].upgrades, *state.rival.upgrades, *state.covered.values()}
    assert len(tiles) == 9
    assert sorted(state.rival.deck) == sorted(SOLO_CARDS) and len(SOLO_CARDS) == 6
    assert state.first_player == 0 and asked(state) == (0, "contract")


def test_the_ghost_starts_with_0_coal_and_1_indigo_or_2_in_challenge_mode():
    assert solo_game().rival.basics == {"coal": 0, "indigo": 1}
    assert solo_game(challenge=True).rival.basics == {"coal": 0, "indigo": 2}


def test_solo_options_are_refused_in_a_multiplayer_game():
    with pytest.raises(Exception) as refused:
        game.setup({"scenario": "dead-mine"}, 2, 1)
    assert getattr(refused.value, "code", "") == "invalid_options"
    with pytest.raises(Exception) as refused:
        game.setup({"challenge": True}, 3, 1)
    assert getattr(refused.value, "code", "") == "invalid_options"


def test_a_solo_game_without_a_scenario_plays_the_dead_mine():
    assert solo_setup({}, 1).rival.scenario == "dead-mine"


def test_the_opponent_is_not_a_seat_and_is_never_prompted():
    state, movers = solo_playout(1)
    assert movers == {0} and state.players == 1 and len(state.seats) == 1


def test_the_six_solo_mode_cards_favour_no_value_and_no_colour():
    """The design in RULES-NOTES: one card per die value, each of red, blue and green once
    as largest and once as smallest; SM4 is the rulebook's example card."""
    cards = SOLO_CARDS.values()
    assert sorted(c.value for c in cards) == [1, 2, 3, 4, 5, 6]
    picks = sorted((c.colour, c.pick) for c in cards)
    assert picks == sorted(
        (c, p) for c in ("red", "blue", "green") for p in ("largest", "smallest")
    )
    example = SOLO_CARDS["SM4"]
    assert (example.value, example.colour, example.pick) == (4, "green", "largest")


def test_the_player_stays_first_when_the_black_space_would_hand_the_marker_on():
    """The 1-2 side's black space gives "your opponent" the First Player Marker and $1; the
    virtual opponent gains only by its scenario, and "The player is always the First
    Player"."""
    state = solo_game(scenario="burning-hut")
    board(state, {"black-1": 2, "red-2": 4, "blue-1": 1})
    coins = state.seats[0].coins
    state = play(state, 0, DECLINE, {"kind": "take_die", "space": "black-1", "forfeit": False})
    state = play(state, 0, {"kind": "choose_space", "space": "red-2"})
    assert state.first_player == 0 and state.seats[0].coins == coins + 3
    assert state.rival.coins == 0


# --- the opponent's die choice -------------------------------------------------------------


def test_rulebook_example_the_die_of_value_4_first():
    state = rival_turn_with(solo_game(), "SM4", {"red-1": 2, "green-1": 3, "blue-2": 4})
    assert state.rival.dice[-1].value == 4 and state.spaces["blue-2"] is None


def test_rulebook_example_then_the_largest_green_die():
    state = rival_turn_with(solo_game(), "SM4", {"green-1": 2, "green-2": 5, "red-3": 6})
    assert state.spaces["green-2"] is None and state.rival.chosen == ["green"]


def test_a_smallest_colour_card_takes_the_smallest_die():
    state = rival_turn_with(solo_game(), "SM2", {"blue-1": 1, "blue-2": 3, "red-1": 5})
    assert state.spaces["blue-1"] is None


def test_otherwise_right_to_left_top_to_bottom():
    state = rival_turn_with(solo_game(), "SM4", {"red-1": 1, "blue-1": 2, "blue-3": 6})
    assert state.spaces["blue-3"] is None  # no 4, no green: blue is right of red, top first
    state = rival_turn_with(solo_game(), "SM4", {"red-1": 1, "black-1": 2, "green-1": 4})
    assert state.spaces["green-1"] is None
    state = rival_turn_with(solo_game(), "SM1", {"red-2": 3, "black-1": 2, "green-1": 4})
    assert state.spaces["red-2"] is None  # the largest red die comes before the fallback


def test_ties_go_right_to_left_top_to_bottom():
    state = rival_turn_with(solo_game(), "SM4", {"red-1": 4, "green-2": 4})
    assert state.spaces["green-2"] is None


def test_the_opponent_never_triggers_the_space():
    state = solo_game()
    before = (state.seats[0].coins, state.first_player)
    state = rival_turn_with(state, "SM1", {"red-1": 3})  # red-1: First Player, $1...
    assert state.rival.dice[-1].value == 3
    assert (state.seats[0].coins, state.first_player) == before
    assert state.rival.basics["coal"] == 1  # only its scenario action


# --- the Dead Mine's six die actions -------------------------------------------------------


def test_die_1_the_ghost_gains_1_indigo_and_the_player_1_coin():
    state = solo_game()
    coins = state.seats[0].coins
    state = rival_turn_with(state, "SM1", {"red-1": 1})
    assert state.rival.basics["indigo"] == 2 and state.seats[0].coins == coins + 1


def test_die_2_the_player_pays_2_camphor_or_the_ghost_gains_2_indigo():
    state = solo_game()
    give(state, 0, camphor=3)
    state = rival_turn_with(state, "SM2", {"red-1": 2})
    assert asked(state) == (0, "rival_choice")
    assert {m["pay"] for m in legal(state, 0) if m["kind"] == "answer_rival"} == {True, False}
    paid = play(state, 0, {"kind": "answer_rival", "pay": True})
    assert paid.seats[0].camphor == 1 and paid.rival.basics["indigo"] == 1
    refused = play(state, 0, {"kind": "answer_rival", "pay": False})
    assert refused.seats[0].camphor == 3 and refused.rival.basics["indigo"] == 3
    assert asked(paid) == (0, "contract")


@pytest.mark.parametrize(
    ("value", "resources", "text", "pay", "refuse"),
    [
        (
            2,
            {"camphor": 2},
            "The ghost took a 2: pay 2 Camphor, or let the ghost gain 2 Indigo.",
            "Pay the ghost 2 Camphor",
            "Let the ghost gain 2 Indigo",
        ),
        (
            5,
            {"coal": 2},
            "The ghost took a 5: pay 2 Coal, or let the ghost gain 2 Coal.",
            "Pay the ghost 2 Coal",
            "Let the ghost gain 2 Coal",
        ),
    ],
)
def test_the_ghosts_demand_says_what_it_asks(value, resources, text, pay, refuse):
    """The prompt and the buttons name the price and the ghost's gain for the die it took:
    a 2 "pay 2 Camphor, or let the ghost gain 2 Indigo", a 5 "pay 2 Coal, or let the
    ghost gain 2 Coal" (they used to read "pay it (2 Camphor, or 2 Coal)" either way)."""
    state = solo_game()
    give(state, 0, **resources)
    state = rival_turn_with(state, "SM1", {"red-1": value})
    [prompt] = game.prompts(state)
    assert (prompt.kind, prompt.text) == ("rival_choice", text)
    answers = [m for m in game.legal_moves(state, 0) if m.kind == "answer_rival"]
    assert {m.pay: game.label(state, 0, m) for m in answers} == {True: pay, False: refuse}
    for move, label in (({"kind": "answer_rival", "pay": True}, pay), (answers[1], refuse)):
        [made, *_] = game.apply(state, 0, move).events
        assert made.text == label  # the log reads as the button did


def test_die_2_without_2_camphor_the_ghost_simply_gains():
    state = solo_game()
    give(state, 0, camphor=1)
    state = rival_turn_with(state, "SM2", {"red-1": 2})
    assert state.rival.basics["indigo"] == 3 and asked(state) == (0, "contract")


def test_paying_the_ghost_needs_the_resources_still():
    state = solo_game()
    give(state, 0, coal=2)
    state = rival_turn_with(state, "SM5", {"red-1": 5})
    state = play(state, 0, {"kind": "coal_trade", "into": "tea"})
    assert legal(state, 0)[0] == {"kind": "answer_rival", "pay": False}
    with pytest.raises(IllegalMove) as refused:
        play(state, 0, {"kind": "answer_rival", "pay": True})
    assert refused.value.code == "not_enough_coal"
    assert refused.value.message == "Paying the ghost needs 2 Coal; you have 1."


def test_die_3_the_ghost_gains_1_coal():
    state = rival_turn_with(solo_game(), "SM3", {"red-1": 3})
    assert state.rival.basics == {"coal": 1, "indigo": 1}


def test_die_4_the_ghost_gains_2_coal_and_the_player_draws():
    state = solo_game()
    cards = len(state.seats[0].hand)
    state = rival_turn_with(state, "SM4", {"red-1": 4})
    assert state.rival.basics["coal"] == 2 and len(state.seats[0].hand) == cards + 1


def test_with_the_teapot_market_the_ghosts_4_lets_the_player_draw_from_the_market():
    state = solo_game(teapot_market=True)
    card = state.market[1]
    state = rival_turn_with(state, "SM4", {"red-1": 4})
    assert state.rival.basics["coal"] == 2 and asked(state) == (0, "draw")
    state = play(state, 0, {"kind": "draw_card", "card": card})
    assert card in state.seats[0].hand and card not in state.market
    assert len(state.market) == 3 and asked(state) == (0, "contract")


def test_die_5_the_player_pays_2_coal_or_the_ghost_gains_2_coal():
    state = solo_game()
    give(state, 0, coal=2)
    state = rival_turn_with(state, "SM5", {"red-1": 5})
    paid = play(state, 0, {"kind": "answer_rival", "pay": True})
    assert paid.seats[0].basics["coal"] == 0 and paid.rival.basics["coal"] == 0
    refused = play(state, 0, {"kind": "answer_rival", "pay": False})
    assert refused.rival.basics["coal"] == 2


def test_die_6_the_ghost_gains_6_vp():
    state = rival_turn_with(solo_game(), "SM6", {"red-1": 6})
    assert state.rival.vp["die_actions"] == 6


def test_the_opponents_steps_are_events():
    state = solo_game()
    board(state, {"red-1": 1, "red-2": 3})
    state.rival.deck.insert(0, "SM3")
    state = play(state, 0, DECLINE, {"kind": "take_die", "space": "red-1", "forfeit": True})
    texts: list[str] = []
    while not state.rival.revealed:  # the player's turn ends, then the ghost's is played
        outcome = game.apply(state, 0, legal(state, 0)[-1])
        texts += [e.text for e in outcome.events if e.kind == "opponent_acted"]
        state = outcome.state
    assert state.rival.log == []
    assert texts == ["the ghost reveals SM3 and takes the 3 on red-2", "the ghost gains 1 Coal"]


# --- overflow and the loss -----------------------------------------------------------------


def test_coal_overflows_into_indigo_and_indigo_into_coal():
    state = solo_game()
    state.rival.basics = {"coal": 9, "indigo": 1}
    state = rival_turn_with(state, "SM4", {"red-1": 4})
    assert state.rival.basics == {"coal": 10, "indigo": 2}
    state.rival.basics = {"coal": 3, "indigo": 10}
    state = rival_turn_with(state, "SM1", {"red-1": 1})
    assert state.rival.basics == {"coal": 4, "indigo": 10}


def test_both_full_the_player_loses_at_once_and_is_told_why():
    state = solo_game()
    state.round = 4
    state.rival.basics = {"coal": 10, "indigo": 9}
    state = rival_turn_with(state, "SM3", {"red-1": 3})
    assert state.over and game.prompts(state) == []
    won, why, _, _ = solo_outcome(state)
    assert not won and why == "You lost: the ghost's Coal and Indigo were both full in round 4."


# --- income, upkeep, scoring ---------------------------------------------------------------


def test_after_income_the_ghost_scores_coal_times_indigo_pushes_dice_back_and_flips_a_tile():
    state = solo_game()
    state.rival.basics = {"coal": 3, "indigo": 4}
    state.rival.chosen = ["blue", "green", "red", "red"]  # the rulebook's example
    covered = dict(state.covered)
    state.round, state.turn = 3, 8
    event_phase(state)
    carry_on(state)
    assert state.rival.vp["income"] == 12
    assert state.influence == {"red": 1, "blue": 2, "green": 2}
    assert state.rival.chosen == []
    flipped = set(state.covered.values()) - set(covered.values())
    assert len(flipped) == 1 and sum(t is not None for t in state.rival.upgrades) == 3
    [tile] = flipped
    assert state.covered[TILES[tile].space] == tile


def test_its_deck_is_reshuffled_and_its_dice_return_in_the_upkeep_of_rounds_3_and_5():
    state, _ = solo_playout(3)
    assert state.over and state.round == ROUNDS
    assert len(state.rival.deck) + len(state.rival.revealed) == 6
    assert len(state.rival.revealed) == 4 and len(state.rival.dice) == 4


@pytest.mark.parametrize("round_", [2, 3, 4, 5, 6])
def test_its_revealed_cards_and_dice_go_back_only_in_the_upkeep_of_rounds_3_and_5(round_):
    state = rival_turn_with(solo_game(), "SM3", {"red-1": 3})
    state = rival_turn_with(state, "SM6", {"blue-1": 6})
    state.round = round_
    upkeep(state)
    if round_ in (3, 5):
        assert state.rival.revealed == [] and sorted(state.rival.deck) == sorted(SOLO_CARDS)
        assert state.rival.dice == []
    else:
        assert state.rival.revealed == ["SM3", "SM6"] and len(state.rival.deck) == 4
        assert [d.value for d in state.rival.dice] == [3, 6]


def test_the_opponent_counts_4_lanterns_of_each_colour():
    state = solo_game()
    state.seats[0].lantern_tokens = {"red": 5, "yellow": 4, "blue": 1}
    mine = breakdowns(state)[0]
    assert (mine["red_lanterns"], mine["yellow_lanterns"], mine["blue_lanterns"]) == (5, 2, 0)
    _, _, _, theirs = solo_outcome(state)
    assert (theirs["red_lanterns"], theirs["yellow_lanterns"], theirs["blue_lanterns"]) == (0, 2, 5)


def test_the_ghost_scores_coal_times_indigo_again_at_the_end():
    state = solo_game()
    state.rival.basics = {"coal": 5, "indigo": 2}
    state.round, state.turn, state.step = ROUNDS, 7, "end"
    carry_on(state)
    assert state.over and state.rival.vp["final"] == 10


def test_the_player_wins_with_more_vp_or_a_tie_as_first_player():
    """ "If there is a tie, the tied player whose turn order is closest to the current First
    Player Marker owner wins", and "The player is always the First Player"."""
    state = solo_game()
    state.over = True
    mine = sum(breakdowns(state)[0].values())
    theirs = sum(solo_outcome(state)[3].values())
    state.seats[0].vp += theirs - mine - 1
    assert solo_outcome(state)[:2] == (
        False,
        f"You lost: the ghost scored {theirs} VP to your {theirs - 1}.",
    )
    state.seats[0].vp += 1
    assert solo_outcome(state)[:2] == (
        True,
        f"You won the tie as First Player, {theirs} VP to the ghost's {theirs}.",
    )
    state.seats[0].vp += 1
    assert solo_outcome(state)[:2] == (True, f"You won, {theirs + 1} VP to the ghost's {theirs}.")


def test_a_win_against_the_raiders_is_told_in_good_english():
    state = raiders()
    state.over = True
    mine = sum(breakdowns(state)[0].values())
    theirs = sum(solo_outcome(state)[3].values())
    state.seats[0].vp += theirs - mine + 2
    assert solo_outcome(state)[:2] == (True, f"You won, {theirs + 2} VP to the Raiders' {theirs}.")


def test_a_tie_does_not_undo_a_loss_during_the_game():
    state = raiders()
    state.over = True
    state.rival.lost = "the Raiders' Tea reached 10 in round 4"
    state.seats[0].vp += sum(solo_outcome(state)[3].values()) - sum(breakdowns(state)[0].values())
    assert solo_outcome(state)[:2] == (False, "You lost: the Raiders' Tea reached 10 in round 4.")


# --- Scenario II: The Burning Hut ------------------------------------------------------------


def raiders(**options):
    return solo_game(scenario="burning-hut", **options)


def test_the_raiders_start_with_1_of_each_basic_resource_or_2_in_challenge_mode():
    assert raiders().rival.basics == {"coal": 1, "indigo": 1, "tea": 1, "yam": 1}
    assert raiders(challenge=True).rival.basics == {"coal": 2, "indigo": 2, "tea": 2, "yam": 2}


def test_the_raiders_deck_is_face_up_the_ghosts_face_down():
    state = raiders()
    assert game.view(state, None).opponent.next_card == state.rival.deck[0]
    assert game.view(state, 0).opponent.next_card == state.rival.deck[0]
    assert game.view(solo_game(), 0).opponent.next_card is None


def test_no_view_shows_the_order_of_the_ghosts_deck_and_only_the_raiders_top_card():
    for scenario in ("dead-mine", "burning-hut"):
        state = rival_turn_with(solo_game(scenario=scenario), "SM3", {"red-1": 3, "red-2": 4})
        shown = {state.rival.deck[0]} if scenario == "burning-hut" else set()
        for viewer in (None, 0):
            view = orjson.dumps(game.view(state, viewer).model_dump(mode="json"))
            assert set(re.findall(rb"SM\d", view)) == {c.encode() for c in {"SM3", *shown}}


def test_die_1_the_raiders_plunder_1_indigo():
    state = raiders()
    give(state, 0, indigo=3)
    state = rival_turn_with(state, "SM1", {"red-1": 1})
    assert state.seats[0].basics["indigo"] == 2 and state.rival.basics["indigo"] == 2


def test_die_2_plunders_2_tea_and_blockades_tea():
    state = raiders()
    give(state, 0, tea=5)
    state = rival_turn_with(state, "SM2", {"red-1": 2})
    assert (state.seats[0].basics["tea"], state.rival.basics["tea"]) == (3, 3)
    assert state.rival.blockades == ["tea"]


def test_a_player_short_of_the_plunder_pays_all_they_have():
    state = raiders()
    give(state, 0, yam=1)
    state = rival_turn_with(state, "SM3", {"red-1": 3})
    assert (state.seats[0].basics["yam"], state.rival.basics["yam"]) == (0, 2)
    assert state.rival.blockades == ["yam"]


def test_a_blockaded_resource_cannot_be_paid_but_coal_substitutes():
    state = raiders()
    state.rival.blockades = ["tea"]
    give(state, 0, tea=4, coal=0)
    assert not [m for m in legal(state, 0) if m["kind"] == "influence_contract"]
    with pytest.raises(IllegalMove) as refused:
        play(state, 0, {"kind": "influence_contract", "tracks": ["green"]})
    assert refused.value.code == "influence_refused"
    give(state, 0, coal=2)
    state = play(state, 0, {"kind": "influence_contract", "tracks": ["green"]})
    assert state.influence["green"] == 4 and state.seats[0].basics["coal"] == 0
    assert state.seats[0].basics["tea"] >= 4  # untouched (the train's reward may add some)


def test_a_contract_paid_in_a_blockaded_resource_needs_the_coal_instead():
    """E2A's "pay 2 Tea to advance the train" with Tea blockaded: 4 Tea do not pay it, 2
    Coal do."""
    state = raiders()
    state.eras = ["E2A", "E1A", "E3A"]
    state.rival.blockades = ["tea"]
    give(state, 0, tea=4, coal=0)
    assert {"kind": "era_contract", "option": 0} not in legal(state, 0)
    with pytest.raises(IllegalMove) as refused:
        play(state, 0, {"kind": "era_contract", "option": 0})
    assert refused.value.code == "cannot_afford" and "2 Coal" in refused.value.message
    give(state, 0, coal=2)
    assert {"kind": "era_contract", "option": 0} in legal(state, 0)


def test_coal_substituting_a_blockade_is_counted_with_the_coal_asked_beside_it():
    state = raiders()
    [convert] = [e for e in CARDS["T22"].contract if e.kind == "convert"]  # 1 Coal + 1 Tea
    give(state, 0, coal=3, tea=5)
    assert most_conversions(state, 0, convert) == 2
    state.rival.blockades = ["tea"]
    assert most_conversions(state, 0, convert) == 1  # 2 Coal a time now
    pay(state, 0, "tea", 1)
    assert (state.seats[0].basics["coal"], state.seats[0].basics["tea"]) == (2, 5)


def test_a_blockaded_resource_can_still_be_gained_and_plundered():
    state = raiders()
    state.rival.blockades = ["tea"]
    give(state, 0, tea=4)
    state = rival_turn_with(state, "SM2", {"red-1": 2})
    assert state.seats[0].basics["tea"] == 2 and state.rival.blockades == ["tea"]


def test_a_sky_lantern_development_lifts_all_blockades():
    state = raiders()
    state.rival.blockades = ["tea", "yam"]
    give(state, 0, coins=20)
    state.deck.remove("T01")
    state.seats[0].hand.append("T01")
    develop(state, 0, "T01", "railway", 0)
    assert state.rival.blockades == ["tea", "yam"]
    state.seats[0].hand.append(state.deck.pop())
    develop(state, 0, state.seats[0].hand[-1], "lantern", 0)
    assert state.rival.blockades == []


def test_die_4_the_player_draws_and_is_plundered_of_its_contract_price():
    state = raiders()
    give(state, 0, indigo=1, yam=0)
    state.deck.remove("T08")  # its contract: pay 1 Indigo and 1 Dyeing Yam
    state.deck.append("T08")  # the top card
    state = rival_turn_with(state, "SM4", {"red-1": 4})
    assert "T08" in state.seats[0].hand
    assert (state.seats[0].basics["indigo"], state.rival.basics["indigo"]) == (0, 2)
    assert state.rival.basics["yam"] == 1  # the player had none to give


def market_with(state, card: str):
    """The Teapot market with `card` in its first place (the card it replaces to the deck)."""
    if card not in state.market:
        state.deck.remove(card)
        state.deck.append(state.market[0])
        state.market[0] = card


def test_with_the_teapot_market_the_raiders_plunder_the_price_of_the_card_the_player_takes():
    state = raiders(teapot_market=True)
    market_with(state, "T08")  # its contract: pay 1 Indigo and 1 Dyeing Yam
    give(state, 0, indigo=2, yam=1)
    state = rival_turn_with(state, "SM4", {"red-1": 4})
    assert asked(state) == (0, "draw") and state.seats[0].basics["indigo"] == 2
    outcome = game.apply(state, 0, {"kind": "draw_card", "card": "T08"})
    state = outcome.state
    assert "T08" in state.seats[0].hand
    assert (state.seats[0].basics["indigo"], state.seats[0].basics["yam"]) == (1, 0)
    assert (state.rival.basics["indigo"], state.rival.basics["yam"]) == (2, 2)
    steps = [e.text for e in outcome.events if e.kind == "opponent_acted"]
    assert steps[-2:] == ["the Raiders plunder 1 Indigo", "the Raiders plunder 1 Dyeing Yams"]
    assert asked(state) == (0, "contract")


def test_with_the_teapot_market_the_deck_top_may_be_drawn_and_plundered_for():
    state = raiders(teapot_market=True)
    if "T08" in state.market:
        state.market[state.market.index("T08")] = state.deck.pop(0)
    else:
        state.deck.remove("T08")
    state.deck.append("T08")  # the top card; its contract: pay 1 Indigo and 1 Dyeing Yam
    give(state, 0, indigo=3, yam=3)
    state = rival_turn_with(state, "SM4", {"red-1": 4})
    state = play(state, 0, {"kind": "draw_card", "card": None})
    assert "T08" in state.seats[0].hand
    assert (state.seats[0].basics["indigo"], state.seats[0].basics["yam"]) == (2, 2)


def test_die_5_the_raiders_plunder_2_coins():
    state = raiders()
    give(state, 0, coins=3)
    state = rival_turn_with(state, "SM5", {"red-1": 5})
    assert (state.seats[0].coins, state.rival.coins) == (1, 2)
    assert state.coins_supply + state.seats[0].coins + state.rival.coins == 60


def test_die_6_plunders_half_the_most_plentiful_basic_rounded_up():
    state = raiders()
    give(state, 0, indigo=2, tea=5, yam=5, coal=1)
    state = rival_turn_with(state, "SM6", {"red-1": 6})
    assert state.seats[0].basics == {"coal": 1, "indigo": 2, "tea": 2, "yam": 5}
    assert state.rival.basics["tea"] == 1 + 3


def test_a_raiders_resource_at_10_loses_the_game_and_says_why():
    state = raiders()
    state.round = 4
    state.rival.basics["tea"] = 8
    give(state, 0, tea=2)
    state = rival_turn_with(state, "SM2", {"red-1": 2})
    assert state.over and game.prompts(state) == []
    result = game.result(state)
    assert result.winners == [] and result.opponent.name == "The Raiders"
    assert result.summary == "You lost: the Raiders' Tea reached 10 in round 4."


def test_the_raiders_score_all_their_resources_at_income_and_at_the_end():
    state = raiders()
    state.rival.basics = {"coal": 2, "indigo": 3, "tea": 1, "yam": 0}
    state.rival.coins, state.rival.camphor = 4, 1
    state.round, state.turn = 5, 8
    event_phase(state)
    carry_on(state)
    assert state.rival.vp["income"] == 11
    state.round, state.turn, state.step = ROUNDS, 7, "end"
    carry_on(state)
    assert state.over and state.rival.vp["final"] == 11


def test_the_result_says_whether_the_solo_player_won():
    state = solo_game()
    state.over, state.step = True, "over"
    theirs = sum(solo_outcome(state)[3].values())
    state.seats[0].vp += theirs - sum(breakdowns(state)[0].values()) - 1
    lost = game.result(state)
    assert lost.winners == [] and lost.standings[0].rank == 2
    assert lost.standings[0].score == theirs - 1
    assert lost.summary == f"You lost: the ghost scored {theirs} VP to your {theirs - 1}."
    assert lost.opponent.name == "The ghost of the Dead Mine" and lost.opponent.rank == 1
    assert lost.opponent.breakdown == solo_outcome(state)[3]
    state.seats[0].vp += 2
    won = game.result(state)
    assert won.winners == [0] and won.standings[0].rank == 1
    assert won.standings[0].breakdown == breakdowns(state)[0]
    assert won.opponent.rank == 2 and won.opponent.score == theirs
    assert won.summary == f"You won, {theirs + 1} VP to the ghost's {theirs}."


def test_a_solo_game_is_set_up_and_played_through_the_contract():
    record = play_match(game, [RandomBot(4)], seed=4, config={"scenario": "burning-hut"})
    assert {seat for seat, _ in record.moves} == {0}
    assert len(record.result.standings) == 1
    assert (record.result.winners == [0]) == solo_outcome(record.state)[0]


# --- random games ----------------------------------------------------------------------------


@pytest.mark.parametrize("challenge", [False, True])
@pytest.mark.parametrize("scenario", ["dead-mine", "burning-hut"])
def test_random_solo_games_keep_the_rules(scenario, challenge):
    options = {"scenario": scenario, "challenge": challenge}
    for seed in range(max(GAMES // 4, 4)):
        state, _ = solo_playout(seed, options)
        assert state.over and game.prompts(state) == []
        rival = state.rival
        assert all(0 <= n <= 10 for n in rival.basics.values())
        dice = sum(state.bag.values()) + sum(v is not None for v in state.spaces.values())
        dice += sum(d is not None for d in [*state.seats[0].core, *state.seats[0].compensation])
        assert dice + len(rival.dice) + 3 == 13
        tiles = [t for t in state.seats[0].upgrades + rival.upgrades if t]
        assert len(tiles) + len(state.covered) == 9
        won, why, mine, theirs = solo_outcome(state)
        assert won == (rival.lost is None and sum(mine.values()) > sum(theirs.values()))
        assert why.startswith("You won" if won else "You lost")
        assert game.load_state(game.dump_state(state)) == state
        coins = state.coins_supply + state.seats[0].coins + rival.coins
        assert coins == 60 and state.camphor_supply + state.seats[0].camphor + rival.camphor == 15
