"""Move labels are what a player reads on a button (the playground draws one per legal
move), so every move on offer has its own label: two buttons that read the same but do
different things would leave the player guessing."""

from __future__ import annotations

import os
import random

import pytest
from sky_lanterns_kit import give, play, table

from services.games.sky_lanterns import game

GAMES = int(os.environ.get("SKYPORT_LABEL_GAMES", "6"))
TABLES = [
    pytest.param(1, {"scenario": "dead-mine"}, id="solo-dead-mine"),
    pytest.param(1, {"scenario": "burning-hut", "challenge": True}, id="solo-burning-hut"),
    pytest.param(2, {}, id="two-players"),
    pytest.param(3, {"starting_card_draft": True, "teapot_market": True}, id="three-variants"),
    pytest.param(4, {"unique_player_boards": True}, id="four-unique-boards"),
]


@pytest.mark.parametrize(("players", "options"), TABLES)
def test_every_move_on_offer_has_its_own_label(players: int, options: dict):
    kinds_seen: set[str] = set()
    for seed in range(GAMES):
        state = game.setup(options, players, seed)
        pick = random.Random(seed)
        while prompts := game.prompts(state):
            seat = prompts[0].seat
            moves = game.legal_moves(state, seat)
            labels = [game.describe(move) for move in moves]
            assert all(labels) and len(set(labels)) == len(labels), (prompts[0].kind, labels)
            kinds_seen.update(move.kind for move in moves)
            state = game.apply(state, seat, pick.choice(moves)).state
    assert {"take_die", "place_core", "develop"} <= kinds_seen


def test_answering_the_ghost_says_whether_you_pay_it():
    """Dead Mine: "the player chooses to either pay 2 X, or let the ghost gain 2 Y"."""
    for seed in range(40):
        state = game.setup({"scenario": "dead-mine"}, 1, seed)
        pick = random.Random(seed)
        while prompts := game.prompts(state):
            moves = game.legal_moves(state, 0)
            if prompts[0].kind == "rival_choice":
                answers = [move for move in moves if move.kind == "answer_rival"]
                labels = {move.pay: game.describe(move) for move in answers}
                assert labels == {True: "Pay the ghost", False: "Let the ghost gain"}
                return
            state = game.apply(state, 0, pick.choice(moves)).state
    pytest.fail("no Dead Mine game in 40 asked the player to answer the ghost")


def test_labels_name_resources_as_the_rulebook_does():
    """ "Dyeing Yam", not the data's "yam"; a choice of resource says how much."""
    state = table(dice={"blue-4": 1})
    give(state, 0, coal=1)
    state = play(state, 0, {"kind": "decline"}, {"kind": "take_die", "space": "blue-4"})
    labels = [game.label(state, 0, m) for m in game.legal_moves(state, 0)]
    assert labels[:3] == ["Gain 2 Indigo", "Gain 2 Tea", "Gain 2 Dyeing Yams"]
    assert labels[3:] == [
        "Trade 1 Coal for 1 Indigo",
        "Trade 1 Coal for 1 Tea",
        "Trade 1 Coal for 1 Dyeing Yam",
    ]
    assert [game.describe(m) for m in game.legal_moves(state, 0)][:3] == [
        "Gain Indigo",
        "Gain Tea",
        "Gain Dyeing Yams",
    ]
