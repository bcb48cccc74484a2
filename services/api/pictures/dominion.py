"""Dominion: Rising Sun as a picture: the Supply (costs and pile sizes), the Events, the
Prophecy and its Suns, each player's zones as counts, what is in play, and the reader's
own hand. Drawn from `DominionView` alone."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from services.games.dominion.view import DominionView, EventView, PileView, PlayerView

from .scene import INK, MUTED, PAD, PANEL, PAPER, Scene, heading, reader_line, seat_colour
from .svg import Svg, short

WIDTH = 480
COLUMNS = 3
GAP = 8
CARD_H = 58
COIN = "#f2c230"
DEBT = "#b04a3a"
SUN = "#f5a623"

TYPE_COLOURS = (
    ("Victory", "#7cb342"),
    ("Treasure", "#f4d35e"),
    ("Curse", "#9c6ade"),
    ("Duration", "#f59c4c"),
    ("Reaction", "#64b5f6"),
    ("Attack", "#e57373"),
    ("Action", "#cfd5dd"),
)


def draw(scene: Scene[DominionView]) -> str:
    view = scene.view
    svg = Svg(WIDTH, f"{scene.title}: version {scene.version}, as seen by {scene.reader}")
    svg.rect(0, 0, WIDTH, "100%", fill=PAPER)
    y = _header(svg, scene)
    y = _prophecy(svg, view, y)
    y = _events(svg, view.events, y)
    y = _supply(svg, view, y)
    y = _players(svg, scene, y)
    y = _trash(svg, view, y)
    return svg.render(y + PAD)


def _header(svg: Svg, scene: Scene[DominionView]) -> float:
    turn = scene.view.turn
    heading(
        svg,
        scene,
        scene.view.over,
        lambda: (
            f"{scene.who(turn.seat)}: {turn.phase} phase · {turn.actions} Actions · "
            f"{turn.buys} Buys · ${turn.coins}"
        ),
    )
    reader_line(svg, scene, 65)
    return 74


def _section(svg: Svg, y: float, title: str) -> float:
    svg.text(PAD, y + 16, title, 15, font_weight="bold", fill=INK)
    return y + 24


# --- prophecy and events ------------------------------------------------------------------


def _prophecy(svg: Svg, view: DominionView, top: float) -> float:
    if view.prophecy is None:
        return top
    y = _section(svg, top, f"Prophecy: {view.prophecy}")
    state = "active" if view.prophecy_active else f"{view.sun_tokens} Suns to remove"
    svg.text(
        WIDTH - PAD,
        top + 16,
        state,
        13,
        fill=INK,
        text_anchor="end",
        font_weight="bold" if view.prophecy_active else None,
    )
    shown = min(view.sun_tokens, 14)
    for i in range(shown):
        _sun(svg, PAD + 11 + i * 24, y + 10, 9)
    if view.sun_tokens > shown:
        svg.text(PAD + 8 + shown * 24, y + 15, f"+{view.sun_tokens - shown}", 13, fill=INK)
    if shown:
        y += 26
    y = svg.paragraph(PAD, y + 12, view.prophecy_text or "", 66, 12, fill=MUTED)
    return y


def _sun(svg: Svg, cx: float, cy: float, r: float) -> None:
    for i in range(8):
        angle = i * 45
        svg.line(
            cx,
            cy - r - 3,
            cx,
            cy - r + 2,
            stroke=SUN,
            stroke_width=2,
            transform=f"rotate({angle} {cx:.1f} {cy:.1f})",
        )
    svg.circle(cx, cy, r * 0.7, fill=SUN, stroke="#c77c00", stroke_width=1)


def _events(svg: Svg, events: list[EventView], top: float) -> float:
    if not events:
        return top
    y = _section(svg, top + 4, "Events")
    for event in events:
        svg.text(PAD, y + 12, event.event, 13, font_weight="bold", fill=INK)
        _cost(svg, WIDTH - PAD - 8, y + 8, event.coins, event.debt, anchor_right=True)
        y = svg.paragraph(PAD, y + 28, event.text, 66, 12, fill=MUTED) + 2
    return y


# --- supply -------------------------------------------------------------------------------


def _supply(svg: Svg, view: DominionView, top: float) -> float:
    y = _section(svg, top + 4, "Supply")
    width = (WIDTH - 2 * PAD - (COLUMNS - 1) * GAP) / COLUMNS
    removed = set(view.removed_piles)
    for i, pile in enumerate(view.supply):
        row, col = divmod(i, COLUMNS)
        x0 = PAD + col * (width + GAP)
        y0 = y + row * (CARD_H + GAP)
        _pile(svg, pile, x0, y0, width, removed)
    rows = (len(view.supply) + COLUMNS - 1) // COLUMNS
    y += rows * (CARD_H + GAP)
    notes = []
    if view.riverboat_card:
        notes.append(f"Riverboat card: {view.riverboat_card}")
    if removed - {p.card for p in view.supply}:
        notes.append("Removed: " + ", ".join(sorted(removed - {p.card for p in view.supply})))
    for note in notes:
        y = svg.paragraph(PAD, y + 12, note, 66, 12, fill=MUTED)
    return y


def _type_colour(types: Sequence[str]) -> str:
    for name, colour in TYPE_COLOURS:
        if name in types:
            return colour
    return "#cfd5dd"


def _pile(svg: Svg, pile: PileView, x0: float, y0: float, width: float, removed: set[str]) -> None:
    empty = pile.left == 0 or pile.card in removed
    opacity = 0.45 if empty else None
    svg.rect(
        x0, y0, width, CARD_H, fill=PANEL, stroke="#aab4c0", stroke_width=1, rx=5, opacity=opacity
    )
    svg.rect(x0, y0, width, 6, fill=_type_colour(pile.types), rx=3, opacity=opacity)
    svg.text(
        x0 + 6, y0 + 22, short(pile.card, 17), 13, font_weight="bold", fill=INK, opacity=opacity
    )
    _cost(svg, x0 + 14, y0 + 41, pile.coins, pile.debt)
    left = "empty" if pile.left == 0 else f"{pile.left} left"
    if pile.card in removed:
        left = "removed"
    svg.text(x0 + width - 6, y0 + 46, left, 12, fill=INK if not empty else MUTED, text_anchor="end")
    if pile.debt_on_pile:
        svg.text(
            x0 + width - 6, y0 + 22, f"+{pile.debt_on_pile}D", 11, fill=DEBT, text_anchor="end"
        )


def _cost(svg: Svg, x: float, y: float, coins: int, debt: int, anchor_right: bool = False) -> None:
    """A coin with the price in $, and a red hexagon with the Debt, if any."""
    marks: list[tuple[str, int]] = []
    if coins or not debt:
        marks.append(("coin", coins))
    if debt:
        marks.append(("debt", debt))
    step = 24
    if anchor_right:
        x -= step * (len(marks) - 1)
    for kind, amount in marks:
        if kind == "coin":
            svg.circle(x, y, 9, fill=COIN, stroke="#a07800", stroke_width=1)
        else:
            hexagon = [
                (x - 9, y),
                (x - 4.5, y - 8),
                (x + 4.5, y - 8),
                (x + 9, y),
                (x + 4.5, y + 8),
                (x - 4.5, y + 8),
            ]
            svg.polygon(hexagon, fill=DEBT, stroke="#6d2b20", stroke_width=1)
        colour = INK if kind == "coin" else "#ffffff"
        svg.text(x, y + 4.5, amount, 12, font_weight="bold", fill=colour, text_anchor="middle")
        x += step


# --- players ------------------------------------------------------------------------------


def _players(svg: Svg, scene: Scene[DominionView], top: float) -> float:
    y = _section(svg, top + 6, "Players")
    for player in scene.view.players:
        y = _player(svg, scene, player, y) + 8
    return y


def _player(svg: Svg, scene: Scene[DominionView], player: PlayerView, top: float) -> float:
    view = scene.view
    acting = player.seat == view.turn.seat and not view.over
    mark = svg.mark()
    svg.text(
        PAD + 16,
        top + 20,
        ("▶ " if acting else "") + scene.who(player.seat, 20),
        15,
        font_weight="bold",
        fill=INK,
    )
    y = top + 38
    for text, colour in _zones(player):
        y = svg.paragraph(PAD + 16, y, text, 62, 12, fill=colour) + 3
    if player.hand is not None:
        y = _hand(svg, player.hand, y + 2)
    height = y - top

    def panel(under: Svg) -> None:
        under.rect(
            PAD,
            top,
            WIDTH - 2 * PAD,
            height,
            fill=PANEL,
            rx=6,
            stroke=seat_colour(player.seat) if acting else "none",
            stroke_width=2.5,
        )
        under.rect(PAD, top, 8, height, fill=seat_colour(player.seat), rx=3)

    svg.behind(mark, panel)
    return top + height


def _zones(player: PlayerView) -> list[tuple[str, str]]:
    """Lines of text about a player's zones, with their colours."""
    zones = f"Hand {player.hand_size} · Deck {player.deck_size} · Discard {player.discard_size}"
    if player.discard_top:
        zones += f" (top: {player.discard_top})"
    extras = [f"Turns {player.turns}"]
    if player.debt:
        extras.append(f"Debt {player.debt}")
    if player.biding_time_size:
        extras.append(f"Biding Time {player.biding_time_size}")
    if player.foresight:
        extras.append(f"Foresight {len(player.foresight)}")
    if player.rapid_expansion:
        extras.append(f"Rapid Expansion {len(player.rapid_expansion)}")
    lines = [(zones, INK), (" · ".join(extras), MUTED)]
    if player.in_play:
        lines.append(("In play: " + _listing(player.in_play), INK))
    if player.durations:
        lines.append(("Durations: " + _listing(player.durations), INK))
    return lines


