"""What the greedy and MCTS bot levels need from Dominion: a fair redeal and an evaluation."""

from collections import Counter

from dominion_kit import game, new_game, start

from services.ai import make_bot, play_match
from services.engine import Rng


def test_determinize_keeps_the_seats_own_hand_and_every_players_cards():
    state = start(
        new_game("Alley", "Ninja"),
        hand=["Copper", "Alley", "Estate", "Copper", "Copper"],
        deck=["Silver", "Ninja", "Copper", "Estate", "Gold", "Copper"],
    )
    world = game.determinize(state, 0, Rng.from_seed(4))
    mine, theirs = world.player_states[0], world.player_states[1]
    assert mine.hand == state.player_states[0].hand
    before = state.player_states[1]
    assert len(theirs.hand) == len(before.hand)
    assert Counter(theirs.hand + theirs.deck) == Counter(before.hand + before.deck)
    assert Counter(mine.deck) == Counter(state.player_states[0].deck)
    assert world.rng != state.rng


def test_determinize_leaves_the_seats_own_shadows_where_it_knows_they_are():
    deck = ["Copper", "Alley", "Estate", "Silver", "Ninja", "Gold", "Copper", "Estate"]
    state = start(new_game("Alley", "Ninja"), deck=deck)
    for seed in range(10):
        world = game.determinize(state, 0, Rng.from_seed(seed))
        assert [c in ("Alley", "Ninja") for c in world.player_states[0].deck] == [
            c in ("Alley", "Ninja") for c in state.player_states[0].deck
        ]


def test_evaluation_is_a_share_between_zero_and_one_that_favours_the_leader():
    state = new_game()
    assert game.evaluate(state, 0) == game.evaluate(state, 1) == 0.5
    state.player_states[0].discard += ["Province", "Province"]
    assert game.evaluate(state, 0) > 0.5 > game.evaluate(state, 1)


def test_greedy_beats_random_at_dominion():
    wins = 0
    for seed in range(6):
        bots = [make_bot("greedy", seed), make_bot("random", seed + 50)]
        wins += 0 in play_match(game, bots, seed, {"recommended": "Heading East"}).result.winners
    assert wins >= 5
