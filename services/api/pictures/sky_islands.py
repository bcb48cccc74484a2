"""Merchants of Sky Islands as a picture: the tile map (sky and island edges, ships,
trading houses with their towers and harbours), the reader's hand, the players' scores
and resources, and the supply. Drawn from `SkyIslandsView` alone."""

from __future__ import annotations

from collections.abc import Sequence

from services.games.sky_islands.view import (
    BoardTileView,
    PlayerView,
    SkyIslandsView,
    TileFace,
    TradingHouseView,
)

from .scene import INK, MUTED, PAD, PANEL, PAPER, Scene, heading, reader_line, seat_colour
from .svg import Svg, text_width

WIDTH = 480
RULER = 20
MAX_CELL = 64

SKY = "#d6ecfb"
SKY_TILE = "#a9d4f2"
GRID = "#bcd7ea"
LAND = "#9cc865"
LAND_CLOSED = "#6a9f3a"
SHORE = "#5f7f3a"
TILE_EDGE = "#4f7390"
SHIPS = {"red": "#d32f2f", "white": "#ffffff", "blue": "#1e63c6", "green": "#2e9d49"}
CUBES = {"red": "#d32f2f", "white": "#ffffff", "blue": "#1e63c6"}
TOWER = "#8d99a6"
HARBOUR = "#37474f"

DIRECTIONS = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
CORNERS = ((-0.36, -0.36), (0.36, -0.36), (-0.36, 0.36), (0.36, 0.36))

Point = tuple[float, float]


def draw(scene: Scene[SkyIslandsView]) -> str:
    view = scene.view
    svg = Svg(WIDTH, f"{scene.title}: version {scene.version}, as seen by {scene.reader}")
    svg.rect(0, 0, WIDTH, "100%", fill=PAPER)
    y = _header(svg, scene)
    y = _board(svg, view, scene, y)
    y = _legend(svg, y)
    y = _hand(svg, view, y)
    y = _players(svg, scene, y)
    y = _supply(svg, view, y)
    if view.final_scores:
        y = _final_scores(svg, scene, view.final_scores, y)
    return svg.render(y + PAD)


# --- header ------------------------------------------------------------------------------


def _header(svg: Svg, scene: Scene[SkyIslandsView]) -> float:
    view = scene.view

    def playing() -> str:
        actor = scene.who(view.current_player) if view.current_player is not None else "—"
        return f"Turn {view.turn_number} · {view.phase} phase · {actor} to act"

    heading(svg, scene, view.over, playing)
    reader_line(svg, scene, 65)
    return 76


# --- the sky ------------------------------------------------------------------------------


def _board(svg: Svg, view: SkyIslandsView, scene: Scene[SkyIslandsView], top: float) -> float:
    xs = [tile.x for tile in view.board] or [0]
    ys = [tile.y for tile in view.board] or [0]
    # One empty ring around the tiles, so the cells a move names can be found.
    min_x, max_x, min_y, max_y = min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1
    cols, rows = max_x - min_x + 1, max_y - min_y + 1
    cell = min(MAX_CELL, (WIDTH - 2 * PAD - RULER) / cols)
    left, upper = PAD + RULER, top + RULER
    svg.rect(left, upper, cols * cell, rows * cell, fill=SKY, rx=6)
    ruler_size = max(9, min(12, cell * 0.38))
    for col in range(cols):
        cx = left + (col + 0.5) * cell
        svg.text(cx, upper - 6, min_x + col, ruler_size, fill=MUTED, text_anchor="middle")
    for row in range(rows):
        cy = upper + (row + 0.5) * cell + ruler_size * 0.35
        svg.text(left - 4, cy, min_y + row, ruler_size, fill=MUTED, text_anchor="end")
    for col in range(1, cols):
        x = left + col * cell
        svg.line(x, upper, x, upper + rows * cell, stroke=GRID, stroke_width=1)
    for row in range(1, rows):
        y = upper + row * cell
        svg.line(left, y, left + cols * cell, y, stroke=GRID, stroke_width=1)
    closed = {island.id for island in view.connected_islands if island.closed}
    for tile in view.board:
        x0 = left + (tile.x - min_x) * cell
        y0 = upper + (tile.y - min_y) * cell
        _board_tile(svg, tile, x0, y0, cell, closed)
    if view.placed_this_turn is not None and view.current_player is not None:
        x0 = left + (view.placed_this_turn.x - min_x) * cell
        y0 = upper + (view.placed_this_turn.y - min_y) * cell
        colour = seat_colour(view.current_player)
        svg.rect(
            x0 + 1.5,
            y0 + 1.5,
            cell - 3,
            cell - 3,
            fill="none",
            stroke=colour,
            stroke_width=3,
            stroke_dasharray="6 4",
        )
    return upper + rows * cell + 10


