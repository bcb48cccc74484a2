"""Setting up a game: the kingdom (explicit list, recommended set, or random), Events,
the Prophecy for Omens, Approaching Army's extra Attack pile, Riverboat's set-aside card,
the Supply by player count and the starting decks."""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field

from services.engine import InvalidConfig, Rng

from .cards import (
    ATTACKS,
    CARDS,
    EVENTS,
    EXPANSIONS,
    KINGDOM_CARDS,
    OMENS,
    PROPHECIES,
    RECOMMENDED,
    RECOMMENDED_BY_SLUG,
    SET_CARDS,
)
from .state import TURN_LIMIT, DominionState, PlayerState

# Supplement, "Supply": Estates are in addition to the starting ones.
BASIC_PILES = ("Copper", "Silver", "Gold", "Estate", "Duchy", "Province", "Curse")
BASIC_COUNTS = {
    2: (46, 40, 30, 8, 8, 8, 10),
    3: (39, 40, 30, 12, 12, 12, 20),
    4: (32, 40, 30, 12, 12, 12, 30),
    5: (85, 80, 60, 12, 12, 15, 40),
    6: (78, 80, 60, 12, 12, 18, 50),
}
BASIC_SUPPLY = {
    n: dict(zip(BASIC_PILES, counts, strict=True)) for n, counts in BASIC_COUNTS.items()
}
PILES_TO_END = {2: 3, 3: 3, 4: 3, 5: 4, 6: 4}
SUN_TOKENS = {2: 5, 3: 8, 4: 10, 5: 12, 6: 13}
KINGDOM_PILE = 10
VICTORY_PILE = {2: 8, 3: 12, 4: 12, 5: 12, 6: 12}
"""Supplement: "a Victory kingdom pile is 8 with 2 players, 12 otherwise"."""
STARTING_DECK = ["Copper"] * 7 + ["Estate"] * 3


class DominionConfig(BaseModel):
    """How to choose the game's components. With no kingdom and no recommended set, the
    kingdom is dealt at random from the chosen `card_sets` (Rising Sun alone by default)."""

    model_config = ConfigDict(extra="forbid")

    kingdom: list[str] | str | None = Field(
        default=None,
        description="Exactly 10 kingdom cards, or the slug of a recommended set: "
        + ", ".join(RECOMMENDED_BY_SLUG)
        + ".",
    )
    recommended: str | None = Field(
        default=None, description="A recommended set by name or slug (same as `kingdom`)."
    )
    card_sets: list[str] | None = Field(
        default=None,
        description="Deal a random kingdom from these card sets: "
        + ", ".join(EXPANSIONS)
        + " (default: rising-sun).",
    )
    events: list[str] | None = Field(default=None, description="Events to use (else random).")
    prophecy: str | None = Field(default=None, description="The Prophecy, if there is an Omen.")
    max_events: int = Field(default=2, ge=0, le=10, description="Random Events, at most.")
    riverboat_card: str | None = None
    army_pile: str | None = None
    turn_limit: int = Field(
        default=TURN_LIMIT,
        ge=1,
        le=1000,
        description="A service rule, not the rulebook's: the game ends, scored as it "
        "stands, once every player has had this many turns.",
    )


@dataclass
class Components:
    kingdom: list[str]
    events: list[str]
    prophecy: str | None
    army_pile: str | None = None
    riverboat_card: str | None = None
    card_sets: list[str] | None = None


def refuse(code: str, message: str, **details: object) -> InvalidConfig:
    return InvalidConfig(code, message, dict(details))


# --- choosing the components ----------------------------------------------------------


