"""Outcomes beyond "who won": solo games won or lost against a virtual opponent, with
the reason and both score breakdowns, and per-seat returns in [0, 1] for bots."""

import pytest
from blind_bid import HOUSE, SoloBidState, blind_bid, blind_bid_solo

from services.ai import make_bot, play_match
from services.ai.bot import levels_for
from services.ai.greedy import GreedyBot
from services.ai.rewards import rewards
from services.engine import Opponent, Result, Rng, Standing


def ranked(*keys: int) -> Result:
    return Result.rank({seat: ({"points": key}, (key,)) for seat, key in enumerate(keys)})


# --- returns -----------------------------------------------------------------------------


def test_returns_give_the_lone_winner_one_the_last_zero_and_share_ties():
    assert ranked(3, 9).returns() == [0.0, 1.0]
    assert ranked(5, 5).returns() == [0.5, 0.5]
    assert ranked(9, 1, 5, 3).returns() == [1.0, 0.0, 2 / 3, 1 / 3]
    assert ranked(7, 7, 2).returns() == [0.75, 0.75, 0.0]


def test_returns_follow_a_resignation_to_the_bottom():
    assert ranked(9, 1, 5).demote([0]).returns() == [0.0, 0.5, 1.0]


def test_every_return_lies_between_zero_and_one_and_winners_get_the_most():
    rng = Rng.from_seed(3)
    for _ in range(200):
        players = 2 + rng.below(3)
        result = ranked(*(rng.below(4) for _ in range(players)))
        returns = result.returns()
        assert all(0.0 <= r <= 1.0 for r in returns)
        best = max(returns)
        assert sorted(result.winners) == [s for s, r in enumerate(returns) if r == best]


# --- solo results --------------------------------------------------------------------------


def test_a_solo_win_ranks_the_player_above_the_virtual_opponent():
    result = Result.solo(
        {"rounds": 20}, won=True, summary="You win.", opponent=HOUSE, opponent_breakdown={"a": 9}
    )
    assert result.winners == [0] and result.returns() == [1.0]
    assert result.standings[0].rank == 1
    assert (result.opponent.name, result.opponent.score, result.opponent.rank) == (HOUSE, 9, 2)


def test_a_solo_loss_has_no_winner_and_says_why():
    result = Result.solo(
        {"rounds": 9},
        won=False,
        summary="The ghost's Coal and Indigo are both full.",
        opponent="the ghost",
        opponent_breakdown={"coal": 4, "indigo": 5},
    )
    assert result.winners == [] and result.returns() == [0.0]
    assert result.standings[0].rank == 2 and result.opponent.rank == 1
    assert result.opponent.breakdown == {"coal": 4, "indigo": 5} and result.opponent.score == 9
    assert result.summary == "The ghost's Coal and Indigo are both full."


def test_a_lost_scenario_without_an_opponent_returns_zero():
    lost = Result.solo({"points": 30}, won=False, summary="You needed 40 points by round 8.")
    assert lost.winners == [] and lost.opponent is None and lost.returns() == [0.0]
    won = Result.solo({"points": 45}, won=True, summary="40 points reached.")
    assert won.winners == [0] and won.returns() == [1.0]


def test_resigning_a_solo_game_is_a_loss_to_the_opponent():
    state = blind_bid_solo.setup({}, 1, 5)
    resigned = blind_bid_solo.resign(state, 0).state
    result = blind_bid_solo.standings(resigned)
    assert result.winners == [] and result.returns() == [0.0]
    assert result.standings[0].rank == 2 and result.opponent.rank == 1


def test_demoting_keeps_a_virtual_opponent_among_the_ranks():
    result = Result(
        standings=[
            Standing(seat=0, score=9, breakdown={"a": 9}, rank=1),
            Standing(seat=1, score=4, breakdown={"a": 4}, rank=3),
        ],
        winners=[0],
        opponent=Opponent(name="automa", score=6, breakdown={"a": 6}, rank=2),
    )
    demoted = result.demote([0])
    assert demoted.opponent.rank == 1
    assert [(s.seat, s.rank) for s in demoted.standings] == [(1, 2), (0, 3)]
    assert demoted.winners == [] and demoted.returns() == [0.0, 0.5]


