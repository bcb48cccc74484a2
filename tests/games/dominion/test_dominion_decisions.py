"""Decisions as data: multiset answers, forced answers, and very large choices taken one
card at a time."""

from dominion_kit import buy_event, choose, me, new_game, play, prompt, start

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


# --- what others learn of an answer ---------------------------------------------------


def seen_by_others(state, *picks: str) -> list[dict]:
    """The events of answering, as seat 1 (not the chooser) may see them."""
    events = game.apply(state, 0, {"kind": "choose", "picks": list(picks)}).events
    return [event.visible_to(1) for event in events]


def test_a_card_put_on_the_deck_is_not_told_through_the_answer():
    """Harbinger, Artisan, Secret Passage and Sentry put cards back face down: the answer
    was logged as a public "chose" event naming the card, next to the redacted one."""
    state = start(new_game("Harbinger"), hand=["Harbinger"], deck=["Copper"], discard=["Gold"])
    harbinger = seen_by_others(play(state, "Harbinger"), "Gold")
    state = start(new_game("Artisan"), hand=["Artisan", "Province"], deck=["Copper"] * 5)
    artisan = seen_by_others(choose(play(state, "Artisan"), "Silver"), "Province")
    state = start(new_game("Secret Passage"), hand=["Secret Passage", "Province"], deck=["Gold"])
    secret_passage = seen_by_others(play(state, "Secret Passage"), "Province")
    state = start(new_game("Sentry"), hand=["Sentry"], deck=["Copper", "Silver", "Gold"])
    sentry = seen_by_others(choose(choose(play(state, "Sentry"))), "Gold")
    for seen in (harbinger, artisan, secret_passage, sentry):
        assert "Gold" not in str(seen) and "Province" not in str(seen), seen
        assert not [e for e in seen if e["kind"] == "chose"]


def test_declining_baron_does_not_tell_that_an_estate_was_held():
    """Baron asks only a player holding an Estate; saying no gains one, as having none
    does, so nothing in the events may tell the two apart."""
    state = start(new_game("Baron"), hand=["Baron", "Estate", "Copper"], deck=["Copper"] * 5)
    declined = seen_by_others(play(state, "Baron"), "No")
    state = start(new_game("Baron"), hand=["Baron", "Copper", "Copper"], deck=["Copper"] * 5)
    without = [
        e.visible_to(1) for e in game.apply(state, 0, {"kind": "play_card", "card": "Baron"}).events
    ]
    assert [e["kind"] for e in declined] == [
        e["kind"] for e in without if e["kind"] != "card_played"
    ]


def test_announced_answers_are_told_to_everyone():
    state = play(start(new_game("Lurker"), hand=["Lurker"], deck=["Copper"] * 5), "Lurker")
    option = prompt(state).options[0]
    seen = seen_by_others(state, option)
    assert [e["picks"] for e in seen if e["kind"] == "chose"] == [[option]]
