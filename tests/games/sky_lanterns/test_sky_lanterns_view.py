"""Views: hands only for their owner, face-down Upgrade Tiles for nobody, the deck as a
count; and what the bots use to search (determinize, evaluate)."""

import random

import orjson
import pytest
from sky_lanterns_kit import give, new_game, play, table

from services.ai import play_match
from services.ai.greedy import GreedyBot
from services.ai.mcts import MctsBot
from services.engine import Rng, copy_state
from services.games.sky_lanterns import game
from services.games.sky_lanterns.rounds import carry_on, end_turn


def test_a_hand_is_shown_to_its_owner_only():
    state = new_game()
    for viewer in (None, 0, 1, 2, 3):
        players = game.view(state, viewer).players
        for seat, player in enumerate(players):
            assert player.hand_size == 3
            assert player.hand == (state.seats[seat].hand if seat == viewer else None)


def test_face_down_upgrade_tiles_are_hidden_even_from_their_owner():
    state = new_game()
    for viewer in (None, 0, 1):
        text = orjson.dumps(game.view(state, viewer).model_dump(mode="json")).decode()
        assert not any(tile in text for p in state.seats for tile in p.upgrades)
        spaces = game.view(state, viewer).players[0].upgrade_spaces
        assert [s.face_down for s in spaces] == [True] * 4


def test_a_flipped_tile_shows_on_the_main_board():
    state = table(dice={"green-3": 3})
    state.seats[0].train = 5
    tile = state.seats[0].upgrades[2]
    state = play(
        state,
        0,
        {"kind": "decline"},
        {"kind": "take_die", "space": "green-3"},
        {"kind": "upgrade", "position": 2},
    )
    view = game.view(state, 1)
    assert [s.upgrade_tile for s in view.dice_spaces if s.upgrade_tile] == [tile]
    assert view.players[0].upgrade_spaces[2].face_down is False


def test_the_deck_shows_only_its_size():
    state = new_game()
    view = game.view(state, 0).model_dump(mode="json")
    assert view["deck_size"] == 66 and "deck" not in view
    text = orjson.dumps(view).decode()
    assert not any(f'"{card}"' in text for card in state.deck)


def test_determinize_keeps_what_the_seat_knows_and_redeals_the_rest():
    state = new_game()
    dealt = game.determinize(state, 0, Rng.from_seed(9))
    assert dealt.seats[0].hand == state.seats[0].hand
    assert game.view(dealt, 0) == game.view(state, 0)
    assert sorted(dealt.deck + [c for p in dealt.seats[1:] for c in p.hand]) == sorted(
        state.deck + [c for p in state.seats[1:] for c in p.hand]
    )
    assert dealt.rng != state.rng
    others = [c for p in state.seats for c in p.upgrades]
    assert sorted(c for p in dealt.seats for c in p.upgrades) == sorted(others)
    assert [c for p in dealt.seats for c in p.upgrades] != others


def test_evaluate_is_a_share_between_0_and_1():
    state = new_game()
    assert all(0 <= game.evaluate(state, s) <= 1 for s in range(4))


def test_greedy_and_mcts_play_whole_games():
    bots = [GreedyBot(1), MctsBot(2, iterations=8, depth=8), GreedyBot(3)]
    record = play_match(game, bots, seed=4)
    assert record.state.over and record.result.winners


# --- who is asked: the view agrees with the prompts -------------------------------------------

TURN_STEPS = ("contract", "take", "place", "end")
"""The Player Action phase's steps: a player has the turn."""


