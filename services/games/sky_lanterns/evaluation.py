"""How well a seat is doing, for the greedy and MCTS bots.

A seat's projected final score is its score if the game ended now plus a rough value of
what will still pay before the end: tucked cards, incomes (and, with 2 players, the
influence sections on its side) at each Income Event left, its lanterns of each coming
Era's colour at each Lantern Event left, the train's next loop, cards in hand, spare
resources and the turns it still has. Solo, the virtual opponent's score is projected
the same way: its Coal x Indigo (the ghost) or its resources (the Raiders) grow by an
expected amount per turn it has left, and pay at each Income Event left and at the end.

The evaluation is a win chance, not a score share: a logistic of the projected margin
over each other seat (solo: over the opponent, times the chance of not losing by a full
track first), with a spread that narrows as the game nears its end. A share of scores
alone moves by a hundredth between moves that matter, far below the search's exploration
term; a margin's logistic tells them apart. A quarter of the share is kept, for the
positions far behind or ahead where the logistic is flat.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from . import effects as fx
from . import solo
from .components import EFFECTS, ERAS, PLAYER_BOARDS
from .rounds import influence_incomes
from .scoring import breakdowns, solo_outcome
from .state import ROUNDS, TURNS_PER_ROUND, Player, SkyLanternsState

LANTERN_CARD = 1.5
"""Future lantern rewards of a tucked card over the whole game (scaled by rounds left)."""
RAILWAY_CARD = 1.5
HAND_CARD = 0.6
BASIC = 0.2
CAMPHOR = 0.3
LOOP = 5.0
"""4 VP and an Upgrade when the train loops."""
TURN = 5.0
"""What a turn still to come should score: the same for every seat of a multiplayer game,
but solo it weighs the player's turns left against the opponent's expected gains."""
INCOME_ROUNDS = (3, 5)
LANTERN_ROUNDS = (2, 4, 6)

WORTH: dict[str, float] = {
    "vp": 1.0,
    "coins": 0.4,
    "camphor": 0.6,
    "indigo": 0.3,
    "tea": 0.3,
    "yam": 0.3,
    "coal": 0.3,
}
"""Rough VP worth of one unit of each resource when gained mid-game."""
OTHER_EFFECT = {
    "train": 0.8,
    "lanterns": 3.0,
    "draw": 0.6,
    "develop": 2.0,
    "contract": 1.0,
    "one_of": 0.6,
    "any_space": 1.5,
    "first_player": 0.5,
    "vp_per": 2.0,
    "card_railway": 1.0,
    "upgrade": 3.0,
}

SPREAD_END = 3.0
"""The logistic's spread (VP) at the end of the game ..."""
SPREAD_START = 5.0
"""... and added to it at the start: the margin is far less sure early on."""

SHARE_WEIGHT = 0.15

GHOST_RATE = (0.6, 0.35, 1.0)
"""Expected Coal, Indigo and VP the ghost gains per die in a later round (die values 1-6
alike; the player pays off about half the demands of 2s and 5s; a 6 gives 6 VP)."""
RAIDERS_GROWTH = 1.5
"""Resources the Raiders plunder per die they take, on average."""
RAIDERS_BASIC_GROWTH = 0.35
"""... of which the most any one basic resource gains."""


def worth(effects: Iterable[fx.Effect]) -> float:
    """What an effect list is worth in VP now, roughly (a conversion as its gain less its
    price, never below 0)."""
    total = 0.0
    for effect in effects:
        if isinstance(effect, fx.Gain):
            for resource, amount in effect.res.items():
                total += WORTH.get(resource, 0.3) * (amount if isinstance(amount, int) else 2)
        elif isinstance(effect, fx.Income):
            total += worth(effect.effects)
        elif isinstance(effect, fx.Convert):
            price = sum(
                WORTH.get(r, 0.3) * (a if isinstance(a, int) else 2) for r, a in effect.pay.items()
            )
            total += max(0.0, worth(effect.effects) - price)
        elif isinstance(effect, fx.PlayerToRight):
            continue
        else:
            total += OTHER_EFFECT.get(effect.kind, 0.5)
    return total


def _income_worth(state: SkyLanternsState, seat: int) -> float:
    keys = [*state.seats[seat].incomes, *influence_incomes(state, seat)]
    return sum(worth(EFFECTS[key]) for key in keys)


