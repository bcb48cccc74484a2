"""The base game's turn: Action, Buy and Clean-up phases, shuffling, the end of the game,
VP, the fewer-turns tie-breaker and shared wins."""

from dominion_kit import act, buy, deck_top_first, me, new_game, play, prompt, start

from services.games.dominion import game
from services.games.dominion.scoring import vp_breakdown


def test_an_action_phase_prompt_offers_playable_actions_and_ending_the_phase():
    state = start(new_game("Litter"), hand=["Litter", "Copper", "Estate"])
    assert prompt(state).kind == "action_phase"
    kinds = {m.kind for m in game.legal_moves(state, 0)}
    assert kinds == {"play_card", "end_phase", "order_shadows"}  # the kit's kingdom has Shadows


def test_playing_an_action_uses_an_action_and_follows_its_plus_row():
    state = start(new_game("Litter"), hand=["Litter"], deck=["Copper", "Silver", "Gold"])
    state = play(state, "Litter")
    assert sorted(me(state).hand) == ["Copper", "Silver"]
    assert state.turn.actions == 2 and me(state).debt == 1
    assert me(state).in_play == ["Litter"]


def test_with_no_action_card_to_play_the_action_phase_passes_by_itself():
    state = start(new_game("Litter"), hand=["Litter", "Copper"], deck=["Copper", "Copper"])
    state = play(state, "Litter")
    assert state.turn.phase == "buy" and prompt(state).kind == "buy_phase"


def test_treasures_make_coins_in_the_buy_phase():
    state = start(new_game(), hand=["Copper", "Silver", "Gold", "Estate"], phase="buy")
    state = act(state, kind="play_treasures")
    assert state.turn.coins == 6 and me(state).hand == ["Estate"]


def test_buying_uses_a_buy_and_gains_the_card_to_the_discard_pile():
    state = start(new_game(), hand=["Gold", "Gold", "Silver"], phase="buy")
    state = act(state, kind="play_treasures")
    state = buy(state, "Province")
    assert state.supply["Province"] == 7
    # One Buy, none left: the turn ends, Clean-up discards everything and draws 5.
    assert "Province" in me(state).discard and state.turn.seat == 1


def test_clean_up_discards_hand_and_play_and_draws_five():
    state = start(new_game(), hand=["Copper", "Estate"], deck=["Silver"] * 6, phase="buy")
    state = act(state, kind="play_treasure", card="Copper")
    state = act(state, kind="end_turn")
    assert sorted(me(state).discard) == ["Copper", "Estate"]
    assert me(state).hand == ["Silver"] * 5 and me(state).in_play == []
    assert state.turn.seat == 1 and state.turn.phase == "buy"


def test_the_discard_pile_is_shuffled_when_the_deck_runs_out():
    state = start(new_game(), hand=[], deck=["Gold", "Gold"], discard=["Silver"] * 4, phase="buy")
    state = act(state, kind="end_turn")
    assert sorted(me(state).hand) == ["Gold", "Gold", "Silver", "Silver", "Silver"]
    assert deck_top_first(state) == ["Silver"] and me(state).discard == []


def test_drawing_with_nothing_left_to_shuffle_draws_what_there_is():
    state = start(new_game(), hand=[], deck=["Gold"], discard=[], phase="buy")
    state = act(state, kind="end_turn")
    assert me(state).hand == ["Gold"]


def test_the_game_ends_when_the_province_pile_is_empty_at_the_end_of_a_turn():
    state = start(new_game(), hand=["Gold", "Gold", "Silver"], phase="buy")
    state.supply["Province"] = 1
    state = act(state, kind="play_treasures")
    state = buy(state, "Province")
    assert state.over and game.prompts(state) == []
    assert game.result(state).winners == [0]


def test_the_game_ends_when_three_supply_piles_are_empty():
    state = start(new_game(), hand=["Copper"], phase="buy")
    state.supply["Curse"] = 1
    state.supply["Alley"] = 0
    state.supply["Litter"] = 0
    state = buy(state, "Curse")
    assert state.over


def test_two_empty_piles_do_not_end_a_two_player_game():
    state = start(new_game(), hand=["Copper"], phase="buy")
    state.supply["Curse"] = 1
    state.supply["Alley"] = 0
    state = buy(state, "Curse")
    assert not state.over


def test_five_or_six_players_need_four_empty_piles():
    state = start(new_game(players=5), hand=["Copper"], phase="buy")
    state.supply["Curse"] = 1
    for pile in ("Alley", "Litter"):
        state.supply[pile] = 0
    state = buy(state, "Curse")
    assert not state.over
    state = start(new_game(players=6), hand=["Copper"], phase="buy")
    state.supply["Curse"] = 1
    for pile in ("Alley", "Litter", "Daimyo"):
        state.supply[pile] = 0
    state = buy(state, "Curse")
    assert state.over


def test_the_end_is_checked_only_at_the_end_of_a_turn():
    state = start(
        new_game(), hand=["Gold", "Gold", "Gold", "Gold", "Gold", "Gold"], phase="buy", buys=2
    )
    state.supply["Province"] = 1
    state = act(state, kind="play_treasures")
    state = buy(state, "Province")
    assert not state.over and state.turn.phase == "buy"  # still a Buy and $10 left
    state = buy(state, "Duchy")
    assert state.over


def test_vp_counts_every_card_a_player_has_with_a_breakdown_per_card():
    state = new_game()
    p = me(state)
    p.deck += ["Province", "Duchy"]
    p.discard += ["Curse", "Curse"]
    p.hand.append("Estate")
    assert vp_breakdown(state, 0) == {"Curse": -2, "Duchy": 3, "Estate": 4, "Province": 6}


def finished(state, vps: dict[int, int], turns: dict[int, int]):
    for seat, vp in vps.items():
        p = me(state, seat)
        p.deck, p.hand, p.discard = ["Estate"] * vp, [], []
        p.turns = turns[seat]
    state.over = True
    return game.result(state)


def test_most_vp_wins():
    result = finished(new_game(), {0: 5, 1: 7}, {0: 10, 1: 10})
    assert result.winners == [1]
    assert [s.score for s in result.standings] == [7, 5]


def test_tied_players_with_fewer_turns_win():
    result = finished(new_game(), {0: 7, 1: 7}, {0: 11, 1: 10})
    assert result.winners == [1]
    assert [s.rank for s in result.standings] == [1, 2]


def test_still_tied_players_share_the_win():
    result = finished(new_game(players=3), {0: 7, 1: 7, 2: 3}, {0: 10, 1: 10, 2: 10})
    assert sorted(result.winners) == [0, 1]


def test_turns_are_counted_per_player():
    state = start(new_game(), hand=[], phase="buy")
    state = act(state, kind="end_turn")
    state = act(state, seat=1, kind="end_turn")
    assert me(state, 0).turns == 2 and me(state, 1).turns == 1


def test_clean_up_leaves_a_played_card_not_a_hand_card_on_top_of_the_discard_pile():
    """The discard pile's top card is public: Clean-up puts the unplayed hand face down
    first and the cards everyone saw played on top of it."""
    state = start(new_game("Litter"), hand=["Silver", "Estate", "Moat"], deck=["Copper"] * 10)
    state = act(state, kind="end_phase") if state.turn.phase == "action" else state
    state = act(state, kind="play_treasure", card="Silver")
    state = act(state, kind="end_turn")
    assert game.view(state, 1).players[0].discard_top == "Silver"
    assert sorted(me(state).discard) == ["Estate", "Moat", "Silver"]
