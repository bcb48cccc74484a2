"""What the flying ships give: a cube of their colour from the supply, or for a green
ship a victory point. "If the supply does not contain the resource, that resource
cannot be gained." """

from __future__ import annotations

from typing import Any, Literal

from services.engine import Seat

from .board import PlacedTile
from .state import SkyIslandsState
from .tiles import TILES, ShipColour


def ship_of(tile: PlacedTile) -> ShipColour:
    return TILES[tile.tile].ship


def sail_in(
    state: SkyIslandsState, seat: Seat, ships: list[ShipColour], vp_kind: Literal["income", "ships"]
) -> dict[str, Any]:
    """Give `seat` what `ships` bring, one ship after another; return the tally."""
    merchant = state.merchants[seat]
    tally: dict[str, Any] = {"red": 0, "white": 0, "blue": 0, "vp": 0, "missed": []}
    for ship in ships:
        if ship == "green":
            setattr(merchant.vp, vp_kind, getattr(merchant.vp, vp_kind) + 1)
            tally["vp"] += 1
        elif state.supply.get(ship) > 0:
            state.supply.add(ship, -1)
            merchant.cubes.add(ship, 1)
            tally[ship] += 1
        else:
            tally["missed"].append(ship)
    return tally
