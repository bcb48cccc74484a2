"""Valley of Sky Lanterns as a picture: the dice spaces with their dice, the bag, the
deck and supplies, then each player's board (basic resource tracks, coins and camphor,
the train on its track, lanterns, Core and Compensation slots with their dice, upgrade
spaces, score) and the reader's own hand. Drawn from `SkyLanternsView` alone, plus the
public player board layouts (track length, resource cap)."""

from __future__ import annotations

from services.games.sky_lanterns.components import PLAYER_BOARDS
from services.games.sky_lanterns.view import DieView, PlayerView, SkyLanternsView

from .scene import INK, MUTED, PANEL, PAPER, Scene, seat_colour
from .svg import Svg, short

WIDTH = 480
PAD = 12
INSET = PAD + 16
DIE = 26
SLOT_GAP = 6
CELL = 14

DICE = {"red": "#d32f2f", "blue": "#1e63c6", "green": "#2e9d49", "black": "#262626"}
LANTERNS = {"red": "#e53935", "yellow": "#fbc02d", "blue": "#1e88e5"}
BASICS = {"coal": "#4a4a4a", "indigo": "#3f51b5", "tea": "#7cb342", "yam": "#c27c3a"}
TRACK = "#d9dee5"
TRAIN = "#b23c17"
SLOT_EDGE = "#8a96a3"


def draw(scene: Scene[SkyLanternsView]) -> str:
    view = scene.view
    svg = Svg(WIDTH, f"{scene.title}: version {scene.version}, as seen by {scene.reader}")
    svg.rect(0, 0, WIDTH, "100%", fill=PAPER)
    y = _header(svg, scene)
    y = _dice_spaces(svg, view, y)
    y = _supply(svg, view, y)
    y = _players(svg, scene, y)
    if scene.result is not None:
        y = _final_scores(svg, scene, set(scene.result.winners), y)
    return svg.render(y + PAD)


# --- header ------------------------------------------------------------------------------


def _header(svg: Svg, scene: Scene[SkyLanternsView]) -> float:
    view = scene.view
    svg.text(PAD, 26, scene.title, 20, font_weight="bold", fill=INK)
    if view.active_seat is None or scene.status != "active":
        state = "Game over" if view.active_seat is None else scene.status.capitalize()
    else:
        state = f"Round {view.round} · {view.step} · {scene.who(view.active_seat)} to act"
    svg.text(PAD, 47, state, 14, fill=INK)
    order = " → ".join(scene.name(seat, 10) for seat in view.turn_order)
    svg.text(PAD, 65, f"Era {view.current_era} · turn order {order}", 12, fill=MUTED)
    svg.text(PAD, 81, f"Version {scene.version} · seen by {scene.reader}", 12, fill=MUTED)
    y = 90.0
    if view.pending is not None and scene.status == "active":
        asked = f"Waiting for {scene.who(view.pending.seat)} to decide: {view.pending.question}"
        y = svg.paragraph(PAD, y + 8, asked, 66, 12, fill=INK)
    return y


def _section(svg: Svg, y: float, title: str) -> float:
    svg.text(PAD, y + 16, title, 15, font_weight="bold", fill=INK)
    return y + 24


# --- dice ---------------------------------------------------------------------------------


def _die(svg: Svg, x: float, y: float, die: DieView | None, colour: str | None = None) -> None:
    """A die (its colour, its value) or an empty slot of the same size."""
    if die is None:
        svg.rect(x, y, DIE, DIE, fill=PAPER, stroke=SLOT_EDGE, stroke_dasharray="3 2", rx=4)
        return
    fill = DICE.get(die.colour, colour or MUTED)
    svg.rect(x, y, DIE, DIE, fill=fill, stroke=INK, stroke_width=1, rx=4, class_="die")
    svg.text(
        x + DIE / 2, y + 18, die.value, 14, font_weight="bold", fill=PAPER, text_anchor="middle"
    )


