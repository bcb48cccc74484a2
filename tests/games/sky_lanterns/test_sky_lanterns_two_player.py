"""The Two Player Game: the 1-2 player side of the Main Board, its removals, the influence
tracks and contract, income by the dice's positions, and 5 VP per colour for the most."""

from __future__ import annotations

import pytest
from sky_lanterns_kit import asked, dice_count, give, hand, legal, play, table

from services.ai import RandomBot, play_match
from services.engine import IllegalMove
from services.games.sky_lanterns import game
from services.games.sky_lanterns.components import CARDS, TILES, TWO_PLAYER
from services.games.sky_lanterns.rounds import carry_on, event_phase
from services.games.sky_lanterns.scoring import breakdowns, lantern_majority

DECLINE = {"kind": "decline"}


def influence(*tracks: str) -> dict:
    return {"kind": "influence_contract", "tracks": list(tracks)}


def two(dice: dict[str, int] | None = None):
    return table(players=2, dice=dice)


# --- setup ---------------------------------------------------------------------------------


def test_two_players_play_on_the_one_two_player_side():
    state = game.setup({}, 2, 3)
    assert set(state.spaces) == {s.id for s in TWO_PLAYER.spaces}
    assert {s.dots for s in TWO_PLAYER.spaces} == {0}
    assert sum(v is not None for v in state.spaces.values()) == TWO_PLAYER.dice_drawn == 6


def test_two_player_setup_removes_5_dice_and_puts_3_on_the_influence_tracks():
    state = game.setup({}, 2, 3)
    assert state.influence == {"red": 3, "blue": 3, "green": 3}
    assert dice_count(state) == 18 - 5 - 3
    assert dict(TWO_PLAYER.removed_dice) == {"red": 1, "blue": 1, "green": 1, "black": 2}


def test_two_player_setup_removes_the_7_dotted_tiles_and_lays_the_leftover_face_up():
    state = game.setup({}, 2, 3)
    assert sorted(state.removed_tiles) == sorted(t for t in TILES if TILES[t].dots in (3, 4))
    assert len(state.removed_tiles) == 7
    assert [len(p.upgrades) for p in state.seats] == [4, 4]
    [(space, leftover)] = state.covered.items()
    assert TILES[leftover].space == space
    assert leftover not in {t for p in state.seats for t in p.upgrades}
    spectator = game.view(state, None).model_dump()
    assert {"space": space, "die": state.spaces[space], "upgrade_tile": leftover} in spectator[
        "dice_spaces"
    ]


def test_two_players_start_with_5_and_6_coins_and_3_starting_cards():
    state = game.setup({"first_player": 1}, 2, 3)
    assert (state.seats[1].coins, state.seats[0].coins) == (5, 6)
    assert [len(p.hand) for p in state.seats] == [3, 3]
    assert len(state.unused_starting) == len([c for c in CARDS.values() if c.starting]) - 6


def test_a_two_player_round_is_four_turns():
    state = two()
    for _ in range(4):
        assert state.round == 1
        seat = asked(state)[0]
        state = play(state, seat, DECLINE)
        space = next(s for s, v in state.spaces.items() if v is not None)
        state = play(state, seat, {"kind": "take_die", "space": space, "forfeit": True})
        state = play(state, seat, legal(state, seat)[0])
        while asked(state)[1] not in ("contract",) and not state.over:
            state = play(state, asked(state)[0], legal(state, asked(state)[0])[0])
    assert state.round == 2


# --- the influence contract ----------------------------------------------------------------


def test_rulebook_example_4_indigo_move_the_blue_die_2_spaces_for_1_vp_and_a_development():
    state = two()
    state.turn = 1  # seat 1, the player on the right, is active
    give(state, 1, indigo=4, coins=10, vp=0)
    hand(state, 1, "T01")
    state = play(state, 1, influence("blue", "blue"))
    assert state.influence["blue"] == 1
    assert state.seats[1].basics["indigo"] == 0
    assert state.seats[1].vp == 1
    assert asked(state) == (1, "develop")
    assert game.view(state, 1).pending.effect == {"kind": "develop", "track": "lantern"}
    state = play(state, 1, {"kind": "develop", "card": "T01", "zone": 0})
    assert state.seats[1].lantern_zones[0] == ["T01"]


def test_seat_0_pushes_the_other_way_and_pays_tea_for_green_and_yams_for_red():
    state = two()
    give(state, 0, tea=2, yam=2, coins=0)
    trains = state.seats[0].train
    state = play(state, 0, influence("green", "red"))
    assert (state.influence["green"], state.influence["red"]) == (4, 4)
    assert state.seats[0].basics["yam"] == 0  # Tea may come back from the train's rewards
    assert state.seats[0].coins == 2  # red space 4: $2
    assert state.seats[0].train != trains  # green space 4: advance the train


def test_influence_contract_is_offered_only_when_affordable():
    state = two()
    give(state, 0, indigo=3, tea=0, yam=0, coal=0)
    offered = [m for m in legal(state, 0) if m["kind"] == "influence_contract"]
    assert offered == [{"kind": "influence_contract", "tracks": ("blue",)}]


