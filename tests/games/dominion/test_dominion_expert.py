"""Dominion's own bot levels: Big Money, Big Money Ultimate and the expert.

They play whole games on every kingdom through the contract, decide from their seat's
observation alone (a world dealt anew from that seat's point of view gets the same
move), and make the decisions a good player would in the positions below.

SKYPORT_DOMINION_BOT_GAMES sets the games per level and kingdom (default 2).
"""

from __future__ import annotations

import os

import pytest
from dominion_kit import kingdom_with, new_game, prompts, start, with_prophecy

from services.ai import RandomBot, make_bot, play_match
from services.ai.bot import levels_for
from services.ai.mcts import MctsBot
from services.engine import Rng
from services.games.dominion import game
from services.games.dominion.big_money import best_drawing_card
from services.games.dominion.card_traits import traits
from services.games.dominion.cards import CARDS, RECOMMENDED
from services.games.dominion.moves import BUY_CARD, END_PHASE, END_TURN, Choose, PlayCard

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
    assert game.playout_move(state, 0, rng) == expert_move(state)
    assert expert_move(state).kind == "buy_card"
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


# --- Debt: what it costs the turns after ------------------------------------------------


def buy_with(coins: int, *cards: str, trash: list[str] | None = None, provinces: int = 8):
    state = start(new_game(*cards), hand=[], phase="buy", coins=coins)
    state.trash = list(trash or [])
    state.supply["Province"] = provinces
    return expert_move(state)


def test_the_expert_will_not_carry_a_debt_cards_whole_cost_into_its_next_turns():
    """Mountain Shrine costs 5 Debt. Paid from this turn's spare $ it is cheap; carried
    into the next turns it eats their buys: with $0 the expert buys nothing, with $2 a
    $2 card, rather than start its next turn owing 5 (or 3)."""
    assert buy_with(0, "Mountain Shrine") == END_TURN
    assert buy_with(2, "Mountain Shrine") == BUY_CARD["Fishmonger"]


def test_the_expert_takes_a_debt_card_its_spare_coins_pay_for():
    """With an Action in the trash, Mountain Shrine's +2 Cards count: $5 pays its 5 Debt
    at once, and it is worth more than the $5 card the $ would buy."""
    assert (
        buy_with(5, "Mountain Shrine", "Gold Mine", trash=["Gold Mine"])
        == BUY_CARD["Mountain Shrine"]
    )


def test_mountain_shrines_cards_count_only_when_the_trash_can_hold_an_action():
    """ "Then if there are any Action cards in the trash, +2 Cards": with no Action in the
    trash (and none it could trash), it is a $2 terminal, not worth its 5 Debt at $5."""
    assert buy_with(5, "Mountain Shrine", "Gold Mine") != BUY_CARD["Mountain Shrine"]
    no_action = buy_with(5, "Mountain Shrine", "Gold Mine", trash=["Estate", "Copper"])
    assert no_action != BUY_CARD["Mountain Shrine"]
    assert (
        buy_with(5, "Mountain Shrine", "Gold Mine", trash=["Gold Mine"])
        == BUY_CARD["Mountain Shrine"]
    )
    # Enlightenment (public from the setup, even before it is active) makes Treasures
    # Actions, so Mountain Shrine can put one in the trash itself.
    state = start(with_prophecy("Enlightenment", "Mountain Shrine", "Gold Mine", active=False))
    state = start(state, hand=[], phase="buy", coins=5)
    assert expert_move(state) == BUY_CARD["Mountain Shrine"]


def change_gains(hand: list[str], provinces: int) -> tuple[list[str], list[str]]:
    """Play Change (no Debt yet): what the expert trashes, and what it gains."""
    state = start(new_game("Change"), hand=hand)
    state.supply["Province"] = provinces
    state = game.apply(state, 0, PlayCard(card="Change")).state
    trashed = expert_move(state)
    state = game.apply(state, 0, trashed).state
    assert prompts(state)[0].kind == "gain"
    return trashed.picks, expert_move(state).picks


def test_a_gain_paid_in_debt_counts_its_debt():
    """Change gains a card costing more than the one trashed, for Debt equal to the
    difference: early on, an Estate becomes a Silver (1 Debt), not a Gold (4 Debt) nor a
    Province (6 Debt) that would cost the next turns their buys."""
    trashed, gained = change_gains(["Change", "Estate", "Copper", "Copper", "Copper"], 8)
    assert trashed == ["Estate"] and gained == ["Silver"]


def test_no_victory_card_is_taken_on_debt_before_the_greening():
    trashed, gained = change_gains(["Change", "Estate", "Silver", "Estate", "Estate"], 8)
    assert not CARDS[gained[0]].is_("Victory")
    trashed, gained = change_gains(["Change", "Estate", "Silver", "Estate", "Estate"], 2)
    assert trashed == ["Estate"] and gained == ["Province"]  # the greening: worth its Debt


MONEY_KINGDOM = ["Gold Mine", "Cellar", "Moat", "Harbinger", "Merchant", "Vassal", "Village"]
MONEY_KINGDOM += ["Workshop", "Bureaucrat", "Gardens"]
"""No $5–$7 card that beats Gold, so Gold Mine's question is about the $ alone."""


