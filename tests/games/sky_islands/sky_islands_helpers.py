"""Building Merchants of Sky Islands positions for the tests: tiles put on a real board
(placement rules checked), buildings and cubes handed out with pieces conserved."""

from __future__ import annotations

import pytest

from services.engine import Event, IllegalMove, Move, Seat
from services.games.sky_islands import game
from services.games.sky_islands.board import PlacedTile, cell_key, placement_problem
from services.games.sky_islands.moves import EndTurn, FinishBuilding, Keep
from services.games.sky_islands.state import (
    COLOURS,
    CUBES_PER_COLOUR,
    HARBOURS,
    TOWERS,
    TRADING_HOUSES_PER_PLAYER,
    Phase,
    SkyIslandsState,
    TradingHouse,
)
from services.games.sky_islands.tiles import TILES

ALL_TILES = 44


def new_game(players: int = 3, starting_player: int = 0, seed: int = 1) -> SkyIslandsState:
    return game.setup({"starting_player": starting_player}, players, seed)


def take_tile(state: SkyIslandsState, tile: int) -> None:
    """Take `tile` out of wherever it is (pile, a hand, the box)."""
    for holder in [state.pile, state.returned, state.discarded, *(m.hand for m in state.merchants)]:
        if tile in holder:
            holder.remove(tile)
            return
    raise AssertionError(f"tile {tile} is not free to take")


def put(state: SkyIslandsState, tile: int, x: int, y: int, rotation: int = 0) -> PlacedTile:
    """Put a tile on the board as a player could have (placement rules checked)."""
    assert placement_problem(state.board, tile, x, y, rotation) is None, (tile, x, y, rotation)
    take_tile(state, tile)
    placed = PlacedTile(tile=tile, x=x, y=y, rotation=rotation)
    state.board[cell_key(x, y)] = placed
    return placed


def give_hand(state: SkyIslandsState, seat: Seat, tiles: list[int]) -> None:
    """Make `seat` hold exactly `tiles`; the tiles it held go onto the draw pile."""
    merchant = state.merchants[seat]
    for tile in tiles:
        take_tile(state, tile)
    state.pile.extend(merchant.hand)
    merchant.hand = list(tiles)


def house(
    state: SkyIslandsState,
    owner: Seat,
    x: int,
    y: int,
    island: int = 0,
    *,
    tower: bool = False,
    harbour: bool = False,
) -> None:
    state.trading_houses.append(
        TradingHouse(owner=owner, x=x, y=y, island=island, tower=tower, harbour=harbour)
    )
    state.merchants[owner].trading_houses_left -= 1
    state.towers_left -= tower
    state.harbours_left -= harbour


def set_cubes(state: SkyIslandsState, seat: Seat, red: int = 0, white: int = 0, blue: int = 0):
    """Give `seat` exactly these cubes, to and from the supply."""
    cubes = state.merchants[seat].cubes
    for colour, count in zip(COLOURS, (red, white, blue), strict=True):
        state.supply.add(colour, cubes.get(colour) - count)
        cubes.add(colour, count - cubes.get(colour))
        assert state.supply.get(colour) >= 0


def empty_supply(state: SkyIslandsState, colour: str, holder: Seat | None = None) -> None:
    """Park the supply's cubes of `colour` with `holder` (by default the last seat)."""
    idle = state.players - 1 if holder is None else holder
    state.merchants[idle].cubes.add(colour, state.supply.get(colour))
    state.supply.add(colour, -state.supply.get(colour))


def at_phase(state: SkyIslandsState, phase: Phase, placed: PlacedTile | None = None) -> None:
    state.phase = phase
    state.placed_this_turn = placed


def play(state: SkyIslandsState, move: Move | dict) -> tuple[SkyIslandsState, list[Event]]:
    outcome = game.apply(state, state.current, move)
    return outcome.state, outcome.events


def refused(state: SkyIslandsState, move: Move | dict, code: str, seat: Seat | None = None):
    """The move is refused with `code`; return the error for checks on its message."""
    before = game.dump_state(state)
    with pytest.raises(IllegalMove) as error:
        game.apply(state, state.current if seat is None else seat, move)
    assert error.value.code == code, error.value
    assert game.dump_state(state) == before
    return error.value


def end_current_turn(state: SkyIslandsState) -> tuple[SkyIslandsState, list[Event]]:
    """Finish building and keep nothing until the turn passes (or the game ends)."""
    seat, events = state.current, []
    while not state.over and state.current == seat:
        assert state.phase in ("build", "dispose"), state.phase
        if state.phase == "build":
            move: Move = FinishBuilding()
        elif state.merchants[seat].cubes.total > 3:
            move = Keep()
        else:
            move = EndTurn()
        state, more = play(state, move)
        events += more
    return state, events


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def check_conserved(state: SkyIslandsState) -> None:
    """Tiles, cubes and pieces are all accounted for."""
    hands = [t for m in state.merchants for t in m.hand]
    board = [p.tile for p in state.board.values()]
    every = board + hands + state.pile + state.returned + state.discarded
    assert sorted(every) == sorted(TILES), "tiles lost or doubled"
    assert len(every) == ALL_TILES
    for colour in COLOURS:
        held = sum(m.cubes.get(colour) for m in state.merchants)
        assert held + state.supply.get(colour) == CUBES_PER_COLOUR, colour
        assert state.supply.get(colour) >= 0
    for seat, merchant in enumerate(state.merchants):
        built = len(state.houses_of(seat))
        assert built + merchant.trading_houses_left == TRADING_HOUSES_PER_PLAYER
    assert sum(h.tower for h in state.trading_houses) + state.towers_left == TOWERS
    assert sum(h.harbour for h in state.trading_houses) + state.harbours_left == HARBOURS
    assert len({h.node for h in state.trading_houses}) == len(state.trading_houses)


def put_hole_ring(state: SkyIslandsState) -> None:
    """Six tiles forming a closed island around an empty hole at (-2, -1), the hole's
    last side closed by two all-sky islet tiles."""
    put(state, 17, -1, 0, 270)  # corner N-W
    put(state, 10, -1, -1, 0)  # straight N-S
    put(state, 16, -1, -2, 180)  # corner S-W
    put(state, 9, -2, -2, 90)  # straight E-W
    put(state, 1, -3, -2, 90)  # peninsula E
    put(state, 38, -3, -1, 0)  # islet in open sky
    put(state, 39, -3, 0, 0)  # islet in open sky
    put(state, 2, -2, 0, 90)  # peninsula E


def put_peninsulas_on_every_island_edge(state: SkyIslandsState) -> None:
    """Close the initial tile's four outer island edges with peninsulas pointing inward:
    every empty cell next to the board then faces at least one sky edge."""
    put(state, 1, 0, -1, 180)
    put(state, 2, 2, 0, 270)
    put(state, 3, 1, 2, 0)
    put(state, 4, -1, 1, 90)
