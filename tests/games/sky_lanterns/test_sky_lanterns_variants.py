"""The setup variants that add decisions: Starting card draft, Upgrade Tile arrangement
and the Teapot market."""

import pytest
from sky_lanterns_kit import asked, play, table

from services.engine import IllegalMove, Rng
from services.games.sky_lanterns import game


def test_starting_card_draft_prompts_everyone_at_once_and_passes_left():
    state = game.setup({"starting_card_draft": True, "first_player": 0}, 3, 4)
    dealt = [list(packet) for packet in state.draft_packets]
    assert [p.seat for p in game.prompts(state)] == [0, 1, 2]
    assert all(p.hand == [] for p in state.seats)
    for seat in (2, 0, 1):
        state = play(state, seat, {"kind": "draft_card", "card": dealt[seat][0]})
    # each seat now chooses from what its right-hand neighbour passed
    for seat in range(3):
        assert state.draft_packets[seat] == dealt[(seat - 1) % 3][1:]
    for seat in range(3):
        state = play(state, seat, {"kind": "draft_card", "card": state.draft_packets[seat][0]})
    for seat in range(3):
        assert state.seats[seat].hand == [
            dealt[seat][0],
            dealt[(seat - 1) % 3][1],
            dealt[(seat - 2) % 3][2],
        ]
    assert state.step == "contract" and asked(state) == (0, "contract")


def test_drafting_reveals_nothing_early():
    state = game.setup({"starting_card_draft": True}, 4, 4)
    card = state.draft_packets[1][0]
    outcome = game.apply(state, 1, {"kind": "draft_card", "card": card})
    for viewer in (None, 0, 2, 3):
        assert card not in str(outcome.events[0].visible_to(viewer))
        view = game.view(outcome.state, viewer)
        assert view.players[1].draft_packet is None and view.players[1].draft_picked
    assert outcome.events[0].visible_to(1)["card"] == card
    assert game.view(outcome.state, 1).players[1].draft_packet == state.draft_packets[1]


def test_a_draft_pick_must_be_offered_and_coal_waits_for_the_game():
    state = game.setup({"starting_card_draft": True}, 4, 4)
    stranger = state.draft_packets[2][0]
    for move, code in (
        ({"kind": "draft_card", "card": stranger}, "not_offered"),
        ({"kind": "coal_trade", "into": "tea"}, "not_now"),
        ({"kind": "take_die", "space": "red-1"}, "not_now"),
    ):
        with pytest.raises(IllegalMove) as error:
            game.apply(state, 0, move)
        assert error.value.code == code


def test_upgrade_tile_arrangement_shows_the_tiles_and_lets_each_player_order_them():
    state = game.setup({"upgrade_tile_arrangement": True}, 4, 4)
    assert state.step == "arrange" and len(game.prompts(state)) == 4
    mine = state.seats[2].upgrades
    seen = game.view(state, 0).players[2].upgrade_spaces
    assert [s.tile for s in seen] == mine and not any(s.face_down for s in seen)
    assert len(game.legal_moves(state, 2)) == 24
    order = tuple(reversed(sorted(mine)))
    state = play(state, 2, {"kind": "arrange_tiles", "tiles": order})
    assert state.seats[2].upgrades == list(order) and 2 not in {p.seat for p in game.prompts(state)}
    with pytest.raises(IllegalMove) as error:
        game.apply(state, 0, {"kind": "arrange_tiles", "tiles": order})
    assert error.value.code == "not_your_tiles"
    for seat in (0, 1, 3):
        state = play(state, seat, game.legal_moves(state, seat)[0].model_dump())
    assert asked(state)[1] == "contract"


def test_face_up_tiles_are_kept_by_determinize():
    state = game.setup({"upgrade_tile_arrangement": True}, 3, 4)
    dealt = game.determinize(state, 0, Rng.from_seed(3))
    assert [p.upgrades for p in dealt.seats] == [p.upgrades for p in state.seats]


def market_table():
    state = table(dice={"blue-5": 4, "green-5": 5})
    state.market = [state.deck.pop() for _ in range(3)]
    return state


def test_teapot_market_draws_choose_between_the_market_and_the_deck():
    state = market_table()
    wanted, top = state.market[1], state.deck[-1]
    state = play(state, 0, {"kind": "decline"}, {"kind": "take_die", "space": "blue-5"})
    assert asked(state) == (0, "draw")
    offered = [m.card for m in game.legal_moves(state, 0) if m.kind == "draw_card"]
    assert offered == [None, *state.market]
    state = play(state, 0, {"kind": "draw_card", "card": wanted})
    state = play(state, 0, {"kind": "draw_card"})
    assert state.seats[0].hand == [wanted, top] and len(state.market) == 2


def test_teapot_market_refills_to_3_at_the_end_of_the_turn():
    state = market_table()
    state = play(state, 0, {"kind": "decline"}, {"kind": "take_die", "space": "blue-5"})
    state = play(state, 0, {"kind": "draw_card", "card": state.market[0]})
    state = play(state, 0, {"kind": "draw_card", "card": state.market[0]})
    assert len(state.market) == 1
    state = play(state, 0, {"kind": "place_compensation", "slot": 0})
    assert len(state.market) == 3 and asked(state) == (1, "contract")


def test_a_market_draw_must_name_a_market_card_and_the_deck_must_have_cards():
    state = market_table()
    state = play(state, 0, {"kind": "decline"}, {"kind": "take_die", "space": "blue-5"})
    with pytest.raises(IllegalMove) as error:
        game.apply(state, 0, {"kind": "draw_card", "card": state.deck[0]})
    assert error.value.code == "not_in_market"
    state.deck, state.discard = [], []
    with pytest.raises(IllegalMove) as error:
        game.apply(state, 0, {"kind": "draw_card"})
    assert error.value.code == "deck_empty"


def test_a_resignation_while_drafting_leaves_nobody_asked():
    """Prompts are empty exactly when the game is over: the draft's simultaneous prompts
    used to outlive a resignation."""
    state = game.resign(game.setup({"starting_card_draft": True}, 3, 4), 1).state
    assert state.over and game.prompts(state) == []
    assert game.view(state, 0).pending is None and game.view(state, 0).active_seat is None
