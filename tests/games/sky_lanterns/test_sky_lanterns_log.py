"""The log as data: each `move_made` event carries the move itself (`move`, as the
legal-moves listing gives it) beside its words; what a seat may not know stays in its
owner's events only. (The solo opponent's steps: test_sky_lanterns_opponent_log.py.)"""

from __future__ import annotations

import random
import re
from typing import Any

import orjson
import pytest
from sky_lanterns_kit import play

from services.ai import RandomBot, play_match
from services.engine import Move, copy_state
from services.games.sky_lanterns import game, moves
from services.games.sky_lanterns.resolver import DRAW
from services.games.sky_lanterns.state import Frame, SkyLanternsState

COMPONENT = re.compile(r"\b([STU]\d\d)\b")
"""A Starting or Teapot card, or an Upgrade Tile, named anywhere in a JSON text."""


def made(state: SkyLanternsState, seat: int, move: dict) -> tuple[SkyLanternsState, dict]:
    """Apply `move`; the state after it, and its `move_made` event as each reader sees it
    (key None: a spectator)."""
    outcome = game.apply(state, seat, move)
    [event] = [e for e in outcome.events if e.kind == "move_made"]
    readers = [None, *range(state.players)]
    return outcome.state, {reader: event.visible_to(reader) for reader in readers}


# --- the move beside its words -----------------------------------------------------------


def test_every_offered_move_is_logged_as_the_listing_gives_it_for_everyone():
    state = game.setup({"first_player": 0}, 3, 5)
    listing = [game.dump_move(m) for m in game.legal_moves(state, 0)]
    assert {m["kind"] for m in listing} >= {"play_contract_card", "era_contract", "decline"}
    for move in listing:
        _, seen = made(state, 0, move)
        for reader, event in seen.items():
            assert event["move"] == move, reader
            assert event["text"] == game.describe(game.parse_move(move))


def test_a_move_sent_without_its_defaults_is_logged_with_them():
    state = play(game.setup({"first_player": 0}, 2, 5), 0, {"kind": "decline"})
    space = next(m.space for m in game.legal_moves(state, 0) if isinstance(m, moves.TakeDie))
    _, seen = made(state, 0, {"kind": "take_die", "space": space})
    assert seen[1]["move"] == {"kind": "take_die", "space": space, "forfeit": False}


def test_arranged_upgrade_tiles_are_public_in_the_log():
    state = game.setup({"upgrade_tile_arrangement": True}, 3, 4)
    order = tuple(sorted(state.seats[1].upgrades))
    _, seen = made(state, 1, {"kind": "arrange_tiles", "tiles": order})
    for event in seen.values():
        assert event["move"] == {"kind": "arrange_tiles", "tiles": list(order)}


# --- what stays hidden ----------------------------------------------------------------------


def test_a_draft_pick_is_in_the_drafting_seats_events_only():
    state = game.setup({"starting_card_draft": True}, 3, 4)
    card = state.draft_packets[1][0]
    _, seen = made(state, 1, {"kind": "draft_card", "card": card})
    assert seen[1] == {
        "kind": "move_made",
        "seat": 1,
        "text": "Keep a Starting card",
        "move": {"kind": "draft_card", "card": card},
        "card": card,
    }
    for reader in (None, 0, 2):
        assert seen[reader] == {"kind": "move_made", "seat": 1, "text": "Keep a Starting card"}


def test_a_market_card_drawn_into_a_hand_is_in_the_drawers_structured_move_only():
    """The others' hands are hidden whole (RULES-NOTES "Views and bots"), the market card
    a seat drew among them: the structured move does not name it to the others."""
    state = game.setup({"teapot_market": True, "first_player": 0}, 2, 3)
    state.stack.append(Frame(key=DRAW, seat=0))  # a Teapot Card Draw
    card = state.market[1]
    after, seen = made(state, 0, {"kind": "draw_card", "card": card})
    assert card in after.seats[0].hand
    assert seen[0]["move"] == {"kind": "draw_card", "card": card}
    assert "move" not in seen[1] and "move" not in seen[None]
    _, seen = made(state, 0, {"kind": "draw_card"})  # the deck's top card, unnamed
    assert seen[1]["move"] == seen[None]["move"] == {"kind": "draw_card", "card": None}


def test_a_card_played_or_developed_from_a_hidden_hand_is_public_once_made():
    state = game.setup({"first_player": 0}, 2, 5)
    card = state.seats[0].hand[0]
    after, seen = made(state, 0, {"kind": "play_contract_card", "card": card})
    assert card in after.discard + after.removed
    assert seen[1]["move"] == seen[None]["move"] == {"kind": "play_contract_card", "card": card}


