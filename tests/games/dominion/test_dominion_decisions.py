"""Decisions as data: multiset answers, forced answers, and very large choices taken one
card at a time."""

from dominion_kit import buy_event, choose, me, new_game, prompt, start

from services.games.dominion import game
from services.games.dominion.decisions import STEPWISE_LIMIT, count_answers
from services.games.dominion.state import Ask


def test_answers_are_counted_as_multisets():
    assert count_answers(["Copper"] * 3 + ["Estate"] * 2, 2, 2) == 3
    assert count_answers(["A", "B", "C"], 0, 3) == 8


def test_a_huge_choice_is_taken_one_card_at_a_time():
    hand = [
        "Copper",
        "Silver",
        "Gold",
        "Estate",
        "Duchy",
        "Province",
        "Curse",
        "Alley",
        "Litter",
        "Ninja",
        "Ronin",
        "Daimyo",
    ]
    assert count_answers(hand, 0, 12) > STEPWISE_LIMIT
    state = start(new_game(events=["Asceticism"]), hand=hand, phase="buy", coins=14, buys=2)
    state = buy_event(state, "Asceticism")
    assert (prompt(state).min_picks, prompt(state).max_picks) == (0, 1)
    assert len(game.legal_moves(state, 0)) == len(hand) + 1
    state = choose(state, "Curse")
    state = choose(state, "Estate")
    assert "Curse" not in prompt(state).options and "picked so far" in prompt(state).text
    state = choose(state)
    assert sorted(state.trash) == ["Curse", "Estate"] and state.turn.coins == 10
    assert len(me(state).hand) == 10


def test_a_stepwise_choice_with_a_minimum_cannot_stop_early():
    ask = Ask(seat=0, kind="discard", text="x", options=["A", "B"], min=1, max=2, stepwise=True)
    from services.games.dominion.decisions import answers, problem_with

    assert [] not in answers(ask)
    assert problem_with(ask, []) is not None
