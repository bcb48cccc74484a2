"""Hidden information, views, events, and states that save and load between any moves."""

import dataclasses

import pytest
from dominion_kit import act, choose, kingdom_with, me, new_game, play, prompts, start
from pydantic import ValidationError

from services.engine import Rng, copy_state
from services.games.dominion import game
from services.games.dominion.view import DominionView


def secret_position():
    """Seat 0 holds a Tea House and has a Rice Broker in its deck; neither is in the
    kingdom, so their names can only leak from that hand or deck."""
    state = new_game("Ninja", kingdom=kingdom_with("Ninja"))
    state = start(state, hand=["Tea House", "Copper"], deck=["Rice Broker", "Ninja", "Copper"])
    return state


def test_a_seat_sees_its_own_hand_but_never_its_deck_order():
    view = game.view(secret_position(), 0).model_dump_json()
    assert "Tea House" in view and "Rice Broker" not in view
    mine = game.view(secret_position(), 0).players[0]
    assert mine.deck_size == 3 and mine.shadow_positions == [1]


def test_other_seats_and_spectators_see_neither_hand_nor_deck():
    for viewer in (1, None):
        view = game.view(secret_position(), viewer)
        text = view.model_dump_json()
        assert "Tea House" not in text and "Rice Broker" not in text
        assert view.players[0].hand is None and view.players[0].hand_size == 2
        assert view.players[0].shadow_positions is None


def test_the_rng_never_leaves_the_engine():
    view = game.view(secret_position(), 0).model_dump()
    assert "rng" not in str(view.keys()) and "seed" not in view


def test_the_view_shows_the_public_table():
    state = new_game("Poet", prophecy="Growth", events=["Gather"], players=3)
    view = game.view(state, 2)
    assert isinstance(view, DominionView)
    assert view.prophecy == "Growth" and view.sun_tokens == 8 and not view.prophecy_active
    assert [e.event for e in view.events] == ["Gather"]
    assert {p.card for p in view.supply} == set(state.supply)
    assert [p.seat for p in view.players] == [0, 1, 2]
    assert view.players[2].hand is not None and view.players[0].hand is None
    assert view.prompts == []  # seat 2 is not asked anything yet


def test_a_view_carries_only_the_viewers_prompts():
    state = start(new_game("Ninja", players=3), hand=["Ninja"], deck=["Copper"])
    for seat in (1, 2):
        me(state, seat).hand = ["Copper", "Copper", "Estate", "Estate", "Silver"]
    state = play(state, "Ninja")
    assert [p.seat for p in game.view(state, 1).prompts] == [1]
    assert game.view(state, 0).prompts == []


def test_drawn_cards_are_private_to_their_owner():
    state = start(new_game("Litter"), hand=["Litter"], deck=["Gold", "Silver"])
    events = game.apply(state, 0, {"kind": "play_card", "card": "Litter"}).events
    drawn = next(e for e in events if e.kind == "cards_drawn")
    assert drawn.visible_to(0)["cards"] == ["Gold", "Silver"]
    assert "cards" not in drawn.visible_to(1) and drawn.visible_to(1)["count"] == 2
    assert "cards" not in drawn.visible_to(None)


def test_a_state_saved_in_the_middle_of_a_card_resumes_identically():
    state = start(new_game("Ninja", players=3), hand=["Ninja"], deck=["Copper"])
    for seat in (1, 2):
        me(state, seat).hand = ["Copper", "Copper", "Estate", "Estate", "Silver"]
    state = play(state, "Ninja")
    state = choose(state, "Estate", "Estate", seat=2)
    saved = game.dump_state(state)
    loaded = game.load_state(saved)
    assert loaded == state and len(loaded.stack) == 1
    a = choose(state, "Copper", "Estate", seat=1)
    b = choose(loaded, "Copper", "Estate", seat=1)
    assert game.dump_state(a) == game.dump_state(b)


def test_the_same_seed_and_moves_rebuild_the_byte_identical_state():
    def replay(seed):
        state, rng = game.setup({}, 3, seed), Rng.from_seed(5)
        for _ in range(300):
            if not prompts(state):
                break
            seat = prompts(state)[0].seat
            state = game.apply(state, seat, rng.choice(game.legal_moves(state, seat))).state
        return game.dump_state(state)

    assert replay(21) == replay(21)


