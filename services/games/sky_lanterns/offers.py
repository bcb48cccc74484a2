"""The legal moves: what answers the question asked now, and the free actions.

Legal moves are the hot path of every bot. Moves are frozen values, so each distinct one
is built once, without re-validation, and shared (`made`; bounded: the components are
finite, only tile arrangements vary much)."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable
from typing import Any

from services.engine import Move

from . import effects as fx
from . import moves as mv
from . import resolver, solo
from .asking import asked, setup_seats
from .components import INFLUENCE_COLOURS, PLAYER_BOARDS
from .resources import has, parse_donor_key, richest_others
from .state import SETUP_STEPS, Frame, SkyLanternsState


@functools.lru_cache(maxsize=4096)
def made(kind: type[Move], **fields: Any) -> Move:
    return kind.model_construct(**fields)


def offered_moves(state: SkyLanternsState, seat: int) -> list[Move]:
    if state.step in SETUP_STEPS:
        return OFFERS[state.step](state, seat, None) if seat in setup_seats(state) else []
    question = asked(state)
    if question is None or question[0] != seat:
        return []
    _, kind, effect = question
    return [*OFFERS[kind](state, seat, effect), *coal_trades(state, seat)]


def _contracts(state: SkyLanternsState, seat: int, _: Any) -> list[Move]:
    offered: list[Move] = []
    for source, option in resolver.contract_options(state, seat):
        if source == "hand":
            offered.append(made(mv.PlayContractCard, card=str(option)))
        elif source == "era":
            offered.append(made(mv.EraContract, option=int(option)))
        else:
            offered.append(made(mv.ExclusiveContract, option=int(option)))
    return [*offered, *influence_offers(state, seat), made(mv.Decline)]


def influence_offers(state: SkyLanternsState, seat: int) -> list[Move]:
    """2 players: the influence contract, once or twice, on one track or two."""
    if not state.influence:
        return []
    singles = [(c,) for c in INFLUENCE_COLOURS]
    pairs = itertools.product(INFLUENCE_COLOURS, repeat=2)  # in either order: rewards differ
    return [
        made(mv.InfluenceContract, tracks=tracks)
        for tracks in [*singles, *pairs]
        if resolver.influence_problem(state, seat, list(tracks)) is None
    ]


def _takes(state: SkyLanternsState, seat: int, _: Any) -> list[Move]:
    spaces = [s for s, value in state.spaces.items() if value is not None]
    return [made(mv.TakeDie, space=s, forfeit=f) for s in spaces for f in (False, True)]


def place_offers(state: SkyLanternsState, seat: int, _: Any) -> list[Move]:
    player = state.seats[seat]
    assert state.held is not None
    offered: list[Move] = [
        made(mv.PlaceCore, slot=i)
        for i in range(len(player.core))
        if core_problem(state, seat, i, state.held.value) is None
    ]
    offered += [
        made(mv.PlaceCompensation, slot=i) for i, d in enumerate(player.compensation) if not d
    ]
    if not offered:
        offered.append(made(mv.ReturnDie))
    if player.camphor:
        offered += [
            made(mv.CamphorTrade, delta=d) for d in (-1, 1) if 1 <= state.held.value + d <= 6
        ]
    return offered


def _develops(state: SkyLanternsState, seat: int, effect: fx.Develop) -> list[Move]:
    cards = resolver.develop_options(state, seat, effect.track)
    return [
        *(made(mv.Develop, card=c, zone=z) for c in cards for z in range(3)),
        made(mv.Decline),
    ]


def _converts(state: SkyLanternsState, seat: int, effect: fx.Convert) -> list[Move]:
    return [
        made(mv.Convert, times=n) for n in range(resolver.most_conversions(state, seat, effect) + 1)
    ]


def _one_ofs(state: SkyLanternsState, seat: int, effect: fx.OneOf) -> list[Move]:
    return [made(mv.ChooseResource, resource=r) for r in effect.res]


def _die_changes(state: SkyLanternsState, seat: int, _: Any) -> list[Move]:
    assert state.held is not None
    return [made(mv.ChangeDie, delta=d) for d in (-1, 0, 1) if 1 <= state.held.value + d <= 6]


def _spaces(state: SkyLanternsState, seat: int, _: Any) -> list[Move]:
    return [made(mv.ChooseSpace, space=s) for s in any_space_choices(state)]


def _upgrades(state: SkyLanternsState, seat: int, _: Any) -> list[Move]:
    tiles = state.seats[seat].upgrades
    return [made(mv.Upgrade, position=i) for i, tile in enumerate(tiles) if tile is not None]


def _donors(state: SkyLanternsState, seat: int, frame: Frame) -> list[Move]:
    resource, _, gainer = parse_donor_key(frame.key)
    return [made(mv.ChooseDonor, seat=s) for s in richest_others(state, gainer, resource)]


def _draws(state: SkyLanternsState, seat: int, frame: Frame) -> list[Move]:
    deck: list[Move] = [made(mv.DrawCard)] if state.deck or state.discard else []
    return [*deck, *(made(mv.DrawCard, card=c) for c in state.market or [])]


def _drafts(state: SkyLanternsState, seat: int, _: Any) -> list[Move]:
    return [made(mv.DraftCard, card=c) for c in state.draft_packets[seat]]


def _arrangements(state: SkyLanternsState, seat: int, _: Any) -> list[Move]:
    tiles = [t for t in state.seats[seat].upgrades if t is not None]
    return [made(mv.ArrangeTiles, tiles=order) for order in itertools.permutations(sorted(tiles))]


def _rival_answers(state: SkyLanternsState, seat: int, frame: Frame) -> list[Move]:
    """Paying is offered only while affordable (a Coal Trade may have spent the Coal)."""
    resource, amount, _ = solo.CHOICES[solo.demand_value(frame)]
    pays = [True, False] if has(state, seat, resource) >= amount else [False]
    return [made(mv.AnswerRival, pay=p) for p in pays]


OFFERS: dict[str, Callable[[SkyLanternsState, int, Any], list[Move]]] = {
    "contract": _contracts,
    "take": _takes,
    "place": place_offers,
    "develop": _develops,
    "convert": _converts,
    "one_of": _one_ofs,
    "change_die": _die_changes,
    "any_space": _spaces,
    "upgrade": _upgrades,
    "donor": _donors,
    "draw": _draws,
    "draft": _drafts,
    "rival_choice": _rival_answers,
    "arrange": _arrangements,
}


def coal_trades(state: SkyLanternsState, seat: int) -> list[Move]:
    player = state.seats[seat]
    if PLAYER_BOARDS[player.board].coal_trade == "coins":
        return [made(mv.CoalTrade, into="coins")] if player.basics["coal"] >= 2 else []
    if not player.basics["coal"]:
        return []
    return [made(mv.CoalTrade, into=r) for r in fx.COAL_TRADES_INTO]


def trade_lost(state: SkyLanternsState, seat: int, move: mv.CoalTrade) -> bool:
    """Whether a Coal Trade's gain would be lost: its track is full already ("Any
    resources gained beyond the track's maximum limit are lost"). Such a trade is legal,
    and may be wanted: Coal the Raiders cannot plunder."""
    player = state.seats[seat]
    if move.into == "coins":
        return False
    return player.basics[move.into] >= PLAYER_BOARDS[player.board].cap


def any_space_choices(state: SkyLanternsState) -> list[str]:
    """Non-black spaces in play (with 3 players the four-dot spaces hold no dice)."""
    return [
        s.id
        for s in resolver.side_spaces(state)
        if s.colour != "black" and (s.dots != 4 or state.players == 4)
    ]


def core_problem(
    state: SkyLanternsState, seat: int, slot: int, value: int
) -> tuple[str, str] | None:
    """Why a die of `value` may not go into Core Slot `slot` — (code, message) — or None.
    Messages count slots from 1, as the move labels do (`game.describe`)."""
    core = state.seats[seat].core
    number = slot + 1
    if slot >= len(core):
        return "slot_unavailable", f"There is no Core Slot {number}; your board has {len(core)}."
    if core[slot] is not None:
        return "slot_unavailable", f"Core Slot {number} already holds a die."
    left = [d.value for d in core[:slot] if d is not None]
    right = [d.value for d in core[slot + 1 :] if d is not None]
    if (left and max(left) > value) or (right and min(right) < value):
        return "slot_order", (
            f"A {value} cannot go into Core Slot {number}: die values across the Core Slots "
            "must be equal or increasing from left to right."
        )
    return None
