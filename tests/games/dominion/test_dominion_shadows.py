"""Shadows: to the bottom when shuffled, playable from anywhere in the deck wherever an
Action could be played from hand, never "in hand" for other effects, and visible to their
owner in the deck."""

import pytest
from dominion_kit import (
    NO_OMENS,
    act,
    buy,
    buy_event,
    choose,
    deck_top_first,
    me,
    new_game,
    play,
    prompt,
    start,
)

from services.ai import make_bot, play_match
from services.engine import IllegalMove
from services.games.dominion import game
from services.games.dominion.cards import SHADOWS


def test_shadows_go_to_the_bottom_when_the_discard_pile_is_shuffled():
    for seed in range(10):
        state = start(
            new_game("Ninja", "Fishmonger", seed=seed),
            hand=[],
            deck=[],
            discard=["Ninja", "Copper", "Fishmonger", "Silver", "Gold", "Estate", "Duchy"],
            phase="buy",
        )
        state = act(state, kind="end_turn")  # shuffle 7 cards, draw 5 from the top
        assert sorted(me(state).deck) == ["Fishmonger", "Ninja"]
        assert game.view(state, 0).players[0].shadow_positions == [0, 1]


def test_a_gained_shadow_is_not_put_on_the_bottom():
    state = start(new_game("Fishmonger"), hand=["Copper", "Copper"], phase="buy", buys=2)
    state = act(state, kind="play_treasures")
    state = buy(state, "Fishmonger")
    assert me(state).discard == ["Fishmonger"]


def test_a_shadow_can_be_played_from_anywhere_in_the_deck():
    state = start(
        new_game("Fishmonger"), hand=["Estate"], deck=["Copper", "Fishmonger", "Silver", "Gold"]
    )
    moves = game.legal_moves(state, 0)
    assert {"kind": "play_shadow", "card": "Fishmonger", "position": 1} in [
        m.model_dump() for m in moves
    ]
    state = act(state, kind="play_shadow", card="Fishmonger", position=1)
    assert me(state).in_play == ["Fishmonger"] and state.turn.coins == 1
    assert deck_top_first(state) == ["Copper", "Silver", "Gold"] and state.turn.buys == 2


def test_playing_a_shadow_from_the_deck_uses_an_action():
    state = start(new_game("Ninja"), hand=[], deck=["Ninja", "Copper"], actions=0)
    with pytest.raises(IllegalMove) as error:
        act(state, kind="play_shadow", card="Ninja", position=0)
    assert error.value.code == "no_actions_left"


def test_a_card_that_is_not_a_shadow_there_cannot_be_played_from_the_deck():
    state = start(new_game("Ninja"), hand=["Estate"], deck=["Ninja", "Copper"])
    with pytest.raises(IllegalMove) as error:
        act(state, kind="play_shadow", card="Copper", position=1)
    assert error.value.code == "shadow_not_in_deck"
    with pytest.raises(IllegalMove) as error:
        act(state, kind="play_shadow", card="Ninja", position=5)
    assert error.value.code == "shadow_not_in_deck"


def test_a_shadow_in_the_deck_is_not_in_hand_for_alleys_discard():
    state = start(new_game("Alley"), hand=["Alley", "Estate"], deck=["Copper", "Alley"])
    state = play(state, "Alley")
    assert sorted(prompt(state).options) == ["Copper", "Estate"]


def test_an_action_phase_with_only_a_shadow_in_the_deck_still_asks():
    state = start(new_game("Ronin"), hand=["Copper"], deck=["Estate", "Ronin"], phase="buy")
    state.turn.phase = "action"
    assert prompt(state).kind == "action_phase"
    state = act(state, kind="play_shadow", card="Ronin", position=1)
    assert len(me(state).hand) == 2  # Ronin draws Estate (the deck had nothing more)


def test_throne_room_can_play_a_shadow_from_the_deck_twice():
    """ "When a card like Throne Room tells you to play a card from your hand, you can use
    that opportunity to play a Shadow card from your deck." With no Action in hand it was
    answered for the player (nothing to choose) and the Shadow was never offered."""
    state = start(
        new_game("Throne Room", "Fishmonger"),
        hand=["Throne Room", "Copper", "Estate"],
        deck=["Silver", "Fishmonger", "Copper"],
    )
    state = play(state, "Throne Room")
    assert prompt(state).kind == "play"
    assert prompt(state).options == ["Fishmonger (deck position 1)"]
    state = choose(state, "Fishmonger (deck position 1)")
    assert me(state).in_play == ["Throne Room", "Fishmonger"]
    assert sorted(me(state).deck) == ["Copper", "Silver"]
    assert state.turn.buys == 3 and state.turn.coins == 2  # +1 Buy, +$1, twice


def test_practice_can_play_a_shadow_from_the_deck_twice():
    state = start(
        new_game("Fishmonger", events=["Practice"]),
        hand=["Gold"],
        deck=["Copper", "Fishmonger"],
        phase="buy",
    )
    state = act(state, kind="play_treasures")
    state = buy_event(state, "Practice")
    assert "Fishmonger (deck position 1)" in prompt(state).options
    state = choose(state, "Fishmonger (deck position 1)")
    assert me(state).in_play[-1] == "Fishmonger" and state.turn.buys == 2
    assert state.turn.coins == 2


