"""Valley of Sky Lanterns as a picture: the dice spaces with their dice, the bag, the
deck and supplies, then each player's board (basic resource tracks, coins and camphor,
the train on its track, lanterns, Core and Compensation slots with their dice, upgrade
spaces, score) and the reader's own hand. Drawn from `SkyLanternsView` alone, plus the
public component data (player board layouts: track length, resource cap; Era cards: year
and lantern colour)."""

from __future__ import annotations

from typing import cast

from services.gameplay.payloads import OpponentInfo
from services.games.sky_lanterns.components import (
    EFFECTS,
    ERAS,
    PLAYER_BOARDS,
    TWO_PLAYER,
    InfluenceColour,
)
from services.games.sky_lanterns.view import (
    DieView,
    OpponentView,
    PlayerView,
    SkyLanternsView,
)

from .scene import INK, MUTED, PAD, PANEL, PAPER, Scene, heading, reader_line, seat_colour
from .svg import Svg, fit, isolated, short, text_width

WIDTH = 480
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
OPPONENTS = {"dead-mine": "The ghost of the Dead Mine", "burning-hut": "The Raiders"}


def draw(scene: Scene[SkyLanternsView]) -> str:
    view = scene.view
    svg = Svg(WIDTH, f"{scene.title}: version {scene.version}, as seen by {scene.reader}")
    svg.rect(0, 0, WIDTH, "100%", fill=PAPER)
    y = _header(svg, scene)
    y = _dice_spaces(svg, view, y)
    y = _supply(svg, view, y)
    if view.influence:
        y = _influence(svg, scene, y)
    y = _players(svg, scene, y)
    if view.opponent is not None:
        final = scene.result.opponent if scene.result is not None else None
        y = _opponent(svg, view.opponent, final, y)
    if scene.result is not None:
        y = _final_scores(svg, scene, y)
    return svg.render(y + PAD)


# --- header ------------------------------------------------------------------------------


def _header(svg: Svg, scene: Scene[SkyLanternsView]) -> float:
    view = scene.view

    def playing() -> str:
        acting = " and ".join(scene.who(seat) for seat in _acting(scene))
        return f"Round {view.round} · {view.step} · {acting} to act"

    heading(svg, scene, view.active_seat is None, playing)
    share = (WIDTH - 2 * PAD - text_width("Turn order ", 12)) / max(len(view.turn_order), 1)
    order = " → ".join(
        isolated(fit(scene.seats[seat].name, share - text_width(" → ", 12), 12))
        for seat in view.turn_order
    )
    svg.text(PAD, 65, f"Turn order {order}", 12, fill=MUTED)
    reader_line(svg, scene, 81)
    y = _eras(svg, view, 90.0)
    if view.pending is not None and scene.status == "active":
        question = view.pending.question.replace("_", " ")
        asked = f"Waiting for {scene.who(view.pending.seat)} to decide: {question}"
        detail = _words(view.pending.effect) if view.pending.effect else ""
        if detail and detail != question:  # what a "Convert 2 times" button would pay for
            asked += f" ({detail})"
        y = svg.paragraph(PAD, y + 8, asked, 66, 12, fill=INK)
    return y


def _acting(scene: Scene[SkyLanternsView]) -> list[int]:
    """The seats asked to move now (several while drafting), else the active player."""
    if scene.status != "active" or scene.view.active_seat is None:
        return []
    return scene.turn or [scene.view.active_seat]


def _eras(svg: Svg, view: SkyLanternsView, top: float) -> float:
    """The three Era cards as they lie by the Main Board, in ascending order of their
    year (so a card numbered 3 may come first); the current one is outlined."""
    width = (WIDTH - 2 * PAD - 2 * SLOT_GAP) / 3
    for i, era_id in enumerate(view.eras):
        era = ERAS[era_id]
        x = PAD + i * (width + SLOT_GAP)
        current = era_id == view.current_era
        svg.rect(
            x,
            top,
            width,
            38,
            fill=PANEL,
            rx=5,
            stroke=INK if current else SLOT_EDGE,
            stroke_width=2 if current else 1,
            class_="era-current" if current else "era",
        )
        svg.circle(x + 12, top + 13, 6, fill=LANTERNS[era.colour], stroke=INK, stroke_width=1)
        weight = "bold" if current else None
        svg.text(x + 23, top + 17, f"Era {era.id} · {era.year}", 12, fill=INK, font_weight=weight)
        rounds = f"rounds {2 * i + 1}–{2 * i + 2} · {era.colour}"
        svg.text(x + 8, top + 32, rounds, 10, fill=MUTED)
    return top + 46


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
    return y