def choose_components(config: DominionConfig, rng: Rng) -> Components:
    if isinstance(config.kingdom, str):
        if config.recommended is not None:
            raise refuse(
                "conflicting_options", "Name a recommended set once: in `kingdom` or `recommended`."
            )
        config = config.model_copy(update={"recommended": config.kingdom, "kingdom": None})
    check_names(config)
    check_card_sets(config)
    check_named_setup_cards(config)
    if config.recommended is not None:
        return complete(config, recommended_components(config), rng)
    if config.kingdom is not None:
        kingdom = Components(list(config.kingdom), list(config.events or []), config.prophecy)
        kingdom.card_sets = sets_of(kingdom.kingdom)
        return complete(config, kingdom, rng)
    for _ in range(RANDOM_DEALS):
        try:
            return complete(config, random_components(config, rng), rng)
        except InvalidConfig as error:
            if error.code != "no_riverboat_card_available":
                raise
    raise refuse("no_riverboat_card_available", "No random deal could set up Riverboat.")


RANDOM_DEALS = 20
"""A random deal whose Riverboat has no $5 card left to set aside is dealt again."""


def complete(config: DominionConfig, chosen: Components, rng: Rng) -> Components:
    """The Prophecy for an Omen, Approaching Army's pile, Riverboat's card."""
    check_prophecy(chosen)
    if chosen.prophecy is None and OMENS & set(chosen.kingdom):
        chosen.prophecy = rng.choice(possible_prophecies(chosen.kingdom))
    if chosen.army_pile is None:
        chosen.army_pile = choose_army_pile(config, chosen, rng)
    if chosen.riverboat_card is None:
        chosen.riverboat_card = choose_riverboat_card(config, chosen, rng)
    return chosen


def card_sets(config: DominionConfig) -> list[str]:
    return list(dict.fromkeys(config.card_sets or ["rising-sun"]))


def sets_of(kingdom: list[str]) -> list[str]:
    """The card sets a kingdom's cards come from (Divine Wind deals from these)."""
    return [slug for slug in EXPANSIONS if set(SET_CARDS[slug]) & set(kingdom)]


def pool_of(sets: list[str]) -> list[str]:
    return [card for slug in sets for card in SET_CARDS[slug]]


def check_card_sets(config: DominionConfig) -> None:
    if config.card_sets is None:
        return
    for slug in config.card_sets:
        if slug not in EXPANSIONS:
            raise refuse(
                "unknown_card_set",
                f"There is no card set called {slug!r}; the sets are {', '.join(EXPANSIONS)}.",
                card_set=slug,
            )
    if config.kingdom is not None or config.recommended is not None:
        raise refuse(
            "conflicting_options",
            "`card_sets` chooses a random kingdom; do not name a kingdom or set as well.",
        )
    if len(pool_of(card_sets(config))) < 10:
        raise refuse(
            "too_few_cards",
            f"{', '.join(card_sets(config))} hold fewer than 10 kingdom cards: add a set.",
        )


def check_names(config: DominionConfig) -> None:
    for card in config.kingdom or []:
        if card not in CARDS:
            raise refuse(
                "unknown_card",
                f"There is no kingdom card called {card!r} (Rising Sun, Dominion, and the "
                "Intrigue and Seaside cards of the recommended sets).",
                card=card,
            )
        if card not in KINGDOM_CARDS:
            raise refuse(
                "not_a_kingdom_card",
                f"{card} is a basic card, always in the Supply; it cannot be one of "
                "the 10 kingdom piles.",
                card=card,
            )
    if config.kingdom is not None and len(set(config.kingdom)) != 10:
        raise refuse(
            "kingdom_size",
            f"A kingdom is exactly 10 different kingdom cards, not {len(set(config.kingdom))}.",
            kingdom=config.kingdom,
        )
    for event in config.events or []:
        if event not in EVENTS:
            raise refuse(
                "unknown_event",
                f"There is no Event called {event!r}; the Events are {', '.join(EVENTS)}.",
                event=event,
            )
    if config.events is not None and len(set(config.events)) != len(config.events):
        raise refuse("duplicate_event", "Each Event can be used only once.")
    if config.prophecy is not None and config.prophecy not in PROPHECIES:
        raise refuse("unknown_prophecy", f"There is no Prophecy called {config.prophecy!r}.")


