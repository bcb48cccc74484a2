"""The flow of the game: setup, the automatic steps of a turn (① income, ⑥ refill),
skipping steps in which the active player has no choice, and the end of the game."""

from __future__ import annotations

from services.engine import Event, Rng, Seat
from services.engine.state import unchecked

from .board import cell_key, initial_board
from .building import can_build
from .disposal import has_choice
from .events import GameEnded, IncomeReceived, IslandScored, TileDrawn, TurnEnded, TurnStarted
from .scoring import breakdown, ranked, score_islands
from .ships import sail_in, ship_of
from .state import (
    CUBES_PER_COLOUR,
    STARTING_HAND,
    TILES_PER_PLAYER,
    TURNS_PER_PLAYER,
    Cubes,
    Merchant,
    SkyIslandsState,
)
from .tiles import NORMAL_TILE_IDS

LAST_TURN_WITH_REFILL = 8


def set_up(players: int, seed: int, starting_player: Seat | None) -> SkyIslandsState:
    rng = Rng.from_seed(seed)
    tiles = list(NORMAL_TILE_IDS)
    rng.shuffle(tiles)
    # "4 players: use all 40 tiles. 3 players: ... 30 tiles used. 2 players: ... 20"
    used, returned = tiles[: TILES_PER_PLAYER * players], tiles[TILES_PER_PLAYER * players :]
    hands = [used[STARTING_HAND * s : STARTING_HAND * (s + 1)] for s in range(players)]
    start = rng.below(players) if starting_player is None else starting_player
    state = SkyIslandsState(
        players=players,
        seed=seed,
        rng=rng,
        starting_player=start,
        current=start,
        board=initial_board(),
        merchants=[Merchant(hand=hand) for hand in hands],
        pile=used[STARTING_HAND * players :],
        returned=returned,
        supply=Cubes(red=CUBES_PER_COLOUR, white=CUBES_PER_COLOUR, blue=CUBES_PER_COLOUR),
    )
    begin_turn(state)
    return state


def begin_turn(state: SkyIslandsState) -> list[Event]:
    state.phase = "place"
    state.placed_this_turn = None
    merchant = state.active
    events: list[Event] = [
        unchecked(TurnStarted)(
            seat=state.current, turn=merchant.turns_taken + 1, number=state.turn_number
        )
    ]
    # "In the first turn, skip this step" — each player's own first turn.
    if merchant.turns_taken > 0:
        events += collect_income(state)
    return events


def collect_income(state: SkyIslandsState) -> list[Event]:
    """① One cube (or, for a green ship, one victory point) per harbour-equipped trading
    house, of the colour of the ship on its tile."""
    seat = state.current
    harbours = [h for h in state.houses_of(seat) if h.harbour]
    if not harbours:
        return []
    ships = [ship_of(state.board[cell_key(h.x, h.y)]) for h in harbours]
    return [unchecked(IncomeReceived)(seat=seat, **sail_in(state, seat, ships, "income"))]


def advance(state: SkyIslandsState) -> list[Event]:
    """Skip the steps in which the active player has nothing to decide."""
    if state.phase == "build" and not can_build(state):
        state.phase = "dispose"
    if state.phase == "dispose" and not has_choice(state):
        state.phase = "refill"
    if state.phase == "refill":
        return finish_turn(state)
    return []


def refill(state: SkyIslandsState) -> list[Event]:
    """⑥ "In the 9th and 10th turns the draw pile is empty, so you do not refill." """
    merchant = state.active
    if merchant.turns_taken > LAST_TURN_WITH_REFILL or not state.pile:
        return []
    tile = state.pile.pop(0)
    merchant.hand.append(tile)
    return [unchecked(TileDrawn)(seat=state.current, tile=tile, private_to=[state.current])]


def finish_turn(state: SkyIslandsState) -> list[Event]:
    state.active.turns_taken += 1
    events = refill(state)
    events.append(unchecked(TurnEnded)(seat=state.current, turn=state.active.turns_taken))
    if all(m.turns_taken >= TURNS_PER_PLAYER for m in state.merchants):
        return events + end_game(state)
    state.current = (state.current + 1) % state.players  # "the turn passes to the left"
    state.turn_number += 1
    return events + begin_turn(state)


def end_game(state: SkyIslandsState) -> list[Event]:
    state.phase = "over"
    state.over = True
    state.placed_this_turn = None
    scores = score_islands(state)
    events: list[Event] = [
        unchecked(IslandScored)(
            island=s.island.id,
            tile_count=s.island.tiles,
            closed=s.island.closed,
            influence=s.influence,
            points=s.points,
        )
        for s in scores
        if any(s.influence)
    ]
    table = breakdown(state, scores)
    totals = [sum(parts.values()) for parts in table]
    winners = ranked(table).winners
    return [*events, unchecked(GameEnded)(scores=totals, winners=winners)]
