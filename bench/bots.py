"""Bot strength and speed: a round robin of the bot levels over many games of each
registered game, printing each pairing's win rate with a 95% Wilson interval and each
level's move latency (p50/p95). With --service, also the time from a human's move to
the bot's answer being visible to the client (REST, in-process app, embedded store).

    python bench/bots.py                          # every game, random/greedy/mcts
    python bench/bots.py --games 20 --only sky-islands --mcts-seconds 0.2
    python bench/bots.py --games 20 --only sky-islands --levels mcts,greedy \
        --mcts-seconds 1 --mcts-iterations 1000000 --mcts-cpu   # 1 CPU-second per move
    python bench/bots.py --service --service-moves 40

Seats alternate between games, so neither level keeps the first-player advantage; a
tie counts half a win. Numbers are printed, never asserted.
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from services.ai import make_bot, play_match  # noqa: E402
from services.ai.bot import Bot, levels_for  # noqa: E402
from services.ai.mcts import MctsBot  # noqa: E402
from services.engine import Game, GameState, Move, Seat, all_games  # noqa: E402


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a win rate."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


@dataclass
class TimedBot:
    """A bot whose every choice is timed."""

    bot: Bot
    times: list[float] = field(default_factory=list)

    def choose(self, game: Game, state: GameState, seat: Seat) -> Move:
        started = time.perf_counter()
        move = self.bot.choose(game, state, seat)
        self.times.append(time.perf_counter() - started)
        return move


def bot_of(level: str, seed: int, args: argparse.Namespace) -> Bot:
    if level == "mcts":
        clock = time.thread_time if args.mcts_cpu else time.perf_counter
        return MctsBot(
            seed, iterations=args.mcts_iterations, seconds=args.mcts_seconds, clock=clock
        )
    return make_bot(level, seed)


def round_robin(game: Game, args: argparse.Namespace) -> None:
    levels = [level for level in args.levels if level in levels_for(game)]
    latency: dict[str, list[float]] = defaultdict(list)
    print(f"\n{game.title} ({game.id}): {args.games} games per pairing")
    print(f"  {'pairing':<18} {'games':>5} {'A wins':>7} {'95% interval':>15} {'failed':>6}")
    for a, b in itertools.combinations(levels, 2):
        wins, played, failed = 0.0, 0, 0
        for k in range(args.games):
            seed = args.seed + k
            bots = {
                a: TimedBot(bot_of(a, seed * 7 + 1, args)),
                b: TimedBot(bot_of(b, seed * 7 + 2, args)),
            }
            order = [a, b] if k % 2 == 0 else [b, a]
            try:
                record = play_match(game, [bots[level] for level in order], seed)
            except Exception as error:  # a bot that cannot play this game is reported
                failed += 1
                if failed == 1:
                    print(f"  ! {a} vs {b}, seed {seed}: {type(error).__name__}: {error}")
                continue
            played += 1
            winners = record.result.winners
            if order.index(a) in winners:
                wins += 1 / len(winners)
            for level in (a, b):
                latency[level] += bots[level].times
        low, high = wilson(wins, played)
        rate = wins / played if played else float("nan")
        print(
            f"  {a + ' vs ' + b:<18} {played:>5} {rate:>7.2f} "
            f"{f'[{low:.2f}, {high:.2f}]':>15} {failed:>6}"
        )
    print(f"  {'level':<8} {'moves':>7} {'p50 ms':>8} {'p95 ms':>8}")
    for level in levels:
        times = latency[level]
        if times:
            print(
                f"  {level:<8} {len(times):>7} {percentile(times, 0.5) * 1000:>8.2f} "
                f"{percentile(times, 0.95) * 1000:>8.2f}"
            )


def service_latency(game: Game, level: str, args: argparse.Namespace) -> None:
    """Human move -> the bot's answer visible in GET /v1/games/{id} (embedded mode)."""
    from starlette.testclient import TestClient

    from services.api.app import create_app
    from services.gameplay.settings import Settings

    settings = Settings(
        redis_url=None,
        tasks="inprocess",
        rate_limit_per_ip=0,
        create_limit_per_ip=0,
        rate_limit_per_token=0,
        log_level="error",
        bot_mcts_seconds=args.mcts_seconds,
        bot_mcts_iterations=args.mcts_iterations,
    )
    rng = random.Random(args.seed)
    waits: list[float] = []
    with TestClient(create_app(settings)) as client:
        while len(waits) < args.service_moves:
            created = client.post(
                "/v1/games",
                json={"game": game.id, "seats": [{"name": "Human"}, {"name": "Bot", "bot": level}]},
            ).json()
            game_id, token = created["id"], created["seats"][0]["token"]
            auth = {"Authorization": f"Bearer {token}"}
            doc = client.get(f"/v1/games/{game_id}", headers=auth).json()
            while doc["status"] == "active" and len(waits) < args.service_moves:
                if 0 not in doc["turn"]:
                    time.sleep(0.001)
                    doc = client.get(f"/v1/games/{game_id}", headers=auth).json()
                    continue
                moves = client.get(f"/v1/games/{game_id}/legal-moves", headers=auth).json()
                body = {"move": rng.choice(moves["moves"]), "expected_version": doc["version"]}
                answer = client.post(f"/v1/games/{game_id}/moves", json=body, headers=auth).json()
                started = time.perf_counter()
                bot_due = answer.get("status") == "active" and 0 not in answer.get("turn", [0])
                doc = client.get(f"/v1/games/{game_id}", headers=auth).json()
                if not bot_due:
                    continue
                while doc["status"] == "active" and 0 not in doc["turn"]:
                    time.sleep(0.001)
                    doc = client.get(f"/v1/games/{game_id}", headers=auth).json()
                if doc["status"] == "aborted":  # the bot could not move: not a timing
                    break
                waits.append(time.perf_counter() - started)
            if doc["status"] == "aborted" and not waits:
                print(f"  service, {level:<7} the bot could not play {game.id}")
                return
    p50, p95 = percentile(waits, 0.5) * 1000, percentile(waits, 0.95) * 1000
    print(f"  service, {level:<7} {len(waits):>5} answers   p50 {p50:8.2f} ms   p95 {p95:8.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6, help="games per pairing and game")
    parser.add_argument("--levels", default="random,greedy,mcts")
    parser.add_argument("--only", default="", help="comma-separated game ids (default: all)")
    parser.add_argument("--mcts-iterations", type=int, default=40)
    parser.add_argument("--mcts-seconds", type=float, default=0.05)
    parser.add_argument(
        "--mcts-cpu",
        action="store_true",
        help="budget mcts in CPU seconds of its thread, not wall time (fair under load)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--service", action="store_true", help="also time the service")
    parser.add_argument("--service-moves", type=int, default=30)
    args = parser.parse_args()
    args.levels = [level.strip() for level in args.levels.split(",") if level.strip()]
    wanted = {name.strip() for name in args.only.split(",") if name.strip()}
    for game in all_games():
        if wanted and game.id not in wanted:
            continue
        round_robin(game, args)
        if args.service:
            for level in args.levels:
                if level in levels_for(game):
                    service_latency(game, level, args)


if __name__ == "__main__":
    main()
