"""Final scoring: influence on every connected island, and the victory points it brings."""

from __future__ import annotations

from dataclasses import dataclass

from services.engine import Result, Seat

from .board import ConnectedIsland, IslandMap, connected_islands
from .state import SkyIslandsState


@dataclass(frozen=True)
class IslandScore:
    island: ConnectedIsland
    influence: list[int]
    points: list[int]


def influence(state: SkyIslandsState, islands: IslandMap) -> list[list[int]]:
    """Per connected island, per seat: 1 per trading house, 2 per tower-equipped one
    (a harbour adds nothing)."""
    table = [[0] * state.players for _ in islands.islands]
    for house in state.trading_houses:
        table[islands.of[house.node]][house.owner] += 2 if house.tower else 1
    return table


def island_value(island: ConnectedIsland) -> int:
    """Tiles, doubled for a closed island ("the number of tiles ... is doubled")."""
    return island.tiles * (2 if island.closed else 1)


def island_points(value: int, influence: list[int]) -> list[int]:
    """Victory points each seat takes from one connected island worth `value`."""
    points = [0] * len(influence)
    levels = sorted({i for i in influence if i > 0}, reverse=True)
    if not levels:
        return points  # "A player with 0 influence ... gains no victory points from it"
    first = [s for s, i in enumerate(influence) if i == levels[0]]
    if len(first) > 1:
        # "each of them scores the same as a sole second-place player would"
        return [value // 2 if s in first else 0 for s in range(len(influence))]
    points[first[0]] = value
    runner_up = levels[1] if len(levels) > 1 else None
    second = [s for s, i in enumerate(influence) if i == runner_up]
    if len(second) == 1:  # several seconds behind a sole first all score nothing
        points[second[0]] = value // 2
    return points


def score_islands(state: SkyIslandsState) -> list[IslandScore]:
    islands = connected_islands(state.board)
    table = influence(state, islands)
    return [
        IslandScore(island, table[island.id], island_points(island_value(island), table[island.id]))
        for island in islands.islands
    ]


def breakdown(
    state: SkyIslandsState, scores: list[IslandScore] | None = None
) -> list[dict[str, int]]:
    """Each seat's victory points by category; a seat's score is their sum."""
    scores = score_islands(state) if scores is None else scores
    return [
        {
            "income": merchant.vp.income,
            "ships": merchant.vp.ships,
            "towers": merchant.vp.towers,
            "islands": sum(s.points[seat] for s in scores),
        }
        for seat, merchant in enumerate(state.merchants)
    ]


def final_result(state: SkyIslandsState) -> Result:
    """Standings; "if several players share the highest total, those players share the
    victory"."""
    return ranked(breakdown(state))


def ranked(table: list[dict[str, int]]) -> Result:
    """The standings of seats with these breakdowns (see `final_result`)."""
    scores: dict[Seat, tuple[dict[str, int], tuple]] = {
        seat: (parts, (sum(parts.values()),)) for seat, parts in enumerate(table)
    }
    return Result.rank(scores)