def _board_tile(
    svg: Svg, tile: BoardTileView, x0: float, y0: float, cell: float, closed: set[int]
) -> None:
    islands = [(island.edges, island.connected_island in closed) for island in tile.islands]
    anchors = _draw_tile(svg, x0, y0, cell, tile.ship, islands, initial=tile.initial)
    for island, anchor in zip(tile.islands, anchors, strict=True):
        if island.trading_house is not None:
            _trading_house(svg, anchor, cell, island.trading_house)


def _draw_tile(
    svg: Svg,
    x0: float,
    y0: float,
    cell: float,
    ship: str,
    islands: Sequence[tuple[Sequence[str], bool]],
    *,
    initial: bool = False,
) -> list[Point]:
    """A tile's sky, islands (each reaching its edges) and ship; returns where each
    island's buildings stand."""
    svg.rect(
        x0 + 1,
        y0 + 1,
        cell - 2,
        cell - 2,
        fill=SKY_TILE,
        stroke=TILE_EDGE,
        stroke_width=2 if initial else 1,
        rx=3,
    )
    centre = (x0 + cell / 2, y0 + cell / 2)
    offsets = _anchors([edges for edges, _ in islands])
    anchors = [(centre[0] + dx * cell, centre[1] + dy * cell) for dx, dy in offsets]
    width = cell * 0.34
    for (edges, is_closed), anchor in zip(islands, anchors, strict=True):
        fill = LAND_CLOSED if is_closed else LAND
        for side in edges:
            svg.path(
                _arm(side, centre, anchor, cell),
                fill="none",
                stroke=fill,
                stroke_width=width,
                stroke_linejoin="round",
                class_="island-edge",
            )
        svg.circle(*anchor, width * 0.66, fill=fill, class_="island")
    _ship(svg, _free_corner(offsets), x0, y0, cell, ship)
    return anchors


def _arm(side: str, centre: Point, anchor: Point, cell: float) -> str:
    """Land from the middle of `side` straight in, then across to the island's heart
    (square where it meets the tile's edge, so it joins the neighbour's land)."""
    dx, dy = DIRECTIONS[side]
    edge = (centre[0] + dx * (cell / 2 - 1), centre[1] + dy * (cell / 2 - 1))
    bend = (edge[0], anchor[1]) if dx == 0 else (anchor[0], edge[1])
    points = " L ".join(f"{x:.1f} {y:.1f}" for x, y in (edge, bend, anchor))
    return f"M {points}"


def _anchors(islands: Sequence[Sequence[str]]) -> list[Point]:
    """Where each island's heart lies, as a fraction of the tile from its centre: the
    middle for a lone island, pulled toward its own edges when islands share a tile, and
    an islet in the corner away from the others."""
    if len(islands) == 1:
        return [(0.0, 0.0)]
    pulls = [_pull(edges) for edges in islands]
    total = (sum(p[0] for p in pulls), sum(p[1] for p in pulls))
    anchors = []
    for edges, pull in zip(islands, pulls, strict=True):
        if edges:
            anchors.append((0.22 * pull[0], 0.22 * pull[1]))
        else:
            away = (-_sign(total[0]), -_sign(total[1]))
            anchors.append((0.26 * away[0], 0.26 * away[1]) if any(away) else (-0.26, 0.26))
    return anchors


def _pull(edges: Sequence[str]) -> Point:
    x = sum(DIRECTIONS[side][0] for side in edges)
    y = sum(DIRECTIONS[side][1] for side in edges)
    return (max(-1, min(1, x)), max(-1, min(1, y)))


