"""How well a seat is doing, for the greedy and MCTS bots: its score if the game ended now
plus a rough value of what will still pay before the end (tucked cards, incomes, the
train's next loop, cards in hand, spare resources)."""

from __future__ import annotations

from . import solo
from .components import PLAYER_BOARDS
from .scoring import breakdowns, solo_outcome
from .state import ROUNDS, Player, SkyLanternsState

LANTERN_CARD = 1.5
"""Future lantern rewards of a tucked card over the whole game (scaled by rounds left)."""
RAILWAY_CARD = 1.5
HAND_CARD = 0.6
BASIC = 0.2
CAMPHOR = 0.3
INCOME = 2.0
"""Rough VP worth of one income at one Income Event."""
LOOP = 5.0
"""4 VP and an Upgrade when the train loops."""


def potential(state: SkyLanternsState, player: Player) -> float:
    left = (ROUNDS - state.round + 1) / ROUNDS
    income_events = sum(1 for r in (3, 5) if r > state.round)
    track = len(PLAYER_BOARDS[player.board].track)
    tucked = sum(len(z) for z in player.lantern_zones)
    return (
        LANTERN_CARD * tucked * left
        + RAILWAY_CARD * player.railway_cards() * left
        + HAND_CARD * len(player.hand)
        + BASIC * sum(player.basics.values())
        + CAMPHOR * player.camphor
        + INCOME * len(player.incomes) * income_events
        + LOOP * player.train / track * left
    )


def projected_scores(state: SkyLanternsState) -> list[float]:
    now = [sum(parts.values()) for parts in breakdowns(state)]
    if state.over:
        return [float(score) for score in now]
    return [score + potential(state, p) for score, p in zip(now, state.seats, strict=True)]


def share(state: SkyLanternsState, seat: int) -> float:
    """The seat's projected score against the best other one (solo: the opponent's score
    so far; a loss is 0), in [0, 1]."""
    scores = projected_scores(state)
    mine = scores[seat]
    if state.rival is not None:
        if state.rival.lost is not None:
            return 0.0
        # Its Coal x Indigo pays again at each Income Event left and at the end.
        bonuses = sum(1 for r in (3, 5) if r > state.round) + (not state.over)
        rival_now = sum(solo_outcome(state)[3].values())
        best_other = float(rival_now + bonuses * solo.scenario_vp(state.rival))
    else:
        best_other = max(s for i, s in enumerate(scores) if i != seat)
    return 0.5 if mine + best_other <= 0 else mine / (mine + best_other)
