"""Setup: Supply by player count, starting decks, kingdoms (explicit, recommended, random),
Events, the Omen → Prophecy draw, Approaching Army, Riverboat; impossible configs refused."""

import pytest
from dominion_kit import kingdom_with, me, new_game

from services.engine import InvalidConfig, get_game
from services.games.dominion import game
from services.games.dominion.cards import ATTACKS, CARDS, EVENTS, KINGDOM_CARDS, OMENS, RISING_SUN
from services.games.dominion.setup import riverboat_candidates

SUPPLY = {
    2: (46, 40, 30, 8, 8, 8, 10),
    3: (39, 40, 30, 12, 12, 12, 20),
    4: (32, 40, 30, 12, 12, 12, 30),
    5: (85, 80, 60, 12, 12, 15, 40),
    6: (78, 80, 60, 12, 12, 18, 50),
}
BASICS = ("Copper", "Silver", "Gold", "Estate", "Duchy", "Province", "Curse")


def test_the_registry_finds_dominion():
    assert get_game("dominion") is game
    assert (game.min_players, game.max_players) == (2, 6)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_supply_follows_the_player_count(players):
    state = new_game(players=players)
    assert tuple(state.supply[name] for name in BASICS) == SUPPLY[players]
    assert all(state.supply[name] == 10 for name in state.kingdom)


@pytest.mark.parametrize("players", [2, 6])
def test_each_player_starts_with_7_coppers_and_3_estates_and_draws_5(players):
    state = new_game(players=players)
    for p in state.player_states:
        assert len(p.hand) == 5 and len(p.deck) == 5
        assert sorted(p.hand + p.deck) == ["Copper"] * 7 + ["Estate"] * 3


def test_an_explicit_kingdom_is_used_as_given():
    kingdom = kingdom_with("Alley", "Samurai")
    state = new_game(kingdom=kingdom)
    assert sorted(state.kingdom) == sorted(kingdom)
    assert state.prophecy is None and state.sun == 0 and state.events == []


def test_heading_east_uses_progress_and_its_ten_cards():
    state = game.setup({"recommended": "Heading East"}, 2, 1)
    assert state.prophecy == "Progress"
    assert sorted(state.kingdom) == sorted(
        [
            "Alley",
            "Artist",
            "Craftsman",
            "Fishmonger",
            "Litter",
            "Rice",
            "River Shrine",
            "Rustic Village",
            "Samurai",
            "Tea House",
        ]
    )


def test_dawn_of_an_era_uses_kind_emperor_and_practice():
    state = game.setup({"recommended": "Dawn of an Era"}, 4, 1)
    assert state.prophecy == "Kind Emperor" and state.events == ["Practice"]
    assert "Daimyo" in state.kingdom and len(state.kingdom) == 10


@pytest.mark.parametrize("players,tokens", [(2, 5), (3, 8), (4, 10), (5, 12), (6, 13)])
def test_sun_tokens_depend_on_the_player_count(players, tokens):
    state = game.setup({"recommended": "Heading East"}, players, 1)
    assert state.sun == tokens


def test_a_random_kingdom_has_ten_piles_and_at_most_two_events():
    for seed in range(60):
        state = game.setup({}, 2, seed)
        assert len(set(state.kingdom) - {state.army_pile}) == 10
        assert len(state.events) <= 2
        assert set(state.events) <= set(EVENTS)


def test_random_kingdoms_deal_events_from_the_shuffled_randomizers():
    counts = [len(game.setup({}, 2, seed).events) for seed in range(200)]
    assert {0, 1, 2} <= set(counts)


def test_max_events_limits_the_random_events():
    assert all(game.setup({"max_events": 0}, 2, s).events == [] for s in range(30))


def test_a_game_with_an_omen_deals_exactly_one_prophecy():
    for seed in range(80):
        state = game.setup({}, 3, seed)
        has_omen = bool(OMENS & set(state.kingdom))
        assert (state.prophecy is not None) == has_omen
        assert state.sun == (8 if has_omen else 0)


def test_a_prophecy_is_dealt_at_random_when_the_kingdom_has_an_omen():
    prophecies = {new_game("Poet", seed=s).prophecy for s in range(60)}
    assert len(prophecies) > 8 and None not in prophecies


def test_approaching_army_adds_an_attack_pile_not_already_in_the_kingdom():
    state = new_game("Poet", "Ninja", prophecy="Approaching Army")
    assert state.army_pile in ATTACKS and state.army_pile != "Ninja"
    assert state.supply[state.army_pile] == 10
    assert len(state.kingdom) == 11


def test_the_army_pile_can_be_named():
    state = new_game("Poet", prophecy="Approaching Army", army_pile="Samurai")
    assert state.army_pile == "Samurai" and "Samurai" in state.supply


def test_the_named_army_pile_must_be_an_attack_not_already_in_the_kingdom():
    for pile in ("Ninja", "Poet", "Copper"):
        with pytest.raises(InvalidConfig) as error:
            new_game("Poet", "Ninja", prophecy="Approaching Army", army_pile=pile)
        assert error.value.code == "bad_army_pile"
        assert "Attack not already in the kingdom" in error.value.message


def test_approaching_army_is_refused_when_every_attack_is_already_used():
    kingdom = kingdom_with("Poet", "Kitsune", "Ninja", "Samurai", "Snake Witch")
    with pytest.raises(InvalidConfig) as error:
        game.setup({"kingdom": kingdom, "prophecy": "Approaching Army"}, 2, 1)
    assert error.value.code == "no_attack_pile_available"


def test_approaching_army_is_never_drawn_when_it_could_not_be_set_up():
    kingdom = kingdom_with("Poet", "Kitsune", "Ninja", "Samurai", "Snake Witch")
    for seed in range(40):
        assert game.setup({"kingdom": kingdom}, 2, seed).prophecy != "Approaching Army"