def _sign(value: float) -> int:
    return (value > 0) - (value < 0)


def _free_corner(anchors: list[Point]) -> Point:
    return max(CORNERS, key=lambda c: min((c[0] - a[0]) ** 2 + (c[1] - a[1]) ** 2 for a in anchors))


def _ship(svg: Svg, corner: Point, x0: float, y0: float, cell: float, colour: str) -> None:
    cx, cy = x0 + cell * (0.5 + corner[0]), y0 + cell * (0.5 + corner[1])
    s = cell * 0.13
    hull = [(cx - s, cy), (cx + s, cy), (cx + s * 0.6, cy + s * 0.6), (cx - s * 0.6, cy + s * 0.6)]
    svg.polygon(hull, fill=SHIPS.get(colour, "#999"), stroke=INK, stroke_width=1, class_="ship")
    svg.polygon(
        [(cx, cy - s * 1.2), (cx, cy - s * 0.1), (cx + s * 0.8, cy - s * 0.1)],
        fill=SHIPS.get(colour, "#999"),
        stroke=INK,
        stroke_width=1,
    )


def _trading_house(svg: Svg, at: Point, cell: float, house: TradingHouseView) -> None:
    x, y = at
    s = max(cell * 0.15, 4)
    if house.harbour:
        svg.rect(x - s * 1.5, y + s * 0.7, s * 3, s * 0.7, fill=HARBOUR, rx=1, class_="harbour")
    svg.polygon(
        [
            (x - s, y + s * 0.7),
            (x - s, y - s * 0.2),
            (x, y - s),
            (x + s, y - s * 0.2),
            (x + s, y + s * 0.7),
        ],
        fill=seat_colour(house.owner),
        stroke=INK,
        stroke_width=1.2,
        class_="trading-house",
    )
    if house.tower:
        tx = x + s * 1.15
        svg.rect(
            tx,
            y - s * 1.6,
            s * 0.8,
            s * 2.3,
            fill=TOWER,
            stroke=INK,
            stroke_width=1,
            class_="tower",
        )
        svg.rect(tx, y - s * 1.6, s * 0.8, s * 0.35, fill=INK)


def _legend(svg: Svg, top: float) -> float:
    y = top + 14
    x = PAD
    svg.polygon(
        [(x, y + 4), (x, y - 3), (x + 6, y - 8), (x + 12, y - 3), (x + 12, y + 4)],
        fill=seat_colour(0),
        stroke=INK,
    )
    svg.text(x + 17, y + 4, "trading house", 12, fill=MUTED)
    x += 112
    svg.rect(x, y - 9, 6, 14, fill=TOWER, stroke=INK)
    svg.text(x + 11, y + 4, "tower", 12, fill=MUTED)
    x += 60
    svg.rect(x, y - 1, 16, 5, fill=HARBOUR)
    svg.text(x + 21, y + 4, "harbour", 12, fill=MUTED)
    x += 80
    svg.rect(x, y - 7, 12, 12, fill=LAND_CLOSED, rx=2)
    svg.text(x + 17, y + 4, "closed island", 12, fill=MUTED)
    return y + 14


# --- hands, players, supply ---------------------------------------------------------------


