"""The root search of games with a policy (`prior_move`), shown on the Blind Bid toy:
one round, the highest card takes the pot."""

from __future__ import annotations

from blind_bid import BlindBid, BlindBidState, Pick

from services.ai import policy_search as policy_search_module
from services.ai.mcts import MctsBot, key_of
from services.ai.policy_search import SETTLED_ROUNDS, Search, policy_search
from services.engine import Move, Rng, Seat


class LowestFirst(BlindBid):
    """A policy that always gives up the round: it picks its lowest card."""

    def prior_move(self, state: BlindBidState, seat: Seat, rng: Rng) -> Move:
        return Pick(card=min(state.hands[seat]))

    def playout_move(self, state: BlindBidState, seat: Seat, rng: Rng) -> Move:
        return self.prior_move(state, seat, rng)


class HighestFirst(LowestFirst):
    def prior_move(self, state: BlindBidState, seat: Seat, rng: Rng) -> Move:
        return Pick(card=max(state.hands[seat]))


def one_round(game: BlindBid) -> BlindBidState:
    state = game.setup({"rounds": 1}, 2, 5)
    state.hands = [[2, 5, 12], [3, 7, 9]]
    return state


def test_search_leaves_a_policy_move_its_rollouts_show_losing():
    game = LowestFirst()
    move = MctsBot(1, iterations=64).choose(game, one_round(game), 0)
    assert move == Pick(card=12)


def test_search_keeps_the_policy_move_when_nothing_beats_it():
    game = HighestFirst()
    for seed in range(5):
        assert MctsBot(seed, iterations=64).choose(game, one_round(game), 0) == Pick(card=12)


def test_without_time_the_policy_move_is_played_unsearched():
    game = LowestFirst()
    state = one_round(game)
    moves = game.legal_moves(state, 0)
    search = Search(game.prior_move, game.playout_move, key_of, lambda: True, 64)
    move = policy_search(game, state, 0, moves, Rng.from_seed(1), search)
    assert move == Pick(card=2)


def test_too_few_rounds_are_no_evidence():
    game = LowestFirst()
    assert MctsBot(1, iterations=3).choose(game, one_round(game), 0) == Pick(card=2)


def test_a_search_where_no_move_changes_anything_stops_early(monkeypatch):
    """Every card wins this round: after `SETTLED_ROUNDS` rounds with no difference in
    any world, the rest of the budget (here 1,000 rounds) is not spent."""
    game = LowestFirst()
    state = one_round(game)
    state.hands = [[10, 11, 12], [1, 2, 3]]
    played = []
    real_rollout = policy_search_module.rollout

    def counted(*args):
        played.append(args[3])
        return real_rollout(*args)

    monkeypatch.setattr(policy_search_module, "rollout", counted)
    assert MctsBot(1, iterations=1000).choose(game, state, 0) == Pick(card=10)
    # two rounds of all three moves, then the better half of the two rivals with the lead
    assert len(played) == 2 * 3 + (SETTLED_ROUNDS - 2) * 2
