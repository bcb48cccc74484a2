"""Step ④: building trading houses, towers and harbours, 1 red + 1 white + 1 blue each."""

from __future__ import annotations

from dataclasses import asdict, replace

from services.engine import Event, IllegalMove, Move, Seat
from services.engine.state import unchecked

from .board import IslandMap, Node, cell_key, connected_islands
from .events import Built
from .moves import BuildHarbour, BuildMove, BuildTower, BuildTradingHouse, build_move
from .state import COLOURS, Merchant, SkyIslandsState, TradingHouse
from .tiles import TILES


def can_afford(merchant: Merchant) -> bool:
    return all(merchant.cubes.get(c) >= 1 for c in COLOURS)


def _pay(state: SkyIslandsState, seat: Seat) -> None:
    """Rulebook: "you pay 1 resource each of red, white and blue to the supply"."""
    if not can_afford(state.merchants[seat]):
        raise IllegalMove(
            "cannot_afford",
            "Every building costs 1 red, 1 white and 1 blue resource, and you lack some.",
            {"cubes": asdict(state.merchants[seat].cubes)},
        )
    for colour in COLOURS:
        state.merchants[seat].cubes.add(colour, -1)
        state.supply.add(colour, 1)


def trading_house_spots(state: SkyIslandsState) -> list[Node]:
    """Islands of tiles without a trading house, except on the tile placed this turn."""
    placed = state.placed_this_turn
    taken = {h.node for h in state.trading_houses}
    return [
        (t.x, t.y, i)
        for t in state.board.values()
        if placed is None or t.cell != placed.cell
        for i in range(len(TILES[t.tile].islands))
        if (t.x, t.y, i) not in taken
    ]


def _has_trading_house_spot(state: SkyIslandsState) -> bool:
    """Whether `trading_house_spots` is non-empty, without listing them: when more
    islands are free than the tile placed this turn has, one is free elsewhere."""
    islands = sum(len(TILES[t.tile].islands) for t in state.board.values())
    placed = state.placed_this_turn
    excluded = 0 if placed is None else len(TILES[placed.tile].islands)
    if islands - len(state.trading_houses) > excluded:
        return True
    return bool(trading_house_spots(state))


def _towered(state: SkyIslandsState, islands: IslandMap) -> set[int]:
    """Connected islands that already have a tower-equipped trading house."""
    return {islands.of[h.node] for h in state.trading_houses if h.tower}


def tower_spots(state: SkyIslandsState, seat: Seat) -> list[Node]:
    candidates = [h.node for h in state.houses_of(seat) if not h.tower]
    if not candidates or not any(h.tower for h in state.trading_houses):
        return candidates  # no tower anywhere yet: no connected island is towered
    islands = connected_islands(state.board)
    towered = _towered(state, islands)
    return [node for node in candidates if islands.of[node] not in towered]


def harbour_spots(state: SkyIslandsState, seat: Seat) -> list[Node]:
    return [h.node for h in state.houses_of(seat) if not h.harbour]


def building_moves(state: SkyIslandsState) -> list[Move]:
    seat, merchant = state.current, state.active
    if not can_afford(merchant):
        return []
    moves: list[Move] = []
    if merchant.trading_houses_left:
        moves += [build_move(BuildTradingHouse, *node) for node in trading_house_spots(state)]
    if state.towers_left:
        moves += [build_move(BuildTower, *node) for node in tower_spots(state, seat)]
    if state.harbours_left:
        moves += [build_move(BuildHarbour, *node) for node in harbour_spots(state, seat)]
    return moves


def can_build(state: SkyIslandsState) -> bool:
    seat, merchant = state.current, state.active
    if not can_afford(merchant):
        return False
    return bool(
        (merchant.trading_houses_left and _has_trading_house_spot(state))
        or (state.harbours_left and harbour_spots(state, seat))
        or (state.towers_left and tower_spots(state, seat))
    )


