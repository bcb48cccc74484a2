"""Gaining and paying resources: track caps, the general supply, and its shortage rule."""

from __future__ import annotations

from .components import PLAYER_BOARDS
from .effects import BASICS
from .state import SkyLanternsState

SPECIAL = ("coins", "camphor")


def has(state: SkyLanternsState, seat: int, resource: str) -> int:
    player = state.seats[seat]
    if resource in BASICS:
        return player.basics[resource]
    return int(getattr(player, resource))


def gain(state: SkyLanternsState, seat: int, resource: str, amount: int) -> None:
    player = state.seats[seat]
    if resource in BASICS:
        # "Any resources gained beyond the track's maximum limit are lost."
        cap = PLAYER_BOARDS[player.board].cap
        player.basics[resource] = min(cap, player.basics[resource] + amount)
    elif resource == "vp":
        player.vp += amount
    else:
        _take_from_supply(state, seat, resource, amount)


def pay(state: SkyLanternsState, seat: int, resource: str, amount: int) -> None:
    player = state.seats[seat]
    assert has(state, seat, resource) >= amount, "pay() needs an affordable amount"
    if resource in BASICS:
        player.basics[resource] -= amount
    elif resource == "coins":
        player.coins -= amount
        state.coins_supply += amount
    elif resource == "camphor":
        player.camphor -= amount
        state.camphor_supply += amount
    else:
        raise AssertionError(f"{resource} cannot be paid")


def _take_from_supply(state: SkyLanternsState, seat: int, resource: str, amount: int) -> None:
    """Coins and Camphor come from the supply; once it runs out, each missing token is
    taken from the player who has the most (who scores 1 VP for it)."""
    supply_field = f"{resource}_supply"
    from_supply = min(amount, getattr(state, supply_field))
    setattr(state, supply_field, getattr(state, supply_field) - from_supply)
    setattr(state.seats[seat], resource, getattr(state.seats[seat], resource) + from_supply)
    for _ in range(amount - from_supply):
        donor = richest_other(state, seat, resource)
        if donor is None:
            return
        giver = state.seats[donor]
        setattr(giver, resource, getattr(giver, resource) - 1)
        giver.vp += 1
        setattr(state.seats[seat], resource, getattr(state.seats[seat], resource) + 1)


def richest_other(state: SkyLanternsState, seat: int, resource: str) -> int | None:
    """The other player with the most of `resource`; among tied players the first one
    clockwise from the active player (see RULES-NOTES: the rulebook lets the active player
    choose; that choice is not offered yet). None if nobody else has any."""
    others = [(seat + k) % state.players for k in range(1, state.players)]
    if state.step in ("contract", "take", "place", "end"):
        start = state.active
        others.sort(key=lambda s: (s - start) % state.players)
    best = max((has(state, s, resource) for s in others), default=0)
    if best == 0:
        return None
    return next(s for s in others if has(state, s, resource) == best)