def check_named_setup_cards(config: DominionConfig) -> None:
    """Naming Approaching Army's pile or Riverboat's card only makes sense when the game
    surely has them, so it is refused (always, not depending on a random deal) otherwise."""
    if config.army_pile is not None and config.prophecy != "Approaching Army":
        raise refuse(
            "army_pile_without_army",
            "An extra Attack pile is only added for the Prophecy Approaching Army; name that "
            "Prophecy too.",
        )
    if config.riverboat_card is not None and "Riverboat" not in (config.kingdom or []):
        raise refuse(
            "riverboat_card_without_riverboat",
            "A card is only set aside for Riverboat when the kingdom you give has Riverboat.",
        )


def recommended_components(config: DominionConfig) -> Components:
    """A set as printed: its 10 cards, Events, Prophecy, Riverboat's card in brackets, and
    the 11th (Attack) pile Invasion Fleet lists for Approaching Army."""
    name = config.recommended or ""
    chosen = RECOMMENDED.get(name) or RECOMMENDED_BY_SLUG.get(name)
    if chosen is None:
        raise refuse(
            "unknown_recommended_set",
            f"There is no recommended set called {name!r}; the sets are "
            f"{', '.join(RECOMMENDED_BY_SLUG)}.",
        )
    if config.kingdom is not None or config.events is not None or config.prophecy is not None:
        raise refuse(
            "conflicting_options",
            "A recommended set already names its kingdom, "
            "Events and Prophecy; do not give them as well.",
        )
    return Components(
        list(chosen.kingdom),
        list(chosen.events),
        chosen.prophecy,
        army_pile=chosen.army_pile,
        riverboat_card=chosen.riverboat_card,
        card_sets=sets_of(list(chosen.kingdom)),
    )


def random_components(config: DominionConfig, rng: Rng) -> Components:
    """ "Keep turning over cards until you get 10 Kingdom cards"; Events turned over are
    used up to `max_events` ("we recommend using at most 2"), further ones skipped.
    A named Prophecy needs an Omen: if none is dealt, the 10th card becomes a random Omen."""
    sets = card_sets(config)
    piles = [n for n in pool_of(sets) if n != config.army_pile]
    events = list(EVENTS) if config.events is None and "rising-sun" in sets else []
    randomizers = piles + events
    rng.shuffle(randomizers)
    kingdom: list[str] = []
    dealt_events: list[str] = list(config.events or [])
    for card in randomizers:
        if len(kingdom) == 10:
            break
        if card not in EVENTS:
            kingdom.append(card)
        elif len(dealt_events) < config.max_events:
            dealt_events.append(card)
    if config.prophecy is not None and not OMENS & set(kingdom):
        kingdom[-1] = rng.choice(sorted(OMENS - set(kingdom)))
    return Components(kingdom, dealt_events, config.prophecy, card_sets=sets)


def possible_prophecies(kingdom: list[str]) -> list[str]:
    """Approaching Army needs an Attack pile that is not already in the kingdom."""
    if set(kingdom) >= ATTACKS & set(pool_of(sets_of(kingdom))):
        return [p for p in PROPHECIES if p != "Approaching Army"]
    return list(PROPHECIES)


def check_prophecy(chosen: Components) -> None:
    if chosen.prophecy is None:
        return
    if not OMENS & set(chosen.kingdom):
        raise refuse(
            "prophecy_without_omen",
            f"{chosen.prophecy} is a Prophecy, used only in "
            f"games with an Omen ({', '.join(sorted(OMENS))}); this kingdom has none.",
        )
    if chosen.prophecy not in possible_prophecies(chosen.kingdom):
        raise refuse(
            "no_attack_pile_available",
            "Approaching Army adds an Attack pile, but "
            "every Rising Sun Attack is already in the kingdom.",
        )


def choose_army_pile(config: DominionConfig, chosen: Components, rng: Rng) -> str | None:
    """ "If the Prophecy is Approaching Army, add an Attack card pile to the game (even if
    there already is one)." — an Attack pile not already in the kingdom."""
    if chosen.prophecy != "Approaching Army":
        return None
    if config.army_pile is None:
        pool = ATTACKS & set(pool_of(chosen.card_sets or sets_of(chosen.kingdom)))
        return rng.choice(sorted(pool - set(chosen.kingdom)))
    options = sorted(ATTACKS - set(chosen.kingdom))
    if config.army_pile not in options:
        raise refuse(
            "bad_army_pile",
            f"Approaching Army's pile must be an Attack not already "
            f"in the kingdom: one of {', '.join(options)}.",
        )
    return config.army_pile