def test_each_player_sees_where_their_own_shadows_are_and_nobody_elses():
    state = start(new_game("Ninja"), hand=["Estate"], deck=["Copper", "Ninja", "Silver"])
    assert game.view(state, 0).players[0].shadow_positions == [1]
    assert game.view(state, 1).players[0].shadow_positions is None
    assert game.view(state, None).players[0].shadow_positions is None


def shuffled_bottom(state, seat=0):
    """End the turn with an empty deck, so Clean-up shuffles the discard pile in."""
    state = act(state, kind="end_turn")
    return list(me(state, seat).deck[:2])


def test_several_shadows_go_to_the_bottom_in_the_order_their_owner_chose():
    for seed in range(8):
        state = start(
            new_game("Ninja", "Fishmonger", "Alley", seed=seed),
            hand=[],
            deck=[],
            phase="buy",
            discard=["Ninja", "Copper", "Fishmonger", "Silver", "Gold", "Estate", "Duchy"],
        )
        state = act(state, kind="order_shadows", bottom="Fishmonger")
        assert me(state).shadow_order == ["Fishmonger"]
        assert shuffled_bottom(state) == ["Fishmonger", "Ninja"]


def test_the_shadow_order_can_be_changed_and_is_shown_only_to_its_owner():
    state = start(new_game("Ninja", "Fishmonger", "Alley"), phase="buy")
    state = act(state, kind="order_shadows", bottom="Alley")
    state = act(state, kind="order_shadows", bottom="Ninja")
    assert me(state).shadow_order == ["Ninja", "Alley"]
    assert game.view(state, 0).players[0].shadow_order == ["Ninja", "Alley"]
    assert game.view(state, 1).players[0].shadow_order is None


def test_ordering_shadows_is_offered_only_with_two_kinds_of_shadow_in_the_game():
    others = [c for c in NO_OMENS if c not in SHADOWS]
    one = start(new_game(kingdom=["Ninja", *others[:9]]), phase="buy")
    assert not [m for m in game.legal_moves(one, 0) if m.kind == "order_shadows"]
    two = start(new_game(kingdom=["Ninja", "Alley", *others[:8]]), phase="buy")
    offered = {m.bottom for m in game.legal_moves(two, 0) if m.kind == "order_shadows"}
    assert offered == {"Ninja", "Alley"}


def test_ordering_a_card_that_is_not_a_shadow_of_this_game_is_refused():
    others = [c for c in NO_OMENS if c not in SHADOWS]
    state = start(new_game(kingdom=["Ninja", "Alley", *others[:8]]), phase="buy")
    for card in ("Copper", "Fishmonger"):
        with pytest.raises(IllegalMove) as error:
            act(state, kind="order_shadows", bottom=card)
        assert error.value.code == "not_a_shadow_in_this_game"
        assert card in error.value.message


def test_each_kind_of_shadow_is_ordered_at_most_once_a_turn_which_builds_any_order():
    state = start(new_game("Ninja", "Fishmonger", "Alley"), phase="buy")
    for card in ("Alley", "Fishmonger", "Ninja"):
        state = act(state, kind="order_shadows", bottom=card)
    assert me(state).shadow_order == ["Ninja", "Fishmonger", "Alley"]
    assert not [m for m in game.legal_moves(state, 0) if m.kind == "order_shadows"]
    with pytest.raises(IllegalMove) as error:
        act(state, kind="order_shadows", bottom="Alley")
    assert error.value.code == "shadow_already_ordered"
    assert "once a turn" in error.value.message


def test_ordering_is_refused_where_it_is_not_offered():
    """`apply` agrees with `legal_moves`: no ordering with one kind of Shadow in the game,
    and none putting bottom-most the Shadow that already is."""
    others = [c for c in NO_OMENS if c not in SHADOWS]
    one = start(new_game(kingdom=["Alley", *others[:9]]), phase="buy")
    with pytest.raises(IllegalMove) as error:
        act(one, kind="order_shadows", bottom="Alley")
    assert error.value.code == "nothing_to_order"
    state = start(new_game("Ninja", "Fishmonger", "Alley"), phase="buy")
    state = act(state, kind="order_shadows", bottom="Ninja")
    assert "Ninja" not in {
        m.bottom for m in game.legal_moves(state, 0) if m.kind == "order_shadows"
    }
    state.turn.shadows_ordered = []  # as on a later turn: Ninja stays bottom-most
    with pytest.raises(IllegalMove) as error:
        act(state, kind="order_shadows", bottom="Ninja")
    assert error.value.code == "shadow_already_bottom_most"


def test_the_action_phase_prompt_offers_the_shadows_in_the_deck():
    """The prompt's options are the cards the player can play now: a Shadow in the deck is
    one, even with no Action card in hand."""
    state = start(new_game("Ninja"), hand=["Copper"], deck=["Ninja", "Copper", "Estate"])
    [phase] = game.prompts(state)
    assert phase.kind == "action_phase"
    plays = [m for m in game.legal_moves(state, 0) if m.kind == "play_shadow"]
    assert [(m.card, m.position) for m in plays] == [("Ninja", 0)]
    assert phase.options == ["Ninja (deck position 0)"] and phase.max_picks == 1


def test_greedy_bots_cannot_reorder_their_shadows_forever():
    """Seed 12 of Heading East: two greedy bots used to swap Alley and Fishmonger
    bottom-most for ever instead of ending the turn."""
    bots = [make_bot("greedy", 12), make_bot("greedy", 13)]
    options = {"recommended": "Heading East", "turn_limit": 25}
    record = play_match(game, bots, 12, options, max_moves=5_000)
    assert record.state.over
