"""Dominion bot strength: win rates of the issue's pairings with 95% Wilson intervals,
over every recommended set the game knows, seats alternating, 2 players.

    python bench/dominion_bots.py                       # 400 games per fast pairing
    python bench/dominion_bots.py --games 1000 --mcts-games 40 --mcts-cpu
    python bench/dominion_bots.py --mcts-games 0        # skip MCTS
    python bench/dominion_bots.py --mcts-only --mcts-games 60 --mcts-cpu --seed 1001 --log a.jsonl
    python bench/dominion_bots.py --summarise a.jsonl b.jsonl   # pool runs made apart

Targets (issue 13): expert ≥ 90 % vs big-money, ≥ 60 % vs big-money-ultimate, and mcts
at 1 s per move ≥ 55 % vs expert. MCTS at 1 s per move plays a game in minutes, so its
count is a separate flag with a small default: its interval is wide, and says so.
A tie counts half a win. Numbers are printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from services.ai import make_bot, play_match  # noqa: E402
from services.ai.bot import Bot  # noqa: E402
from services.ai.mcts import MctsBot  # noqa: E402
from services.engine import GameError, get_game  # noqa: E402
from services.games.dominion.cards import RECOMMENDED  # noqa: E402

GAME = get_game("dominion")


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a win rate."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def set_configs() -> dict[str, dict[str, Any]]:
    """Each recommended set by its slug (`kingdom: "heading-east"`) where the kingdom
    option takes one, else by name (`recommended: "Heading East"`)."""
    configs = {}
    for name in RECOMMENDED:
        slug = name.lower().replace(" ", "-")
        try:
            GAME.setup({"kingdom": slug}, 2, 1)
            configs[slug] = {"kingdom": slug}
        except (GameError, ValueError, TypeError):
            configs[slug] = {"recommended": name}
    return configs


def bot_of(level: str, seed: int, args: argparse.Namespace) -> Bot:
    if level == "mcts":
        clock = time.thread_time if args.mcts_cpu else time.perf_counter
        return MctsBot(seed, iterations=10**9, seconds=args.mcts_seconds, clock=clock)
    return make_bot(level, seed, GAME)


def pairing(a: str, b: str, games: int, args: argparse.Namespace) -> None:
    """`games` games of `a` against `b`, dealt round the sets in turn (so a run cut short
    still covers them evenly), seats alternating. With --log, each game is appended to
    that file as it ends, so long runs can be pooled (--summarise)."""
    configs = list(set_configs().items())
    started = time.perf_counter()
    wins_by_set: dict[str, float] = {slug: 0.0 for slug, _ in configs}
    played_by_set: dict[str, int] = {slug: 0 for slug, _ in configs}
    for played in range(games):
        index = played % len(configs)
        slug, config = configs[index]
        seed = args.seed + index * 100_000 + played // len(configs)
        a_seat = played % 2
        levels = [a, b] if a_seat == 0 else [b, a]
        bots = [bot_of(level, seed * 7 + s, args) for s, level in enumerate(levels)]
        game_started = time.perf_counter()
        winners = play_match(GAME, bots, seed, config).result.winners
        won = 1 / len(winners) if a_seat in winners else 0.0
        wins_by_set[slug] += won
        played_by_set[slug] += 1
        if args.log:
            line = {"a": a, "b": b, "set": slug, "seed": seed, "a_seat": a_seat, "a_won": won}
            line["seconds"] = round(time.perf_counter() - game_started, 1)
            with open(args.log, "a") as log:
                log.write(json.dumps(line) + "\n")
    print_rates(a, b, wins_by_set, played_by_set, time.perf_counter() - started)


def print_rates(
    a: str, b: str, wins: dict[str, float], played: dict[str, int], seconds: float | None
) -> None:
    total_wins, total_played = sum(wins.values()), sum(played.values())
    low, high = wilson(total_wins, total_played)
    rate = total_wins / max(1, total_played)
    took = f"   {seconds:>6.1f} s" if seconds is not None else ""
    print(f"  {a + ' vs ' + b:<34} {total_played:>5} {rate:>7.1%}   [{low:.1%}, {high:.1%}]{took}")
    for slug, share in played.items():
        low, high = wilson(wins[slug], share)
        rate = wins[slug] / max(1, share)
        print(f"      {slug:<30} {share:>5} {rate:>7.1%}   [{low:.1%}, {high:.1%}]")


def summarise(paths: list[str]) -> None:
    """Pool the games of every --log file, per pairing (a game logged twice counts once)."""
    games: dict[tuple[str, str, str, int, int], float] = {}
    for path in paths:
        for line in Path(path).read_text().splitlines():
            game = json.loads(line)
            key = (game["a"], game["b"], game["set"], game["seed"], game["a_seat"])
            games[key] = game["a_won"]
    pairings = sorted({(a, b) for a, b, *_ in games})
    print(f"\nDominion bots, logged games pooled from {len(paths)} file(s), seats alternating")
    print(f"  {'pairing (A vs B)':<34} {'games':>5} {'A wins':>7}   {'95% interval':<16}")
    for a, b in pairings:
        wins: dict[str, float] = {}
        played: dict[str, int] = {}
        for (ga, gb, slug, _, _), won in games.items():
            if (ga, gb) == (a, b):
                wins[slug] = wins.get(slug, 0.0) + won
                played[slug] = played.get(slug, 0) + 1
        print_rates(a, b, wins, played, None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per fast pairing")
    parser.add_argument(
        "--mcts-games", type=int, default=2, help="games of mcts vs expert (0: skip)"
    )
    parser.add_argument("--mcts-seconds", type=float, default=1.0, help="MCTS budget per move")
    parser.add_argument(
        "--mcts-cpu", action="store_true", help="budget MCTS in CPU time (fair under load)"
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=1,
        help="game n of a set plays seed + n: runs to pool need seeds at least their games "
        "per set apart (1 and 1001, say), or they replay the same games",
    )
    parser.add_argument("--mcts-only", action="store_true", help="only the mcts pairing")
    parser.add_argument("--log", help="append each game's result to this file (JSON lines)")
    parser.add_argument(
        "--summarise", nargs="+", metavar="LOG", help="print the pooled rates of --log files"
    )
    args = parser.parse_args()
    if args.summarise:
        summarise(args.summarise)
        return
    sets = ", ".join(set_configs())
    print(f"\nDominion bots, 2 players, seats alternating, over the sets: {sets}")
    print(f"  {'pairing (A vs B)':<34} {'games':>5} {'A wins':>7}   {'95% interval':<16}  time")
    if not args.mcts_only:
        pairing("expert", "big-money", args.games, args)
        pairing("expert", "big-money-ultimate", args.games, args)
        pairing("big-money-ultimate", "big-money", args.games, args)
    if args.mcts_games:
        clock = "CPU" if args.mcts_cpu else "wall"
        print(
            f"  mcts at {args.mcts_seconds:g} s ({clock}) per move, {args.mcts_games} games only "
            "(--mcts-games; minutes per game): a wide interval"
        )
        pairing("mcts", "expert", args.mcts_games, args)


if __name__ == "__main__":
    main()
