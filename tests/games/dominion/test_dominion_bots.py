"""Bots' game knowledge: the Big Money baseline and the evaluation."""

from dominion_kit import me, new_game, play, prompt, start

from services.ai import RandomBot, play_match
from services.games.dominion import game
from services.games.dominion.big_money import BigMoneyBot, wanted_card
from services.games.dominion.card_effects import SPECIALS
from services.games.dominion.cards import CARDS, EVENTS
from services.games.dominion.evaluation import evaluate
from services.games.dominion.event_effects import EVENT_EFFECTS


def test_every_special_card_and_every_event_has_its_rules_function():
    assert set(SPECIALS) == {name for name, card in CARDS.items() if card.special}
    assert set(EVENT_EFFECTS) == set(EVENTS)


def test_big_money_buys_by_the_classic_rule():
    assert wanted_card(8, 8) == "Province" and wanted_card(11, 1) == "Province"
    assert wanted_card(6, 8) == "Gold" and wanted_card(7, 5) == "Gold"
    assert wanted_card(3, 8) == "Silver" and wanted_card(5, 8) == "Silver"
    assert wanted_card(6, 2) == "Duchy" and wanted_card(5, 3) == "Duchy"
    assert wanted_card(2, 8) is None and wanted_card(2, 1) == "Estate"


def test_big_money_against_big_money_finishes_with_provinces():
    record = play_match(game, [BigMoneyBot(), BigMoneyBot()], seed=3)
    assert record.state.over and record.state.supply["Province"] == 0
    turns = [p.turns for p in record.state.player_states]
    assert 10 <= sum(turns) / 2 <= 30


def test_big_money_beats_random_play():
    wins = 0
    for seed in range(6):
        record = play_match(game, [BigMoneyBot(), RandomBot(seed)], seed=seed)
        wins += record.result.winners == [0]
    assert wins >= 5


def test_big_money_answers_the_decisions_cards_put_to_it():
    for seed in range(4):
        config = {"recommended": "Dawn of an Era"}
        play_match(game, [BigMoneyBot(), RandomBot(seed), BigMoneyBot()], seed, config)


def test_big_money_discards_its_worst_cards_to_an_attack():
    state = start(new_game("Ninja"), hand=["Ninja"], deck=["Copper"])
    me(state, 1).hand = ["Gold", "Estate", "Copper", "Curse", "Silver"]
    state = play(state, "Ninja")
    move = BigMoneyBot().choose(game, state, 1)
    assert sorted(move.picks) == ["Curse", "Estate"]
    assert prompt(state).seat == 1


def test_the_evaluation_prefers_the_seat_that_is_ahead():
    state = new_game()
    assert evaluate(state, 0) == evaluate(state, 1) == 0
    me(state, 0).deck.append("Province")
    assert evaluate(state, 0) > 0 > evaluate(state, 1)
    me(state, 1).deck += ["Gold", "Gold"]
    assert evaluate(state, 1) > -6


def test_the_evaluation_of_a_finished_game_is_the_result():
    record = play_match(game, [BigMoneyBot(), BigMoneyBot()], seed=5)
    winner = record.result.winners[0]
    assert evaluate(record.state, winner) == 100.0
