"""Dominion's own bot levels: Big Money, Big Money Ultimate and the expert.

They play whole games on every kingdom through the contract, decide from their seat's
observation alone (a world dealt anew from that seat's point of view gets the same
move), and make the decisions a good player would in the positions below.

SKYPORT_DOMINION_BOT_GAMES sets the games per level and kingdom (default 2).
"""

from __future__ import annotations

import os

import pytest
from dominion_kit import kingdom_with, new_game, prompts, start

from services.ai import RandomBot, make_bot, play_match
from services.ai.bot import levels_for
from services.ai.mcts import MctsBot
from services.engine import Rng
from services.games.dominion import game
from services.games.dominion.big_money import best_drawing_card
from services.games.dominion.card_traits import traits
from services.games.dominion.cards import RECOMMENDED
from services.games.dominion.moves import BUY_CARD, END_PHASE, Choose, PlayCard

OWN_LEVELS = ["big-money", "big-money-ultimate", "expert"]
GAMES = int(os.environ.get("SKYPORT_DOMINION_BOT_GAMES", "2"))
KINGDOMS = [{"recommended": name} for name in RECOMMENDED] + [{}]
"""Every recommended set, and a random kingdom."""


def test_dominion_offers_its_own_levels_beside_the_generic_ones():
    assert levels_for(game) == ["random", "greedy", "mcts", *OWN_LEVELS]


@pytest.mark.parametrize("level", OWN_LEVELS)
@pytest.mark.parametrize("config", KINGDOMS, ids=lambda c: c.get("recommended", "random"))
def test_each_level_plays_whole_games_on_every_kingdom(level, config):
    for seed in range(GAMES):
        players = 2 + seed % 3
        bots = [make_bot(level, seed)] + [make_bot("expert", seed + s) for s in range(1, players)]
        record = play_match(game, bots, seed, config)
        assert record.result.winners


@pytest.mark.parametrize("level", OWN_LEVELS)
def test_each_level_decides_from_its_seat_alone(level):
    """Other hands and every deck's order dealt anew (as the seat could imagine them):
    the move must not change."""
    checked = 0
    for seed in range(4):
        bots = [RandomBot(seed), RandomBot(seed + 1)]
        config = KINGDOMS[seed % len(KINGDOMS)]
        rng = Rng.from_seed(seed)
        for state in states_of_a_game(bots, seed, config)[::7]:
            for prompt in game.prompts(state):
                bot = make_bot(level, 5, game)
                dealt = game.determinize(state, prompt.seat, rng)
                assert bot.choose(game, dealt, prompt.seat) == bot.choose(game, state, prompt.seat)
                checked += 1
    assert checked > 50


def states_of_a_game(bots, seed, config):
    seen = []
    play_match(game, bots, seed, config, on_step=lambda state, *_: seen.append(state))
    return seen


def test_a_level_made_without_its_game_plays_the_game_it_meets():
    bots = [make_bot("expert", 1), make_bot("big-money", 2)]
    assert play_match(game, bots, 3, {"recommended": "Dawn of an Era"}).result.winners


def test_a_level_the_game_lacks_is_refused():
    from services.games.sky_islands import game as sky_islands

    assert "expert" not in levels_for(sky_islands)
    with pytest.raises(ValueError, match="no bot level 'expert'"):
        make_bot("expert", 1, sky_islands)
    with pytest.raises(ValueError, match="unknown bot level 'grandmaster'"):
        make_bot("grandmaster", 1)


def test_mcts_plays_out_with_the_experts_moves():
    state = start(new_game(), hand=["Copper"] * 5, phase="buy")
    rng = Rng.from_seed(1)
    state = game.apply(state, 0, game.playout_move(state, 0, rng)).state  # plays Treasures
    assert game.playout_move(state, 0, rng) == expert_move(state) == BUY_CARD["Gold Mine"]
    record = play_match(game, [MctsBot(1, iterations=3, depth=4), make_bot("expert", 2)], 4)
    assert record.result.winners


def test_mcts_starts_out_from_the_experts_move():
    """With next to no search, MCTS plays what the expert would (a uniformly judged root
    buys Coppers: they raise a starting deck's money density)."""
    state = start(new_game(), hand=[], phase="buy", coins=4)
    assert game.prior_move(state, 0, Rng.from_seed(1)) == expert_move(state)
    assert MctsBot(1, iterations=1).choose(game, state, 0) == expert_move(state)