def _hand(svg: Svg, hand: list[str], top: float) -> float:
    """The reader's own hand as card chips; returns the y below them."""
    svg.text(PAD + 16, top + 12, "Your hand", 13, font_weight="bold", fill=INK)
    y = top + 20
    rows = _chip_rows(hand)
    if not hand:
        svg.text(PAD + 16, y + 14, "empty", 12, fill=MUTED)
        return y + 24
    for row in rows:
        x: float = PAD + 16
        for name, width in row:
            svg.rect(x, y, width, 20, fill=PAPER, stroke="#8a96a3", rx=4)
            svg.text(
                x + width / 2, y + 14, name, 12, fill=INK, text_anchor="middle", class_="hand-card"
            )
            x += width + 5
        y += 26
    return y + 2


def _listing(cards: list[str]) -> str:
    counts = Counter(cards)
    return ", ".join(f"{name} ×{n}" if n > 1 else name for name, n in counts.items())


def _chip_rows(cards: list[str]) -> list[list[tuple[str, float]]]:
    rows: list[list[tuple[str, float]]] = [[]]
    room = WIDTH - 2 * PAD - 24
    used = 0.0
    for card in cards:
        name = short(card, 20)
        width = 7.2 * len(name) + 14
        if rows[-1] and used + width > room:
            rows.append([])
            used = 0.0
        rows[-1].append((name, width))
        used += width + 5
    return rows


def _trash(svg: Svg, view: DominionView, top: float) -> float:
    text = f"Trash: {len(view.trash)} cards"
    if view.trash:
        text += " (" + _listing(view.trash) + ")"
    return svg.paragraph(PAD, top + 14, text, 66, 12, fill=MUTED)
