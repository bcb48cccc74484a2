"""Thousands of random solo and two-player games (issue 12): every step is checked with the
cheap invariants of the 1-2 player side and of the virtual opponent, every end with how
the game was scored and decided.

SKYPORT_MANY_GAMES sets how many of each (default 2,000 solo games, a quarter per scenario
with and without Challenge Mode, and 2,000 two-player games); solo games with every variant
on are a twentieth as many.
"""

from __future__ import annotations

import os

import pytest
from sky_lanterns_kit import dice_count

from services.ai import MatchRecord, RandomBot, play_match
from services.games.sky_lanterns import game, solo
from services.games.sky_lanterns.components import INFLUENCE_COLOURS, SOLO_CARDS, TWO_PLAYER
from services.games.sky_lanterns.effects import LANTERN_COLOURS
from services.games.sky_lanterns.scoring import breakdowns, solo_outcome
from services.games.sky_lanterns.state import (
    CAMPHOR_IN_SUPPLY,
    COINS_IN_SUPPLY,
    ROUNDS,
    SkyLanternsState,
)

MANY_GAMES = int(os.environ.get("SKYPORT_MANY_GAMES", "2000"))
CHUNKS = 4
DICE_IN_PLAY = 13
"""18 dice less the 5 that a 1-2 player game removes; 3 of them lie on the influence tracks."""
TILES_IN_PLAY = 9
"""16 Upgrade Tiles less the 7 with three or four dots."""
SPACES = {space.id for space in TWO_PLAYER.spaces}


def check_side(state: SkyLanternsState, tiles: list[str | None]) -> None:
    """What holds on the 1-2 player side at every step, with or without the opponent."""
    rival = state.rival
    rival_dice = len(rival.dice) if rival else 0
    assert dice_count(state) + rival_dice + len(INFLUENCE_COLOURS) == DICE_IN_PLAY
    assert set(state.influence) == set(INFLUENCE_COLOURS)
    assert all(0 <= at <= 6 for at in state.influence.values())
    assert set(state.spaces) == SPACES
    coins = state.coins_supply + sum(p.coins for p in state.seats) + (rival.coins if rival else 0)
    camphor = state.camphor_supply + sum(p.camphor for p in state.seats)
    camphor += rival.camphor if rival else 0
    assert (coins, camphor) == (COINS_IN_SUPPLY, CAMPHOR_IN_SUPPLY)
    assert all(0 <= n <= 10 for p in state.seats for n in p.basics.values())
    in_play = [t for t in tiles if t is not None] + list(state.covered.values())
    assert len(in_play) == len(set(in_play)) == TILES_IN_PLAY
    assert len(state.removed_tiles) == 16 - TILES_IN_PLAY
    assert game.load_state(game.dump_state(state)) == state


def income_events_done(state: SkyLanternsState) -> int:
    """Income Events (rounds 3 and 5) resolved so far; while one resolves, the step is
    "event"."""
    return sum(state.round > r or (state.round == r and state.step != "event") for r in (3, 5))


def check_solo_step(state: SkyLanternsState, seat: int, move: object) -> None:
    rival = state.rival
    assert rival is not None and rival.lost is None and not state.over
    check_side(state, [*state.seats[0].upgrades, *rival.upgrades])
    assert seat == 0 and state.first_player == 0  # "The player is always the First Player"
    assert sum(t is not None for t in rival.upgrades) == 4 - income_events_done(state)
    assert sorted(rival.deck + rival.revealed) == sorted(SOLO_CARDS)
    # One card revealed per die taken; both go back in the Upkeep of rounds 3 and 5.
    assert len(rival.revealed) == len(rival.dice) <= 4
    assert rival.chosen == [d.colour for d in rival.dice if d.colour in INFLUENCE_COLOURS]
    assert all(0 <= n <= 10 for n in rival.basics.values())
    if rival.scenario == "dead-mine":
        assert set(rival.basics) == {"coal", "indigo"} and min(rival.basics.values()) < 10
        assert rival.blockades == [] and rival.coins == rival.camphor == 0
        assert rival.vp["die_actions"] % 6 == 0
    else:
        assert set(rival.basics) == {"coal", "indigo", "tea", "yam"}
        assert max(rival.basics.values()) < 10
        assert sorted(set(rival.blockades)) == sorted(rival.blockades)
        assert set(rival.blockades) <= {"tea", "yam"} and rival.vp["die_actions"] == 0


