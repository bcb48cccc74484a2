"""The move log's compact encoding gives every reader back exactly the events it was
shown when the move committed, and nobody more than the engine lets them see.

Whole random games of every game are played through the engine; each move's events go
through the service's redaction (`event_views`), into a log entry, through the stored
text and back. The ground truth is the engine's own `Event.visible_to(seat)` and
`Event.full()`. SKYPORT_LOG_CODEC_GAMES sets the games per game and player count.
"""

from __future__ import annotations

import hashlib
import os
import random
from pathlib import Path

import orjson
import pytest
from hidden_numbers import HIDDEN_NUMBERS, Drew, Played

from services.ai import make_bot
from services.engine import Event, Game, all_games
from services.gameplay.visibility import event_views
from services.store import EventViews, GameStatus, LogEntry, log_codec
from services.store.webhooks_owed import owed_member

GAMES = int(os.environ.get("SKYPORT_LOG_CODEC_GAMES", "2"))
AT = "2026-12-01T03:45:43.123+00:00"


def played_moves(game: Game, players: int, seed: int, limit: int = 400):
    """(seat, move, events) of a random game, up to `limit` moves."""
    state = game.setup({}, players, seed)
    bots = [make_bot("random", seed * 10 + seat) for seat in range(players)]
    for _ in range(limit):
        prompts = game.prompts(state)
        if not prompts:
            return
        seat = random.Random(seed).choice(prompts).seat
        move = bots[seat].choose(game, state, seat)
        outcome = game.apply(state, seat, move)
        yield seat, move, outcome.events
        state = outcome.state


def entry_of(game: Game, version: int, seat: int, move, events: list[Event], players: int):
    return LogEntry(
        version=version,
        seat=seat,
        action="move",
        move=game.dump_move(move),
        events=event_views(events, players),
        status=GameStatus.ACTIVE,
        at=AT,
    )


def dumped(value) -> bytes:
    return orjson.dumps(value)


CASES = [
    (game, players)
    for game in [*all_games(), HIDDEN_NUMBERS]
    for players in sorted({game.min_players, min(game.max_players, 4)})
]


@pytest.mark.parametrize(("game", "players"), CASES, ids=[f"{g.id}-{p}p" for g, p in CASES])
def test_every_reader_reads_back_what_the_engine_showed_it(game: Game, players: int):
    for seed in range(GAMES):
        for version, (seat, move, events) in enumerate(played_moves(game, players, seed), start=1):
            entry = entry_of(game, version, seat, move, events, players)
            stored = entry.to_json()
            assert stored[0] in "[^", "a real game's entry is kept compact"
            back = LogEntry.from_json(stored)
            assert (back.version, back.seat, back.action, back.move, back.status, back.at) == (
                version,
                seat,
                "move",
                game.dump_move(move),
                GameStatus.ACTIVE,
                AT,
            )
            assert dumped(back.events.full) == dumped([event.full() for event in events])
            # The sweep knows a commit that owes webhooks landed by this print of its entry.
            assert owed_member("g", back) == owed_member("g", entry)
            for reader in [None, *range(players)]:
                shown = [event.visible_to(reader) for event in events]
                assert dumped(back.events.for_seat(reader)) == dumped(shown), (reader, events)


def test_a_drawn_card_reaches_its_owner_and_nobody_else():
    events = [
        Drew(seat=1, private_to=[1], card="c07"),
        Played(seat=1, card="c03"),
    ]
    entry = LogEntry(
        version=3,
        seat=1,
        action="move",
        move={"kind": "play", "card": "c03"},
        events=event_views(events, 3),
        status=GameStatus.ACTIVE,
        at=AT,
    )
    back = LogEntry.from_json(entry.to_json())
    assert back.events.for_seat(1)[0] == {"kind": "drew", "seat": 1, "card": "c07"}
    for reader in (None, 0, 2):
        assert "c07" not in orjson.dumps(back.events.for_seat(reader)).decode()
        assert back.events.for_seat(reader)[1]["card"] == "c03"
    assert back.events.full[0]["private_to"] == [1]


def test_views_that_do_not_follow_the_redaction_rule_are_kept_verbatim():
    # A seat's view that is not "the full event without private_to": no compact form
    # can derive it, so the entry keeps every view as given.
    views = EventViews(
        full=[{"kind": "x", "seat": 0, "private_to": [0], "secret": 5}],
        spectator=[{"kind": "x", "seat": 0}],
        seats={"0": [{"kind": "x", "seat": 0, "secret": "five"}]},
    )
    entry = LogEntry(1, 0, "move", {"kind": "x"}, views, GameStatus.ACTIVE, AT)
    stored = entry.to_json()
    assert stored.startswith("{")
    assert LogEntry.from_json(stored) == entry


def test_timestamps_and_actions_come_back_as_given():
    views = EventViews(
        full=[{"kind": "resigned", "seat": 1, "private_to": []}],
        spectator=[{"kind": "resigned", "seat": 1}],
    )
    for at in (AT, "2026-12-01T03:45:43.123456+00:00", "not a time"):
        resign = LogEntry(9, 1, "resign", None, views, GameStatus.SCORING, at)
        assert LogEntry.from_json(resign.to_json()) == resign


