"""The game state: plain, compact data that serialises to JSON between any two moves.

Cards are their names. A card that stops for a decision keeps its progress in a `Frame`
on `DominionState.stack` (what is resolving, how far it got, what it remembers); the
decision itself is an `Ask` on that frame, answered by a `choose` move.
"""

from __future__ import annotations

import copy
from typing import Any

from pydantic import BaseModel, Field

from services.engine import GameState, Rng


def clone(model: BaseModel, **changes: Any) -> Any:
    """A copy of `model` with `changes` swapped in, without re-validating.

    The base `Game.apply` deep-copies the state before every move; pydantic's generic
    deep copy walks every string of every deck, so each model below copies itself field
    by field instead (the result is the same: a fully independent copy).
    """
    cls = model.__class__
    new = cls.__new__(cls)
    fields = dict(model.__dict__)
    fields.update(changes)
    object.__setattr__(new, "__dict__", fields)
    object.__setattr__(new, "__pydantic_fields_set__", set(model.__pydantic_fields_set__))
    object.__setattr__(new, "__pydantic_extra__", None)
    object.__setattr__(new, "__pydantic_private__", None)
    return new


class Ask(BaseModel):
    """One open decision of one seat: pick between `min` and `max` of `options`.

    Options are card names (a multiset: a hand with two Coppers lists "Copper" twice) or,
    with `distinct`, labels that may each be picked once. `sizes`, when set, lists the only
    allowed numbers of picks ("discard 2 cards, or none"). A `stepwise` ask takes its
    picks one move at a time (used when the combinations would be too many to list).
    """

    seat: int
    kind: str
    text: str
    options: list[str]
    min: int = 1
    max: int = 1
    distinct: bool = False
    sizes: list[int] | None = None
    stepwise: bool = False
    picked: list[str] = Field(default_factory=list)

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> Ask:
        sizes = None if self.sizes is None else list(self.sizes)
        return clone(self, options=list(self.options), sizes=sizes, picked=list(self.picked))


class Frame(BaseModel):
    """Something in the middle of resolving: a card being played, an Event, a gain
    trigger, the start of a turn, a Clean-up."""

    op: str
    seat: int
    card: str = ""
    pc: int = 0
    sub: int = 0
    vars: dict[str, Any] = Field(default_factory=dict)
    asks: list[Ask] = Field(default_factory=list)
    answers: dict[str, list[str]] = Field(default_factory=dict)

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> Frame:
        return clone(
            self,
            vars=copy.deepcopy(self.vars),
            asks=[a.__deepcopy__() for a in self.asks],
            answers={seat: list(picks) for seat, picks in self.answers.items()},
        )


class PlayerState(BaseModel):
    deck: list[str] = Field(default_factory=list)
    """Top of the deck is the END of the list."""
    hand: list[str] = Field(default_factory=list)
    discard: list[str] = Field(default_factory=list)
    """Top of the discard pile is the end of the list."""
    in_play: list[str] = Field(default_factory=list)
    """Cards played this turn that are still in play."""
    durations: list[list[str]] = Field(default_factory=list)
    """Cards still in play from earlier turns, as [card, "next_turn" | "game"]."""
    debt: int = 0
    turns: int = 0
    gained_gold: bool = False
    samurai: int = 0
    """Samurai plays so far: +$1 each at the start of each of this player's turns."""
    riverboats: int = 0
    """Riverboat plays last turn: each plays the set-aside card at the start of the next."""
    foresight: list[str] = Field(default_factory=list)
    biding: list[str] = Field(default_factory=list)
    rapid: list[str] = Field(default_factory=list)
    shadow_order: list[str] = Field(default_factory=list)
    """The order this player wants their Shadows in at the bottom of the deck when
    shuffled, bottom-most first ("they can go in any order at the bottom")."""

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> PlayerState:
        d = self.__dict__
        lists = {k: list(v) for k, v in d.items() if type(v) is list and k != "durations"}
        return clone(self, durations=[list(entry) for entry in self.durations], **lists)


class TurnState(BaseModel):
    seat: int = 0
    phase: str = "start"
    """start | action | buy | cleanup | over"""
    actions: int = 1
    buys: int = 1
    coins: int = 0
    daimyo: int = 0
    river_shrines: int = 0
    gained: int = 0
    gained_in_buy: bool = False
    continue_used: bool = False
    treasures_locked: bool = False
    treasures_played: list[str] = Field(default_factory=list)
    staying: list[list[str]] = Field(default_factory=list)
    """[card, lasting] for cards played this turn that stay in play after Clean-up."""

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> TurnState:
        return clone(
            self,
            treasures_played=list(self.treasures_played),
            staying=[list(entry) for entry in self.staying],
        )


class DominionState(GameState):
    kingdom: list[str]
    supply: dict[str, int]
    events: list[str] = Field(default_factory=list)
    prophecy: str | None = None
    sun: int = 0
    riverboat_card: str | None = None
    army_pile: str | None = None
    pile_debt: dict[str, int] = Field(default_factory=dict)
    trash: list[str] = Field(default_factory=list)
    removed_piles: dict[str, int] = Field(default_factory=dict)
    dealt: list[str] = Field(default_factory=list)
    """Every kingdom pile ever put in the Supply (Divine Wind deals more)."""
    player_states: list[PlayerState]
    turn: TurnState = Field(default_factory=TurnState)
    stack: list[Frame] = Field(default_factory=list)
    turn_count: int = 0

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> DominionState:
        return clone(
            self,
            rng=Rng(state=self.rng.state),
            resigned=list(self.resigned),
            kingdom=list(self.kingdom),
            supply=dict(self.supply),
            events=list(self.events),
            pile_debt=dict(self.pile_debt),
            trash=list(self.trash),
            removed_piles=dict(self.removed_piles),
            dealt=list(self.dealt),
            player_states=[p.__deepcopy__() for p in self.player_states],
            turn=self.turn.__deepcopy__(),
            stack=[f.__deepcopy__() for f in self.stack],
        )