def _dice_spaces(svg: Svg, view: SkyLanternsView, top: float) -> float:
    y = _section(svg, top + 4, "Dice spaces")
    rows: dict[str, list] = {}
    for space in view.dice_spaces:
        colour = space.space.rsplit("-", 1)[0]
        rows.setdefault(colour, []).append(space)
    for colour, spaces in rows.items():
        svg.text(PAD, y + 18, colour.capitalize(), 13, font_weight="bold", fill=INK)
        x = PAD + 60
        for space in spaces:
            die = None if space.die is None else DieView(colour=colour, value=space.die)
            _die(svg, x, y, die)
            if space.upgrade_tile:
                svg.text(
                    x + DIE / 2,
                    y + DIE + 11,
                    space.upgrade_tile,
                    10,
                    fill=MUTED,
                    text_anchor="middle",
                )
            x += DIE + SLOT_GAP
        y += DIE + (14 if any(s.upgrade_tile for s in spaces) else SLOT_GAP)
    bag = " · ".join(f"{colour} {n}" for colour, n in view.bag.items())
    y = svg.paragraph(PAD, y + 14, f"Bag: {bag}", 66, 12, fill=INK)
    if view.held_die is not None:
        svg.text(PAD, y + 18, "Held die", 12, fill=INK)
        _die(svg, PAD + 60, y, view.held_die)
        y += DIE + 4
    return y


# --- supply -------------------------------------------------------------------------------


def _supply(svg: Svg, view: SkyLanternsView, top: float) -> float:
    facts = (
        f"Deck {view.deck_size} · Discard {len(view.discard)} · "
        f"Coins supply {view.coins_supply} · Camphor supply {view.camphor_supply}"
    )
    y = svg.paragraph(PAD, top + 14, facts, 66, 12, fill=INK)
    if view.market:
        y = svg.paragraph(PAD, y + 2, "Market: " + ", ".join(view.market), 66, 12, fill=INK)
    if view.influence:
        spots = " · ".join(f"{short(d, 10)} at {n}" for d, n in view.influence.items())
        y = svg.paragraph(PAD, y + 2, f"Influence: {spots}", 66, 12, fill=MUTED)
    return y


# --- players ------------------------------------------------------------------------------


def _players(svg: Svg, scene: Scene[SkyLanternsView], top: float) -> float:
    y = _section(svg, top + 6, "Players")
    for player in scene.view.players:
        y = _player(svg, scene, player, y) + 8
    return y


def _player(svg: Svg, scene: Scene[SkyLanternsView], player: PlayerView, top: float) -> float:
    acting = player.seat == scene.view.active_seat and scene.status == "active"
    mark = svg.mark()
    name = ("▶ " if acting else "") + scene.who(player.seat, 20)
    svg.text(INSET, top + 20, name, 15, font_weight="bold", fill=INK)
    svg.text(
        WIDTH - PAD - 8,
        top + 20,
        f"{player.score_now} pts",
        15,
        font_weight="bold",
        fill=INK,
        text_anchor="end",
    )
    y = svg.paragraph(INSET, top + 38, _facts(player), 60, 12, fill=MUTED)
    y = _resources(svg, player, y)
    y = _train(svg, player, y)
    y = _lanterns(svg, player, y)
    y = _slots(svg, "Core", player.core_slots, y)
    y = _slots(svg, "Compensation", player.compensation_slots, y)
    y = _upgrades(svg, player, y)
    if player.hand is not None:
        y = _hand(svg, "Your hand", player.hand, y, "hand-card")
    if player.draft_packet is not None:
        y = _hand(svg, "Draft packet", player.draft_packet, y, "draft-card")
    height = y + 4 - top

    def panel(under: Svg) -> None:
        colour = seat_colour(player.seat)
        stroke = colour if acting else "none"
        under.rect(
            PAD, top, WIDTH - 2 * PAD, height, fill=PANEL, rx=6, stroke=stroke, stroke_width=2.5
        )
        under.rect(PAD, top, 8, height, fill=colour, rx=3)

    svg.behind(mark, panel)
    return top + height


def _facts(player: PlayerView) -> str:
    parts = [
        f"Board {player.board}",
        f"{player.vp} VP",
        f"Hand {player.hand_size}",
        f"Lantern project {player.lantern_project}",
        f"Railway project {player.railway_project}",
    ]
    if player.draft_picked:
        parts.append("draft card picked")
    return " · ".join(parts)


def _label(svg: Svg, y: float, text: str) -> None:
    svg.text(INSET, y, text, 12, fill=INK)


def _resources(svg: Svg, player: PlayerView, top: float) -> float:
    """One track of cells per basic resource, filled up to its amount (cap from the board)."""
    board = PLAYER_BOARDS.get(player.board)
    y = top + 4
    for name, colour in BASICS.items():
        amount = getattr(player, name)
        cells = max(board.cap if board else amount, amount, 1)
        _label(svg, y + 11, name.capitalize())
        x0 = INSET + 56
        step = min(CELL + 2, (WIDTH - PAD - 46 - x0) / cells)
        for i in range(cells):
            fill = colour if i < amount else TRACK
            svg.rect(x0 + i * step, y, step - 2, CELL, fill=fill, rx=2)
        svg.text(
            WIDTH - PAD - 8, y + 11, amount, 12, font_weight="bold", fill=INK, text_anchor="end"
        )
        y += CELL + 4
    money = f"Coins ${player.coins} · Camphor {player.camphor}"
    svg.text(INSET, y + 12, money, 12, font_weight="bold", fill=INK)
    return y + 18


