"""What a discard pile hides from the other players, and what a searching bot's re-dealt
world (`determinize`) does with it.

The hand a player discards in Clean-up goes there unseen by the others (only the top
card of a discard pile is in view); a card that goes there in view (played, gained,
discarded by a card, revealed) is known to everyone. A re-dealt world deals the unseen
ones anew together with that player's hand and deck, and keeps every seen one where it
is.
"""

from collections import Counter

import orjson
from dominion_kit import act, buy, choose, game, me, new_game, play, prompts, start, with_prophecy

from services.ai import make_bot
from services.engine import Rng
from services.games.dominion.state import PlayerState
from services.games.dominion.zones import take_from_discard

SEEDS = range(40)


def unseen(player: PlayerState) -> list[str]:
    return [player.discard[at] for at in player.discard_unseen]


def seen(player: PlayerState) -> list[tuple[int, str]]:
    """The discard pile's cards in view, with their places."""
    return [(at, c) for at, c in enumerate(player.discard) if at not in player.discard_unseen]


def both_hands_discarded():
    """Seat 0 plays its Gold and discards Province, Province, Duchy and Estate in
    Clean-up, the Gold landing on top; seat 1 plays nothing, so the last card of its
    discarded hand is the top of its pile. Then seat 0's turn starts."""
    state = start(
        new_game(),
        hand=["Province", "Province", "Duchy", "Gold", "Estate"],
        deck=["Copper"] * 7 + ["Silver"] * 3,
        phase="buy",
    )
    me(state, 1).hand = ["Silver", "Estate", "Gold", "Duchy", "Copper"]
    me(state, 1).deck = ["Copper"] * 5 + ["Estate"] * 2 + ["Silver"] * 3
    state = act(state, kind="play_treasures")
    state = act(state, kind="end_turn")
    assert state.turn.seat == 1
    state = act(state, 1, kind="end_turn")
    assert state.turn.seat == 0
    return state


def test_the_hand_discarded_in_clean_up_is_dealt_anew_for_the_other_players():
    state = both_hands_discarded()
    real = me(state, 0)
    assert real.discard == ["Province", "Province", "Duchy", "Estate", "Gold"]
    cards = Counter(real.hand + real.deck + real.discard)
    piles = set()
    for seed in SEEDS:
        theirs = me(game.determinize(state, 1, Rng.from_seed(seed)), 0)
        assert len(theirs.discard) == 5 and theirs.discard[-1] == "Gold"  # the top, in view
        assert len(theirs.hand) == len(real.hand) and len(theirs.deck) == len(real.deck)
        assert Counter(theirs.hand + theirs.deck + theirs.discard) == cards
        piles.add(tuple(theirs.discard[:-1]))
    assert len(piles) > 10  # not only the four cards it never saw


def test_the_discarded_hand_is_what_goes_unseen_but_for_a_last_card_left_on_top():
    state = both_hands_discarded()
    assert unseen(me(state, 0)) == ["Province", "Province", "Duchy", "Estate"]
    assert seen(me(state, 0)) == [(4, "Gold")]
    # Seat 1 played nothing: its hand's last card is the top of its pile, in every view.
    assert me(state, 1).discard == ["Silver", "Estate", "Gold", "Duchy", "Copper"]
    assert unseen(me(state, 1)) == ["Silver", "Estate", "Gold", "Duchy"]
    assert game.view(state, 0).players[1].discard_top == "Copper"


def test_unseen_discards_conserve_each_players_cards_and_leave_the_seats_own_alone():
    state = both_hands_discarded()
    for seat, other in ((0, 1), (1, 0)):
        mine, real = me(state, seat), me(state, other)
        piles = set()
        for seed in SEEDS:
            world = game.determinize(state, seat, Rng.from_seed(seed))
            own, theirs = me(world, seat), me(world, other)
            assert own.hand == mine.hand and own.discard == mine.discard
            assert Counter(own.deck) == Counter(mine.deck)
            assert seen(theirs) == seen(real)
            assert Counter(theirs.hand + theirs.deck + unseen(theirs)) == Counter(
                real.hand + real.deck + unseen(real)
            )
            piles.add(tuple(unseen(theirs)))
        assert len(piles) > 10


def test_cards_discarded_gained_or_played_in_view_stay_where_they_are():
    """Seat 0 has a Gold and a Silver in its pile already, discards an Estate to Cellar,
    buys a Silver and discards a Province with its hand, then what it played."""
    state = start(
        new_game("Cellar"),
        hand=["Cellar", "Estate", "Copper", "Copper", "Province"],
        deck=["Copper", "Gold", "Gold", "Duchy", "Silver", "Estate", "Copper"],
        discard=["Gold", "Silver"],
    )
    state = choose(play(state, "Cellar"), "Estate")
    state = buy(act(state, kind="play_treasures"), "Silver")
    if state.turn.seat == 0:
        state = act(state, kind="end_turn")
    real = me(state, 0)
    assert real.discard[:5] == ["Gold", "Silver", "Estate", "Silver", "Province"]
    assert unseen(real) == ["Province"]
    tops = set()
    for seed in SEEDS:
        theirs = me(game.determinize(state, 1, Rng.from_seed(seed)), 0)
        assert seen(theirs) == seen(real)
        tops.add(theirs.discard[4])
    assert tops > {"Province"}