def _era_bonus(state: SkyLanternsState, player: Player) -> float:
    """Its lanterns of the Era colour, paid at each Lantern Event still to come."""
    total = 0.0
    for r in LANTERN_ROUNDS:
        if r > state.round:
            era = ERAS[state.eras[(r - 1) // 2]]
            total += player.lanterns(era.colour) * worth(era.bonus)
    return total


def potential(state: SkyLanternsState, seat: int) -> float:
    player = state.seats[seat]
    left = (ROUNDS - state.round + 1) / ROUNDS
    income_events = sum(1 for r in INCOME_ROUNDS if r > state.round)
    track = len(PLAYER_BOARDS[player.board].track)
    tucked = sum(len(z) for z in player.lantern_zones)
    return (
        LANTERN_CARD * tucked * left
        + RAILWAY_CARD * player.railway_cards() * left
        + HAND_CARD * len(player.hand)
        + BASIC * sum(player.basics.values())
        + CAMPHOR * player.camphor
        + _income_worth(state, seat) * income_events
        + _era_bonus(state, player)
        + LOOP * player.train / track * left
        + TURN * turns_left(state)
    )


def turns_left(state: SkyLanternsState) -> float:
    """The turns each seat still has (this round's shared out evenly)."""
    takers = state.players + (state.rival is not None)
    this_round = (TURNS_PER_ROUND * takers - state.turn) / takers
    return this_round + TURNS_PER_ROUND * (ROUNDS - state.round)


def projected_scores(state: SkyLanternsState) -> list[float]:
    now = [sum(parts.values()) for parts in breakdowns(state)]
    if state.over:
        return [float(score) for score in now]
    return [score + potential(state, seat) for seat, score in enumerate(now)]


def spread(state: SkyLanternsState) -> float:
    left = (ROUNDS - state.round + 1) / ROUNDS
    return SPREAD_END + SPREAD_START * left


def logistic(x: float) -> float:
    if x < -40:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def win_chance(state: SkyLanternsState, seat: int) -> float:
    """The seat's chance of beating the others, from its projected margin over each
    (their mean: a game's return is the share of the others one finishes ahead of); solo,
    of beating the opponent without losing first."""
    scores = projected_scores(state)
    mine = scores[seat]
    width = spread(state)
    if state.rival is not None:
        if state.rival.lost is not None:
            return 0.0
        theirs, loss = rival_projection(state)
        return (1.0 - loss) * against(mine, theirs, width)
    others = [s for i, s in enumerate(scores) if i != seat]
    return sum(against(mine, other, width) for other in others) / len(others)


def against(mine: float, theirs: float, width: float) -> float:
    """Mostly the logistic of the margin; partly the share of the two scores, so that a
    seat far behind (or ahead), where the logistic is flat, still tells moves apart."""
    total = max(mine, 0.0) + max(theirs, 0.0)
    share = 0.5 if total <= 0 else max(mine, 0.0) / total
    return (1.0 - SHARE_WEIGHT) * logistic((mine - theirs) / width) + SHARE_WEIGHT * share


def rival_turns_left(state: SkyLanternsState, before_round: int = ROUNDS + 1) -> int:
    """The dice the virtual opponent will still take before round `before_round`'s
    Event (it takes one after each of the player's turns)."""
    if before_round <= state.round:
        return 0
    this_round = max(0, TURNS_PER_ROUND - (state.turn + 1) // 2)
    return this_round + TURNS_PER_ROUND * (before_round - 1 - state.round)


def rival_projection(state: SkyLanternsState) -> tuple[float, float]:
    """(the opponent's projected final score, the chance the player loses by a full
    track first)."""
    rival = state.rival
    assert rival is not None
    _, _, _, now = solo_outcome(state)
    score = float(sum(now.values()))
    if state.over:
        return score, 0.0
    turns = rival_turns_left(state)
    events = [rival_turns_left(state, r) for r in INCOME_ROUNDS if r > state.round]
    events.append(turns)  # final scoring
    if rival.scenario == "dead-mine":
        now_rate = _ghost_rate(state, [v for v in state.spaces.values() if v is not None])
        soon = rival_turns_left(state, state.round + 1)
        gains = [_ghost_gains(now_rate, soon, n) for n in events]
        for gain in gains:
            c, i = _ghost_after(rival.basics["coal"], rival.basics["indigo"], gain)
            score += c * i
        score += gains[-1][2]
        total = rival.basics["coal"] + rival.basics["indigo"] + gains[-1][0] + gains[-1][1]
        loss = logistic((total - 2 * solo.CAP + 0.5) / 1.5)
    else:
        held = sum(rival.basics.values()) + rival.coins + rival.camphor
        score += sum(held + RAIDERS_GROWTH * n for n in events)
        top = max(rival.basics.values())
        loss = logistic((top + RAIDERS_BASIC_GROWTH * turns - solo.CAP + 0.5) / 1.0)
    return score, loss


def _ghost_rate(state: SkyLanternsState, values: list[int]) -> tuple[float, float, float]:
    """The ghost's expected (Coal, Indigo, VP) per die, taking one of `values` alike: a 1
    gives 1 Indigo, a 2 gives 2 Indigo unless the player pays 2 Camphor, a 3 1 Coal, a 4
    2 Coal, a 5 2 Coal unless the player pays 2 Coal, a 6 6 VP."""
    if not values:
        return GHOST_RATE
    player = state.seats[0]
    blocks_2 = player.camphor >= 2
    blocks_5 = player.basics["coal"] >= 2
    coal = indigo = vp = 0.0
    for v in values:
        indigo += 1 if v == 1 else 2 * (not blocks_2) if v == 2 else 0
        coal += 1 if v == 3 else 2 if v == 4 else 2 * (not blocks_5) if v == 5 else 0
        vp += 6 if v == 6 else 0
    return coal / len(values), indigo / len(values), vp / len(values)


def _ghost_gains(
    now_rate: tuple[float, float, float], soon: int, turns: int
) -> tuple[float, float, float]:
    """Expected (Coal, Indigo, VP) over the ghost's next `turns` dice: the first `soon`
    (this round's) from the dice on the board now, the rest at the average rate."""
    first, later = min(soon, turns), max(0, turns - soon)
    return (
        now_rate[0] * first + GHOST_RATE[0] * later,
        now_rate[1] * first + GHOST_RATE[1] * later,
        now_rate[2] * first + GHOST_RATE[2] * later,
    )


def _ghost_after(coal: int, indigo: int, gain: tuple[float, float, float]) -> tuple[float, float]:
    """The ghost's expected Coal and Indigo after gaining `gain`, with the overflow of a
    full track into the other."""
    c = coal + gain[0]
    i = indigo + gain[1]
    if c > solo.CAP:
        i, c = i + c - solo.CAP, solo.CAP
    if i > solo.CAP:
        c, i = min(solo.CAP, c + i - solo.CAP), solo.CAP
    return c, i
