"""The round: Event phase, Upkeep phase, and the Player Action phase's turn order."""

from __future__ import annotations

from typing import cast

from . import solo
from .components import BOARD, ERAS, TWO_PLAYER, DiceColour, InfluenceColour
from .resolver import current_era, push, refill_market, resolve, side_spaces
from .state import ROUNDS, TURNS_PER_ROUND, Die, SkyLanternsState

DICE_DRAWN = {1: TWO_PLAYER.dice_drawn, 2: TWO_PLAYER.dice_drawn, 3: 8, 4: 10}


def clockwise_from(state: SkyLanternsState, seat: int) -> list[int]:
    return [(seat + k) % state.players for k in range(state.players)]


def carry_on(state: SkyLanternsState) -> None:
    """Resolve what is pending, then move the game on until someone must decide."""
    while True:
        resolve(state)
        if state.stack:
            return
        if state.step == "event":
            if state.rival is not None and BOARD.round_track[state.round - 1].event == "income":
                solo.after_income(state)
            upkeep(state)
            return
        if state.step != "end":
            return
        end_turn(state)


def end_turn(state: SkyLanternsState) -> None:
    state.held = None
    refill_market(state)
    state.turn += 1
    # Solo: the virtual opponent takes a turn after each of the player's.
    turns = TURNS_PER_ROUND * (state.players + (state.rival is not None))
    if state.turn < turns:
        state.step = "contract"
        if solo.is_rival_turn(state):
            solo.rival_turn(state)
        return
    state.round += 1
    if state.round > ROUNDS:
        state.round = ROUNDS
        state.step = "over"
        state.over = True
        if state.rival is not None:
            solo.final_scoring(state)
        return
    event_phase(state)


def event_phase(state: SkyLanternsState) -> None:
    """Rounds 2, 4, 6: each lantern of the active Era's colour pays the Era's bonus.
    Rounds 3 and 5: everyone collects all their income. Resolved from the first player."""
    state.step = "event"
    event = BOARD.round_track[state.round - 1].event
    for seat in reversed(clockwise_from(state, state.first_player)):
        player = state.seats[seat]
        if event == "lantern_bonus":
            era = current_era(state)
            count = player.lanterns(ERAS[era].colour)
            for _ in range(count):
                push(state, f"era:{era}:bonus", seat)
        elif event == "income":
            for key in reversed(player.incomes):
                push(state, key, seat)
            for key in reversed(influence_incomes(state, seat)):
                push(state, key, seat)


def influence_incomes(state: SkyLanternsState, seat: int) -> list[str]:
    """2 players: "you gain all the income rewards on your side separated by the 3 dice" —
    seat 0 the spaces before each die, seat 1 those after it."""
    keys = []
    for colour, at in state.influence.items():
        length = len(TWO_PLAYER.influence[cast(InfluenceColour, colour)])
        mine = range(at) if seat == 0 else range(at + 1, length)
        keys += [f"influence:{colour}:{i}:income" for i in mine]
    return keys


def upkeep(state: SkyLanternsState) -> None:
    """Return the Main Board's dice (and in rounds 3 and 5 the player boards' dice) to the
    bag, draw 10 dice (8 with 3 players, 6 with 2), roll them and sort them onto the dice
    spaces."""
    for space, value in state.spaces.items():
        if value is not None:
            state.bag[space.split("-")[0]] += 1
    if state.round in (3, 5):
        if state.rival is not None:
            solo.upkeep(state)
        for player in state.seats:
            for slots in (player.core, player.compensation):
                for i, die in enumerate(slots):
                    if die is not None:
                        state.bag[die.colour] += 1
                        slots[i] = None
    _roll_onto_board(state)
    state.order = clockwise_from(state, state.first_player)
    state.turn = 0
    state.step = "contract"


def _roll_onto_board(state: SkyLanternsState) -> None:
    pool = [colour for colour, count in state.bag.items() for _ in range(count)]
    drawn = state.rng.sample(pool, min(DICE_DRAWN[state.players], len(pool)))
    dice = [Die(colour=cast(DiceColour, colour), value=state.rng.below(6) + 1) for colour in drawn]
    state.spaces = {space.id: None for space in side_spaces(state)}
    for colour in state.bag:
        values = sorted(d.value for d in dice if d.colour == colour)
        state.bag[colour] -= len(values)
        for position, value in enumerate(values, start=1):
            state.spaces[f"{colour}-{position}"] = value
