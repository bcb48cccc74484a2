"""Kingdoms by name (the rulebook's seven recommended sets, by slug) and random kingdoms
from chosen card sets; the catalog lists the sets with their cards."""

import pytest

from services.engine import InvalidConfig
from services.games.dominion import game
from services.games.dominion.cards import CARDS, EXPANSIONS, SET_CARDS

PRINTED = {
    "heading-east": (
        "Progress",
        [],
        None,
        "Alley, Artist, Craftsman, Fishmonger, Litter, Rice, River Shrine, Rustic Village, "
        "Samurai, Tea House",
    ),
    "dawn-of-an-era": (
        "Kind Emperor",
        ["Practice"],
        None,
        "Aristocrat, Change, Daimyo, Gold Mine, Imperial Envoy, Kitsune, Mountain Shrine, "
        "Ninja, Rice Broker, Ronin",
    ),
    "spring-forward": (
        "Rapid Expansion",
        [],
        "Market",
        "Gold Mine, Mountain Shrine, Riverboat, Root Cellar, Tanuki, Artisan, Harbinger, "
        "Smithy, Throne Room, Workshop",
    ),
    "money-to-burn": (
        "Panic",
        ["Gather"],
        None,
        "Change, Craftsman, Poet, Ronin, Snake Witch, Bureaucrat, Cellar, Festival, Merchant, "
        "Poacher",
    ),
    "solving-the-puzzle": (
        "Enlightenment",
        [],
        "Upgrade",
        "Artist, Gold Mine, Mountain Shrine, Riverboat, Ronin, Conspirator, Courtier, "
        "Ironworks, Lurker, Wishing Well",
    ),
    "cold-calculation": (
        "Harsh Winter",
        ["Amass"],
        None,
        "Craftsman, Ninja, Snake Witch, Tea House, Tanuki, Baron, Diplomat, Duke, "
        "Secret Passage, Shanty Town",
    ),
    "invasion-fleet": (
        "Approaching Army",
        [],
        "Bazaar",
        "Alley, Kitsune, Ninja, Rice Broker, Riverboat, Blockade, Corsair, Outpost, Salvager, "
        "Sea Chart, Treasure Map",
    ),
}


@pytest.mark.parametrize("slug", PRINTED)
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_each_recommended_set_is_set_up_as_printed(slug, players):
    prophecy, events, riverboat, cards = PRINTED[slug]
    state = game.setup({"kingdom": slug}, players, 3)
    assert sorted(state.supply) == sorted(
        cards.split(", ") + ["Copper", "Silver", "Gold", "Estate", "Duchy", "Province", "Curse"]
    )
    assert state.prophecy == prophecy and state.events == events
    assert state.riverboat_card == riverboat


def test_the_recommended_option_takes_a_name_or_a_slug_too():
    by_name = game.setup({"recommended": "Cold Calculation"}, 2, 1)
    by_slug = game.setup({"recommended": "cold-calculation"}, 2, 1)
    assert by_name == by_slug == game.setup({"kingdom": "cold-calculation"}, 2, 1)


def test_invasion_fleets_eleventh_pile_is_approaching_armys_attack_pile():
    state = game.setup({"kingdom": "invasion-fleet"}, 2, 1)
    assert state.army_pile == "Corsair" and len(state.kingdom) == 11


def test_cold_calculations_duke_pile_follows_the_player_count():
    assert game.setup({"kingdom": "cold-calculation"}, 2, 1).supply["Duke"] == 8
    assert game.setup({"kingdom": "cold-calculation"}, 5, 1).supply["Duke"] == 12


@pytest.mark.parametrize(
    "sets",
    [["base"], ["rising-sun", "base"], ["intrigue", "seaside"], ["rising-sun", "seaside"]],
)
def test_a_random_kingdom_comes_from_the_chosen_card_sets(sets):
    allowed = {card for slug in sets for card in SET_CARDS[slug]}
    for seed in range(20):
        state = game.setup({"card_sets": sets}, 2 + seed % 5, seed)
        dealt = set(state.kingdom) - {state.army_pile}
        assert len(dealt) == 10 and dealt <= allowed


def test_a_random_kingdom_without_rising_sun_has_no_events_or_prophecy():
    for seed in range(20):
        state = game.setup({"card_sets": ["base"]}, 2, seed)
        assert state.events == [] and state.prophecy is None