def test_a_shuffle_leaves_nothing_unseen_in_the_discard_pile():
    state = start(
        new_game(),
        hand=["Province", "Duchy", "Estate", "Gold", "Copper"],
        deck=["Silver"] * 2,
        phase="buy",
    )
    state = act(state, kind="end_turn")  # draws 2, then shuffles the discarded hand in
    real = me(state, 0)
    assert real.discard == [] and real.discard_unseen == ()
    assert len(real.hand) == 5 and len(real.deck) == 2


def test_a_hand_set_aside_by_biding_time_is_not_discarded():
    state = start(with_prophecy("Biding Time"), hand=["Gold", "Province"], phase="buy")
    state = act(state, kind="end_turn")
    assert me(state, 0).discard == [] and me(state, 0).discard_unseen == ()


def test_the_card_harbinger_takes_is_not_told_so_the_whole_pile_under_the_top_goes_unseen():
    """Only its owner learns which card Harbinger put on the deck: a re-dealt world must
    not keep the Gold out of the discard pile, which would tell it where the Gold went."""
    state = start(
        new_game("Harbinger"),
        hand=["Harbinger", "Copper", "Copper", "Estate", "Copper"],
        deck=["Copper"] * 6,
        discard=["Gold", "Estate", "Silver"],
    )
    state = choose(play(state, "Harbinger"), "Gold")
    real = me(state, 0)
    assert real.discard == ["Estate", "Silver"] and real.deck[-1] == "Gold"
    assert unseen(real) == ["Estate"]
    piles = set()
    for seed in SEEDS:
        theirs = me(game.determinize(state, 1, Rng.from_seed(seed)), 0)
        assert theirs.discard[-1] == "Silver"
        piles.add(tuple(theirs.discard))
    assert ("Gold", "Silver") in piles


def harbinger_over_a_discarded_hand():
    """Seat 0 discarded Province, Duchy, Estate and Estate unseen last turn; now its
    Harbinger asks which card of that pile goes onto the deck."""
    state = start(
        new_game("Harbinger"),
        hand=["Province", "Duchy", "Estate", "Estate", "Silver"],
        deck=["Harbinger"] + ["Copper"] * 4 + ["Gold", "Silver", "Copper"],
        phase="buy",
    )
    state = act(state, kind="end_turn")
    state = act(state, 1, kind="end_turn")
    state = play(state, "Harbinger")
    assert [(p.seat, p.kind) for p in prompts(state)] == [(0, "topdeck")]
    return state


def test_a_player_choosing_from_their_discard_pile_chooses_from_the_pile_dealt_anew():
    state = harbinger_over_a_discarded_hand()
    assert unseen(me(state, 0)) == ["Province", "Duchy", "Estate", "Estate"]
    piles = set()
    for seed in SEEDS:
        world = game.determinize(state, 1, Rng.from_seed(seed))
        theirs = me(world, 0)
        [ask] = [a for frame in world.stack for a in frame.asks if a.seat == 0]
        assert ask.options == theirs.discard
        piles.add(tuple(theirs.discard))
        move = make_bot("random", seed).choose(game, world, 0)  # as the search would
        world = game.apply(world, 0, move).state
        if move.picks:
            assert me(world, 0).deck[-1] == move.picks[0]
    assert len(piles) > 10


def test_taking_a_card_out_of_the_discard_pile_keeps_the_unseen_ones_in_their_places():
    player = PlayerState(
        discard=["Copper", "Estate", "Gold", "Duchy", "Silver"], discard_unseen=(0, 1, 3)
    )
    assert take_from_discard(player, 2) == "Gold"
    assert player.discard == ["Copper", "Estate", "Duchy", "Silver"]
    assert unseen(player) == ["Copper", "Estate", "Duchy"]
    assert take_from_discard(player, 3) == "Silver"
    assert unseen(player) == ["Copper", "Estate"], "the Duchy is on top now, for all to see"


def test_a_state_saved_before_discards_were_tracked_still_loads():
    state = both_hands_discarded()
    saved = orjson.loads(game.dump_state(state))
    for player in saved["player_states"]:
        del player["discard_unseen"]
    for frame in saved["stack"]:
        for ask in frame["asks"]:
            del ask["from_discard"]
    loaded = game.load_state(orjson.dumps(saved))
    assert [p.discard_unseen for p in loaded.player_states] == [(), ()]
    assert [p.discard for p in loaded.player_states] == [p.discard for p in state.player_states]