def riverboat_candidates(in_use: set[str], pool: list[str] | tuple[str, ...] = ()) -> list[str]:
    """ "A non-Duration Action card costing exactly 5 coins that is not being used" — from
    `pool` (the game's card sets), or from every card set."""
    return [
        n
        for n in pool or KINGDOM_CARDS
        if n not in in_use
        and CARDS[n].is_("Action")
        and not CARDS[n].is_("Duration")
        and CARDS[n].cost.coins == 5
        and CARDS[n].cost.debt == 0
    ]


def choose_riverboat_card(config: DominionConfig, chosen: Components, rng: Rng) -> str | None:
    if "Riverboat" not in chosen.kingdom:
        return None
    in_use = set(chosen.kingdom) | {chosen.army_pile or ""}
    if config.riverboat_card is None:
        pool = pool_of(chosen.card_sets or sets_of(chosen.kingdom))
        options = riverboat_candidates(in_use, pool) or riverboat_candidates(in_use)
    else:
        options = riverboat_candidates(in_use)
    if not options:
        raise refuse(
            "no_riverboat_card_available",
            "Riverboat needs an unused non-Duration "
            "Action card costing exactly $5, and every one is in this kingdom.",
        )
    if config.riverboat_card is None:
        return rng.choice(options)
    if config.riverboat_card not in options:
        raise refuse(
            "bad_riverboat_card",
            f"Riverboat's card must be an unused non-Duration "
            f"Action costing exactly $5: one of {', '.join(options)}.",
        )
    return config.riverboat_card


# --- the state ------------------------------------------------------------------------


def supply_order(kingdom: list[str]) -> list[str]:
    return sorted(kingdom, key=lambda n: (CARDS[n].cost.coins, CARDS[n].cost.debt, n))


def new_state(config: DominionConfig, players: int, seed: int) -> DominionState:
    rng = Rng.from_seed(seed)
    chosen = choose_components(config, rng)
    piles = supply_order(chosen.kingdom + ([chosen.army_pile] if chosen.army_pile else []))
    supply = dict(BASIC_SUPPLY[players]) | {name: pile_size(name, players) for name in piles}
    return DominionState(
        players=players,
        seed=seed,
        rng=rng,
        kingdom=piles,
        supply=supply,
        events=chosen.events,
        prophecy=chosen.prophecy,
        sun=SUN_TOKENS[players] if chosen.prophecy else 0,
        riverboat_card=chosen.riverboat_card,
        army_pile=chosen.army_pile,
        dealt=list(piles),
        card_sets=chosen.card_sets or sets_of(chosen.kingdom),
        turn_limit=config.turn_limit,
        player_states=[starting_player(rng) for _ in range(players)],
    )


def pile_size(card: str, players: int) -> int:
    return VICTORY_PILE[players] if CARDS[card].is_("Victory") else KINGDOM_PILE


def starting_player(rng: Rng) -> PlayerState:
    """7 Coppers and 3 Estates, shuffled; draw 5."""
    deck = list(STARTING_DECK)
    rng.shuffle(deck)
    return PlayerState(deck=deck[:5], hand=deck[5:])


def deal_new_piles(s: DominionState, rng: Rng) -> list[str]:
    """Divine Wind: 10 new random piles from the piles not in use (nor set aside)."""
    pool = pool_of(s.card_sets)
    unused = [n for n in pool if n not in s.kingdom and n != s.riverboat_card]
    rng.shuffle(unused)
    piles = supply_order(unused[:10])
    if "Riverboat" in piles and s.riverboat_card is None:
        options = riverboat_candidates(set(piles), pool)
        s.riverboat_card = rng.choice(options) if options else None
    return piles
