"""Dominion bot strength: win rates of the issue's pairings with 95% Wilson intervals,
over every recommended set the game knows, seats alternating, 2 players.

    python bench/dominion_bots.py                       # 400 games per fast pairing
    python bench/dominion_bots.py --games 1000 --mcts-games 40 --mcts-cpu
    python bench/dominion_bots.py --mcts-games 0        # skip MCTS

Targets (issue 13): expert ≥ 90 % vs big-money, ≥ 60 % vs big-money-ultimate, and mcts
at 1 s per move ≥ 55 % vs expert. MCTS at 1 s per move plays a game in minutes, so its
count is a separate flag with a small default: its interval is wide, and says so.
A tie counts half a win. Numbers are printed, never asserted.
"""

from __future__ import annotations

import argparse
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
    """`games` games of `a` against `b`, spread evenly over the sets, seats alternating."""
    configs = set_configs()
    total_wins, total_played = 0.0, 0
    started = time.perf_counter()
    rows = []
    played = 0
    for index, (slug, config) in enumerate(configs.items()):
        share = games // len(configs) + (index < games % len(configs))
        wins = 0.0
        for g in range(share):
            seed = args.seed + index * 100_000 + g
            a_seat = played % 2
            played += 1
            levels = [a, b] if a_seat == 0 else [b, a]
            bots = [bot_of(level, seed * 7 + s, args) for s, level in enumerate(levels)]
            result = play_match(GAME, bots, seed, config).result
            if a_seat in result.winners:
                wins += 1 / len(result.winners)
        rows.append((slug, wins, share))
        total_wins += wins
        total_played += share
    seconds = time.perf_counter() - started
    low, high = wilson(total_wins, total_played)
    rate = total_wins / max(1, total_played)
    print(
        f"  {a + ' vs ' + b:<34} {total_played:>5} {rate:>7.1%}   [{low:.1%}, {high:.1%}]"
        f"   {seconds:>6.1f} s"
    )
    for slug, wins, share in rows:
        low, high = wilson(wins, share)
        print(f"      {slug:<30} {share:>5} {wins / max(1, share):>7.1%}   [{low:.1%}, {high:.1%}]")


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
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    sets = ", ".join(set_configs())
    print(f"\nDominion bots, 2 players, seats alternating, over the sets: {sets}")
    print(f"  {'pairing (A vs B)':<34} {'games':>5} {'A wins':>7}   {'95% interval':<16}  time")
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