# --- the Blind Bid solo scenario --------------------------------------------------------------


def solo_state(hand: list[int], house: list[int], rounds: int = 3) -> SoloBidState:
    state = blind_bid_solo.setup({"rounds": rounds}, 1, 1)
    state.hand, state.house = hand, house
    return state


def play_cards(state: SoloBidState, *cards: int) -> SoloBidState:
    for card in cards:
        state = blind_bid_solo.apply(state, 0, {"kind": "pick", "card": card}).state
    return state


def test_the_player_who_outbids_the_house_wins_with_both_breakdowns():
    state = play_cards(solo_state([5, 11, 12], [1, 2, 10]), 11, 12, 5)
    result = blind_bid_solo.result(state)
    assert result.winners == [0]
    assert result.standings[0].breakdown == {"rounds": 26}
    assert result.opponent.breakdown == {"rounds": 15}
    assert result.summary == "You beat the house, 26 points to 15."


def test_two_rounds_in_a_row_to_the_house_lose_outright():
    state = play_cards(solo_state([1, 2, 12], [10, 11, 3]), 1)
    assert not state.over
    state = play_cards(state, 2)
    assert state.over and blind_bid_solo.prompts(state) == []
    assert state.hand == [12]
    result = blind_bid_solo.result(state)
    assert result.winners == [] and result.returns() == [0.0]
    assert result.summary == "The house won 2 rounds in a row."
    assert result.opponent.score == 24 and result.standings[0].score == 0


def test_a_tie_with_the_house_is_a_loss():
    state = play_cards(solo_state([4, 6, 9], [5, 3, 7], rounds=2), 4, 6)
    result = blind_bid_solo.result(state)
    assert (result.standings[0].score, result.opponent.score) == (9, 9)
    assert result.winners == []
    assert result.summary == "You tied the house at 9 points; a tie goes to the house."


def test_the_house_bids_stay_hidden_until_played():
    state = blind_bid_solo.setup({}, 1, 4)
    view = blind_bid_solo.view(state, 0).model_dump()
    assert view["house_cards_left"] == 3 and "house" not in view
    outcome = blind_bid_solo.apply(state, 0, {"kind": "pick", "card": state.hand[0]})
    spectator = [e.visible_to(None) for e in outcome.events]
    assert "card" not in spectator[0]
    assert spectator[1] == {"kind": "house_bid", "seat": None, "card": state.house[0]}


@pytest.mark.parametrize("level", levels_for(blind_bid_solo))
def test_every_bot_level_plays_the_solo_game_and_sometimes_wins_and_loses(level):
    wins = 0
    for seed in range(12):
        record = play_match(blind_bid_solo, [make_bot(level, seed)], seed=seed)
        assert record.result.summary and record.result.opponent is not None
        wins += record.result.winners == [0]
    assert 0 < wins < 12


def test_searching_bots_score_a_lost_solo_ending_as_zero():
    # Two cards left against a house holding 10 and 11: every move loses outright, so
    # the greedy score (a return, not `evaluate`) of each is 0.
    state = play_cards(solo_state([1, 2, 12], [3, 10, 11]), 12)
    state = play_cards(state, 1)
    world = blind_bid_solo.determinize(state, 0, Rng.from_seed(2))
    world.house = [10]
    assert GreedyBot.score(blind_bid_solo, world, 0, blind_bid_solo.legal_moves(world, 0)[0]) == 0
    assert rewards(blind_bid_solo, play_cards(world, 2)) == [0.0]


def test_multiplayer_blind_bid_returns_match_its_winners():
    record = play_match(blind_bid, [make_bot("random", 1), make_bot("random", 2)], seed=4)
    returns = record.result.returns()
    assert [s for s in range(2) if returns[s] == max(returns)] == sorted(record.result.winners)