def check_solo_end(record: MatchRecord, scenario: str, challenge: bool) -> None:
    state = record.state
    rival = state.rival
    assert rival is not None and (rival.scenario, rival.challenge) == (scenario, challenge)
    assert state.over and game.prompts(state) == []
    won, why, mine, theirs = solo_outcome(state)
    if rival.lost is None:
        assert state.round == ROUNDS and len(rival.dice) == 4
        assert rival.vp["final"] == solo.scenario_vp(rival)
    else:
        assert why == f"You lost: {rival.lost}." and why.endswith(f"in round {state.round}.")
        assert rival.vp["final"] == 0
        full = [n == 10 for n in rival.basics.values()]
        assert all(full) if scenario == "dead-mine" else any(full)
    assert won == (rival.lost is None and sum(mine.values()) >= sum(theirs.values()))
    result = record.result
    assert result.winners == ([0] if won else []) and result.summary == why
    assert result.standings[0].breakdown == mine and result.standings[0].rank == (1 if won else 2)
    assert result.opponent is not None and result.opponent.breakdown == theirs
    for colour in LANTERN_COLOURS:
        count = state.seats[0].lanterns(colour)
        expected = (0, 5) if count < 4 else (2, 2) if count == 4 else (5, 0)
        assert (mine[f"{colour}_lanterns"], theirs[f"{colour}_lanterns"]) == expected


@pytest.mark.timeout(600)
@pytest.mark.parametrize("challenge", [False, True])
@pytest.mark.parametrize("scenario", ["dead-mine", "burning-hut"])
def test_thousands_of_random_solo_games_keep_the_rules(scenario, challenge):
    options = {"scenario": scenario, "challenge": challenge}
    for round_ in range(MANY_GAMES // 4):
        seed = 700_000 + round_
        record = play_match(game, [RandomBot(seed)], seed, options, on_step=check_solo_step)
        check_solo_end(record, scenario, challenge)


EVERY_VARIANT = {
    "starting_card_draft": True,
    "upgrade_tile_arrangement": True,
    "teapot_market": True,
    "unique_player_boards": True,
    "unique_project_cards": True,
}


@pytest.mark.parametrize("scenario", ["dead-mine", "burning-hut"])
def test_random_solo_games_with_every_variant_keep_the_rules(scenario):
    """A twentieth as many, with the variants: the Teapot market makes the die-4 draw a
    choice of the player's."""
    options = {**EVERY_VARIANT, "scenario": scenario}
    for round_ in range(MANY_GAMES // 20):
        seed = 750_000 + round_
        record = play_match(game, [RandomBot(seed)], seed, options, on_step=check_solo_step)
        check_solo_end(record, scenario, False)


def check_two_player_step(state: SkyLanternsState, seat: int, move: object) -> None:
    assert state.rival is None and state.players == 2
    check_side(state, [t for p in state.seats for t in p.upgrades])


def check_two_player_end(record: MatchRecord) -> None:
    state = record.state
    assert state.over and game.prompts(state) == [] and state.round == ROUNDS
    parts = breakdowns(state)
    for colour in LANTERN_COLOURS:
        counts = [p.lanterns(colour) for p in state.seats]
        points = [part[f"{colour}_lanterns"] for part in parts]
        if max(counts) == 0:
            assert points == [0, 0]
        elif counts[0] == counts[1]:
            assert points == [2, 2]
        else:
            assert points == [5 if c == max(counts) else 0 for c in counts]
    standings = record.result.standings
    assert [s.breakdown for s in sorted(standings, key=lambda s: s.seat)] == parts
    assert all(s.score == sum(s.breakdown.values()) for s in standings)
    [winner] = record.result.winners
    assert max(s.score for s in standings) == next(s.score for s in standings if s.seat == winner)


@pytest.mark.timeout(600)
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_thousands_of_random_two_player_games_keep_the_rules(chunk):
    for round_ in range(chunk, MANY_GAMES, CHUNKS):
        seed = 800_000 + round_
        bots = [RandomBot(seed * 10), RandomBot(seed * 10 + 1)]
        record = play_match(game, bots, seed, on_step=check_two_player_step)
        check_two_player_end(record)
