"""Reactions: Moat and Diplomat, revealed when another player plays an Attack, several
reacting players prompted one after another in turn order."""

import pytest
from dominion_kit import choose, me, new_game, play, prompt, prompts, start, with_prophecy

from services.engine import IllegalMove
from services.games.dominion import game


def test_moat_revealed_makes_its_owner_unaffected_by_the_attack():
    state = start(new_game("Witch", "Moat", players=3), hand=["Witch"], deck=["Copper"] * 3)
    me(state, 1).hand = ["Moat", "Copper"]
    me(state, 2).hand = ["Copper"]
    state = play(state, "Witch")
    assert prompt(state).seat == 1 and prompt(state).kind == "reaction"
    assert prompt(state).options == ["Moat"] and prompt(state).min_picks == 0
    state = choose(state, "Moat", seat=1)
    assert "Curse" not in me(state, 1).discard and me(state, 2).discard == ["Curse"]
    assert me(state, 1).hand == ["Moat", "Copper"]  # revealed, not played


def test_moat_not_revealed_leaves_its_owner_affected():
    state = start(new_game("Witch", "Moat"), hand=["Witch"], deck=["Copper"] * 3)
    me(state, 1).hand = ["Moat"]
    state = choose(play(state, "Witch"), seat=1)
    assert me(state, 1).discard == ["Curse"]


def test_the_attacker_still_gets_the_rest_of_the_card_against_a_moat():
    state = start(new_game("Militia", "Moat"), hand=["Militia"])
    me(state, 1).hand = ["Moat", "Copper", "Copper", "Copper", "Copper"]
    state = choose(play(state, "Militia"), "Moat", seat=1)
    assert state.turn.coins == 2 and len(me(state, 1).hand) == 5


def test_several_reacting_players_are_prompted_in_turn_order():
    state = start(new_game("Witch", "Moat", players=4), seat=2, hand=["Witch"], deck=["Copper"] * 3)
    for seat in (0, 1, 3):
        me(state, seat).hand = ["Moat"]
    state = play(state, "Witch", seat=2)
    order = []
    while prompts(state) and prompt(state).kind == "reaction":
        order.append(prompt(state).seat)
        assert len(prompts(state)) == 1
        state = choose(state, "Moat", seat=prompt(state).seat)
    assert order == [3, 0, 1]
    assert all("Curse" not in me(state, s).discard for s in (0, 1, 3))


def test_a_reaction_cannot_be_answered_out_of_turn_order():
    state = start(new_game("Witch", "Moat", players=3), hand=["Witch"], deck=["Copper"] * 3)
    me(state, 1).hand = ["Moat"]
    me(state, 2).hand = ["Moat"]
    state = play(state, "Witch")
    with pytest.raises(IllegalMove) as error:
        game.apply(state, 2, {"kind": "choose", "picks": ["Moat"]})
    assert error.value.code == "not_your_turn"


def test_moat_protects_against_snake_witch_curse_and_ninja_discard():
    state = start(new_game("Ninja", "Moat"), hand=["Ninja"], deck=["Copper"])
    me(state, 1).hand = ["Moat", "Copper", "Copper", "Copper", "Copper"]
    state = choose(play(state, "Ninja"), "Moat", seat=1)
    assert len(me(state, 1).hand) == 5


def test_moat_protects_against_the_kitsune_curse_option_only():
    state = start(new_game("Kitsune", "Moat", prophecy="Progress"), hand=["Kitsune"])
    me(state, 1).hand = ["Moat"]
    state = choose(play(state, "Kitsune"), "Moat", seat=1)
    state = choose(state, "Each other player gains a Curse", "+$2")
    assert state.turn.coins == 2 and "Curse" not in me(state, 1).deck + me(state, 1).discard


def test_a_reaction_is_offered_for_each_play_of_a_throne_roomed_attack():
    state = start(
        new_game("Witch", "Moat", "Throne Room"), hand=["Throne Room", "Witch"], deck=["Copper"] * 5
    )
    me(state, 1).hand = ["Moat"]
    state = choose(play(state, "Throne Room"), "Witch")
    state = choose(state, "Moat", seat=1)
    assert prompt(state).kind == "reaction"
    state = choose(state, seat=1)
    assert me(state, 1).discard == ["Curse"]


# --- Diplomat -------------------------------------------------------------------------


def test_diplomat_draws_two_and_gives_two_actions_with_five_or_fewer_cards():
    state = start(
        new_game("Diplomat"), hand=["Diplomat", "Copper", "Copper", "Copper"], deck=["Estate"] * 3
    )
    state = play(state, "Diplomat")
    assert len(me(state).hand) == 5 and state.turn.actions == 2


def test_diplomat_gives_no_actions_with_six_cards_after_drawing():
    hand = ["Diplomat"] + ["Copper"] * 4
    state = start(new_game("Diplomat"), hand=hand, deck=["Estate"] * 3)
    state = play(state, "Diplomat")
    assert len(me(state).hand) == 6 and state.turn.actions == 0


