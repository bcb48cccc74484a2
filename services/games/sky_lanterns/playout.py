"""The playout policy of the searching bot: a legal move chosen cheaply, the way a
sensible player would rather than uniformly.

Uniform playouts are mostly noise here: a Coal Trade or a Camphor Trade is offered at
nearly every prompt, every die can be taken with its reward forfeited, and every
Development and conversion can be declined, so a uniform player wastes most of its turns.
The policy leaves the free actions out, never forfeits a reward, develops and converts
whenever it can, prefers Core Slots (they pay) and takes dice whose space pays the most.
"""

from __future__ import annotations

from services.engine import Move, Rng

from . import moves as mv
from .components import EFFECTS
from .evaluation import worth
from .offers import offered_moves
from .state import SkyLanternsState

FREE_ACTIONS = (mv.CoalTrade, mv.CamphorTrade)
CONTRACT_CHANCE = 0.6
"""How often the policy resolves a contract when it can (it costs resources)."""


def playout_move(state: SkyLanternsState, seat: int, rng: Rng) -> Move:
    moves = offered_moves(state, seat)
    useful = [m for m in moves if not isinstance(m, FREE_ACTIONS)] or moves
    kind = useful[0].kind
    if kind == "take_die":
        return _take(state, useful, rng)
    if kind in ("place_core", "place_compensation", "return_die"):
        core: list[Move] = [m for m in useful if isinstance(m, mv.PlaceCore)]
        return rng.choice(core if core and rng.below(4) else useful)
    if kind == "convert":
        return max(useful, key=lambda m: m.times)  # type: ignore[attr-defined]
    if kind == "answer_rival":
        pay = [m for m in useful if m.pay]  # type: ignore[attr-defined]
        return pay[0] if pay else useful[0]
    doing = [m for m in useful if not isinstance(m, mv.Decline)]
    if not doing:
        return useful[0]
    if len(doing) < len(useful) and kind != "develop" and rng.below(10) >= 10 * CONTRACT_CHANCE:
        return next(m for m in useful if isinstance(m, mv.Decline))
    return rng.choice(doing)


def _take(state: SkyLanternsState, takes: list[Move], rng: Rng) -> Move:
    """One of the two best-paying spaces (their rewards, by `worth`), never forfeited."""
    kept = [m for m in takes if not m.forfeit]  # type: ignore[attr-defined]
    ranked = sorted(kept, key=lambda m: -_space_worth(state, m.space))  # type: ignore[attr-defined]
    return ranked[rng.below(min(2, len(ranked)))]


def _space_worth(state: SkyLanternsState, space: str) -> float:
    tile = state.covered.get(space)
    side = "space2" if state.players <= 2 else "space"
    key = f"tile:{tile}" if tile else f"{side}:{space}"
    return _cached_worth(key)


_WORTHS: dict[str, float] = {}


def _cached_worth(key: str) -> float:
    if key not in _WORTHS:
        _WORTHS[key] = worth(EFFECTS[key]) if key in EFFECTS else 1.0
    return _WORTHS[key]