def _influence(svg: Svg, scene: Scene[SkyLanternsView], top: float) -> float:
    """2 players (and solo): the influence tracks, each die on its space; space 0 is the
    first seat's end."""
    y = _section(svg, top + 6, "Influence tracks")
    right = scene.name(1, 14) if len(scene.seats) > 1 else "the opponent"
    svg.text(PAD + 60, y + 10, f"← {scene.name(0, 14)}'s end", 11, fill=MUTED)
    x_end = PAD + 60 + (DIE + SLOT_GAP) * 7 - SLOT_GAP
    svg.text(x_end, y + 10, f"{right}'s end →", 11, fill=MUTED, text_anchor="end")
    y += 16
    for colour, at in scene.view.influence.items():
        track = TWO_PLAYER.influence.get(cast(InfluenceColour, colour))
        spaces = len(track) if track else at + 1
        svg.text(PAD, y + 18, colour.capitalize(), 13, font_weight="bold", fill=INK)
        for i in range(spaces):
            x = PAD + 60 + i * (DIE + SLOT_GAP)
            if i == at:
                fill = DICE.get(colour, MUTED)
                svg.rect(x, y, DIE, DIE, fill=fill, stroke=INK, rx=4, class_="influence-die")
            else:
                svg.rect(x, y, DIE, DIE, fill=TRACK, rx=4)
        y += DIE + SLOT_GAP
    return y


# --- players ------------------------------------------------------------------------------


def _players(svg: Svg, scene: Scene[SkyLanternsView], top: float) -> float:
    y = _section(svg, top + 6, "Players")
    for player in scene.view.players:
        y = _player(svg, scene, player, y) + 8
    return y


def _player(svg: Svg, scene: Scene[SkyLanternsView], player: PlayerView, top: float) -> float:
    acting = player.seat in _acting(scene)
    mark = svg.mark()
    room = WIDTH - PAD - 8 - INSET - text_width("999 pts", 15) - 12
    name = scene.who_within(player.seat, room, 15, "▶ " if acting else "")
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
                x + (step - 3) / 2, y + 31, f"R{zone + 1}", 10, fill=MUTED, text_anchor="middle"
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
        text += " · Incomes: " + ", ".join(_effects(key) for key in player.incomes)
    return svg.paragraph(INSET, top + 16, text, 60, 12, fill=INK)


def _effects(key: str) -> str:
    """What a printed effect list gives, in short ("$1 + 1 tea"), from the public
    component data; the key itself if the data does not know it."""
    effects = EFFECTS.get(key)
    if not effects:
        return key
    return " + ".join(_words(effect.model_dump(mode="json")) for effect in effects)


def _words(effect: dict) -> str:
    """One effect of the vocabulary, in short: "2 vp, $1", "pay 2 coal → draw (up to 2×)"."""
    kind = str(effect.get("kind", ""))
    if kind == "gain":
        return _amounts(effect.get("res", {}))
    if kind == "train":
        return f"train +{effect.get('steps', 1)}"
    if kind == "develop":
        return f"{effect.get('track', '')} development".strip()
    if kind == "one_of":
        return f"{effect.get('amount', 1)} {' or '.join(effect.get('res', []))}"
    if kind == "convert":
        times = effect.get("times", 1)
        gets = " + ".join(_words(inner) for inner in effect.get("effects", []))
        return f"pay {_amounts(effect.get('pay', {}))} → {gets}" + (
            f" (up to {times}×)" if times > 1 else ""
        )
    return kind.replace("_", " ")