def test_diplomat_reaction_draws_two_then_discards_three_before_the_attack():
    state = start(new_game("Militia", "Diplomat"), hand=["Militia"])
    me(state, 1).hand = ["Diplomat", "Copper", "Copper", "Estate", "Estate"]
    me(state, 1).deck = ["Gold", "Silver"]
    state = play(state, "Militia")
    assert prompt(state).options == ["Diplomat"]
    state = choose(state, "Diplomat", seat=1)
    assert len(me(state, 1).hand) == 7 and prompt(state).kind == "discard"
    state = choose(state, "Estate", "Estate", "Diplomat", seat=1)
    # hand of 4 is no longer 5+: no second reveal; then Militia: discard down to 3
    assert prompt(state).kind == "discard" and prompt(state).max_picks == 1
    state = choose(state, "Copper", seat=1)
    assert sorted(me(state, 1).hand) == ["Copper", "Gold", "Silver"]


def test_diplomat_needs_a_hand_of_five_or_more():
    state = start(new_game("Witch", "Diplomat"), hand=["Witch"], deck=["Copper"] * 2)
    me(state, 1).hand = ["Diplomat", "Copper", "Copper", "Copper"]
    state = play(state, "Witch")
    assert me(state, 1).discard == ["Curse"] and prompt(state).seat == 0


def test_diplomat_may_be_revealed_again_while_the_hand_is_still_five_or_more():
    state = start(new_game("Witch", "Diplomat"), hand=["Witch"], deck=["Copper"] * 2)
    me(state, 1).hand = ["Diplomat"] + ["Copper"] * 5
    me(state, 1).deck = ["Silver"] * 4
    state = choose(play(state, "Witch"), "Diplomat", seat=1)
    state = choose(state, "Copper", "Copper", "Copper", seat=1)
    assert len(me(state, 1).hand) == 5 and prompt(state).options == ["Diplomat"]
    state = choose(state, "Diplomat", seat=1)
    state = choose(state, "Copper", "Copper", "Silver", seat=1)
    assert len(me(state, 1).hand) == 4 and me(state, 1).discard[-1] == "Curse"


def test_moat_may_be_revealed_before_or_after_diplomat():
    state = start(new_game("Witch", "Diplomat", "Moat"), hand=["Witch"], deck=["Copper"] * 2)
    me(state, 1).hand = ["Diplomat", "Moat", "Copper", "Copper", "Copper"]
    me(state, 1).deck = ["Silver", "Silver"]
    state = play(state, "Witch")
    assert sorted(prompt(state).options) == ["Diplomat", "Moat"]
    state = choose(state, "Diplomat", seat=1)
    state = choose(state, "Copper", "Copper", "Copper", seat=1)
    assert prompt(state).options == ["Moat"]
    state = choose(state, "Moat", seat=1)
    assert "Curse" not in me(state, 1).discard


def test_no_reaction_prompt_when_nobody_holds_a_reaction():
    state = start(new_game("Witch", "Moat"), hand=["Witch"], deck=["Copper"] * 2)
    me(state, 1).hand = ["Copper"]
    state = play(state, "Witch")
    assert all(p.kind != "reaction" for p in prompts(state))


def test_moat_still_protects_when_the_attacks_sun_activates_kind_emperor():
    """Kitsune's +1 Sun removes the last token after the Moat was revealed: Kind
    Emperor's gain comes before the rest of Kitsune; the Moat still protects from it."""
    state = start(with_prophecy("Kind Emperor", "Kitsune", "Moat", active=False), hand=["Kitsune"])
    state.sun = 1
    me(state, 1).hand = ["Moat"]
    state = play(state, "Kitsune")
    state = choose(state, "Moat", seat=1)
    while prompt(state).kind == "gain":
        state = choose(state, prompt(state).options[0])
    state = choose(state, "Each other player gains a Curse", "+$2")
    assert "Curse" not in me(state, 1).discard and state.turn.coins == 2


def test_reactions_come_before_the_attacks_plus_one_sun():
    """Diplomat: "When another player plays an Attack card, you may first reveal this".
    Kitsune's first instruction, +1 Sun, is after that: the last Sun is still on the
    board while Moat is asked, and Divine Wind blows only after the answer."""
    state = start(new_game("Kitsune", "Moat", prophecy="Divine Wind"), hand=["Kitsune"])
    state.sun = 1
    piles = set(state.supply)
    me(state, 1).hand = ["Moat"]
    played = game.apply(state, 0, {"kind": "play_card", "card": "Kitsune"})
    state = played.state
    assert prompt(state).kind == "reaction" and state.sun == 1 and set(state.supply) == piles
    answered = game.apply(state, 1, {"kind": "choose", "picks": ["Moat"]})
    state = answered.state
    assert state.sun == 0 and set(state.supply) != piles
    kinds = [type(event).__name__ for event in [*played.events, *answered.events]]
    assert kinds.index("CardsRevealed") < kinds.index("SunRemoved") < kinds.index("ProphecyActive")
