"""Setting up a game (rulebook "3-4 Players Setup", and "Two Player Game" 1-3)."""

from __future__ import annotations

from typing import Any

from services.engine import Rng

from . import solo
from .components import (
    BOARD,
    ERAS,
    INFLUENCE_COLOURS,
    PLAYER_BOARDS,
    PROJECTS,
    SOLO_CARDS,
    STARTING_IDS,
    TEAPOT_IDS,
    TILES,
    TWO_PLAYER,
    PlayerBoard,
)
from .options import SkyLanternsOptions
from .resources import gain
from .rounds import clockwise_from, upkeep
from .state import STARTING_COINS, Player, SkyLanternsState, Step

STARTING_CARDS = 3
MARKET_SIZE = 3
UPGRADE_TILES_EACH = 4


def set_up(options: SkyLanternsOptions, players: int, seed: int) -> SkyLanternsState:
    rng = Rng.from_seed(seed)
    if players <= 2:
        # "Remove 2 black, 1 red, 1 blue, and 1 green dice ... Place 1 red, 1 blue, and 1
        # green die in the middle of the influence tracks" and "Remove the 7 Upgrade Tiles
        # with 4 dots and 3 dots".
        bag: dict[str, int] = {colour: count for colour, count in TWO_PLAYER.dice.items()}
        removed_tiles = [t.id for t in TILES.values() if t.dots]
    else:
        # "In a 3-player game, remove 1 die of each color and 4 Upgrade Tiles with four dots."
        bag = {colour: count - (players == 3) for colour, count in BOARD.dice.items()}
        removed_tiles = [t.id for t in TILES.values() if players == 3 and t.dots == 4]
    tiles = [t for t in TILES if t not in removed_tiles]
    rng.shuffle(tiles)
    eras = [rng.choice([e.id for e in ERAS.values() if e.card == n]) for n in (1, 2, 3)]
    eras.sort(key=lambda e: ERAS[e].year)
    deck = list(TEAPOT_IDS)
    rng.shuffle(deck)
    starting = list(STARTING_IDS)
    rng.shuffle(starting)
    side = "B" if options.unique_project_cards else "A"
    lantern_projects = _projects(rng, "lantern", side)
    railway_projects = _projects(rng, "railway", side)
    boards = _boards(rng, options.unique_player_boards, players)
    seats = [
        _player(
            PLAYER_BOARDS[boards[s]],
            hand=starting[STARTING_CARDS * s : STARTING_CARDS * (s + 1)],
            upgrades=list(tiles[UPGRADE_TILES_EACH * s : UPGRADE_TILES_EACH * (s + 1)]),
            lantern_project=lantern_projects[s],
            railway_project=railway_projects[s],
        )
        for s in range(players)
    ]
    first = options.first_player if options.first_player is not None else rng.below(players)
    dealt_tiles = UPGRADE_TILES_EACH * (players + (players == 1))
    state = SkyLanternsState(
        players=players,
        seed=seed,
        rng=rng,
        seats=seats,
        eras=eras,
        first_player=first,
        bag=bag,
        deck=deck,
        unused_starting=sorted(starting[STARTING_CARDS * players :]),
        removed_tiles=removed_tiles,
    )
    if players <= 2:
        state.influence = {c: len(TWO_PLAYER.influence[c]) // 2 for c in INFLUENCE_COLOURS}
        # "After dealing 4 tiles to each player, flip the remaining 1 tile face up and
        # place it directly onto its corresponding space on the Main Board."
        for tile in tiles[dealt_tiles:]:
            state.covered[TILES[tile].space] = tile
    if players == 1:
        # "Set up one player board for yourself and one for the virtual opponent";
        # "Take out the Solo Mode cards to form the action deck."
        deck = list(SOLO_CARDS)
        rng.shuffle(deck)
        state.rival = solo.new_rival(
            options.scenario or "dead-mine",
            options.challenge,
            deck,
            tiles[UPGRADE_TILES_EACH : 2 * UPGRADE_TILES_EACH],
        )
    for seat, coins in zip(clockwise_from(state, first), STARTING_COINS, strict=False):
        gain(state, seat, "coins", coins)
        gain(state, seat, "camphor", 1)
    upkeep(state)
    if options.teapot_market:
        state.market = [state.deck.pop() for _ in range(MARKET_SIZE)]
    if options.starting_card_draft:
        state.draft_packets = [player.hand for player in state.seats]
        state.draft_picks = [None] * players
        for player in state.seats:
            player.hand = []
    if options.upgrade_tile_arrangement:
        state.tiles_face_up = True
        state.arranged = [False] * players
    state.step = next_setup_step(state, "draft" if options.starting_card_draft else "arrange")
    return state


def next_setup_step(state: SkyLanternsState, step: str) -> Step:
    """The first of `step` and the setup steps after it that this game uses."""
    if step == "draft":
        return "draft"
    if step == "arrange" and state.tiles_face_up and not all(state.arranged):
        return "arrange"
    return "contract"


def _player(board: PlayerBoard, **dealt: Any) -> Player:
    return Player(
        board=board.id,
        basics={basic: count for basic, count in board.start.items()},
        core=[None] * len(board.core_slots),
        compensation=[None] * len(board.compensation),
        train=board.train_start,
        **dealt,
    )


def _boards(rng: Rng, unique: bool, players: int) -> list[str]:
    """P-00 for everyone; with `unique_player_boards` each physical board's back: P-01 to
    P-04, one each, in random order (3 players use 3 of them)."""
    if not unique:
        return ["P-00"] * players
    backs = sorted(b for b in PLAYER_BOARDS if b != "P-00")
    rng.shuffle(backs)
    return backs[:players]


def _projects(rng: Rng, track: str, side: str) -> list[str]:
    cards = [p.id for p in PROJECTS.values() if p.track == track and p.side == side]
    rng.shuffle(cards)
    return cards