def hidden_cards(state: SkyLanternsState, viewer: int | None) -> set[str]:
    """What `viewer` may not know: the deck, the Starting cards left out, other hands and
    drafting packets and picks, every face-down Upgrade Tile (the opponent's too)."""
    hidden = set(state.deck) | set(state.unused_starting)
    for seat, player in enumerate(state.seats):
        if seat != viewer:
            hidden |= set(player.hand)
            if state.draft_packets:
                hidden |= set(state.draft_packets[seat])
                hidden |= {state.draft_picks[seat]} - {None}
        if not state.tiles_face_up:
            hidden |= {t for t in player.upgrades if t}
    if state.rival is not None:
        hidden |= {t for t in state.rival.upgrades if t}
    return hidden


def shown_by(move: Move) -> set[str]:
    """A card the move itself shows face up, whatever happens to it later in the move (a
    contract card is discarded, and the same move's draws may shuffle it into the deck)."""
    return {move.card} if isinstance(move, moves.PlayContractCard) else set()


class LogChecks:
    """Before each move of a random game: apply it, and read its events as every reader."""

    def __init__(self) -> None:
        self.moves = 0
        self.kept_from_others = 0

    def __call__(self, state: SkyLanternsState, seat: int, move: Move) -> None:
        outcome = game.apply(state, seat, move)
        [event] = [e for e in outcome.events if e.kind == "move_made"]
        assert event.seat == seat and event.visible_to(seat)["move"] == game.dump_move(move)
        self.moves += 1
        for reader in [None, *range(state.players)]:
            if reader == seat:
                continue
            seen = event.visible_to(reader)
            if isinstance(move, moves.DraftCard) or (
                isinstance(move, moves.DrawCard) and move.card is not None
            ):
                assert "move" not in seen and "card" not in seen
                self.kept_from_others += 1
            else:
                assert seen["move"] == game.dump_move(move)
            secret = hidden_cards(outcome.state, reader) - shown_by(move)
            for each in outcome.events:
                # Every field but `text`, whose words for a market draw name the card.
                data = {k: v for k, v in each.visible_to(reader).items() if k != "text"}
                named = set(COMPONENT.findall(orjson.dumps(data).decode()))
                assert not named & secret, (reader, each)


ALL_VARIANTS = {
    "starting_card_draft": True,
    "upgrade_tile_arrangement": True,
    "teapot_market": True,
    "unique_player_boards": True,
    "unique_project_cards": True,
}
GAMES = [
    (1, {"scenario": "dead-mine", "teapot_market": True}),
    (1, {"scenario": "burning-hut", "challenge": True}),
    (2, {"starting_card_draft": True, "teapot_market": True}),
    (3, {}),
    (3, ALL_VARIANTS),
    (4, {"starting_card_draft": True, "teapot_market": True}),
]


@pytest.mark.parametrize("players,options", GAMES)
def test_random_games_log_every_move_and_show_nobody_a_hidden_card(players, options):
    checks = LogChecks()
    for seed in range(3):
        bots = [RandomBot(seed * 10 + s) for s in range(players)]
        record = play_match(game, bots, seed=seed, config=options, on_step=checks)
        assert record.state.over
    assert checks.moves > 100 * players
    hiding = options.get("starting_card_draft") or options.get("teapot_market")
    assert bool(checks.kept_from_others) == bool(hiding)


# --- round_began ------------------------------------------------------------------------------


def blue_lantern_table() -> SkyLanternsState:
    """3 players with the Teapot market, E1A first (round 2: each blue lantern pays 2 VP
    and 1 card) and a blue lantern each: round 2's Event phase stops for every draw."""
    state = copy_state(game.setup({"first_player": 0, "teapot_market": True}, 3, 5))
    state.eras = ["E1A", "E2A", "E3A"]
    for player in state.seats:
        player.lantern_tokens["blue"] = 1
    return state


def random_move(state: SkyLanternsState, pick: random.Random) -> tuple[int, Move]:
    seat = game.prompts(state)[0].seat
    return seat, pick.choice([m for m in game.legal_moves(state, seat) if m.kind != "coal_trade"])


def test_round_began_is_told_once_a_round_with_the_dice_rolled_for_it():
    """ "Event Phase, Upkeep Phase, Player Action Phase": a round's dice are rolled in its
    Upkeep, after its Event phase. When the Event phase stops for a choice, the round is
    told once the choices are made and its dice are on the board, not before (it used to
    be told with the last round's two leftover dice, and the new ones never)."""
    state, pick = blue_lantern_table(), random.Random(1)
    told: list[tuple[Any, SkyLanternsState]] = []
    paused = False
    while game.prompts(state):
        outcome = game.apply(state, *random_move(state, pick))
        state = outcome.state
        paused |= state.step == "event"
        told += [(e, state) for e in outcome.events if e.kind == "round_began"]
    assert paused, "the table no longer stops in an Event phase: the test proves nothing"
    assert [event.round for event, _ in told] == [2, 3, 4, 5, 6]
    for event, after in told:
        assert after.step == "contract" and after.turn == 0
        assert event.dice == {s: v for s, v in after.spaces.items() if v is not None}
        assert len(event.dice) == 8  # "draw 8 dice" with 3 players
        for reader in (None, 0, 1, 2):  # public
            assert event.visible_to(reader)["dice"] == event.dice