def gold_mine_answer(hand: list[str], provinces: int = 8) -> list[str]:
    """Gold Mine draws the last card of `hand`; the expert's answer to its question."""
    state = new_game(kingdom=MONEY_KINGDOM)
    state = start(state, hand=["Gold Mine", *hand[:-1]], deck=[hand[-1]])
    state.supply["Province"] = provinces
    state = game.apply(state, 0, PlayCard(card="Gold Mine")).state
    assert prompts(state)[0].text.endswith("gain a Gold and get +4 Debt?")
    return expert_move(state).picks


def test_gold_mines_gold_is_taken_when_the_rest_of_the_coins_still_buy_as_well():
    """The 4 Debt is paid before buying: with $6 or $7, a Gold now and a $2–$3 card beat
    the one Gold the $ would buy; with $8 it would turn a Province into a Gold and a $4
    card; late, Debt is not risked."""
    assert gold_mine_answer(["Gold", "Silver", "Copper", "Estate"]) == ["Yes"]
    assert gold_mine_answer(["Gold", "Silver", "Silver", "Estate"]) == ["Yes"]
    assert gold_mine_answer(["Gold", "Gold", "Silver", "Estate"]) == ["No"]
    assert gold_mine_answer(["Gold", "Silver", "Silver", "Estate"], provinces=2) == ["No"]


# --- reading the kingdom ---------------------------------------------------------------


def test_the_expert_plays_a_card_offering_actions_before_the_terminals_it_would_feed():
    """Kitsune's "+2 Actions" is one of its choices: played first, Witch still gets played."""
    state = start(new_game("Kitsune", "Witch"), hand=["Witch", "Kitsune", "Copper"])
    assert expert_move(state) == PlayCard(card="Kitsune")
    state = game.apply(state, 0, PlayCard(card="Kitsune")).state
    assert "+2 Actions" in expert_move(state).picks


def test_courtier_reveals_the_card_with_the_most_types():
    """Under Enlightenment a Silver is a Treasure and an Action: two choices, +$3 and a Gold."""
    state = start(with_prophecy("Enlightenment", "Courtier"), hand=["Courtier", "Estate", "Silver"])
    state = game.apply(state, 0, PlayCard(card="Courtier")).state
    assert expert_move(state).picks == ["Silver"]
    state = game.apply(state, 0, expert_move(state)).state
    assert sorted(expert_move(state).picks) == ["+$3", "Gain a Gold"]


def finish_buy_phase(state):
    """The expert's moves until its turn ends: the cards it bought, the Treasures kept."""
    bought = []
    while prompts(state) and prompts(state)[0].kind == "buy_phase" and state.turn.seat == 0:
        move = expert_move(state)
        if move.kind == "buy_card":
            bought.append(move.card)
        if move.kind == "end_turn":
            return bought, list(state.player_states[0].hand)
        state = game.apply(state, 0, move).state
    return bought, list(state.player_states[0].hand)


def test_under_panic_treasures_are_spent_only_on_a_buy_worth_them():
    """Panic returns a Treasure discarded from play to its pile: each is $ once. The
    expert plays just the Treasures a Province needs and keeps the rest, and plays none
    for nothing worth them (so its deck keeps its $ and the game can end)."""
    state = with_prophecy("Panic", "Smithy")
    state = start(state, hand=["Gold", "Gold", "Silver", "Silver", "Estate"], phase="buy")
    bought, kept = finish_buy_phase(state)
    assert bought[0] == "Province" and "Silver" in kept
    state = with_prophecy("Panic", kingdom=["Poet", *MONEY_KINGDOM[:-1]])
    for cheap in ("Cellar", "Moat"):
        state.supply[cheap] = 0  # nothing worth $2 is left
    state = start(state, hand=["Copper", "Copper", "Estate", "Estate", "Estate"], phase="buy")
    bought, kept = finish_buy_phase(state)
    assert bought == [] and kept.count("Copper") == 2


def test_a_game_that_drags_on_greens_anyway():
    """After 40 turns with every Province still there (decks that cannot reach $8), the
    expert greens as the Provinces running out would make it: Duchies, so a pile can end."""
    state = start(new_game(), phase="buy", hand=[], coins=5)
    assert expert_move(state) != BUY_CARD["Duchy"]
    state.player_states[0].turns = 55
    assert expert_move(state) == BUY_CARD["Duchy"]


def test_a_gain_that_costs_debt_is_worth_that_much_less():
    """Gold Mine's Gold comes with 4 Debt each time: at $5 a Smithy, whose draws cost
    nothing, is the better buy for a money deck."""
    assert traits("Gold Mine").gain_debt == 4 and traits("Craftsman").gain_debt == 0
    kingdom = ["Gold Mine", "Smithy", "Cellar", "Moat", "Harbinger", "Merchant", "Vassal"]
    kingdom += ["Village", "Workshop", "Gardens"]
    state = start(new_game(kingdom=kingdom), hand=[], phase="buy", coins=5)
    assert expert_move(state) == BUY_CARD["Smithy"]


def test_a_shadow_counts_the_hand_slot_it_leaves():
    """Ronin draws to 7 cards like a Smithy from hand, but played from the deck it leaves
    its slot in hand to one more card: at $5 it is the better drawer."""
    kingdom = ["Ronin", "Smithy", "Cellar", "Moat", "Harbinger", "Merchant", "Vassal"]
    kingdom += ["Village", "Workshop", "Gardens"]
    state = start(new_game(kingdom=kingdom), hand=[], phase="buy", coins=5)
    assert expert_move(state) == BUY_CARD["Ronin"]
