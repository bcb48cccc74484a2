"""Random bots play whole games; at every step dice, Coins and Camphor are conserved, the
state survives JSON exactly, every offered move is accepted, and no view or event shows a
seat a card or tile hidden from it.

SKYPORT_RANDOM_GAMES sets how many base games (default 200, half with 3 and half with 4
players, and as many again with 2); each variant plays an eighth as many.

SKYPORT_MANY_GAMES sets the lean run (default 2,000 games: conservation, exact JSON and the
score's breakdown, without the views), shared evenly by 3 and 4 players and the six
variant settings; 24,000 plays 2,000 for every player count and variant.
"""

import os
import re

import orjson
import pytest
from sky_lanterns_kit import dice_count

from services.ai import RandomBot, play_match
from services.engine import Rng
from services.games.sky_lanterns import game
from services.games.sky_lanterns.state import (
    CAMPHOR_IN_SUPPLY,
    COINS_IN_SUPPLY,
    ROUNDS,
    SkyLanternsState,
)

GAMES = int(os.environ.get("SKYPORT_RANDOM_GAMES", "200"))
MANY_GAMES = int(os.environ.get("SKYPORT_MANY_GAMES", "2000"))
FULL_CHECKS_EACH = 25
"""One game in this many checks every legal move and every viewer at every step."""
CARD_OR_TILE = re.compile(rb'"([STU]\d\d)"')


def check_conserved(state: SkyLanternsState) -> None:
    # 3 players: 1 die of each colour out; 2 players: 5 out, 3 on the influence tracks.
    removed = {2: 5, 3: 4, 4: 0}[state.players]
    assert dice_count(state) + len(state.influence) == 18 - removed
    assert len(state.influence) == (3 if state.players == 2 else 0)
    assert all(0 <= at <= 6 for at in state.influence.values())
    assert state.coins_supply + sum(p.coins for p in state.seats) == COINS_IN_SUPPLY
    assert state.camphor_supply + sum(p.camphor for p in state.seats) == CAMPHOR_IN_SUPPLY
    assert state.coins_supply >= 0 and state.camphor_supply >= 0
    cards = [*state.deck, *state.discard, *state.removed, *state.unused_starting]
    cards += [c for packet in state.draft_packets for c in packet] + (state.market or [])
    for player in state.seats:
        cards += player.hand + [c for z in player.lantern_zones + player.railway_zones for c in z]
        assert all(0 <= n <= 10 for n in player.basics.values())
        assert all(p.coins >= 0 and p.camphor >= 0 for p in state.seats)
    assert sorted(cards) == sorted(set(cards)) and len(cards) == 78
    tiles = [t for p in state.seats for t in p.upgrades if t] + list(state.covered.values())
    assert len(tiles) == len(set(tiles)) == 16 - len(state.removed_tiles)


def secrets(state: SkyLanternsState, viewer: int | None) -> set[bytes]:
    """Card and tile ids `viewer` must not see: other hands, the deck, unused Starting
    cards, and every face-down Upgrade Tile."""
    hidden = set(state.deck) | set(state.unused_starting)
    for seat, player in enumerate(state.seats):
        if not state.tiles_face_up:
            hidden |= {t for t in player.upgrades if t}
        if seat != viewer:
            hidden |= set(player.hand)
            if state.draft_packets:
                hidden |= set(state.draft_packets[seat]) | {state.draft_picks[seat]} - {None}
    return {h.encode() for h in hidden}


def named(document: object) -> set[bytes]:
    return set(CARD_OR_TILE.findall(orjson.dumps(document)))


class StepChecks:
    def __init__(self, full: bool, seed: int) -> None:
        self.full = full
        self.rng = Rng.from_seed(seed)
        self.steps = 0

    def __call__(self, state: SkyLanternsState, seat: int, move) -> None:
        self.steps += 1
        check_conserved(state)
        dumped = game.dump_state(state)
        assert game.load_state(dumped) == state
        assert game.dump_state(game.load_state(dumped)) == dumped
        prompted = {p.seat for p in game.prompts(state)}
        for other in range(state.players):
            assert bool(game.legal_moves(state, other)) == (other in prompted)
        legal = game.legal_moves(state, seat)
        assert move in legal and len({m.model_dump_json() for m in legal}) == len(legal)
        for other in legal if self.full else self.rng.sample(legal, 1):
            game.apply(state, seat, other)
        outcome = game.apply(state, seat, move)
        viewers = [None, *range(state.players)]
        if not self.full:
            viewers = [viewers[self.steps % len(viewers)]]
        for viewer in viewers:
            view = game.view(state, viewer).model_dump(mode="json")
            assert not named(view) & secrets(state, viewer), viewer
            for event in outcome.events:
                assert not named(event.visible_to(viewer)) & secrets(outcome.state, viewer)
        assert game.dump_state(state) == dumped, "apply changed the state it was given"


def check_end(record) -> None:
    state = record.state
    assert state.over and game.prompts(state) == [] and state.round == ROUNDS
    check_conserved(state)
    for player in state.seats:
        placed = sum(d is not None for d in [*player.core, *player.compensation])
        assert placed == 4 or (player.board == "P-01" and placed < 4)  # P-01 may run out
    for standing in record.result.standings:
        assert standing.score == sum(standing.breakdown.values())
    assert len(record.result.winners) == 1  # the tie-break always decides


VARIANTS = {
    "base": {},
    "unique boards and projects": {"unique_player_boards": True, "unique_project_cards": True},
    "starting card draft": {"starting_card_draft": True},
    "upgrade tile arrangement": {"upgrade_tile_arrangement": True},
    "teapot market": {"teapot_market": True},
    "all variants": {
        "starting_card_draft": True,
        "upgrade_tile_arrangement": True,
        "teapot_market": True,
        "unique_player_boards": True,
        "unique_project_cards": True,
    },
}


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_keep_the_rules_and_hide_what_is_hidden(players, variant):
    games = GAMES if variant == "base" else max(GAMES // 8, 2)
    for round_ in range(games // 2 + (players != 4 and games % 2)):
        seed = 1000 * players + round_
        checks = StepChecks(full=round_ % FULL_CHECKS_EACH == 0, seed=seed)
        bots = [RandomBot(seed * 10 + s) for s in range(players)]
        record = play_match(game, bots, seed=seed, config=VARIANTS[variant], on_step=checks)
        check_end(record)
        assert checks.steps == len(record.moves)


@pytest.mark.parametrize("variant", ["base", "all variants"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_same_seed_and_moves_rebuild_the_identical_state(players, variant):
    options = VARIANTS[variant]
    record = play_match(game, [RandomBot(s) for s in range(players)], seed=77, config=options)
    replayed = game.setup(options, players, 77)
    for seat, move in record.moves:
        replayed = game.apply(replayed, seat, game.dump_move(move)).state
    assert game.dump_state(replayed) == game.dump_state(record.state)


def lean_checks(state: SkyLanternsState, seat: int, move) -> None:
    """The cheap invariants, for the thousands of games: conservation and exact JSON."""
    check_conserved(state)
    assert game.load_state(game.dump_state(state)) == state


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("players", [3, 4])
def test_thousands_of_random_games_conserve_everything_and_end_properly(players, variant):
    games = max(MANY_GAMES // (2 * len(VARIANTS)), 1)
    for round_ in range(games):
        seed = 700_000 + 10_000 * players + round_
        bots = [RandomBot(seed * 10 + s) for s in range(players)]
        check_end(play_match(game, bots, seed=seed, config=VARIANTS[variant], on_step=lean_checks))
