"""Gaining and paying resources: track caps, the general supply, and its shortage rule."""

from __future__ import annotations

from .components import PLAYER_BOARDS
from .effects import BASICS
from .state import Frame, SkyLanternsState

SPECIAL = ("coins", "camphor")

NAMES: dict[str, tuple[str, str]] = {
    "coal": ("Coal", "Coal"),
    "indigo": ("Indigo", "Indigo"),
    "tea": ("Tea", "Tea"),
    "yam": ("Dyeing Yam", "Dyeing Yams"),
    "coins": ("Coin", "Coins"),
    "camphor": ("Camphor", "Camphor"),
    "vp": ("VP", "VP"),
}
"""Resources as the rulebook names them (one, several), for labels and refusals."""


def resource_name(resource: str, amount: int = 2) -> str:
    """ "Dyeing Yams", "Indigo": the rulebook's name of `resource`, for `amount` of it."""
    return NAMES[resource][0 if amount == 1 else 1]


def amount_words(resource: str, amount: int) -> str:
    """ "$2", "1 Dyeing Yam", "2 Indigo": an amount of a resource in words."""
    return f"${amount}" if resource == "coins" else f"{amount} {resource_name(resource, amount)}"


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


def payer(state: SkyLanternsState, resource: str) -> str:
    """What pays for `resource`: Coal while the Raiders blockade it ("you cannot pay it
    (though it can be substituted by Coal ...)"), else the resource itself."""
    if state.rival is not None and resource in state.rival.blockades:
        return "coal"
    return resource


def pay(state: SkyLanternsState, seat: int, resource: str, amount: int) -> None:
    player = state.seats[seat]
    resource = payer(state, resource)
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


DONOR = "@donor"
"""Frame key prefix of the choice among tied richest players: "@donor:<resource>:<count>:
<gaining seat>", asked of the frame's seat (the active player)."""


def _take_from_supply(state: SkyLanternsState, seat: int, resource: str, amount: int) -> None:
    """Coins and Camphor come from the supply. "If the Camphor or Coin supply runs out,
    take the required tokens directly from the Player Board of the player who currently
    has the most ... [who] receives 1 VP as compensation for each token taken this way. If
    multiple players tie for having the most tokens, the active player chooses which tied
    player to take them from." All the missing tokens come from that one player; only if
    they run out does the rest come from the richest of the others then."""
    supply_field = f"{resource}_supply"
    from_supply = min(amount, getattr(state, supply_field))
    setattr(state, supply_field, getattr(state, supply_field) - from_supply)
    setattr(state.seats[seat], resource, getattr(state.seats[seat], resource) + from_supply)
    missing = amount - from_supply
    while missing:
        donors = richest_others(state, seat, resource)
        if not donors:
            return  # nobody else has any: the rest is not gained
        if len(donors) > 1:
            key = f"{DONOR}:{resource}:{missing}:{seat}"
            state.stack.append(Frame(key=key, seat=chooser(state, seat)))
            return
        missing -= take_tokens(state, donors[0], seat, resource, missing)


def take_tokens(state: SkyLanternsState, donor: int, seat: int, resource: str, most: int) -> int:
    """Move up to `most` tokens from `donor` to `seat`, 1 VP to the donor for each; returns
    how many moved."""
    giver, taker = state.seats[donor], state.seats[seat]
    tokens = min(most, has(state, donor, resource))
    setattr(giver, resource, getattr(giver, resource) - tokens)
    giver.vp += tokens
    setattr(taker, resource, getattr(taker, resource) + tokens)
    return tokens


def chooser(state: SkyLanternsState, seat: int) -> int:
    """The active player; in the Event phase, when nobody is active, the gaining one."""
    return state.active if state.step in ("contract", "take", "place", "end") else seat


def richest_others(state: SkyLanternsState, seat: int, resource: str) -> list[int]:
    """The other players tied for the most of `resource` (none if nobody else has any).
    Taking from oneself would change nothing, so the gaining player is never asked."""
    others = [s for s in range(state.players) if s != seat]
    if not others:
        return []
    best = max(has(state, s, resource) for s in others)
    return [s for s in others if has(state, s, resource) == best] if best else []


def parse_donor_key(key: str) -> tuple[str, int, int]:
    """(resource, tokens still missing, gaining seat) of a donor frame."""
    _, resource, missing, seat = key.split(":")
    return resource, int(missing), int(seat)


def give_from(state: SkyLanternsState, key: str, donor: int) -> None:
    """Carry out the choice of a donor frame: the missing tokens from `donor`, then (if
    `donor` had too few) the rest."""
    resource, missing, seat = parse_donor_key(key)
    taken = take_tokens(state, donor, seat, resource, missing)
    _take_from_supply(state, seat, resource, missing - taken)
