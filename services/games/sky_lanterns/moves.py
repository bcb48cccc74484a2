"""The decisions a player makes, one Move subclass each, told apart by `kind`."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from services.engine import Move

from .effects import Basic

CardId = Annotated[str, Field(min_length=1, max_length=8)]
SpaceId = Annotated[str, Field(min_length=1, max_length=12)]


class PlayContractCard(Move):
    """Step 1 (or a "Perform 1 Contract action" icon): a hand card's contract."""

    kind: Literal["play_contract_card"] = "play_contract_card"
    card: CardId


class EraContract(Move):
    """Step 1: one contract of the current Era card (0-based)."""

    kind: Literal["era_contract"] = "era_contract"
    option: int = Field(ge=0)


class ExclusiveContract(Move):
    """Step 1: one exclusive contract of your player board (0-based)."""

    kind: Literal["exclusive_contract"] = "exclusive_contract"
    option: int = Field(ge=0)


class InfluenceContract(Move):
    """2 players, step 1 (or a Contract icon): pay 2 Indigo / Tea / Dyeing Yams to move the
    blue / green / red influence die 1 space towards the opponent, once or twice, in order."""

    kind: Literal["influence_contract"] = "influence_contract"
    tracks: tuple[Literal["red", "blue", "green"], ...] = Field(min_length=1, max_length=2)


class AnswerRival(Move):
    """Solo: answer the virtual opponent's demand — pay it, or let the opponent gain."""

    kind: Literal["answer_rival"] = "answer_rival"
    pay: bool


class Decline(Move):
    """Skip what is offered: the optional Contract step, a Contract or a Development."""

    kind: Literal["decline"] = "decline"


class TakeDie(Move):
    """Step 2: take the die on a Main Board space; `forfeit` gives up its reward."""

    kind: Literal["take_die"] = "take_die"
    space: SpaceId
    forfeit: bool = False


class CamphorTrade(Move):
    """Free action before placing: pay 1 Camphor to change the held die by `delta`."""

    kind: Literal["camphor_trade"] = "camphor_trade"
    delta: Literal[-1, 1]


class CoalTrade(Move):
    """Free action at any time: 1 Coal for 1 Indigo, Tea or Dyeing Yam (P-03: 2 Coal for
    $2, `into` "coins")."""

    kind: Literal["coal_trade"] = "coal_trade"
    into: Literal["indigo", "tea", "yam", "coins"]


class PlaceCore(Move):
    """Step 3: place the held die in Core Slot `slot` (0 is the leftmost)."""

    kind: Literal["place_core"] = "place_core"
    slot: int = Field(ge=0)


class PlaceCompensation(Move):
    """Step 3: place the held die in Compensation Slot `slot` (0 is the top)."""

    kind: Literal["place_compensation"] = "place_compensation"
    slot: int = Field(ge=0)


class ReturnDie(Move):
    """Step 3 when no slot can take the held die (only P-01 can run out of room): it goes
    back to the bag, with no reward."""

    kind: Literal["return_die"] = "return_die"


class Develop(Move):
    """A Sky Lantern or Railway Development: tuck `card` into `zone` (0 left .. 2 right)."""

    kind: Literal["develop"] = "develop"
    card: CardId
    zone: int = Field(ge=0, le=2)


class Convert(Move):
    """How many times to carry out a "pay → gain" conversion (0 declines it)."""

    kind: Literal["convert"] = "convert"
    times: int = Field(ge=0, le=4)


class ChooseResource(Move):
    """Which resource "2 Indigo or 2 Tea or 2 Dyeing Yams" gives."""

    kind: Literal["choose_resource"] = "choose_resource"
    resource: Basic


class ChangeDie(Move):
    """The "die ±1" icon: change the held die by `delta` (0 leaves it)."""

    kind: Literal["change_die"] = "change_die"
    delta: Literal[-1, 0, 1]


class ChooseSpace(Move):
    """Which non-black dice space's effect to resolve."""

    kind: Literal["choose_space"] = "choose_space"
    space: SpaceId


class Upgrade(Move):
    """Flip the face-down Upgrade Tile on space `position` (0..3) of your player board."""

    kind: Literal["upgrade"] = "upgrade"
    position: int = Field(ge=0, le=3)


class DraftCard(Move):
    """starting_card_draft: keep this Starting card of those offered; pass the rest left."""

    kind: Literal["draft_card"] = "draft_card"
    card: CardId


class ArrangeTiles(Move):
    """upgrade_tile_arrangement: your 4 face-up Upgrade Tiles, in the order of the 4
    spaces of your board."""

    kind: Literal["arrange_tiles"] = "arrange_tiles"
    tiles: tuple[CardId, CardId, CardId, CardId]


class DrawCard(Move):
    """teapot_market: draw this market card, or (None) the top card of the deck."""

    kind: Literal["draw_card"] = "draw_card"
    card: CardId | None = None


class ChooseDonor(Move):
    """The supply ran out and several players tie for the most: who gives the token."""

    kind: Literal["choose_donor"] = "choose_donor"
    seat: int = Field(ge=0, le=3)


SkyLanternsMove = Annotated[
    PlayContractCard
    | EraContract
    | ExclusiveContract
    | InfluenceContract
    | AnswerRival
    | Decline
    | TakeDie
    | CamphorTrade
    | CoalTrade
    | PlaceCore
    | PlaceCompensation
    | ReturnDie
    | Develop
    | Convert
    | ChooseResource
    | ChangeDie
    | ChooseSpace
    | Upgrade
    | ChooseDonor
    | DraftCard
    | ArrangeTiles
    | DrawCard,
    Field(discriminator="kind"),
]