def test_describe_names_moves_in_dominion_words():
    assert game.describe(game.parse_move({"kind": "buy_card", "card": "Gold"})) == "Buy Gold"
    assert game.describe(game.parse_move({"kind": "pay_debt", "amount": 2})) == "Pay off 2 Debt"
    assert "deck" in game.describe(
        game.parse_move({"kind": "play_shadow", "card": "Ninja", "position": 3})
    )


def test_phase_prompts_say_what_the_player_has():
    state = start(new_game(), hand=["Copper"], phase="buy", coins=2)
    prompt = prompts(state)[0]
    assert prompt.kind == "buy_phase" and "$2" in prompt.text and "Estate" in prompt.options
    state = act(state, kind="end_turn")
    assert prompts(state)[0].seat == 1


def test_the_copy_made_before_each_move_shares_nothing_mutable():
    state = start(new_game("Ninja", players=3), hand=["Ninja"], deck=["Copper"])
    for seat in (1, 2):
        me(state, seat).hand = ["Copper", "Copper", "Estate", "Estate", "Silver"]
    me(state).durations = [["Samurai", "game"]]
    state = play(state, "Ninja")
    state.stack[-1].vars["got"] = ["Silver"]  # frames also remember lists of cards
    copy = copy_state(state)
    assert copy == state

    def shared(a, b, path):
        if isinstance(a, (list, dict)) or dataclasses.is_dataclass(a):
            assert a is not b, f"{path} is shared"
        if dataclasses.is_dataclass(a):
            for field in dataclasses.fields(a):
                shared(getattr(a, field.name), getattr(b, field.name), f"{path}.{field.name}")
        elif isinstance(a, list):
            for i, (x, y) in enumerate(zip(a, b, strict=True)):
                shared(x, y, f"{path}[{i}]")
        elif isinstance(a, dict):
            for key in a:
                shared(a[key], b[key], f"{path}[{key}]")

    shared(state, copy, "state")


def test_what_the_engine_builds_without_validation_is_what_validation_would_build():
    """Events, prompts and listed moves skip pydantic's validator inside the engine; each
    must still be exactly the model a client would get from validated data."""
    from services.ai import RandomBot, play_match

    def same_as_validated(model):
        assert type(model).model_validate(model.model_dump()) == model
        assert type(model).model_validate_json(model.model_dump_json()).model_dump() == (
            model.model_dump()
        )

    def check(state, seat, move):
        for prompt in game.prompts(state):
            same_as_validated(prompt)
            for legal in game.legal_moves(state, prompt.seat):
                same_as_validated(legal)
        for event in game.apply(state, seat, move).events:
            same_as_validated(event)

    for seed in range(3):
        config = {"kingdom": kingdom_with("Ninja", "Rice", "Daimyo", "Alley")}
        play_match(game, [RandomBot(seed), RandomBot(seed + 9)], seed, config, on_step=check)


def test_a_bots_observation_holds_only_what_the_seats_view_shows():
    state = secret_position()
    for seat in (0, 1):
        seen, view = game.observation(state, seat), game.view(state, seat)
        mine = view.players[seat]
        assert list(seen.hand) == mine.hand and seen.debt == mine.debt
        assert dict(seen.supply) == {pile.card: pile.left for pile in view.supply}
        assert (seen.active, seen.phase, seen.actions, seen.buys, seen.coins) == (
            view.turn.seat,
            view.turn.phase,
            view.turn.actions,
            view.turn.buys,
            view.turn.coins,
        )
        assert seen.prompts == view.prompts
    assert "Tea House" not in repr(game.observation(state, 1))
    # A seat knows the make-up of its own cards (every gain is public), never its deck's order.
    assert game.observation(state, 0).owned["Rice Broker"] == 1
    reordered = copy_state(state)
    reordered.player_states[0].deck.reverse()
    assert game.observation(reordered, 0) == game.observation(state, 0)


def test_the_supply_piles_views_share_cannot_be_changed():
    """A pile's view is built once per count and cost and shared by every view showing it:
    editing one would change the others."""
    state = new_game()
    first, second = game.view(state, 0), game.view(state, 1)
    assert first.supply[0] is second.supply[0]
    with pytest.raises(ValidationError, match="frozen"):
        first.supply[0].left = 0
    with pytest.raises(AttributeError):
        first.supply[0].types.append("Curse")  # type: ignore[attr-defined]
