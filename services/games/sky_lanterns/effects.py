"""The effect vocabulary: one model per icon of the rulebook's Icon Reference.

Every component (dice space, Upgrade Tile, player board, Teapot card, Era card, Project
card) writes what it does as a list of these effects, and one resolver (`resolver.py`)
interprets them. A data file names an effect by its `kind`:

    {"kind": "gain", "res": {"tea": 3}}                 Gain 3 Tea
    {"kind": "convert", "pay": {"coal": 2},
     "effects": [{"kind": "draw"}], "times": 2}          Pay 2 Coal to draw 1 card (x2)
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

Basic = Literal["coal", "indigo", "tea", "yam"]
"""Basic resources: they live on the player board's resource tracks (and cap there)."""
Resource = Literal["coal", "indigo", "tea", "yam", "coins", "camphor", "vp"]
LanternColour = Literal["red", "yellow", "blue"]

BASICS: tuple[Basic, ...] = ("coal", "indigo", "tea", "yam")
COAL_TRADES_INTO: tuple[Basic, ...] = ("indigo", "tea", "yam")
"""What 1 Coal becomes by the usual Coal Trade (P-03's gives $2 for 2 Coal instead)."""
LANTERN_COLOURS: tuple[LanternColour, ...] = ("red", "yellow", "blue")

CoreDice = Literal["core_dice"]
"""Icon: "an amount equal to the number of dice in the Core Slots (including this die)"."""
Amount = int | CoreDice


class _Effect(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Gain(_Effect):
    """Gain Indigo / Tea / Dyeing Yam / Coal / $ / Camphor / VP (several icons at once,
    e.g. "1 Indigo, 1 Tea and 1 Dyeing Yam")."""

    kind: Literal["gain"] = "gain"
    res: dict[Resource, Amount]

    @model_validator(mode="after")
    def _positive(self) -> Gain:
        if not self.res or any(isinstance(n, int) and n < 1 for n in self.res.values()):
            raise ValueError("a gain names at least one resource, each at least 1")
        return self


class Train(_Effect):
    """Advance your train by `steps` spaces, gaining everything passed."""

    kind: Literal["train"] = "train"
    steps: int = Field(default=1, ge=1, le=4)


class Lanterns(_Effect):
    """Gain sky lanterns (the icon: one of each colour)."""

    kind: Literal["lanterns"] = "lanterns"
    colours: dict[LanternColour, int] = Field(
        default_factory=lambda: dict[LanternColour, int]({"red": 1, "yellow": 1, "blue": 1})
    )


class Draw(_Effect):
    """Draw cards from the Teapot deck."""

    kind: Literal["draw"] = "draw"
    cards: int = Field(default=1, ge=1, le=3)


class Develop(_Effect):
    """Perform 1 Sky Lantern Development or 1 Railway Development (paying the card)."""

    kind: Literal["develop"] = "develop"
    track: Literal["lantern", "railway"]


class VpPer(_Effect):
    """Gain VP equal to your Railway Developments, or to your yellow sky lanterns."""

    kind: Literal["vp_per"] = "vp_per"
    what: Literal["railway_card", "yellow_lantern"]


class CardRailway(_Effect):
    """Immediately gain all railway rewards on this card."""

    kind: Literal["card_railway"] = "card_railway"


class FirstPlayer(_Effect):
    """Gain the First Player Marker."""

    kind: Literal["first_player"] = "first_player"


class PlayerToRight(_Effect):
    """The player to your right gains the following rewards."""

    kind: Literal["player_to_right"] = "player_to_right"
    effects: list[Effect]


class Contract(_Effect):
    """Perform 1 Contract action (hand, Era or exclusive), or decline it."""

    kind: Literal["contract"] = "contract"


class OneOf(_Effect):
    """ "2 Indigo or 2 Tea or 2 Dyeing Yams": gain `amount` of one resource you choose."""

    kind: Literal["one_of"] = "one_of"
    res: list[Basic] = Field(
        default_factory=lambda: list[Basic](["indigo", "tea", "yam"]), min_length=2
    )
    amount: int = Field(default=2, ge=1)


class ChangeDie(_Effect):
    """Increase or decrease the value of the die you hold by 1 (or leave it)."""

    kind: Literal["change_die"] = "change_die"


class AnySpace(_Effect):
    """Resolve the effect of any dice space on the Main Board except for black ones."""

    kind: Literal["any_space"] = "any_space"


class Convert(_Effect):
    """Pay the resources on the left to get the effects on the right, up to `times` times
    (the player picks how often, 0 included: paying is always optional)."""

    kind: Literal["convert"] = "convert"
    pay: dict[Resource, Amount]
    effects: list[Effect]
    times: int = Field(default=1, ge=1, le=4)

    @model_validator(mode="after")
    def _payable(self) -> Convert:
        if not self.pay or "vp" in self.pay:
            raise ValueError("a conversion pays at least one resource, and never VP")
        if any(isinstance(n, int) and n < 1 for n in self.pay.values()):
            raise ValueError("a conversion pays at least 1 of each resource it names")
        return self


class Income(_Effect):
    """An income icon: gain these now and again at every Income Event (rounds 3 and 5)."""

    kind: Literal["income"] = "income"
    effects: list[Effect]


class Upgrade(_Effect):
    """Printed on the train track's leftmost space: flip one face-down Upgrade Tile onto
    the Main Board and gain the income it uncovers (not an Icon Reference icon)."""

    kind: Literal["upgrade"] = "upgrade"


Effect = Annotated[
    Gain
    | Train
    | Lanterns
    | Draw
    | Develop
    | VpPer
    | CardRailway
    | FirstPlayer
    | PlayerToRight
    | Contract
    | OneOf
    | ChangeDie
    | AnySpace
    | Convert
    | Income
    | Upgrade,
    Field(discriminator="kind"),
]

DECISIONS = frozenset({"develop", "contract", "one_of", "change_die", "any_space", "convert"})
"""Effects that stop for the player's choice (`upgrade` too, handled with them)."""

for _model in (PlayerToRight, Convert, Income):
    _model.model_rebuild()


def nested(effect: object) -> list[Effect] | None:
    """The effect list an effect holds (for the player to the right, a conversion or an
    income), or None."""
    if isinstance(effect, PlayerToRight | Convert | Income):
        return effect.effects
    return None