def test_random_kingdoms_from_every_set_deal_every_card():
    seen = set()
    for seed in range(200):
        seen |= set(game.setup({"card_sets": list(EXPANSIONS)}, 2, seed).kingdom)
    assert seen == {card for cards in SET_CARDS.values() for card in cards}


def test_the_default_random_kingdom_is_rising_sun_alone():
    for seed in range(20):
        assert set(game.setup({}, 2, seed).kingdom) <= set(SET_CARDS["rising-sun"])


def test_a_random_riverboat_sets_aside_a_card_of_the_chosen_sets():
    found = 0
    for seed in range(200):
        state = game.setup({"card_sets": ["base", "rising-sun"]}, 2, seed)
        if state.riverboat_card:
            found += 1
            assert CARDS[state.riverboat_card].expansion in ("base", "rising-sun")
            assert state.riverboat_card not in state.kingdom
    assert found


@pytest.mark.parametrize(
    "config,code",
    [
        ({"card_sets": ["prosperity"]}, "unknown_card_set"),
        ({"card_sets": ["seaside"]}, "too_few_cards"),
        ({"card_sets": ["base"], "kingdom": "money-to-burn"}, "conflicting_options"),
        ({"kingdom": "island-people"}, "unknown_recommended_set"),
        ({"kingdom": "money-to-burn", "recommended": "money-to-burn"}, "conflicting_options"),
        ({"kingdom": "money-to-burn", "prophecy": "Growth"}, "conflicting_options"),
    ],
)
def test_impossible_set_choices_are_refused(config, code):
    with pytest.raises(InvalidConfig) as error:
        game.setup(config, 2, 1)
    assert error.value.code == code and len(error.value.message) > 15


def test_the_catalog_lists_the_card_sets_with_their_cards_and_the_sets_with_slugs():
    catalog = game.catalog()
    sets = {s["slug"]: s for s in catalog["card_sets"]}
    assert list(sets) == ["rising-sun", "base", "intrigue", "seaside"]
    assert len(sets["rising-sun"]["cards"]) == 25 and len(sets["base"]["cards"]) == 26
    assert len(sets["intrigue"]["cards"]) == 11 and len(sets["seaside"]["cards"]) == 7
    assert "Moat" in sets["base"]["cards"] and "Outpost" in sets["seaside"]["cards"]
    slugs = [s["slug"] for s in catalog["recommended"]]
    assert slugs == list(PRINTED)
    fleet = next(s for s in catalog["recommended"] if s["slug"] == "invasion-fleet")
    assert fleet["riverboat_card"] == "Bazaar" and fleet["army_pile"] == "Corsair"
    assert next(c for c in catalog["cards"] if c["name"] == "Moat")["expansion"] == "base"


# --- Riverboat's printed cards, played -------------------------------------------------


def riverboat_turn(slug: str):
    """Seat 0 plays Riverboat and ends its turn; seat 1 passes; seat 0's next turn starts."""
    from dominion_kit import play, start

    state = game.setup({"kingdom": slug}, 2, 5)
    state = start(state, hand=["Riverboat"], deck=["Copper"] * 5 + ["Estate"] * 7)
    state = play(state, "Riverboat")
    while state.turn.seat == 0:
        state = game.apply(state, 0, {"kind": "end_turn"}).state
    while state.turn.seat == 1:
        moves = game.legal_moves(state, 1)
        end = next(m for m in moves if m.kind in ("end_turn", "end_phase", "choose"))
        state = game.apply(state, 1, end).state
    return state


def test_spring_forwards_riverboat_plays_the_set_aside_market_next_turn():
    state = riverboat_turn("spring-forward")
    p = state.player_states[0]
    assert state.turn.seat == 0 and state.turn.buys == 2 and state.turn.coins == 1
    assert len(p.hand) == 6 and "Market" not in p.hand + p.discard + p.deck + p.in_play
    assert state.riverboat_card == "Market" and state.supply.get("Market") is None


def test_invasion_fleets_riverboat_plays_the_set_aside_bazaar_next_turn():
    state = riverboat_turn("invasion-fleet")
    assert state.turn.seat == 0 and len(state.player_states[0].hand) == 6
    assert state.turn.coins == 1


def test_solving_the_puzzles_riverboat_plays_the_set_aside_upgrade_next_turn():
    state = riverboat_turn("solving-the-puzzle")
    assert state.turn.seat == 0 and state.stack[-1].card == "Upgrade"
    assert state.stack[-1].asks[0].kind == "trash"
    assert sorted(state.stack[-1].asks[0].options) == ["Copper"] * 5 + ["Estate"]
