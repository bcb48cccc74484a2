"""The options a game of Valley of Sky Lanterns can be set up with."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator


class SkyLanternsOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    first_player: int | None = Field(
        default=None,
        ge=0,
        description="Seat of the player who has most recently seen a sky lantern: the "
        "first player (0-based). Null picks one at random.",
    )

    starting_card_draft: bool = Field(
        default=False,
        description="Variant: everyone keeps 1 of their 3 Starting cards and passes the rest "
        "left, then 1 of the 2 received, and takes the last one passed to them.",
    )
    upgrade_tile_arrangement: bool = Field(
        default=False,
        description="Variant: the dealt Upgrade Tiles are face up and each player arranges "
        "their 4 tiles on their board before the game begins.",
    )
    teapot_market: bool = Field(
        default=False,
        description="Variant: 3 face-up Teapot cards; every draw may take one of them "
        "instead of the deck's top card; refilled at the end of each turn.",
    )
    unique_player_boards: bool = Field(
        default=False,
        description="Variant: everyone plays the back of their Player Board, one of the "
        "unique boards P-01 to P-04 (dealt at random).",
    )
    unique_project_cards: bool = Field(
        default=False,
        description="Variant: everyone plays the back (side B) of their Sky Lantern and "
        "Railway Project Cards.",
    )

    scenario: Literal["dead-mine", "burning-hut"] | None = Field(
        default=None,
        description="Solo only: the scenario against the virtual opponent: dead-mine "
        "(Scenario I, The Dead Mine) or burning-hut (Scenario II, The Burning Hut). A "
        "solo game without it plays dead-mine.",
    )
    challenge: bool = Field(
        default=False,
        description="Solo only: Challenge Mode, the scenario's harder starting setup.",
    )

    @field_validator("scenario", "challenge")
    @classmethod
    def _solo_only(cls, value: object, info: ValidationInfo) -> object:
        players = (info.context or {}).get("players")
        if value not in (None, False) and players is not None and players != 1:
            raise ValueError(f"{info.field_name} is for the solo game (1 player) only")
        return value

    @field_validator("first_player")
    @classmethod
    def _seat_exists(cls, seat: int | None, info: ValidationInfo) -> int | None:
        players = (info.context or {}).get("players")
        if seat is not None and players is not None and seat >= players:
            raise ValueError(f"first_player must be a seat of this {players}-player game")
        return seat
