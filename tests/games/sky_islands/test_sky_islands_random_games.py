"""Random bots play whole games; at every step tiles, cubes and pieces are conserved,
the state survives JSON exactly, every offered move is accepted, and no view or event
shows a seat anything hidden from it.

SKYPORT_RANDOM_GAMES sets how many games (default 300, spread over 2, 3 and 4 players).
"""

import os
import re

import orjson
import pytest
from sky_islands_helpers import check_conserved

from services.ai import RandomBot, play_match
from services.engine import Rng
from services.games.sky_islands import game
from services.games.sky_islands.state import SkyIslandsState

GAMES = int(os.environ.get("SKYPORT_RANDOM_GAMES", "300"))
EVERY_MOVE_TRIED_EACH = 20
"""In one game out of this many, every legal move is applied at every step; in the
others a few picked at random are."""
SAMPLED_MOVES = 2
EVERY_VIEWER_EACH = 4
"""In one game out of this many, every seat's and a spectator's view is checked at every
step; in the others one viewer a step, taking turns."""
TILE_FIELDS = re.compile(rb'"(?:tile|tiles|discarded)":(-?\d+|\[[-\d,]*\])')
"""JSON fields whose numbers are tile ids, wherever they are in a view or an event."""


def tile_numbers(data: dict) -> set[int]:
    """Every tile id in a JSON document (hand tiles are named by "id" inside "hand")."""
    fields = TILE_FIELDS.findall(orjson.dumps(data))
    found = {int(n) for field in fields for n in re.findall(rb"-?\d+", field)}
    return found | {t["id"] for t in data.get("hand") or []}


def secret_from(state: SkyIslandsState, viewer) -> set[int]:
    others = [m.hand for s, m in enumerate(state.merchants) if s != viewer]
    return {t for hand in others for t in hand} | set(state.pile) | set(state.returned)


class StepChecks:
    def __init__(self, every_move: bool, every_viewer: bool, seed: int) -> None:
        self.every_move = every_move
        self.every_viewer = every_viewer
        self.rng = Rng.from_seed(seed)
        self.steps = 0

    def __call__(self, state: SkyIslandsState, seat: int, move) -> None:
        self.steps += 1
        check_conserved(state)
        before = self.check_json(state)
        legal = self.check_prompts(state, seat, move)
        tried = legal if self.every_move else self.rng.sample(legal, SAMPLED_MOVES)
        for other in tried:
            game.apply(state, seat, other)
        self.check_hidden(state, seat, move)
        assert game.dump_state(state) == before, "apply changed the state it was given"

    @staticmethod
    def check_json(state: SkyIslandsState) -> str:
        dumped = game.dump_state(state)
        assert game.load_state(dumped) == state
        assert game.dump_state(game.load_state(dumped)) == dumped
        return dumped

    @staticmethod
    def check_prompts(state: SkyIslandsState, seat: int, move) -> list:
        [prompt] = game.prompts(state)
        assert prompt.seat == seat == state.current
        assert all(game.legal_moves(state, s) == [] for s in range(state.players) if s != seat)
        legal = game.legal_moves(state, seat)
        assert move in legal and len(set(legal)) == len(legal)
        if prompt.kind in ("build", "dispose"):  # never a do-nothing-only prompt
            assert len(legal) >= 2
        return legal

    def check_hidden(self, state: SkyIslandsState, seat: int, move) -> None:
        outcome = game.apply(state, seat, move)
        viewers = [None, *range(state.players)]
        if not self.every_viewer:  # one viewer a step, in turn
            viewers = [viewers[self.steps % len(viewers)]]
        for viewer in viewers:
            view = game.view(state, viewer).model_dump(mode="json")
            own = None if viewer is None else state.merchants[viewer].hand
            assert (view["hand"] and [t["id"] for t in view["hand"]]) == (own and list(own))
            assert not secret_from(state, viewer) & tile_numbers(view), viewer
            secret_after = secret_from(outcome.state, viewer)
            for event in outcome.events:
                if event.kind != "hand_revealed":  # the one thing the rules show to all
                    assert not secret_after & tile_numbers(event.visible_to(viewer))


def check_end(record) -> None:
    state = record.state
    assert state.over and game.prompts(state) == []
    assert all(m.turns_taken == 10 for m in state.merchants)
    assert state.pile == [] and all(m.hand == [] for m in state.merchants)
    placed_or_discarded = len(state.board) - 4 + len(state.discarded)
    assert placed_or_discarded == 10 * state.players
    for standing in record.result.standings:
        assert standing.score == sum(standing.breakdown.values())
    assert record.result.winners


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_keep_the_rules_and_hide_hands(players):
    for round_ in range(GAMES // 3 + (players - 2 < GAMES % 3)):
        seed = 1000 * players + round_
        checks = StepChecks(
            every_move=round_ % EVERY_MOVE_TRIED_EACH == 0,
            every_viewer=round_ % EVERY_VIEWER_EACH == 0,
            seed=seed,
        )
        bots = [RandomBot(seed * 10 + s) for s in range(players)]
        record = play_match(game, bots, seed=seed, on_step=checks)
        check_end(record)
        assert checks.steps == len(record.moves)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_same_seed_and_moves_rebuild_the_identical_state(players):
    record = play_match(game, [RandomBot(s) for s in range(players)], seed=77)
    replayed = game.setup(None, players, 77)
    for seat, move in record.moves:
        replayed = game.apply(replayed, seat, game.dump_move(move)).state
    assert game.dump_state(replayed) == game.dump_state(record.state)
    again = play_match(game, [RandomBot(s) for s in range(players)], seed=77)
    assert game.dump_state(again.state) == game.dump_state(record.state)


MANY_GAMES = int(os.environ.get("SKYPORT_MANY_GAMES", "2000"))


def lean_checks(state: SkyIslandsState, seat: int, move) -> None:
    """The cheap invariants, for the thousands of games: conservation and exact JSON."""
    check_conserved(state)
    StepChecks.check_json(state)


def test_thousands_of_random_games_conserve_everything_and_end_properly():
    """SKYPORT_MANY_GAMES games (default 2,000) over 2, 3 and 4 players."""
    for round_ in range(MANY_GAMES):
        players, seed = 2 + round_ % 3, 500_000 + round_
        bots = [RandomBot(seed * 10 + s) for s in range(players)]
        check_end(play_match(game, bots, seed=seed, on_step=lean_checks))
