"""Building Valley of Sky Lanterns positions for tests, and playing moves on them."""

from __future__ import annotations

from typing import Any

from services.engine import copy_state
from services.games.sky_lanterns import game
from services.games.sky_lanterns.state import Die, SkyLanternsState


def new_game(players: int = 4, seed: int = 1, first_player: int = 0) -> SkyLanternsState:
    return game.setup({"first_player": first_player}, players, seed)


def table(
    players: int = 4,
    dice: dict[str, int] | None = None,
    eras: tuple[str, str, str] = ("E1A", "E2A", "E3A"),
) -> SkyLanternsState:
    """A fresh game with seat 0 first, known Era cards, empty hands, and (if given) exactly
    these dice on the Main Board."""
    state = copy_state(new_game(players))
    state.eras = list(eras)
    for player in state.seats:
        state.deck += player.hand
        player.hand = []
    if dice is not None:
        for space, value in state.spaces.items():
            if value is not None:
                state.bag[space.split("-")[0]] += 1
        state.spaces = {space: None for space in state.spaces}
        for space, value in dice.items():
            state.bag[space.split("-")[0]] -= 1
            state.spaces[space] = value
    return state


def give(state: SkyLanternsState, seat: int, **amounts: int) -> None:
    """Set resources exactly; Coins and Camphor come from (or go back to) the supply."""
    player = state.seats[seat]
    for resource, amount in amounts.items():
        if resource in player.basics:
            player.basics[resource] = amount
        elif resource == "vp":
            player.vp = amount
        else:
            supply = f"{resource}_supply"
            setattr(state, supply, getattr(state, supply) + getattr(player, resource) - amount)
            setattr(player, resource, amount)


def hand(state: SkyLanternsState, seat: int, *cards: str) -> None:
    """Put these cards (taken from the deck) into a seat's hand."""
    for card in cards:
        state.deck.remove(card)
        state.seats[seat].hand.append(card)


def hold(state: SkyLanternsState, colour: str, value: int) -> None:
    """Jump to Step 3 holding a die (taken out of the bag)."""
    state.bag[colour] -= 1
    state.held = Die(colour=colour, value=value)
    state.step = "place"


def play(state: SkyLanternsState, seat: int, *moves: dict[str, Any]) -> SkyLanternsState:
    for move in moves:
        state = game.apply(state, seat, move).state
    return state


def asked(state: SkyLanternsState) -> tuple[int, str]:
    [prompt] = game.prompts(state)
    return prompt.seat, prompt.kind


def legal(state: SkyLanternsState, seat: int) -> list[dict[str, Any]]:
    return [m.model_dump() for m in game.legal_moves(state, seat)]


def dice_count(state: SkyLanternsState) -> int:
    on_board = sum(v is not None for v in state.spaces.values())
    placed = sum(d is not None for p in state.seats for d in [*p.core, *p.compensation])
    return sum(state.bag.values()) + on_board + placed + (state.held is not None)
