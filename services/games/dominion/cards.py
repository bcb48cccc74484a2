"""The components: cards, Events, Prophecies and recommended sets, loaded from `cards.json`.

Each card is one data row: cost, types, and the simple "+" effects printed first on it
(`+1 Sun` always first, then +Cards/+Actions/+Buys/+$/+Debt). A card whose text says
more sets `special`; its extra rules are one function named after it in `card_effects.py`.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, model_validator

CARD_TYPES = (
    "Action",
    "Treasure",
    "Victory",
    "Curse",
    "Attack",
    "Duration",
    "Command",
    "Shadow",
    "Omen",
    "Reaction",
)

EXPANSIONS = {
    "rising-sun": "Rising Sun",
    "base": "Dominion (2nd edition)",
    "intrigue": "Intrigue (2nd edition), the cards of the recommended sets",
    "seaside": "Seaside (2nd edition), the cards of the recommended sets",
}
"""The card sets a kingdom can be drawn from (option `card_sets`), by slug. Only the
Intrigue and Seaside cards that Rising Sun's recommended sets use are here."""

Expansion = Literal["rising-sun", "base", "intrigue", "seaside"]


class Cost(BaseModel):
    """A cost in coins and Debt. "Debt amounts are not coin amounts."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    coins: int = 0
    debt: int = 0


class Card(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    set: Literal["basic", "kingdom"]
    expansion: Expansion | None = None
    """The card set of a kingdom card (None for the basic cards)."""
    cost: Cost
    types: tuple[str, ...]
    text: str
    sun: int = 0
    cards: int = 0
    actions: int = 0
    buys: int = 0
    coins: int = 0
    debt: int = 0
    vp: int = 0
    special: bool = False
    lasting: Literal["next_turn", "game"] | None = None
    """Durations: how long the card stays in play after the turn it is played."""

    @model_validator(mode="after")
    def _known_types(self) -> Card:
        unknown = set(self.types) - set(CARD_TYPES)
        assert not unknown, f"{self.name}: unknown types {unknown}"
        assert ("Duration" in self.types) == (self.lasting is not None), self.name
        assert (self.set == "kingdom") == (self.expansion is not None), self.name
        return self

    def is_(self, kind: str) -> bool:
        return kind in self.types


class EventCard(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    cost: Cost
    text: str


class Prophecy(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    text: str


class RecommendedSet(BaseModel):
    """A set as the rulebook prints it. `riverboat_card` is the card in brackets after
    Riverboat; `army_pile` is the 11th pile of a set that lists one for Approaching Army."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    slug: str
    kingdom: tuple[str, ...]
    events: tuple[str, ...]
    prophecy: str | None
    riverboat_card: str | None = None
    army_pile: str | None = None


class ComponentTable(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    cards: tuple[Card, ...]
    events: tuple[EventCard, ...]
    prophecies: tuple[Prophecy, ...]
    recommended: tuple[RecommendedSet, ...]

    @model_validator(mode="after")
    def _sets_name_real_components(self) -> ComponentTable:
        names = {c.name for c in self.cards}
        events = {e.name for e in self.events}
        prophecies = {p.name for p in self.prophecies}
        for s in self.recommended:
            assert set(s.kingdom) <= names and len(s.kingdom) == 10, s.name
            assert set(s.events) <= events, s.name
            assert s.prophecy is None or s.prophecy in prophecies, s.name
            assert ("Riverboat" in s.kingdom) == (s.riverboat_card is not None), s.name
            assert s.army_pile is None or s.army_pile in names, s.name
        return self


@cache
def components() -> ComponentTable:
    raw = json.loads((Path(__file__).parent / "cards.json").read_text())
    return ComponentTable.model_validate(raw)


CARDS: dict[str, Card] = {c.name: c for c in components().cards}
EVENTS: dict[str, EventCard] = {e.name: e for e in components().events}
PROPHECIES: dict[str, Prophecy] = {p.name: p for p in components().prophecies}
RECOMMENDED: dict[str, RecommendedSet] = {s.name: s for s in components().recommended}
RECOMMENDED_BY_SLUG: dict[str, RecommendedSet] = {s.slug: s for s in components().recommended}

BASIC_CARDS = tuple(c.name for c in components().cards if c.set == "basic")
KINGDOM_CARDS = tuple(c.name for c in components().cards if c.set == "kingdom")
"""Every kingdom card of every card set."""
SET_CARDS: dict[str, tuple[str, ...]] = {
    slug: tuple(n for n in KINGDOM_CARDS if CARDS[n].expansion == slug) for slug in EXPANSIONS
}
RISING_SUN = SET_CARDS["rising-sun"]
REACTIONS = frozenset(n for n in KINGDOM_CARDS if CARDS[n].is_("Reaction"))
OMENS = frozenset(n for n in KINGDOM_CARDS if CARDS[n].is_("Omen"))
ATTACKS = frozenset(n for n in KINGDOM_CARDS if CARDS[n].is_("Attack"))
SHADOWS = frozenset(n for n in KINGDOM_CARDS if CARDS[n].is_("Shadow"))
ACTIONS = frozenset(n for n, c in CARDS.items() if c.is_("Action"))
"""Action cards by their printed type (Enlightenment makes Treasures Actions too)."""
TREASURES = frozenset(n for n, c in CARDS.items() if c.is_("Treasure"))
"""Treasures by their printed type: no Prophecy takes the type away or gives it."""
TYPES: dict[str, frozenset[str]] = {n: frozenset(c.types) for n, c in CARDS.items()}
