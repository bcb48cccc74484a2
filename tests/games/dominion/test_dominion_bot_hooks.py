"""What the greedy and MCTS bot levels need from Dominion: a fair redeal and an evaluation."""

from collections import Counter

from dominion_kit import act, choose, game, me, new_game, play, prompts, start, with_prophecy

from services.ai import make_bot, play_match
from services.ai.mcts import MctsBot
from services.ai.policy_search import MIN_ROUNDS
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


def ninja_with_one_answer_in():
    """Seat 0 played Ninja in a 3-player game; seat 1 has chosen its two discards (the
    card waits for seat 2 before carrying them out), and seat 2 is asked now."""
    state = start(new_game("Ninja", players=3), hand=["Ninja"], deck=["Copper"])
    for seat in (1, 2):
        me(state, seat).hand = ["Copper", "Copper", "Estate", "Estate", "Silver"]
        me(state, seat).deck = ["Gold", "Gold", "Province", "Province", "Duchy"]
    state = choose(play(state, "Ninja"), "Estate", "Estate", seat=1)
    assert [(p.seat, p.kind) for p in prompts(state)] == [(2, "discard")]
    return state


def test_a_redealt_hand_keeps_the_cards_its_owner_already_chose_to_discard():
    state = ninja_with_one_answer_in()
    for seed in range(20):
        world = game.determinize(state, 2, Rng.from_seed(seed))
        theirs = world.player_states[1]
        assert Counter(theirs.hand)["Estate"] >= 2 and len(theirs.hand) == 5
        assert Counter(theirs.hand + theirs.deck) == Counter(
            state.player_states[1].hand + state.player_states[1].deck
        )


def test_search_bots_answer_a_ninja_after_another_player_has_answered():
    """ISSUE10 #14: the greedy bot crashed here (list.remove: x not in list) and the game
    was aborted; its redeal had taken seat 1's chosen Estates out of seat 1's hand."""
    state = ninja_with_one_answer_in()
    for bot in (make_bot("greedy", 3), MctsBot(3, iterations=MIN_ROUNDS)):
        move = bot.choose(game, state, 2)
        after = game.apply(state, 2, move).state
        assert len(after.player_states[1].hand) == 3 and len(after.player_states[2].hand) == 3


def test_a_player_discarding_from_their_whole_hand_is_dealt_anew_for_a_searching_bot():
    """Seats 1 and 2 both discard to Militia; seat 1's bot must not search against seat 2's
    real hand (it did: every world kept it), and seat 2's choice in each world is offered
    from the hand dealt there, so the world plays on."""
    state = start(new_game("Militia", players=3), hand=["Militia"], deck=["Copper"] * 5)
    me(state, 2).hand = ["Gold", "Gold", "Province", "Estate", "Copper"]
    me(state, 2).deck = ["Copper"] * 7 + ["Estate"] * 2 + ["Silver"]
    me(state, 1).hand = ["Copper", "Copper", "Estate", "Silver", "Copper"]
    state = play(state, "Militia")
    assert {p.seat for p in prompts(state)} == {1, 2}
    hands = set()
    for seed in range(30):
        world = game.determinize(state, 1, Rng.from_seed(seed))
        theirs = world.player_states[2]
        hands.add(tuple(sorted(theirs.hand)))
        assert Counter(theirs.hand + theirs.deck) == Counter(me(state, 2).hand + me(state, 2).deck)
        [ask] = [a for frame in world.stack for a in frame.asks if a.seat == 2]
        assert Counter(ask.options) == Counter(theirs.hand)
        for deciding in (2, 1):  # both discard in the dealt world, as the search would
            move = make_bot("random", seed).choose(game, world, deciding)
            world = game.apply(world, deciding, move).state
        assert len(world.player_states[2].hand) == len(world.player_states[1].hand) == 3
    assert len(hands) > 10


def test_another_players_face_down_biding_time_cards_are_dealt_anew_for_a_searching_bot():
    """Biding Time: "set aside your hand face down"; seat 1 sees only how many."""
    state = start(
        with_prophecy("Biding Time"),
        hand=["Gold", "Gold", "Province"],
        deck=["Copper"] * 10,
        phase="buy",
    )
    state = act(state, kind="end_turn")
    assert state.turn.seat == 1 and sorted(me(state).biding) == ["Gold", "Gold", "Province"]
    dealt = set()
    for seed in range(30):
        world = game.determinize(state, 1, Rng.from_seed(seed))
        theirs, real = world.player_states[0], me(state)
        assert len(theirs.biding) == 3 and len(theirs.hand) == len(real.hand)
        assert Counter(theirs.biding + theirs.hand + theirs.deck) == Counter(
            real.biding + real.hand + real.deck
        )
        dealt.add(tuple(sorted(theirs.biding)))
    assert len(dealt) > 1


def test_a_player_answering_bandit_from_revealed_cards_is_dealt_anew_for_a_searching_bot():
    """Both other players choose which revealed Treasure to trash; their options are the
    revealed cards, which tell nothing of their hands."""
    state = start(new_game("Bandit", players=3), hand=["Bandit"], deck=["Copper"] * 10)
    for seat in (1, 2):
        me(state, seat).deck = ["Copper"] * 6 + ["Gold", "Silver"]
    me(state, 2).hand = ["Province", "Province", "Gold", "Gold", "Gold"]
    state = play(state, "Bandit")
    assert {p.seat for p in prompts(state)} == {1, 2}
    hands = set()
    for seed in range(30):
        world = game.determinize(state, 1, Rng.from_seed(seed))
        hands.add(tuple(sorted(world.player_states[2].hand)))
        [ask] = [a for frame in world.stack for a in frame.asks if a.seat == 2]
        assert sorted(ask.options) == ["Gold", "Silver"]
        for deciding in (2, 1):  # both answer in the dealt world, as the search would
            move = make_bot("random", seed).choose(game, world, deciding)
            world = game.apply(world, deciding, move).state
    assert len(hands) > 3


def test_a_secret_passage_waiting_for_its_position_plays_on_in_every_dealt_world():
    """The random determinization run crashed here: the card picked a moment before is
    still in the hand, so that hand is not dealt anew while its position is asked."""
    state = start(
        new_game("Secret Passage"), hand=["Secret Passage", "Estate", "Gold"], deck=["Copper"] * 6
    )
    state = choose(play(state, "Secret Passage"), "Gold")
    assert prompts(state)[0].kind == "deck_position"
    for seed in range(10):
        world = game.determinize(state, 1, Rng.from_seed(seed))
        assert "Gold" in world.player_states[0].hand
        world = game.apply(world, 0, make_bot("random", seed).choose(game, world, 0)).state
        assert "Gold" in world.player_states[0].deck