def test_an_entry_packed_without_a_dictionary_as_older_logs_hold_still_reads():
    drew = {"kind": "drew", "seat": 0, "private_to": [0], "card": "c09"}
    compact = [2, 0, {"kind": "play", "card": "c01"}, [drew], "active", AT, [[0, "card"]]]
    back = LogEntry.from_json(log_codec.mark(None) + log_codec.pack(orjson.dumps(compact), None))
    assert (back.version, back.seat, back.action, back.at) == (2, 0, "move", AT)
    assert back.events.full == [drew]
    assert back.events.for_seat(1) == [{"kind": "drew", "seat": 0}]
    assert back.events.for_seat(0) == [{"kind": "drew", "seat": 0, "card": "c09"}]


def test_a_released_dictionary_never_changes():
    """Stored entries name the dictionary they were packed against: changing its file
    would make them unreadable. A better dictionary is a new file."""
    path = Path(log_codec.__file__).with_name("log_dictionary_1.json")
    assert hashlib.sha256(path.read_bytes()).hexdigest() == (
        "8cf312e83d28e97ff7e3c92d8485bdb495b4ac1500538f6190d752d25a0f34b0"
    )


def test_an_entry_in_the_older_verbose_form_still_reads():
    old = {
        "version": 2,
        "seat": 0,
        "action": "move",
        "move": {"kind": "play", "card": "c01"},
        "events": {
            "full": [{"kind": "drew", "seat": 0, "private_to": [0], "card": "c09"}],
            "spectator": [{"kind": "drew", "seat": 0}],
            "seats": {"0": [{"kind": "drew", "seat": 0, "card": "c09"}]},
        },
        "status": "active",
        "at": AT,
    }
    back = LogEntry.from_json(orjson.dumps(old).decode())
    assert back.events.for_seat(1) == [{"kind": "drew", "seat": 0}]
    assert back.events.for_seat(0) == [{"kind": "drew", "seat": 0, "card": "c09"}]


RESIGNED_VIEWS = EventViews(
    full=[{"kind": "resigned", "seat": 1, "private_to": []}],
    spectator=[{"kind": "resigned", "seat": 1}],
)


def test_a_resignation_on_time_keeps_its_reason_and_one_by_choice_costs_nothing_more():
    timed_out = LogEntry(9, 1, "resign", None, RESIGNED_VIEWS, GameStatus.SCORING, AT, "timeout")
    chosen = LogEntry(9, 1, "resign", None, RESIGNED_VIEWS, GameStatus.SCORING, AT, "resigned")
    assert LogEntry.from_json(timed_out.to_json()) == timed_out
    assert LogEntry.from_json(timed_out.to_json()).reason == "timeout"
    assert owed_member("g", LogEntry.from_json(timed_out.to_json())) == owed_member("g", timed_out)
    assert owed_member("g", timed_out) != owed_member("g", chosen)
    assert LogEntry.from_json(chosen.to_json()).reason == "resigned"
    # "resigned", the default, is not written: the entry is as long as before reasons.
    unsaid = LogEntry(9, 1, "resign", None, RESIGNED_VIEWS, GameStatus.SCORING, AT)
    assert unsaid.reason == "resigned" and chosen.to_json() == unsaid.to_json()
    assert len(timed_out.to_json()) <= len(chosen.to_json()) + 16


def test_a_verbose_entry_keeps_a_resignations_reason():
    views = EventViews(
        full=[{"kind": "resigned", "seat": 1, "private_to": [1], "why": 0}],
        spectator=[{"kind": "resigned", "seat": 1}],
        seats={"1": [{"kind": "resigned", "seat": 1, "why": "zero"}]},
    )
    timed_out = LogEntry(4, 1, "resign", None, views, GameStatus.SCORING, AT, "timeout")
    stored = timed_out.to_json()
    assert stored.startswith("{")
    assert LogEntry.from_json(stored) == timed_out


def test_a_resignation_kept_before_there_were_reasons_reads_as_resigned():
    compact = [9, 1, None, [{"kind": "resigned", "seat": 1}], "scoring", AT]
    assert LogEntry.from_json(orjson.dumps(compact)).reason == "resigned"
    packed = log_codec.mark(1) + log_codec.pack(orjson.dumps(compact), log_codec.DICTIONARIES[1])
    assert LogEntry.from_json(packed).reason == "resigned"
    verbose = {
        "version": 9,
        "seat": 1,
        "action": "resign",
        "move": None,
        "events": {"full": [], "spectator": [], "seats": {}},
        "status": "scoring",
        "at": AT,
    }
    assert LogEntry.from_json(orjson.dumps(verbose)).reason == "resigned"
    move = [2, 0, {"kind": "play", "card": "c01"}, [], "active", AT]
    assert LogEntry.from_json(orjson.dumps(move)).reason is None