def test_riverboat_sets_aside_an_unused_non_duration_action_costing_exactly_5():
    for seed in range(20):
        state = new_game("Riverboat", seed=seed)
        card = CARDS[state.riverboat_card]
        assert card.cost.coins == 5 and card.cost.debt == 0
        assert card.is_("Action") and not card.is_("Duration")
        assert state.riverboat_card not in state.supply


def test_the_riverboat_card_can_be_named_but_must_qualify():
    assert new_game("Riverboat", riverboat_card="Ronin").riverboat_card == "Ronin"
    with pytest.raises(InvalidConfig) as error:
        new_game("Riverboat", "Ronin", riverboat_card="Ronin")
    assert error.value.code == "bad_riverboat_card"
    with pytest.raises(InvalidConfig):
        new_game("Riverboat", riverboat_card="Samurai")


def test_riverboat_with_every_rising_sun_5_cost_action_in_use_takes_one_from_another_set():
    fives = riverboat_candidates(set(), RISING_SUN)
    kingdom = (["Riverboat"] + fives + ["Alley"])[:10]
    assert set(fives) <= set(kingdom)
    state = game.setup({"kingdom": kingdom}, 2, 1)
    assert state.riverboat_card in riverboat_candidates(set(kingdom))
    assert CARDS[state.riverboat_card].expansion != "rising-sun"


def test_riverboat_in_a_rising_sun_kingdom_sets_aside_a_rising_sun_card():
    for seed in range(10):
        state = new_game("Riverboat", seed=seed)
        assert state.riverboat_card in RISING_SUN


@pytest.mark.parametrize(
    "config,code",
    [
        ({"kingdom": ["Alley"]}, "kingdom_size"),
        ({"kingdom": kingdom_with("Alley")[:9] + ["Alley"]}, "kingdom_size"),
        ({"kingdom": kingdom_with("Pirate Ship")}, "unknown_card"),
        ({"kingdom": kingdom_with("Gold")}, "not_a_kingdom_card"),
        ({"kingdom": kingdom_with("Alley"), "events": ["Ball"]}, "unknown_event"),
        ({"kingdom": kingdom_with("Alley"), "events": ["Amass", "Amass"]}, "duplicate_event"),
        ({"kingdom": kingdom_with("Poet"), "prophecy": "Drought"}, "unknown_prophecy"),
        ({"kingdom": kingdom_with("Alley"), "prophecy": "Progress"}, "prophecy_without_omen"),
        ({"recommended": "Island People"}, "unknown_recommended_set"),
        ({"kingdom": "island-people"}, "unknown_recommended_set"),
        ({"kingdom": "heading-east", "recommended": "Heading East"}, "conflicting_options"),
        ({"card_sets": ["alchemy"]}, "unknown_card_set"),
        ({"card_sets": ["seaside"]}, "too_few_cards"),
        ({"card_sets": ["base"], "kingdom": "heading-east"}, "conflicting_options"),
        ({"recommended": "Heading East", "kingdom": kingdom_with("Alley")}, "conflicting_options"),
        (
            {"kingdom": kingdom_with("Alley"), "riverboat_card": "Ronin"},
            "riverboat_card_without_riverboat",
        ),
        (
            {"kingdom": kingdom_with("Poet"), "prophecy": "Progress", "army_pile": "Ninja"},
            "army_pile_without_army",
        ),
        ({"colour": "red"}, "invalid_options"),
    ],
)
def test_impossible_configurations_are_refused_with_a_clear_message(config, code):
    with pytest.raises(InvalidConfig) as error:
        game.setup(config, 2, 1)
    assert error.value.code == code
    assert len(error.value.message) > 15


def test_player_counts_outside_2_to_6_are_refused():
    with pytest.raises(InvalidConfig) as error:
        game.setup({}, 7, 1)
    assert error.value.code == "player_count"


def test_the_same_seed_sets_up_the_same_game():
    assert game.setup({}, 4, 99) == game.setup({}, 4, 99)
    assert game.setup({}, 4, 99) != game.setup({}, 4, 100)


def test_the_first_player_starts_in_the_buy_phase_with_no_action_to_play():
    state = new_game()
    assert state.turn.seat == 0 and state.turn.phase == "buy"
    assert me(state).turns == 1


def test_the_catalog_lists_all_cards_events_and_prophecies():
    catalog = game.catalog()
    assert len(catalog["cards"]) == 7 + 25 + 26 + 11 + 7 and len(catalog["events"]) == 10
    assert len(catalog["prophecies"]) == 15 and len(KINGDOM_CARDS) == 69
    assert len(RISING_SUN) == 25


def test_a_named_prophecy_with_a_random_kingdom_always_gets_an_omen():
    for seed in range(40):
        state = game.setup({"prophecy": "Growth"}, 2, seed)
        assert state.prophecy == "Growth" and OMENS & set(state.kingdom)


def test_a_named_army_pile_with_a_random_kingdom_is_never_dealt_into_the_kingdom():
    config = {"prophecy": "Approaching Army", "army_pile": "Ninja"}
    for seed in range(40):
        state = game.setup(config, 2, seed)
        assert state.army_pile == "Ninja" and state.kingdom.count("Ninja") == 1


def test_naming_setup_cards_the_game_may_not_have_is_refused_whatever_the_deal():
    for seed in range(10):
        with pytest.raises(InvalidConfig) as error:
            game.setup({"riverboat_card": "Ronin"}, 2, seed)
        assert error.value.code == "riverboat_card_without_riverboat"
        with pytest.raises(InvalidConfig) as error:
            game.setup({"army_pile": "Ninja"}, 2, seed)
        assert error.value.code == "army_pile_without_army"
