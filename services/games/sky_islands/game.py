"""Merchants of Sky Islands, wired into the Skyport game contract."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from services.engine import (
    Event,
    Game,
    IllegalMove,
    InvalidConfig,
    Move,
    Prompt,
    Result,
    Rng,
    Seat,
    copy_state,
)
from services.engine.state import unchecked

from . import building, disposal, placing, playout
from .moves import (
    FINISH_BUILDING,
    BuildHarbour,
    BuildTower,
    BuildTradingHouse,
    DiscardTile,
    Exchange,
    Keep,
    PlaceTile,
    SkyIslandsMove,
)
from .options import SkyIslandsOptions, starting_player_problem
from .rules import advance, set_up
from .scoring import breakdown, final_result
from .state import (
    CUBES_PER_COLOUR,
    HARBOURS,
    KEEP_AT_MOST,
    TILES_PER_PLAYER,
    TOWERS,
    TRADING_HOUSES_PER_PLAYER,
    TURNS_PER_PLAYER,
    Phase,
    SkyIslandsState,
)
from .tiles import QUARTER_CELLS, TILES
from .view import SkyIslandsView, build_view

Handler = Callable[[SkyIslandsState, Seat, Any], list[Event]]

HANDLERS: dict[str, tuple[Phase, Handler]] = {
    "place": ("place", placing.place_tile),
    "discard": ("place", placing.discard_tile),
    "build_trading_house": ("build", building.build_trading_house),
    "build_tower": ("build", building.build_tower),
    "build_harbour": ("build", building.build_harbour),
    "finish_building": ("build", building.finish_building),
    "exchange": ("dispose", disposal.exchange),
    "keep": ("dispose", disposal.keep),
    "end_turn": ("dispose", disposal.end_turn),
}

PHASE_TASKS: dict[str, str] = {
    "place": "place a sky island tile (step ②)",
    "build": "build or finish building (step ④)",
    "dispose": "exchange resources and keep at most 3 (step ⑤)",
    "over": "nothing: the game is over",
}

LABELS: dict[str, str] = {
    "finish_building": "Finish building",
    "end_turn": "End the turn",
}


class SkyIslandsGame(Game[SkyIslandsState, SkyIslandsOptions]):
    id = "sky-islands"
    title = "Merchants of Sky Islands"
    min_players = 2
    max_players = 4
    config_model = SkyIslandsOptions
    state_model = SkyIslandsState
    move_model = SkyIslandsMove
    view_model = SkyIslandsView

    def new_state(self, config: SkyIslandsOptions, players: int, seed: int) -> SkyIslandsState:
        problem = starting_player_problem(config.starting_player, players)
        if problem is not None:
            sentence = f"{problem}, not {config.starting_player}"
            raise InvalidConfig(
                "invalid_options",
                f"{sentence}.",
                {"errors": [{"location": ["options", "starting_player"], "message": sentence}]},
            )
        return set_up(players, seed, config.starting_player)

    # --- who acts, and how -----------------------------------------------------------

    def prompts(self, state: SkyIslandsState) -> list[Prompt]:
        if state.over:
            return []
        return [_prompt(state)]

    def legal_moves(self, state: SkyIslandsState, seat: Seat) -> list[Move]:
        if state.over or seat != state.current:
            return []
        if state.phase == "place":
            return placing.placing_moves(state)
        if state.phase == "build":
            return [*building.building_moves(state), FINISH_BUILDING]
        if state.phase == "dispose":
            return disposal.disposal_moves(state)
        return []

    def play(self, state: SkyIslandsState, seat: Seat, move: Move) -> list[Event]:
        phase, handler = HANDLERS[move.kind]
        if state.phase != phase:
            raise IllegalMove(
                "wrong_phase",
                f"You cannot {_label(move).lower()} now: it is time to {PHASE_TASKS[state.phase]}.",
                {"phase": state.phase},
            )
        return handler(state, seat, move) + advance(state)

    # --- what is seen, and the end ---------------------------------------------------

    def view(self, state: SkyIslandsState, seat: Seat | None) -> SkyIslandsView:
        return build_view(state, seat)

    def result(self, state: SkyIslandsState) -> Result | None:
        return final_result(state) if state.over else None

    def describe(self, move: Move) -> str:
        return _label(move)

    def catalog(self) -> dict[str, Any]:
        return {
            "tiles": [tile.model_dump(mode="json") for tile in TILES.values()],
            "initial_tile": {
                quarter: {"x": x, "y": y, "tile": _quarter_tile(quarter)}
                for quarter, (x, y) in QUARTER_CELLS.items()
            },
            "pieces": {
                "trading_houses_per_player": TRADING_HOUSES_PER_PLAYER,
                "towers": TOWERS,
                "harbours": HARBOURS,
                "cubes_per_colour": CUBES_PER_COLOUR,
            },
            "tiles_used": {str(n): TILES_PER_PLAYER * n for n in range(2, 5)},
            "turns_per_player": TURNS_PER_PLAYER,
        }

    # --- for searching bots ------------------------------------------------------------

    def determinize(self, state: SkyIslandsState, seat: Seat, rng: Rng) -> SkyIslandsState:
        """Other hands, the draw pile and the tiles returned unseen at setup are dealt anew
        from the tiles `seat` has not seen; the RNG is replaced."""
        dealt = copy_state(state)
        others = [s for s in range(state.players) if s != seat]
        unseen = [t for s in others for t in state.merchants[s].hand] + state.pile + state.returned
        rng.shuffle(unseen)
        for other in others:
            size = len(state.merchants[other].hand)
            dealt.merchants[other].hand, unseen = unseen[:size], unseen[size:]
        dealt.pile, dealt.returned = unseen[: len(state.pile)], unseen[len(state.pile) :]
        dealt.rng = Rng.from_seed(rng.next64())
        return dealt

    def playout_move(self, state: SkyIslandsState, seat: Seat, rng: Rng) -> Move:
        """A legal move for searching bots' playouts, cheaper and better than random."""
        return playout.playout_move(state, seat, rng)

    def evaluate(self, state: SkyIslandsState, seat: Seat) -> float:
        """Share of the lead: the seat's score if the game ended now, against the best
        other score."""
        return _share(_totals(state), seat)

    def evaluations(self, state: SkyIslandsState) -> list[float]:
        """`evaluate` for every seat, scoring the position once (for searching bots)."""
        totals = _totals(state)
        return [_share(totals, seat) for seat in range(state.players)]