# --- what the cards' data tell the bots ------------------------------------------------


def test_card_traits_are_read_from_the_data_and_text():
    assert traits("Imperial Envoy").draws == 5 and traits("Imperial Envoy").terminal
    assert traits("Ronin").draws == 2.5  # "Draw until you have 7 cards in hand"
    assert traits("Rustic Village").village
    assert traits("Kitsune").curses_others and traits("Snake Witch").curses_others
    assert traits("Snake Witch").curse_chance < traits("Kitsune").curse_chance == 1  # "If..."
    assert traits("River Shrine").trashes == 2 and not traits("River Shrine").remodels
    assert traits("Tanuki").remodels and traits("Tanuki").must_trash
    assert not traits("Mountain Shrine").must_trash  # "you may trash"


def test_big_money_ultimate_takes_the_kingdoms_best_drawing_card():
    assert best_drawing_card(RECOMMENDED["Dawn of an Era"].kingdom) == "Imperial Envoy"
    assert best_drawing_card(RECOMMENDED["Heading East"].kingdom) == "Litter"
    assert best_drawing_card(("Fishmonger", "Samurai", "Kitsune")) is None


# --- the expert's decisions ---------------------------------------------------------------


def expert_move(state, seat=0):
    return make_bot("expert", 1, game).choose(game, state, seat)


def test_the_expert_buys_a_province_at_8_and_gold_at_6():
    state = start(new_game(), phase="buy", hand=[], coins=8)
    assert expert_move(state) == BUY_CARD["Province"]
    state = start(new_game(), phase="buy", hand=[], coins=6)
    assert expert_move(state) == BUY_CARD["Gold"]


def test_the_expert_never_takes_the_last_province_to_lose():
    state = start(new_game(), phase="buy", hand=[], coins=8)
    state.supply["Province"] = 1
    state.player_states[1].discard += ["Province"] * 3  # 18 VP ahead
    assert expert_move(state) != BUY_CARD["Province"]
    state.player_states[0].discard += ["Province"] * 3
    assert expert_move(state) == BUY_CARD["Province"]  # now it wins the game


def test_the_expert_greens_when_the_provinces_run_low():
    state = start(new_game(), phase="buy", hand=[], coins=5)
    assert expert_move(state) != BUY_CARD["Duchy"]
    state.supply["Province"] = 3
    assert expert_move(state) == BUY_CARD["Duchy"]


def test_the_expert_pays_off_its_debt_before_buying():
    state = start(new_game(), phase="buy", hand=[], coins=7)
    state.player_states[0].debt = 3
    move = expert_move(state)
    assert move.kind == "pay_debt" and move.amount == 3


def test_the_expert_plays_a_village_before_its_terminals():
    state = new_game("Rustic Village", "Ninja", "Samurai")
    state = start(state, hand=["Ninja", "Samurai", "Rustic Village", "Copper", "Copper"])
    assert expert_move(state) == PlayCard(card="Rustic Village")


def test_the_expert_does_not_play_a_card_that_would_trash_a_good_one():
    state = start(new_game("Tanuki"), hand=["Tanuki", "Gold", "Gold", "Silver", "Silver"])
    assert expert_move(state) == END_PHASE


def test_the_expert_trashes_curses_and_estates_before_treasures():
    state = start(new_game("River Shrine"), hand=["River Shrine", "Curse", "Estate", "Silver"])
    state = game.apply(state, 0, PlayCard(card="River Shrine")).state
    assert prompts(state)[0].kind == "trash"
    assert sorted(expert_move(state).picks) == ["Curse", "Estate"]


def test_the_expert_discards_its_worst_cards_to_an_attack():
    state = new_game("Ninja", kingdom=kingdom_with("Ninja"))
    state = start(state, hand=["Ninja", "Copper"])
    state.player_states[1].hand = ["Gold", "Estate", "Curse", "Silver", "Copper"]
    state = game.apply(state, 0, PlayCard(card="Ninja")).state
    assert prompts(state)[0].seat == 1
    assert sorted(expert_move(state, 1).picks) == ["Curse", "Estate"]


def test_the_expert_curses_its_opponents_with_kitsune():
    state = start(new_game("Kitsune"), hand=["Kitsune", "Copper", "Copper"])
    state = game.apply(state, 0, PlayCard(card="Kitsune")).state
    move = expert_move(state)
    assert isinstance(move, Choose)
    assert sorted(move.picks) == ["+$2", "Each other player gains a Curse"]
