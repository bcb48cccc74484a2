"""What is asked now, of whom, and which moves answer it."""

from __future__ import annotations

from typing import Any

from . import resolver
from .resources import DONOR
from .state import SETUP_STEPS, SkyLanternsState

ANSWERS: dict[str, frozenset[str]] = {
    "contract": frozenset(
        {
            "play_contract_card",
            "era_contract",
            "exclusive_contract",
            "influence_contract",
            "decline",
        }
    ),
    "take": frozenset({"take_die"}),
    "place": frozenset({"place_core", "place_compensation", "camphor_trade", "return_die"}),
    "develop": frozenset({"develop", "decline"}),
    "convert": frozenset({"convert"}),
    "one_of": frozenset({"choose_resource"}),
    "change_die": frozenset({"change_die"}),
    "any_space": frozenset({"choose_space"}),
    "upgrade": frozenset({"upgrade"}),
    "donor": frozenset({"choose_donor"}),
    "rival_choice": frozenset({"answer_rival"}),
    "draw": frozenset({"draw_card"}),
    "draft": frozenset({"draft_card"}),
    "arrange": frozenset({"arrange_tiles"}),
}
"""The moves that answer each question (besides Coal Trade, a free action at any time)."""

TASKS: dict[str, str] = {
    "contract": "resolve one contract or decline",
    "take": "take a die from the Main Board",
    "place": "place your die in a Core or Compensation Slot",
    "develop": "choose a card and a zone to develop, or decline",
    "convert": "choose how many times to convert",
    "one_of": "choose which resource to gain",
    "change_die": "change your die by -1, 0 or +1",
    "any_space": "choose a non-black dice space to resolve",
    "upgrade": "choose an Upgrade Tile to flip",
    "donor": "choose which of the richest players gives the missing token",
    "rival_choice": "pay what the opponent demands or let it gain",
    "draw": "draw a market card or the deck's top card",
    "draft": "keep one of the Starting cards offered to you",
    "arrange": "arrange your face-up Upgrade Tiles",
}


def setup_seats(state: SkyLanternsState) -> list[int]:
    """The seats still to choose in a simultaneous setup step (drafting, arranging)."""
    if state.step == "draft":
        return [s for s, pick in enumerate(state.draft_picks) if pick is None]
    if state.step == "arrange":
        return [s for s, done in enumerate(state.arranged) if not done]
    return []


def asked(state: SkyLanternsState) -> tuple[int, str, Any] | None:
    """(seat, question, the effect asking or None) — or None once the game is over. In a
    simultaneous setup step, the first seat still choosing (see `setup_seats`)."""
    if state.over:
        return None
    if state.step in SETUP_STEPS:
        return setup_seats(state)[0], state.step, None
    if state.stack:
        frame = state.stack[-1]
        if frame.key.startswith(DONOR):
            return frame.seat, "donor", frame
        if frame.key.startswith(resolver.RIVAL_CHOICE):
            return frame.seat, "rival_choice", frame
        if frame.key == resolver.DRAW:
            return frame.seat, "draw", frame
        effect = resolver.EFFECTS[frame.key][frame.index]
        return frame.seat, effect.kind, effect
    return state.active, state.step, None
