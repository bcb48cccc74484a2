"""The solo opponent's steps as data: each `opponent_acted` event says what kind of step
it is (`action`) and gives the fields that step uses, beside its words (`text`)."""

from __future__ import annotations

import pytest
from sky_lanterns_kit import give, legal, play

from services.ai import RandomBot
from services.engine import copy_state
from services.games.sky_lanterns import game
from services.games.sky_lanterns.solo import NAMED
from services.games.sky_lanterns.state import SkyLanternsState

WORDS = ("kind", "seat", "text")


def solo_game(scenario: str = "dead-mine", **options) -> SkyLanternsState:
    return copy_state(game.setup({"scenario": scenario, **options}, 1, 1))


def steps_of(events) -> list[dict]:
    """The `opponent_acted` events as a spectator reads them, without kind, seat, text."""
    seen = [e.visible_to(None) for e in events if e.kind == "opponent_acted"]
    return [{k: v for k, v in event.items() if k not in WORDS} for event in seen]


def opponents_turn(state: SkyLanternsState, card: str, value: int):
    """The player takes red-1 (forfeiting it) and ends the turn; then the opponent, with
    Solo Mode `card` on top, takes the only die left: `value` on blue-1. Its steps, and
    the state after them."""
    for space, die in state.spaces.items():
        if die is not None:
            state.bag[space.split("-")[0]] += 1
    state.spaces = dict.fromkeys(state.spaces)
    for space, die in (("red-1", 1), ("blue-1", value)):
        state.bag[space.split("-")[0]] -= 1
        state.spaces[space] = die
    state.rival.deck.remove(card)
    state.rival.deck.insert(0, card)
    state = play(
        state, 0, {"kind": "decline"}, {"kind": "take_die", "space": "red-1", "forfeit": True}
    )
    steps: list[dict] = []
    while not state.rival.revealed:  # no trade may spend what the opponent asks for
        choices = [m for m in legal(state, 0) if not m["kind"].endswith("_trade")]
        outcome = game.apply(state, 0, choices[-1])
        steps += steps_of(outcome.events)
        state = outcome.state
    return steps, state


def took(card: str, value: int) -> dict:
    return {"action": "take_die", "card": card, "space": "blue-1", "value": value}


@pytest.mark.parametrize(
    "value,then",
    [
        (1, {"action": "gain", "resource": "indigo", "amount": 1, "player_gains": {"coins": 1}}),
        (3, {"action": "gain", "resource": "coal", "amount": 1}),
        (4, {"action": "gain", "resource": "coal", "amount": 2, "player_gains": {"cards": 1}}),
        (6, {"action": "gain", "resource": "vp", "amount": 6}),
    ],
)
def test_the_ghosts_die_actions_are_data(value, then):
    steps, _ = opponents_turn(solo_game(), "SM3", value)
    assert steps == [took("SM3", value), then]


def test_the_ghosts_demand_paid_or_refused_is_data():
    state = solo_game()
    give(state, 0, camphor=3)
    steps, state = opponents_turn(state, "SM2", 2)
    assert steps == [took("SM2", 2)]
    for pays, step in (
        (True, {"action": "pay", "resource": "camphor", "amount": 2}),
        (False, {"action": "gain", "resource": "indigo", "amount": 2}),
    ):
        outcome = game.apply(state, 0, {"kind": "answer_rival", "pay": pays})
        assert steps_of(outcome.events) == [step]


def test_the_raiders_plunder_blockade_and_draw_are_data():
    state = solo_game("burning-hut")
    give(state, 0, tea=5)
    steps, _ = opponents_turn(state, "SM2", 2)
    assert steps == [
        took("SM2", 2),
        {"action": "plunder", "resource": "tea", "amount": 2},
        {"action": "blockade", "resource": "tea"},
    ]
    steps, _ = opponents_turn(solo_game("burning-hut"), "SM4", 4)
    assert steps[:2] == [took("SM4", 4), {"action": "draw", "player_gains": {"cards": 1}}]
    assert all(step["action"] == "plunder" for step in steps[2:])


NAMES = {"dead-mine": "the ghost", "burning-hut": "the Raiders"}


def words_for(event: dict, scenario: str) -> str:
    """What the step's `text` says, made from its data alone."""
    name = NAMES[scenario]
    action, amount = event["action"], event.get("amount")
    resource = NAMED.get(event.get("resource") or "")
    if action == "take_die":
        verbs = ("reveals", "takes") if scenario == "dead-mine" else ("reveal", "take")
        return (
            f"{name} {verbs[0]} {event['card']} and {verbs[1]} the {event['value']} on "
            f"{event['space']}"
        )
    if action == "gain":
        then = {None: "", "coins": "; you gain $1", "cards": "; you draw a card"}
        gains = event.get("player_gains")
        assert gains in (None, {"coins": 1}, {"cards": 1})
        return f"the ghost gains {amount} {resource}" + then[next(iter(gains or {None: 0}))]
    if action == "pay":
        return f"you pay {amount} {resource} to the ghost's demand"
    if action == "plunder":
        return f"the Raiders plunder {amount} {resource}"
    if action == "blockade":
        return f"the Raiders blockade your {resource}"
    if action == "draw":
        assert event["player_gains"] == {"cards": 1}
        return "you draw a card"
    assert action == "flip_tile"
    flips = "flips" if scenario == "dead-mine" else "flip"
    return f"{name} {flips} {event['tile']} onto {event['space']}"


@pytest.mark.parametrize("scenario", ["dead-mine", "burning-hut"])
def test_random_solo_games_log_steps_whose_data_says_what_their_words_say(scenario):
    actions: set[str] = set()
    for seed in range(6):
        state = game.setup({"scenario": scenario, "teapot_market": seed % 2 == 1}, 1, seed)
        bot = RandomBot(seed)
        while game.prompts(state):
            outcome = game.apply(state, 0, bot.choose(game, state, 0))
            for event in outcome.events:
                if event.kind != "opponent_acted":
                    continue
                seen = event.visible_to(None)
                assert seen == event.visible_to(0) and seen["seat"] is None
                assert seen["text"] == words_for(seen, scenario)
                if seen["action"] == "flip_tile":
                    assert outcome.state.covered[seen["space"]] == seen["tile"]
                actions.add(seen["action"])
            state = outcome.state
    if scenario == "dead-mine":
        assert (
            {"take_die", "gain", "flip_tile"} <= actions <= {"take_die", "gain", "pay", "flip_tile"}
        )
    else:
        assert actions == {"take_die", "plunder", "blockade", "draw", "flip_tile"}
