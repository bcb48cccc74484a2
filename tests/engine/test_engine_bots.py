"""Game-agnostic bots, shown on the Blind Bid toy."""

from blind_bid import blind_bid

from services.ai import make_bot, play_match
from services.ai.bot import levels_for
from services.ai.mcts import MctsBot
from services.engine import Rng


def test_every_level_plays_whole_games():
    for level in levels_for(blind_bid):
        record = play_match(blind_bid, [make_bot(level, 1), make_bot(level, 2)], seed=4)
        assert record.state.over


def test_determinize_keeps_what_the_seat_sees_and_redeals_the_rest():
    state = blind_bid.setup({}, 3, 8)
    state = blind_bid.apply(state, 1, {"kind": "pick", "card": state.hands[1][0]}).state
    dealt = blind_bid.determinize(state, 0, Rng.from_seed(1))
    assert dealt.hands[0] == state.hands[0]
    assert [len(h) for h in dealt.hands] == [len(h) for h in state.hands]
    assert dealt.picks[1] is not None and dealt.picks[0] is None
    everything = [c for h in dealt.hands for c in h] + [dealt.picks[1]]
    assert len(set(everything)) == len(everything)
    assert dealt.rng != state.rng


def test_mcts_respects_an_iteration_budget():
    bot = MctsBot(3, iterations=5)
    state = blind_bid.setup({}, 2, 2)
    assert bot.choose(blind_bid, state, 0) in blind_bid.legal_moves(state, 0)


def test_mcts_plays_every_registered_game_through_the_contract():
    from services.engine import all_games

    for game in all_games():
        players = game.min_players
        bots = [MctsBot(seed, iterations=4, depth=4) for seed in range(players)]
        state = game.setup(None, players, 3)
        for _ in range(15):
            prompts = game.prompts(state)
            if not prompts:
                break
            seat = prompts[0].seat
            move = bots[seat].choose(game, state, seat)
            assert move in game.legal_moves(state, seat)
            state = game.apply(state, seat, move).state