def _totals(state: SkyIslandsState) -> list[int]:
    return [sum(parts.values()) for parts in breakdown(state)]


def _share(totals: list[int], seat: Seat) -> float:
    mine = totals[seat]
    best_other = max(t for s, t in enumerate(totals) if s != seat)
    return 0.5 if mine + best_other == 0 else mine / (mine + best_other)


def _quarter_tile(quarter: str) -> int:
    return next(t.id for t in TILES.values() if t.quarter == quarter)


def _prompt(state: SkyIslandsState) -> Prompt:
    seat = state.current
    if state.phase == "place":
        return _placing_prompt(state)
    if state.phase == "build":
        return unchecked(Prompt)(
            seat=seat,
            kind="build",
            text="Build a trading house, tower or harbour (1 red + 1 white + 1 blue each), "
            "or finish building.",
        )
    cubes = state.active.cubes.total
    if cubes > KEEP_AT_MOST:
        text = f"You hold {cubes} resources: exchange 3 of one colour for 1 if you wish, "
        text += "then choose at most 3 to keep."
    else:
        text = "Exchange 3 resources of one colour for 1 if you wish, then end your turn."
    return unchecked(Prompt)(seat=seat, kind="dispose", text=text)


def _placing_prompt(state: SkyIslandsState) -> Prompt:
    seat = state.current
    fitting = placing.placeable_tiles(state)
    if fitting:
        return unchecked(Prompt)(
            seat=seat,
            kind="place_tile",
            text="Place a tile from your hand so that it touches the sky islands; on every "
            "shared edge island must meet island and sky meet sky.",
            options=[str(t) for t in fitting],
            min_picks=1,
            max_picks=1,
        )
    return unchecked(Prompt)(
        seat=seat,
        kind="discard_tile",
        text="No tile in your hand can be placed: your hand is shown to all; discard one.",
        options=[str(t) for t in state.active.hand],
        min_picks=1,
        max_picks=1,
    )


def _at(move: BuildTradingHouse | BuildTower | BuildHarbour) -> str:
    where = f"the tile at ({move.x}, {move.y})"
    return where if move.island == 0 else f"{where}, island {move.island}"


def _label(move: Move) -> str:
    if isinstance(move, PlaceTile):
        turn = f" turned {move.rotation}°" if move.rotation else ""
        return f"Place tile {move.tile} at ({move.x}, {move.y}){turn}"
    if isinstance(move, DiscardTile):
        return f"Discard tile {move.tile}"
    if isinstance(move, BuildTradingHouse):
        return f"Build a trading house on {_at(move)}"
    if isinstance(move, BuildTower):
        return f"Build a tower by your trading house on {_at(move)}"
    if isinstance(move, BuildHarbour):
        return f"Build a harbour under your trading house on {_at(move)}"
    if isinstance(move, Exchange):
        return f"Exchange 3 {move.give} for 1 {move.take}"
    if isinstance(move, Keep):
        return _keep_label(move)
    return LABELS.get(move.kind, move.kind.replace("_", " ").capitalize())


def _keep_label(move: Keep) -> str:
    kept = [f"{getattr(move, c)} {c}" for c in ("red", "white", "blue") if getattr(move, c)]
    return f"Keep {', '.join(kept)}" if kept else "Keep no resources"