def agrees_with_the_prompts(state, viewer: int | None) -> None:
    """`prompted` is the prompts, one entry each; `pending` is the reader's own question
    when it is asked, else the first; `active_seat` is the turn's player in the Player
    Action phase, else the seat asked (`pending`'s), and None once the game is over."""
    view = game.view(state, viewer)
    prompts = game.prompts(state)
    assert [(p.seat, p.question, p.text) for p in view.prompted] == [
        (p.seat, p.kind, p.text) for p in prompts
    ]
    mine = [p for p in view.prompted if p.seat == viewer]
    assert view.pending == (mine or view.prompted or [None])[0]
    if state.over:
        assert view.active_seat is None
    elif state.step in TURN_STEPS:
        assert view.active_seat == view.turn_order[view.turns_taken % len(view.turn_order)]
    else:
        assert view.active_seat == view.pending.seat


def test_while_drafting_the_view_shows_every_seat_asked():
    """Starting-card draft: all seats keep a card at once. The view used to name one seat
    asked (the first still choosing) and the first player as active."""
    state = game.setup({"starting_card_draft": True, "first_player": 2}, 3, 4)
    for viewer in (None, 0, 1, 2):
        agrees_with_the_prompts(state, viewer)
        view = game.view(state, viewer)
        assert [p.seat for p in view.prompted] == [0, 1, 2]
        assert {p.question for p in view.prompted} == {"draft"}
        assert view.active_seat == (0 if viewer is None else viewer)
    state = play(state, 1, {"kind": "draft_card", "card": state.draft_packets[1][0]})
    assert [p.seat for p in game.view(state, 2).prompted] == [0, 2]
    assert game.view(state, 1).pending.seat == 0  # seat 1 waits for the others
    agrees_with_the_prompts(state, 1)


def test_a_paused_event_phase_names_the_seat_asked_not_last_rounds_turn():
    """Round 2's Event phase waits for seat 2's market draw (E1A: each blue lantern
    draws 1 card): the view used to say seat 0 was active (last round's turn order)."""
    state = copy_state(game.setup({"first_player": 0, "teapot_market": True}, 3, 5))
    state.eras = ["E1A", "E2A", "E3A"]
    state.seats[2].lantern_tokens["blue"] = 1
    pick = random.Random(1)
    while state.round == 1:
        seat = game.prompts(state)[0].seat
        offered = [m for m in game.legal_moves(state, seat) if m.kind != "coal_trade"]
        state = game.apply(state, seat, pick.choice(offered)).state
    assert state.step == "event" and [(p.seat, p.kind) for p in game.prompts(state)] == [
        (2, "draw")
    ]
    for viewer in (None, 0, 1, 2):
        agrees_with_the_prompts(state, viewer)
        view = game.view(state, viewer)
        assert view.active_seat == 2 and view.pending.seat == 2
        assert view.pending.text == game.prompts(state)[0].text


def test_the_ghosts_demand_is_in_the_views_pending_question():
    state = copy_state(game.setup({"scenario": "dead-mine"}, 1, 1))
    give(state, 0, coal=2)
    state.rival.deck.insert(0, "SM5")
    state.spaces = {space: (5 if space == "red-1" else None) for space in state.spaces}
    state.turn, state.step = 0, "end"
    end_turn(state)
    carry_on(state)
    pending = game.view(state, 0).pending
    assert (pending.seat, pending.question) == (0, "rival_choice")
    assert pending.text == "The ghost took a 5: pay 2 Coal, or let the ghost gain 2 Coal."


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (1, {"scenario": "dead-mine", "teapot_market": True}),
        (2, {"starting_card_draft": True, "upgrade_tile_arrangement": True}),
        (3, {"starting_card_draft": True, "teapot_market": True}),
        (4, {"upgrade_tile_arrangement": True, "teapot_market": True}),
    ],
)
def test_every_view_agrees_with_the_prompts(players, options):
    for seed in range(2):
        state = game.setup(options, players, seed)
        pick = random.Random(seed)
        while True:
            for viewer in (None, *range(players)):
                agrees_with_the_prompts(state, viewer)
            if state.over:
                break
            seat = game.prompts(state)[0].seat
            state = game.apply(state, seat, pick.choice(game.legal_moves(state, seat))).state