def _check_island(state: SkyIslandsState, move: BuildMove) -> None:
    tile = state.board.get(cell_key(move.x, move.y))
    if tile is None:
        raise IllegalMove("no_such_island", f"There is no tile at ({move.x}, {move.y}).")
    count = len(TILES[tile.tile].islands)
    if move.island >= count:
        raise IllegalMove(
            "no_such_island",
            f"Tile {tile.tile} at ({move.x}, {move.y}) has {count} island(s), "
            f"numbered 0 to {count - 1}; there is no island {move.island}.",
        )


def build_trading_house(state: SkyIslandsState, seat: Seat, move: BuildTradingHouse) -> list[Event]:
    _check_island(state, move)
    if state.merchants[seat].trading_houses_left == 0:
        raise IllegalMove("no_trading_houses_left", "You have no trading house pieces left.")
    placed = state.placed_this_turn
    if placed is not None and placed.cell == (move.x, move.y):
        raise IllegalMove(
            "placed_this_turn",
            "A trading house may go on any tile other than the one placed this turn.",
        )
    if state.house_at(move.x, move.y, move.island) is not None:
        raise IllegalMove(
            "island_taken",
            "Only one trading house can stand on each island of a tile, and this island "
            "already has one.",
        )
    _pay(state, seat)
    state.merchants[seat].trading_houses_left -= 1
    state.trading_houses.append(TradingHouse(owner=seat, x=move.x, y=move.y, island=move.island))
    return [
        unchecked(Built)(
            seat=seat, building="trading_house", x=move.x, y=move.y, island=move.island
        )
    ]


def _own_house(state: SkyIslandsState, seat: Seat, move: BuildMove, piece: str) -> TradingHouse:
    _check_island(state, move)
    house = state.house_at(move.x, move.y, move.island)
    if house is None or house.owner != seat:
        raise IllegalMove(
            "not_your_trading_house",
            f"A {piece} goes with one of your own trading houses, and there is none of yours "
            f"on island {move.island} of the tile at ({move.x}, {move.y}).",
        )
    return house


def build_tower(state: SkyIslandsState, seat: Seat, move: BuildTower) -> list[Event]:
    house = _own_house(state, seat, move, "tower")
    if house.tower:
        raise IllegalMove("already_has_tower", "That trading house already has a tower.")
    if state.towers_left == 0:
        raise IllegalMove("no_towers_left", "There are no tower pieces left in the supply.")
    islands = connected_islands(state.board)
    target = islands.of[house.node]
    # "You cannot place a new tower on a connected island that already has a
    # tower-equipped trading house." — checked only now, at the moment of building.
    if target in _towered(state, islands):
        raise IllegalMove(
            "tower_already_on_connected_island",
            "This connected island already has a tower-equipped trading house.",
        )
    _pay(state, seat)
    state.towers_left -= 1
    state.replace_house(house, replace(house, tower=True))
    # "count the trading house pieces of all players on the connected island"
    vp = sum(1 for h in state.trading_houses if islands.of[h.node] == target)
    state.merchants[seat].vp.towers += vp
    return [
        unchecked(Built)(seat=seat, building="tower", x=move.x, y=move.y, island=move.island, vp=vp)
    ]


def build_harbour(state: SkyIslandsState, seat: Seat, move: BuildHarbour) -> list[Event]:
    house = _own_house(state, seat, move, "harbour")
    if house.harbour:
        raise IllegalMove("already_has_harbour", "That trading house already has a harbour.")
    if state.harbours_left == 0:
        raise IllegalMove("no_harbours_left", "There are no harbour pieces left in the supply.")
    _pay(state, seat)
    state.harbours_left -= 1
    state.replace_house(house, replace(house, harbour=True))
    return [unchecked(Built)(seat=seat, building="harbour", x=move.x, y=move.y, island=move.island)]


def finish_building(state: SkyIslandsState, seat: Seat, move: Move) -> list[Event]:
    state.phase = "dispose"
    return []
