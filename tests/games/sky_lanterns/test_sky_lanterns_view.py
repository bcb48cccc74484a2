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
from services.games.sky_lanterns import game, resolver
from services.games.sky_lanterns.resolver import DRAW
from services.games.sky_lanterns.rounds import carry_on, end_turn
from services.games.sky_lanterns.state import Frame, SkyLanternsState


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


# --- determinize keeps what the log has told -------------------------------------------------


def market_draw(players: int = 3, seed: int = 3) -> tuple[SkyLanternsState, str]:
    """Seat 0 draws the market's first card (everyone reads "Draw T.. from the market")."""
    state = copy_state(game.setup({"first_player": 0, "teapot_market": True}, players, seed))
    state.stack.append(Frame(key=DRAW, seat=0))
    card = state.market[0]
    outcome = game.apply(state, 0, {"kind": "draw_card", "card": card})
    assert outcome.events[0].visible_to(1)["text"] == f"Draw {card} from the market"
    return outcome.state, card


def test_a_card_drawn_from_the_market_stays_in_its_holders_hand_for_the_others():
    """The Teapot market is face up and the log names the card taken: re-dealing the hidden
    cards for another seat must leave it where everyone saw it go (it used to stay in 1
    determinization of 50). The holder's other cards are still re-dealt."""
    state, card = market_draw()
    others = [c for c in state.seats[0].hand if c != card]
    moved = 0
    for seed in range(60):
        for seat in (1, 2):
            dealt = game.determinize(state, seat, Rng.from_seed(seed))
            assert card in dealt.seats[0].hand and card not in dealt.deck
            assert len(dealt.seats[0].hand) == len(state.seats[0].hand)
            moved += [c for c in dealt.seats[0].hand if c != card] != others
    assert moved > 100  # the Starting cards beside it are dealt anew


def test_a_card_drawn_from_the_market_is_forgotten_once_it_leaves_the_hand():
    """Played as a contract it goes to the discard pile, whence a reshuffle may bring it
    back into a hand unseen; developed, it is tucked in view. Either way nothing about a
    hand is known by it any more."""
    state, card = market_draw()
    played = copy_state(state)
    resolver.contract(played, 0, "hand", card)
    assert card in played.discard and played.known_cards == []
    developed = copy_state(state)
    give(developed, 0, coins=10)
    resolver.develop(developed, 0, card, "lantern", 0)
    assert developed.known_cards == []


def draft_to_the_end(players: int, seed: int) -> tuple[SkyLanternsState, list[list[str]]]:
    """A whole Starting-card draft, each seat keeping its packet's first card; with the
    packets each seat passed on, by pass."""
    state = game.setup({"starting_card_draft": True, "first_player": 0}, players, seed)
    passed: list[list[str]] = [[] for _ in range(players)]
    while state.step == "draft":
        packets = [list(p) for p in state.draft_packets]
        for seat in range(players):
            state = play(state, seat, {"kind": "draft_card", "card": packets[seat][0]})
        for seat in range(players):
            passed[seat].append(packets[seat][1:])
    return state, passed


@pytest.mark.parametrize("players", [2, 3, 4])
def test_after_the_draft_a_seat_knows_where_the_cards_it_passed_went(players):
    """The last card a seat passes is kept by its left neighbour; of the two it passed
    before, its left neighbour kept one and passed the other on (to the seat after, who
    kept it). Re-dealing for that seat keeps all that: the last card stays with the left
    neighbour, the two stay one with each (which one is not known, so both ways come)."""
    state, passed = draft_to_the_end(players, 5)
    for seat in range(players):
        [first, [last]] = passed[seat]
        left, after = (seat + 1) % players, (seat + 2) % players
        ways = set()
        for seed in range(40):
            dealt = game.determinize(state, seat, Rng.from_seed(seed))
            assert last in dealt.seats[left].hand
            if after == seat:  # 2 players: one of the two came back to the seat itself
                [back] = [c for c in first if c in state.seats[seat].hand]
                [kept] = [c for c in first if c != back]
                assert kept in dealt.seats[left].hand
                continue
            assert sum(c in dealt.seats[left].hand for c in first) == 1
            assert sum(c in dealt.seats[after].hand for c in first) == 1
            ways.add(next(c for c in first if c in dealt.seats[left].hand))
        assert after == seat or ways == set(first)


def test_known_cards_are_in_no_view_and_survive_a_json_round_trip():
    drawn, card = market_draw()
    drafted, _ = draft_to_the_end(3, 5)
    for state in (drawn, drafted):
        assert state.known_cards
        assert game.load_state(game.dump_state(state)) == state
        for viewer in (None, 0, 1, 2):
            view = game.view(state, viewer).model_dump(mode="json")
            assert "known" not in orjson.dumps(view).decode()
    assert card not in orjson.dumps(game.view(drawn, 1).model_dump(mode="json")).decode()


def test_a_state_saved_before_known_cards_existed_still_loads():
    state, _ = market_draw()
    data = orjson.loads(game.dump_state(state))
    del data["known_cards"]
    loaded = game.load_state(orjson.dumps(data))
    assert loaded.known_cards == [] and loaded.seats == state.seats
