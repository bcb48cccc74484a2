"""What is asked now, of whom, and which moves answer it."""

from __future__ import annotations

from typing import Any

from . import resolver, solo
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


QUESTIONS: dict[str, str] = {
    "contract": "Step 1: resolve one contract (a hand card, the Era card or your board's "
    "exclusive one) or decline.",
    "take": "Step 2: take a die from the Main Board and gain its space's reward (or forfeit it).",
    "place": "Step 3: place your die in a Core Slot (values equal or increasing left to "
    "right) or a Compensation Slot; Camphor changes it by 1 first.",
    "develop": "Choose a card from your hand and a zone to develop it in, or decline.",
    "convert": "Choose how many times to pay for this conversion (0 declines).",
    "one_of": "Choose which resource to gain.",
    "change_die": "Change your die by -1 or +1, or leave it.",
    "any_space": "Choose a red, blue or green dice space to resolve.",
    "upgrade": "Your train looped: choose a face-down Upgrade Tile to flip onto the Main Board.",
    "draw": "Draw one of the market's cards or the deck's top card.",
    "draft": "Keep one of the Starting cards offered to you; the rest pass to your left.",
    "arrange": "Arrange your 4 face-up Upgrade Tiles on the spaces of your board.",
    "donor": "The supply ran out: choose which of the players tied for the most gives the "
    "token (they score 1 VP for it).",
}
"""What each question asks, as the prompt's words (the ghost's demand: `question_text`)."""


def question_text(kind: str, asking: Any) -> str:
    """The prompt's words for question `kind` asked by `asking` (an effect, a frame or
    None): the ghost's demand says what it asks for the die it took."""
    if kind == "rival_choice":
        value = solo.demand_value(asking)
        price, gain = solo.demand(asking)
        return f"The ghost took a {value}: pay {price}, or let the ghost gain {gain}."
    return QUESTIONS[kind]


def setup_seats(state: SkyLanternsState) -> list[int]:
    """The seats still to choose in a simultaneous setup step (drafting, arranging)."""
    if state.step == "draft":
        return [s for s, pick in enumerate(state.draft_picks) if pick is None]
    if state.step == "arrange":
        return [s for s, done in enumerate(state.arranged) if not done]
    return []


def everyone_asked(state: SkyLanternsState) -> list[tuple[int, str, Any]]:
    """(seat, question, the effect asking or None) for every seat asked now: each seat
    still choosing in a simultaneous setup step, else the one seat `asked` (none once the
    game is over, a resignation during a setup step too). The prompts and the views'
    `prompted` are built from it."""
    if state.over:
        return []
    if state.step in SETUP_STEPS:
        return [(seat, state.step, None) for seat in setup_seats(state)]
    question = asked(state)
    return [] if question is None else [question]


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
