"""Setting up a 3–4 player game (rulebook "3-4 Players Setup")."""

from __future__ import annotations

from services.engine import Rng

from .components import BOARD, ERAS, PLAYER_BOARDS, PROJECTS, STARTING_IDS, TEAPOT_IDS, TILES
from .options import SkyLanternsOptions
from .resources import gain
from .rounds import clockwise_from, upkeep
from .state import STARTING_COINS, Player, SkyLanternsState

STARTING_CARDS = 3
UPGRADE_TILES_EACH = 4


def set_up(options: SkyLanternsOptions, players: int, seed: int) -> SkyLanternsState:
    rng = Rng.from_seed(seed)
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
    lantern_projects = _side_a(rng, "lantern")
    railway_projects = _side_a(rng, "railway")
    board = PLAYER_BOARDS["P-00"]
    seats = [
        Player(
            board=board.id,
            basics=dict(board.start),
            hand=starting[STARTING_CARDS * s : STARTING_CARDS * (s + 1)],
            core=[None] * len(board.core_slots),
            compensation=[None] * len(board.compensation),
            train=board.train_start,
            upgrades=list(tiles[UPGRADE_TILES_EACH * s : UPGRADE_TILES_EACH * (s + 1)]),
            lantern_project=lantern_projects[s],
            railway_project=railway_projects[s],
        )
        for s in range(players)
    ]
    first = options.first_player if options.first_player is not None else rng.below(players)
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
    for seat, coins in zip(clockwise_from(state, first), STARTING_COINS, strict=False):
        gain(state, seat, "coins", coins)
        gain(state, seat, "camphor", 1)
    upkeep(state)
    return state


def _side_a(rng: Rng, track: str) -> list[str]:
    cards = [p.id for p in PROJECTS.values() if p.track == track and p.side == "A"]
    rng.shuffle(cards)
    return cards