def _amounts(resources: dict) -> str:
    return ", ".join(
        f"${n}" if name == "coins" else f"{str(n).replace('_', ' ')} {name}"
        for name, n in resources.items()
    )


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


# --- solo ---------------------------------------------------------------------------------


def _opponent(svg: Svg, rival: OpponentView, final: OpponentInfo | None, top: float) -> float:
    """Solo: the virtual opponent, all it shows in the view (its deck only as a size);
    once the game is over, its final score (with the end-game bonuses the view's VP do
    not hold yet), as the result ranks it."""
    y = _section(svg, top + 6, "Virtual opponent")
    mode = " · Challenge Mode" if rival.challenge else ""
    vp = sum(rival.vp.values()) if final is None else final.score
    svg.text(
        PAD,
        y + 14,
        f"{OPPONENTS.get(rival.scenario, rival.scenario)}{mode}",
        14,
        font_weight="bold",
        fill=INK,
    )
    svg.text(
        WIDTH - PAD - 8, y + 14, f"{vp} VP", 14, font_weight="bold", fill=INK, text_anchor="end"
    )
    y += 20
    basics = " · ".join(f"{name.capitalize()} {n}" for name, n in rival.resources.items())
    facts = f"{basics} · Coins ${rival.coins} · Camphor {rival.camphor}"
    y = svg.paragraph(PAD, y + 12, facts, 66, 12, fill=INK)
    scored = rival.vp if final is None else final.breakdown
    points = " · ".join(f"{part.replace('_', ' ')} {n}" for part, n in scored.items())
    y = svg.paragraph(PAD, y, f"{'Final VP' if final else 'VP'}: {points}", 66, 12, fill=MUTED)
    if rival.dice:
        svg.text(PAD, y + 18, "Dice", 12, fill=INK)
        for i, die in enumerate(rival.dice):
            _die(svg, PAD + 60 + i * (DIE + SLOT_GAP), y, die)
        y += DIE + 4
    deck = f"Action deck {rival.deck_size}"
    if rival.next_card:
        deck += f" · next {rival.next_card}"
    if rival.revealed:
        deck += " · revealed " + ", ".join(rival.revealed)
    deck += f" · face-down tiles {rival.face_down_tiles}"
    y = svg.paragraph(PAD, y + 14, deck, 66, 12, fill=INK)
    if rival.blockades:
        y = svg.paragraph(PAD, y, "Blockades: " + ", ".join(rival.blockades), 66, 12, fill=INK)
    if rival.chosen_since_income:
        chosen = ", ".join(rival.chosen_since_income)
        y = svg.paragraph(PAD, y, f"Chosen since the last Income: {chosen}", 66, 12, fill=MUTED)
    if rival.lost:
        y = svg.paragraph(PAD, y + 2, f"Lost: {rival.lost}", 66, 13, fill=INK, font_weight="bold")
    return y


# --- end ----------------------------------------------------------------------------------


def _final_scores(svg: Svg, scene: Scene[SkyLanternsView], top: float) -> float:
    """Every standing in rank order, the virtual opponent of a solo game among them (it
    may have won), then why the game ended so, when the game says."""
    result = scene.result
    assert result is not None
    y = _section(svg, top + 6, "Final scores")
    winners = set(result.winners)
    lines = [
        (
            standing.rank,
            f"{'★ ' if standing.seat in winners else ''}{scene.name(standing.seat)}",
            standing.score,
        )
        for standing in result.standings
    ]
    if result.opponent is not None:
        rival = result.opponent
        crown = "★ " if rival.rank == 1 and not winners else ""
        lines.append((rival.rank, f"{crown}{short(rival.name, 32)}", rival.score))
    for rank, name, score in sorted(lines, key=lambda line: line[0]):
        svg.text(PAD, y + 14, f"{rank}. {name}: {score} pts", 13, font_weight="bold", fill=INK)
        y += 20
    if result.summary:
        y = svg.paragraph(PAD, y + 12, result.summary, 66, 13, fill=INK)
    return y
