"""What a discard pile hides from the other players.

The hand a player discards in Clean-up goes there unseen by the others (only the top
card of a discard pile is in view); a card that goes there in view (played, gained,
discarded by a card, revealed) is known to everyone.
"""

import orjson
from dominion_kit import act, game, me, new_game, start, with_prophecy

from services.games.dominion.state import PlayerState


def unseen(player: PlayerState) -> list[str]:
    return [player.discard[at] for at in player.discard_unseen]


def seen(player: PlayerState) -> list[tuple[int, str]]:
    """The discard pile's cards in view, with their places."""
    return [(at, c) for at, c in enumerate(player.discard) if at not in player.discard_unseen]


def both_hands_discarded():
    """Seat 0 plays its Gold and discards Province, Province, Duchy and Estate in
    Clean-up, the Gold landing on top; seat 1 plays nothing, so the last card of its
    discarded hand is the top of its pile. Then seat 0's turn starts."""
    state = start(
        new_game(),
        hand=["Province", "Province", "Duchy", "Gold", "Estate"],
        deck=["Copper"] * 7 + ["Silver"] * 3,
        phase="buy",
    )
    me(state, 1).hand = ["Silver", "Estate", "Gold", "Duchy", "Copper"]
    me(state, 1).deck = ["Copper"] * 5 + ["Estate"] * 2 + ["Silver"] * 3
    state = act(state, kind="play_treasures")
    state = act(state, kind="end_turn")
    assert state.turn.seat == 1
    state = act(state, 1, kind="end_turn")
    assert state.turn.seat == 0
    return state


def test_the_discarded_hand_is_what_goes_unseen_but_for_a_last_card_left_on_top():
    state = both_hands_discarded()
    assert unseen(me(state, 0)) == ["Province", "Province", "Duchy", "Estate"]
    assert seen(me(state, 0)) == [(4, "Gold")]
    # Seat 1 played nothing: its hand's last card is the top of its pile, in every view.
    assert me(state, 1).discard == ["Silver", "Estate", "Gold", "Duchy", "Copper"]
    assert unseen(me(state, 1)) == ["Silver", "Estate", "Gold", "Duchy"]
    assert game.view(state, 0).players[1].discard_top == "Copper"


def test_a_shuffle_leaves_nothing_unseen_in_the_discard_pile():
    state = start(
        new_game(),
        hand=["Province", "Duchy", "Estate", "Gold", "Copper"],
        deck=["Silver"] * 2,
        phase="buy",
    )
    state = act(state, kind="end_turn")  # draws 2, then shuffles the discarded hand in
    real = me(state, 0)
    assert real.discard == [] and real.discard_unseen == ()
    assert len(real.hand) == 5 and len(real.deck) == 2


def test_a_hand_set_aside_by_biding_time_is_not_discarded():
    state = start(with_prophecy("Biding Time"), hand=["Gold", "Province"], phase="buy")
    state = act(state, kind="end_turn")
    assert me(state, 0).discard == [] and me(state, 0).discard_unseen == ()


def test_taking_a_card_out_of_the_discard_pile_keeps_the_unseen_ones_in_their_places():
    from services.games.dominion.zones import take_from_discard  # here: the others run without

    player = PlayerState(
        discard=["Copper", "Estate", "Gold", "Duchy", "Silver"], discard_unseen=(0, 1, 3)
    )
    assert take_from_discard(player, 2) == "Gold"
    assert player.discard == ["Copper", "Estate", "Duchy", "Silver"]
    assert unseen(player) == ["Copper", "Estate", "Duchy"]
    assert take_from_discard(player, 3) == "Silver"
    assert unseen(player) == ["Copper", "Estate", "Duchy"]


def test_a_state_saved_before_discards_were_tracked_still_loads():
    state = both_hands_discarded()
    saved = orjson.loads(game.dump_state(state))
    for player in saved["player_states"]:
        del player["discard_unseen"]
    loaded = game.load_state(orjson.dumps(saved))
    assert [p.discard_unseen for p in loaded.player_states] == [(), ()]
    assert [p.discard for p in loaded.player_states] == [p.discard for p in state.player_states]