def _train(svg: Svg, player: PlayerView, top: float) -> float:
    """The train track, its Railway zones marked, the train on its space."""
    board = PLAYER_BOARDS.get(player.board)
    spaces = max(len(board.track) if board else player.train + 1, player.train + 1)
    zones = {i: s.zone for i, s in enumerate(board.track)} if board else {}
    y = top + 4
    _label(svg, y + 14, f"Train {player.train}")
    x0 = INSET + 56
    step = min(24.0, (WIDTH - PAD - 8 - x0) / spaces)
    for i in range(spaces):
        x = x0 + i * step
        here = i == player.train
        svg.rect(
            x,
            y,
            step - 3,
            20,
            fill=TRAIN if here else TRACK,
            rx=3,
            class_="train" if here else None,
        )
        zone = zones.get(i)
        if zone is not None:
            svg.text(
                x + (step - 3) / 2, y + 31, f"R{zone + 1}", 9, fill=MUTED, text_anchor="middle"
            )
    railway = " · ".join(
        f"R{i + 1}: {', '.join(cards)}" for i, cards in enumerate(player.railway_zones) if cards
    )
    y += 34
    if railway:
        y = svg.paragraph(INSET, y + 10, "Railway " + railway, 60, 11, fill=MUTED)
    return y


def _lanterns(svg: Svg, player: PlayerView, top: float) -> float:
    y = top + 4
    _label(svg, y + 14, "Lanterns")
    x = INSET + 66
    for colour, fill in LANTERNS.items():
        count = player.lanterns.get(colour, 0)
        svg.circle(x, y + 10, 9, fill=fill, stroke=INK, stroke_width=1, class_="lantern")
        svg.text(x + 14, y + 14, f"{colour} {count}", 12, fill=INK)
        x += 96
    y += 24
    zones = " · ".join(
        f"L{i + 1}: {', '.join(cards)}" for i, cards in enumerate(player.lantern_zones) if cards
    )
    if zones:
        y = svg.paragraph(INSET, y + 10, "Lantern zones " + zones, 60, 11, fill=MUTED)
    return y


def _slots(svg: Svg, title: str, slots: list[DieView | None], top: float) -> float:
    y = top + 4
    _label(svg, y + 17, title)
    x0 = INSET + 96
    for i, die in enumerate(slots):
        _die(svg, x0 + i * (DIE + SLOT_GAP), y, die)
    return y + DIE + 2


def _upgrades(svg: Svg, player: PlayerView, top: float) -> float:
    shown = []
    for space in player.upgrade_spaces:
        if space.tile:
            shown.append(space.tile)
        elif space.face_down:
            shown.append("face down")
        else:
            shown.append("open")
    text = "Upgrade spaces: " + ", ".join(shown)
    if player.incomes:
        text += " · Incomes: " + ", ".join(player.incomes)
    return svg.paragraph(INSET, top + 16, text, 60, 12, fill=INK)


def _hand(svg: Svg, title: str, cards: list[str], top: float, kind: str) -> float:
    """The reader's own cards as chips; returns the y below them."""
    svg.text(INSET, top + 14, title, 13, font_weight="bold", fill=INK)
    y = top + 20
    if not cards:
        svg.text(INSET, y + 14, "empty", 12, fill=MUTED)
        return y + 22
    x = INSET
    for card in cards:
        name = short(card, 12)
        width = 8 * len(name) + 14
        if x + width > WIDTH - PAD - 8:
            x, y = INSET, y + 26
        svg.rect(x, y, width, 20, fill=PAPER, stroke=SLOT_EDGE, rx=4)
        svg.text(x + width / 2, y + 14, name, 12, fill=INK, text_anchor="middle", class_=kind)
        x += width + 5
    return y + 26


# --- end ----------------------------------------------------------------------------------


def _final_scores(svg: Svg, scene: Scene[SkyLanternsView], winners: set[int], top: float) -> float:
    y = _section(svg, top + 6, "Final scores")
    for player in scene.view.players:
        crown = "★ " if player.seat in winners else ""
        line = f"{crown}{scene.name(player.seat)}: {player.score_now} pts"
        svg.text(PAD, y + 14, line, 13, font_weight="bold", fill=INK)
        y += 20
    return y