def test_two_different_tracks_are_offered_in_either_order():
    """ "This can be executed up to 2 times. You immediately gain all the rewards the die
    passes through": the order decides which rewards come first (a train step's $1 before
    a Development that needs it), so both orders are legal moves."""
    state = two()
    give(state, 0, indigo=2, tea=2, yam=2, coal=0)
    offered = {m["tracks"] for m in legal(state, 0) if m["kind"] == "influence_contract"}
    colours = ("red", "blue", "green")
    assert offered == {(c,) for c in colours} | {(a, b) for a in colours for b in colours if a != b}


def test_influence_contract_refused_when_it_cannot_be_paid():
    state = two()
    give(state, 0, indigo=2)
    with pytest.raises(IllegalMove) as refused:
        play(state, 0, influence("blue", "blue"))
    assert refused.value.code == "influence_refused"
    assert refused.value.message == (
        "Moving the blue die costs 2 Indigo each time (4 Indigo in all); you have 2."
    )


def test_influence_contract_refused_past_the_end_of_the_track():
    state = two()
    state.influence["red"] = 6
    give(state, 0, yam=4)
    with pytest.raises(IllegalMove) as refused:
        play(state, 0, influence("red"))
    assert refused.value.code == "influence_refused"
    assert "end of its track" in refused.value.message
    state.influence["red"] = 5
    with pytest.raises(IllegalMove):
        play(state, 0, influence("red", "red"))
    assert play(state, 0, influence("red")).influence["red"] == 6


def test_influence_contract_does_not_exist_with_3_or_4_players():
    state = table(players=3)
    give(state, 0, indigo=4)
    assert not [m for m in legal(state, 0) if m["kind"] == "influence_contract"]
    with pytest.raises(IllegalMove) as refused:
        play(state, 0, influence("blue"))
    assert refused.value.code == "influence_refused"


@pytest.mark.parametrize("tracks", [[], ["blue", "blue", "blue"], ["yellow"]])
def test_malformed_influence_contracts_are_refused(tracks):
    state = two()
    give(state, 0, indigo=10)
    with pytest.raises(IllegalMove) as refused:
        play(state, 0, {"kind": "influence_contract", "tracks": tracks})
    assert refused.value.code == "malformed_move"


def test_influence_contract_only_in_the_contract_step():
    state = two()
    give(state, 0, indigo=4)
    state = play(state, 0, DECLINE)
    with pytest.raises(IllegalMove) as refused:
        play(state, 0, influence("blue"))
    assert refused.value.code == "not_now"


# --- income and scoring --------------------------------------------------------------------


def test_rulebook_example_income_by_the_dice_positions():
    """Left: 2 VP and $1; right: 3 VP and $2."""
    state = two()
    state.influence = {"red": 2, "blue": 3, "green": 2}
    before = [(p.vp, p.coins) for p in state.seats]
    state.round, state.turn = 3, 4
    event_phase(state)
    carry_on(state)
    after = [(p.vp, p.coins) for p in state.seats]
    assert [(v - v0, c - c0) for (v, c), (v0, c0) in zip(after, before, strict=True)] == [
        (2, 1),
        (3, 2),
    ]


def test_income_of_a_space_under_a_die_goes_to_nobody():
    state = two()
    state.influence = {"red": 0, "blue": 0, "green": 0}
    before = [(p.vp, p.coins) for p in state.seats]
    state.round, state.turn = 5, 4
    event_phase(state)
    carry_on(state)
    after = [(p.vp, p.coins) for p in state.seats]
    assert after[0] == before[0]
    assert (after[1][0] - before[1][0], after[1][1] - before[1][1]) == (1 + 2, 2)


def test_two_players_score_5_vp_per_colour_for_the_most_lanterns():
    state = two()
    state.seats[0].lantern_tokens = {"red": 3, "yellow": 1, "blue": 0}
    state.seats[1].lantern_tokens = {"red": 1, "yellow": 1, "blue": 0}
    parts = breakdowns(state)
    assert [p["red_lanterns"] for p in parts] == [5, 0]
    assert [p["yellow_lanterns"] for p in parts] == [2, 2]  # tied: 5 + 0 shared
    assert [p["blue_lanterns"] for p in parts] == [0, 0]
    assert lantern_majority([4, 2], (12, 8, 4)) == [12, 8]


def test_black_space_resolves_any_space_and_hands_the_opponent_first_player_and_a_coin():
    state = two(dice={"black-1": 3, "red-2": 4})
    give(state, 0, coins=0)
    give(state, 1, coins=0)
    state = play(state, 0, DECLINE, {"kind": "take_die", "space": "black-1", "forfeit": False})
    assert asked(state) == (0, "any_space")
    offered = {m["space"] for m in legal(state, 0) if m["kind"] == "choose_space"}
    assert offered == {s.id for s in TWO_PLAYER.spaces if s.colour != "black"}
    state = play(state, 0, {"kind": "choose_space", "space": "red-2"})
    assert (state.seats[0].coins, state.seats[1].coins, state.first_player) == (3, 1, 1)


def test_a_space_of_the_other_side_cannot_be_taken():
    state = two()
    state = play(state, 0, DECLINE)
    with pytest.raises(IllegalMove) as refused:
        play(state, 0, {"kind": "take_die", "space": "red-4", "forfeit": True})
    assert refused.value.code == "no_such_space"


def test_two_player_random_games_end_with_a_winner_and_the_dice_back():
    for seed in range(5):
        record = play_match(game, [RandomBot(seed), RandomBot(seed + 50)], seed)
        assert record.state.over and len(record.result.winners) == 1
        for standing in record.result.standings:
            assert standing.score == sum(standing.breakdown.values())
