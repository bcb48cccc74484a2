"""The move log's deflate dictionary: how big stored log entries are with it, and how it
was made.

A log entry is a few hundred bytes of JSON, too short for deflate to find much to repeat
within it. A preset dictionary of typical entries gives it that history: each entry is
compressed as if it followed the dictionary (`services/store/log_codec.py`). The
dictionary is a fixed file, `services/store/log_dictionary_<n>.json`; entries name the one
they were packed with, so a file never changes once released (a test pins its digest),
and a better one is a new file.

This script plays seeded random games of every game through the engine (no Redis), keeps
each move's log entry in its compact JSON form, and

- prints the mean stored size per entry, per game: as plain compact JSON, packed without
  a dictionary, and packed with each dictionary file (on games other than the ones a
  candidate is made from);
- with `--write N`, makes `log_dictionary_N.json`: one entry of each distinct shape (the
  move's keys and its events' kinds), the rarest first and the commonest last (deflate
  reaches the end of the dictionary most cheaply), within `--budget` bytes.

    python bench/log_dictionary.py [--games 2] [--write N] [--budget 8000]
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import defaultdict
from pathlib import Path
from statistics import mean

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from services.ai import make_bot  # noqa: E402
from services.engine import Game, all_games  # noqa: E402
from services.gameplay.visibility import event_views  # noqa: E402
from services.store import GameStatus, LogEntry, log_codec  # noqa: E402

STORE = Path(log_codec.__file__).parent
AT_MS = 1_796_152_962_181  # a timestamp of the right width, as stored
TRAINING_SEEDS = range(1000, 1003)
MEASURED_SEEDS = range(0, 100)


def compact_entries(game: Game, players: int, seed: int, limit: int = 600) -> list[bytes]:
    """The compact JSON of each move of a seeded random game."""
    state = game.setup({}, players, seed)
    bots = [make_bot("random", seed * 10 + seat) for seat in range(players)]
    chooser = random.Random(seed)
    entries = []
    for version in range(1, limit + 1):
        prompts = game.prompts(state)
        if not prompts:
            break
        seat = chooser.choice(prompts).seat
        move = bots[seat].choose(game, state, seat)
        outcome = game.apply(state, seat, move)
        entry = LogEntry(
            version=version,
            seat=seat,
            action="move",
            move=game.dump_move(move),
            events=event_views(outcome.events, players),
            status=GameStatus.ACTIVE,
            at=log_codec._at_text(AT_MS + version),
        )
        compact = log_codec._compact(entry)
        if compact is not None:
            entries.append(orjson.dumps(compact))
        state = outcome.state
    return entries


def played(seeds: range, games: int) -> dict[str, list[bytes]]:
    """Compact entries per game, over `games` seeds of `seeds` and every player count."""
    entries: dict[str, list[bytes]] = defaultdict(list)
    for game in all_games():
        for players in range(game.min_players, min(game.max_players, 4) + 1):
            for seed in list(seeds)[:games]:
                entries[game.id] += compact_entries(game, players, seed)
    return entries


def shape(entry: bytes) -> tuple:
    _, _, move, events = orjson.loads(entry)[:4]
    return (tuple(move or ()), tuple(event.get("kind") for event in events))


def make_dictionary(entries: list[bytes], budget: int) -> list[str]:
    """One entry per shape, commonest shapes first in priority and last in the file."""
    by_shape: dict[tuple, list[bytes]] = defaultdict(list)
    for entry in entries:
        by_shape[shape(entry)].append(entry)
    chosen: list[str] = []
    size = 0
    for same in sorted(by_shape.values(), key=len, reverse=True):
        if size + len(same[0]) <= budget:
            chosen.append(same[0].decode())
            size += len(same[0])
    return chosen[::-1]


def stored_size(entry: bytes, number: int | None, dictionary: bytes | None) -> int:
    """Bytes as stored: the shorter of the plain text and the packed one (with its mark)."""
    return min(len(entry), len(log_codec.mark(number) + log_codec.pack(entry, dictionary)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2, help="seeds per game and player count")
    parser.add_argument("--write", type=int, help="make log_dictionary_N.json")
    parser.add_argument("--budget", type=int, default=8000, help="the new dictionary's bytes")
    args = parser.parse_args()

    dictionaries = {
        int(path.stem.rsplit("_", 1)[1]): log_codec.dictionary_bytes(path)
        for path in sorted(STORE.glob("log_dictionary_*.json"))
    }
    if args.write is not None:
        training = [e for entries in played(TRAINING_SEEDS, args.games).values() for e in entries]
        path = STORE / f"log_dictionary_{args.write}.json"
        if path.exists():
            raise SystemExit(f"{path} exists: a released dictionary never changes")
        chosen = make_dictionary(training, args.budget)
        path.write_bytes(orjson.dumps(chosen, option=orjson.OPT_INDENT_2) + b"\n")
        print(f"wrote {path}: {len(chosen)} entries, {sum(map(len, chosen))} B")
        dictionaries[args.write] = log_codec.dictionary_bytes(path)

    measured = played(MEASURED_SEEDS, args.games)
    header = f"{'game':<14}{'entries':>8}{'plain B':>9}{'packed B':>10}"
    print(header + "".join(f"{f'log_dictionary_{n}':>20}" for n in dictionaries))
    for game_id, entries in measured.items():
        row = f"{game_id:<14}{len(entries):>8}{mean(map(len, entries)):>9.0f}"
        row += f"{mean(stored_size(e, None, None) for e in entries):>10.0f}"
        for number, dictionary in dictionaries.items():
            row += f"{mean(stored_size(e, number, dictionary) for e in entries):>20.0f}"
        print(row)


if __name__ == "__main__":
    main()
