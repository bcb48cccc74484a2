"""Catching up from the log gives every reader exactly what it was shown live, and no
more: whole stretches of games are played over REST, then each seat's token and a
spectator read the log back (from the start and from the middle), and every entry is
compared with the mover's own live answer and with the engine's redaction of the same
moves replayed from the seed (`Event.visible_to`)."""

from __future__ import annotations

import random

import pytest

from services.engine import Game, get_game

SEED = 23


def play(api, game: Game, players: int, options: dict, moves: int) -> tuple[str, dict, list]:
    """Plays up to `moves` moves; returns the id, the tokens by seat, and per version
    (seat, the move as posted, the events the mover was answered)."""
    created = api.create(game.id, players, options=options, seed=SEED)
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    rng = random.Random(SEED)
    played = []
    for _ in range(moves):
        document = api.game(created["id"])
        if document["status"] != "active":
            break
        seat = document["turn"][0]
        move = rng.choice(api.legal(created["id"], tokens[seat]))
        move.pop("label")
        answer = api.move(created["id"], tokens[seat], move)
        assert answer.status_code == 200, answer.text
        played.append((seat, move, answer.json()["events"]))
    return created["id"], tokens, played


def engine_events(game: Game, players: int, options: dict, played: list) -> list:
    """Each version's events as the engine made them, replayed from the seed."""
    state = game.setup(options, players, SEED)
    made = []
    for seat, move, _ in played:
        outcome = game.apply(state, seat, game.parse_move(move))
        made.append(outcome.events)
        state = outcome.state
    return made


@pytest.mark.parametrize(
    ("game_id", "players", "options", "moves"),
    [("hidden-numbers", 3, {"rounds": 3}, 40), ("dominion", 2, {}, 60), ("sky-islands", 3, {}, 30)],
)
def test_each_reader_catches_up_on_exactly_what_it_saw_live(
    api, games, game_id, players, options, moves
):
    game = games.get(game_id) or get_game(game_id)
    game_id_played, tokens, played = play(api, game, players, options, moves)
    truth = engine_events(game, players, options, played)
    readers = [None, *range(players)]
    for reader in readers:
        token = tokens[reader] if reader is not None else None
        page = api.events(game_id_played, token, since=0)
        entries = page["entries"]
        assert [entry["version"] for entry in entries] == list(range(1, len(played) + 1))
        for entry, (seat, move, live), events in zip(entries, played, truth, strict=True):
            assert entry["seat"] == seat
            assert entry["events"] == [event.visible_to(reader) for event in events]
            if reader == seat:
                assert entry["events"] == live, "the mover reads back its own answer"
                assert entry["move"] == move
            else:
                assert entry["move"] is None, "only the mover sees its move"
        middle = len(played) // 2
        assert api.events(game_id_played, token, since=middle)["entries"] == entries[middle:]
