"""Final scoring: lantern majorities, railway developments and leftover resources."""

from __future__ import annotations

from services.engine import Result

from . import solo
from .components import PLAYER_BOARDS
from .effects import LANTERN_COLOURS
from .state import Player, SkyLanternsState

MAJORITY = (12, 8, 4)
MAJORITY_2P = (5,)
"""2 players: "the player with the most lanterns of each color gains 5 VP each"."""
RAILWAY = {4: 1, 5: 3, 6: 6, 7: 10, 8: 15}


def lantern_majority(counts: list[int], ranks: tuple[int, ...] = MAJORITY) -> list[int]:
    """12/8/4 VP for the most, second and third most lanterns of one colour (at least 1
    needed). "Tied players combine and equally share the VP for their current and
    subsequent ranks. The next player takes the following vacant rank." With 2 players
    `ranks` is (5,): a tie shares 5 + 0, so each scores 2."""
    points = [0] * len(counts)
    rank = 0
    for count in sorted({c for c in counts if c >= 1}, reverse=True):
        tied = [s for s, c in enumerate(counts) if c == count]
        share = sum(ranks[rank : rank + len(tied)]) // len(tied)
        for seat in tied:
            points[seat] = share
        rank += len(tied)
    return points


def railway_points(cards: int) -> int:
    """1/3/6/10/15 VP for 4/5/6/7/8 cards; more than 8 scores as 8."""
    return RAILWAY[min(cards, 8)] if cards >= 4 else 0


def resource_points(player: Player) -> dict[str, int]:
    """2 Camphor score 1, $3 score 1, each set of Coal + Indigo + Tea + Dyeing Yam scores 1,
    after the Coal Trades that score best (the rulebook's "convert Coal ... to optimize")."""
    board = PLAYER_BOARDS[player.board]
    coal, indigo, tea, yam = (player.basics[r] for r in ("coal", "indigo", "tea", "yam"))
    best = (-1, 0, 0)
    trades = range(coal // 2 + 1) if board.coal_trade == "coins" else range(1)
    for pairs in trades:
        coins = player.coins + 2 * pairs
        sets = best_sets(coal - 2 * pairs, [indigo, tea, yam], board.coal_trade == "basic")
        best = max(best, (sets + coins // 3, sets, coins // 3))
    return {"camphor": player.camphor // 2, "coins": best[2], "resource_sets": best[1]}


def best_sets(coal: int, others: list[int], trade: bool) -> int:
    """The most sets of four different basic resources, Coal traded 1 for 1 if allowed."""
    for sets in range(min(coal, *others) if not trade else coal, -1, -1):
        missing = sum(max(0, sets - n) for n in others)
        if missing == 0 or (trade and missing <= coal - sets):
            return sets
    return 0


def breakdowns(state: SkyLanternsState) -> list[dict[str, int]]:
    """Every seat's score by category, as if the game ended now."""
    parts: list[dict[str, int]] = [{"vp_track": p.vp} for p in state.seats]
    for colour in LANTERN_COLOURS:
        ranks = MAJORITY_2P if state.players <= 2 else MAJORITY
        counts = [p.lanterns(colour) for p in state.seats]
        if state.rival is not None:  # it "is considered to have 4 lanterns of each"
            counts.append(solo.LANTERNS_AT_SCORING)
        majority = lantern_majority(counts, ranks)
        for seat, points in enumerate(majority[: state.players]):
            parts[seat][f"{colour}_lanterns"] = points
    for seat, player in enumerate(state.seats):
        parts[seat]["railway"] = railway_points(player.railway_cards())
        parts[seat].update(resource_points(player))
    return parts


def solo_outcome(state: SkyLanternsState) -> tuple[bool, str, dict[str, int], dict[str, int]]:
    """(won, why, the player's breakdown, the opponent's). "The player with the most VP
    wins. If there is a tie, the tied player whose turn order is closest to the current
    First Player Marker owner wins", and in solo "the player is always the First Player":
    the player wins a tie, unless they lost during the game."""
    rival = state.rival
    assert rival is not None
    mine = breakdowns(state)[0]
    lanterns: dict[str, int] = {c: state.seats[0].lanterns(c) for c in LANTERN_COLOURS}
    theirs = solo.rival_breakdown(state, lanterns)
    name, theirs_name = solo.NAMES[rival.scenario], solo.POSSESSIVES[rival.scenario]
    score, rival_score = sum(mine.values()), sum(theirs.values())
    if rival.lost is not None:
        return False, f"You lost: {rival.lost}.", mine, theirs
    if score > rival_score:
        return True, f"You won, {score} VP to {theirs_name} {rival_score}.", mine, theirs
    if score == rival_score:
        why = f"You won the tie as First Player, {score} VP to {theirs_name} {rival_score}."
        return True, why, mine, theirs
    return False, f"You lost: {name} scored {rival_score} VP to your {score}.", mine, theirs


def solo_result(state: SkyLanternsState) -> Result:
    """Whether the player won and why, with the opponent's breakdown beside theirs."""
    assert state.rival is not None
    won, why, mine, theirs = solo_outcome(state)
    return Result.solo(
        mine,
        won=won,
        summary=why,
        opponent=solo.OPPONENTS[state.rival.scenario],
        opponent_breakdown=theirs,
    )


def final_result(state: SkyLanternsState) -> Result:
    """Most VP wins; "If there is a tie, the tied player whose turn order is closest to the
    current First Player Marker owner wins." Solo: see `solo_result`."""
    if state.rival is not None:
        return solo_result(state)
    parts = breakdowns(state)
    return Result.rank(
        {
            seat: (parts[seat], (sum(parts[seat].values()), -turn_distance(state, seat)))
            for seat in range(state.players)
        }
    )


def turn_distance(state: SkyLanternsState, seat: int) -> int:
    return (seat - state.first_player) % state.players