def _hand(svg: Svg, view: SkyIslandsView, top: float) -> float:
    if view.hand is None:
        return top
    svg.text(PAD, top + 16, "Your hand", 15, font_weight="bold", fill=INK)
    if not view.hand:
        svg.text(PAD, top + 36, "no tiles", 13, fill=MUTED)
        return top + 46
    size, gap = 64, 10
    per_row = int((WIDTH - 2 * PAD + gap) // (size + gap))
    y = top + 26
    for i, face in enumerate(view.hand):
        row, col = divmod(i, per_row)
        x0, y0 = PAD + col * (size + gap), y + row * (size + 22)
        _hand_tile(svg, face, x0, y0, size)
    rows = (len(view.hand) + per_row - 1) // per_row
    return y + rows * (size + 22)


def _hand_tile(svg: Svg, face: TileFace, x0: float, y0: float, size: float) -> None:
    edges = [list(island) for island in face.islands]
    _draw_tile(svg, x0, y0, size, face.ship, [(e, False) for e in edges])
    svg.text(x0 + size / 2, y0 + size + 14, f"tile {face.id}", 12, fill=INK, text_anchor="middle")


def _players(svg: Svg, scene: Scene[SkyIslandsView], top: float) -> float:
    view = scene.view
    y = top + 8
    row_height = 64
    for player in view.players:
        _player_row(svg, scene, player, y, row_height)
        y += row_height + 6
    return y


def _player_row(
    svg: Svg, scene: Scene[SkyIslandsView], player: PlayerView, y: float, height: float
) -> None:
    view = scene.view
    acting = player.seat == view.current_player and not view.over
    svg.rect(
        PAD,
        y,
        WIDTH - 2 * PAD,
        height,
        fill=PANEL,
        rx=6,
        stroke=seat_colour(player.seat) if acting else "none",
        stroke_width=2.5,
    )
    svg.rect(PAD, y, 8, height, fill=seat_colour(player.seat), rx=3)
    # the name ends where the VP begin ("999 VP" at 15 bold, and a gap)
    room = WIDTH - 2 * PAD - 26 - text_width("999 VP", 15) - 12
    name = scene.who_within(player.seat, room, 15, "▶ " if acting else "")
    svg.text(PAD + 16, y + 20, name, 15, font_weight="bold", fill=INK)
    svg.text(
        WIDTH - PAD - 10,
        y + 20,
        f"{player.victory_points} VP",
        15,
        font_weight="bold",
        fill=INK,
        text_anchor="end",
    )
    kinds = player.victory_points_by_kind
    detail = f"income {kinds.income} · ships {kinds.ships} · towers {kinds.towers}"
    svg.text(WIDTH - PAD - 10, y + 40, detail, 12, fill=MUTED, text_anchor="end")
    x = PAD + 16
    for colour, count in (
        ("red", player.cubes.red),
        ("white", player.cubes.white),
        ("blue", player.cubes.blue),
    ):
        svg.rect(x, y + 29, 12, 12, fill=CUBES[colour], stroke=INK, stroke_width=1, rx=2)
        svg.text(x + 16, y + 40, count, 13, fill=INK)
        x += 34
    houses = f"houses left {player.trading_houses_left} · hand {player.hand_count}"
    svg.text(PAD + 16, y + 58, houses, 12, fill=MUTED)


def _supply(svg: Svg, view: SkyIslandsView, top: float) -> float:
    y = top + 8
    svg.text(PAD, y + 12, "Supply", 15, font_weight="bold", fill=INK)
    x = PAD + 62
    for colour, count in (
        ("red", view.supply.red),
        ("white", view.supply.white),
        ("blue", view.supply.blue),
    ):
        svg.rect(x, y + 1, 12, 12, fill=CUBES[colour], stroke=INK, stroke_width=1, rx=2)
        svg.text(x + 16, y + 12, count, 13, fill=INK)
        x += 40
    svg.text(
        x + 4,
        y + 12,
        f"towers {view.supply.towers} · harbours {view.supply.harbours}",
        13,
        fill=INK,
    )
    pile = f"Draw pile {view.draw_pile} tiles · {view.returned_to_box} out of the game"
    svg.text(PAD, y + 32, pile, 13, fill=MUTED)
    return y + 40


def _final_scores(
    svg: Svg, scene: Scene[SkyIslandsView], scores: list[dict[str, int]], top: float
) -> float:
    y = top + 12
    svg.text(PAD, y + 12, "Final scores", 15, font_weight="bold", fill=INK)
    y += 22
    winners = set(scene.result.winners) if scene.result else set()
    for seat, categories in enumerate(scores):
        parts = " · ".join(f"{name} {value}" for name, value in categories.items())
        crown = "★ " if seat in winners else ""
        svg.text(
            PAD,
            y + 14,
            crown + scene.name(seat),
            13,
            font_weight="bold",
            fill=seat_colour(seat) if seat_colour(seat) != "#f2b705" else INK,
        )
        y = svg.paragraph(PAD + 8, y + 30, parts, 60, 12, fill=INK)
    return y
