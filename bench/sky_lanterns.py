"""Valley of Sky Lanterns: balance of the designed components, playout speed, bot strength.

    python bench/sky_lanterns.py                  # everything (MCTS at 1 s/move: ~1.5 h)
    python bench/sky_lanterns.py --parts balance,speed --balance-games 100
    python bench/sky_lanterns.py --parts strength --strength-players 3 --strength-games 30
    python bench/sky_lanterns.py --parts solo --solo-levels mcts --solo-mcts-games 10

balance   greedy-vs-greedy games per player count: the spread of final scores, how
          often each dice space is taken and each card developed or played as a
          contract (a space nobody wants, or one everybody takes, shows here; so does
          a card never used)
speed     random playouts per CPU second, per player count (and any card no random
          player ever developed or contracted: every card is reachable if none)
strength  one MCTS seat against random (or greedy) seats, the MCTS seat rotating: its
          share of first places and of opponents outscored, with 95% Wilson intervals,
          beside issue 11's targets (first place >= 90% against random, >= 65% against
          greedy)
solo      each bot level's solo win rate per scenario, with and without Challenge Mode,
          and how the losses came (a full track, or outscored)

Numbers are printed, never asserted. Times are CPU times of this process, except MCTS,
whose budget per move is wall-clock by default (as in the service; `--mcts-clock cpu`
gives it CPU seconds of its own thread instead, which other load on the machine does not
shrink).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from services.ai import make_bot, play_match  # noqa: E402
from services.ai.mcts import MctsBot  # noqa: E402
from services.games.sky_lanterns import game  # noqa: E402
from services.games.sky_lanterns.components import BOARD, CARDS  # noqa: E402
from services.games.sky_lanterns.moves import Develop, PlayContractCard, TakeDie  # noqa: E402
from services.games.sky_lanterns.scoring import solo_outcome  # noqa: E402
from services.games.sky_lanterns.state import SkyLanternsState  # noqa: E402


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a rate."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


TARGETS = {"random": 0.90, "greedy": 0.65}
"""Issue 11: MCTS at 1 s per move takes first place this often."""


def mcts(args: argparse.Namespace, seed: int) -> MctsBot:
    clock: Callable[[], float] = time.thread_time if args.mcts_clock == "cpu" else time.perf_counter
    return MctsBot(seed, iterations=10**9, seconds=args.mcts_seconds, clock=clock)


def player_counts(args: argparse.Namespace) -> list[int]:
    return [p for p in args.players if game.min_players <= p <= game.max_players]


def balance(args: argparse.Namespace) -> None:
    for players in player_counts(args):
        scores: list[int] = []
        margins: list[int] = []
        first_seat: Counter[int] = Counter()
        spaces: Counter[str] = Counter()
        cards: Counter[str] = Counter()
        started = time.process_time()
        for k in range(args.balance_games):
            seed = args.seed + k
            bots = [make_bot("greedy", seed * 11 + s) for s in range(players)]
            record = play_match(game, bots, seed, args.config)
            for _, move in record.moves:
                if isinstance(move, TakeDie):
                    spaces[move.space] += 1
                elif isinstance(move, Develop | PlayContractCard):
                    cards[move.card] += 1
            final = sorted((s.score for s in record.result.standings), reverse=True)
            scores += final
            margins.append(final[0] - final[1])
            for winner in record.result.winners:
                first_seat[winner] += 1
        spent = time.process_time() - started
        games = args.balance_games
        print(
            f"\nbalance, {players} players: {games} greedy games ({spent / games:.2f} s CPU each)"
        )
        print(
            f"  score  mean {statistics.mean(scores):.1f}  sd {statistics.pstdev(scores):.1f}"
            f"  min {min(scores)}  max {max(scores)}"
            f"  winner's margin mean {statistics.mean(margins):.1f}"
        )
        print("  wins by seat " + "  ".join(f"{s}:{first_seat[s]}" for s in range(players)))
        takes = sum(spaces.values())
        print("  dice spaces taken (share of all takes):")
        row = []
        for space in BOARD.spaces:
            if space.dots == 4 and players == 3:
                continue
            row.append(f"{space.id:>8} {spaces[space.id] / takes:6.1%}")
            if len(row) == 5:
                print("   " + "  ".join(row))
                row = []
        if row:
            print("   " + "  ".join(row))
        used = [cards[c] for c in CARDS]
        never = [c for c in CARDS if cards[c] == 0]
        print(
            f"  cards developed or contracted: {sum(used)} uses of {len(CARDS)} cards;"
            f" per card min {min(used)}  median {statistics.median(used):g}  max {max(used)}"
        )
        common = ", ".join(f"{c} {n}" for c, n in cards.most_common(5))
        print(f"  most used: {common}")
        print(f"  never used: {', '.join(never) if never else 'none'}")


def speed(args: argparse.Namespace) -> None:
    print(f"\nrandom playouts, {args.speed_seconds:g} CPU s per player count")
    print(f"  {'players':>7} {'games':>6} {'games/s':>8} {'moves/s':>8}")
    for players in player_counts(args):
        games = moves = 0
        used: set[str] = set()
        started = time.process_time()
        while (spent := time.process_time() - started) < args.speed_seconds:
            bots = [make_bot("random", games * 7 + s) for s in range(players)]
            record = play_match(game, bots, games, args.config)
            moves += len(record.moves)
            games += 1
            used |= {m.card for _, m in record.moves if isinstance(m, Develop | PlayContractCard)}
        never = sorted(set(CARDS) - used)
        print(
            f"  {players:>7} {games:>6} {games / spent:>8.1f} {moves / spent:>8.0f}"
            f"   cards never developed or contracted: {', '.join(never) or 'none'}"
        )


def strength(args: argparse.Namespace) -> None:
    for opponent in args.opponents:
        for players in args.strength_players:
            firsts = beaten = 0.0
            played = 0
            for k in range(args.strength_games):
                seed = args.seed + k
                mcts_seat = k % players
                bots = [
                    mcts(args, seed * 13 + s)
                    if s == mcts_seat
                    else make_bot(opponent, seed * 13 + s)
                    for s in range(players)
                ]
                result = play_match(game, bots, seed, args.config).result
                played += 1
                if mcts_seat in result.winners:
                    firsts += 1 / len(result.winners)
                score = {s.seat: s.score for s in result.standings}
                others = [s for s in range(players) if s != mcts_seat]
                beaten += sum(
                    1.0
                    if score[mcts_seat] > score[o]
                    else 0.5
                    if score[mcts_seat] == score[o]
                    else 0
                    for o in others
                ) / len(others)
            low, high = wilson(firsts, played)
            low_b, high_b = wilson(beaten, played)
            print(
                f"\nmcts ({args.mcts_seconds:g} {args.mcts_clock} s/move), {players} players,"
                f" vs {players - 1} {opponent}, {played} games:"
                f" first place {firsts / played:.2f} [{low:.2f}, {high:.2f}]"
                f" (target {TARGETS.get(opponent, 0):.2f}, chance {1 / players:.2f});"
                f" opponents outscored {beaten / played:.2f} [{low_b:.2f}, {high_b:.2f}]",
                flush=True,
            )


def solo_win_rates(args: argparse.Namespace) -> None:
    """Each bot level's solo win rate per scenario, with and without Challenge Mode."""
    print(f"\nsolo win rate (mcts {args.mcts_seconds:g} {args.mcts_clock} s/move)")
    print(
        f"  {'scenario':<12} {'challenge':>9} {'bot':>5} {'games':>5} {'won':>6}"
        f" {'95% interval':>14}  lost by"
    )
    for scenario in ("dead-mine", "burning-hut"):
        for challenge in args.solo_challenge:
            for level in args.solo_levels:
                games = args.solo_mcts_games if level == "mcts" else args.solo_games
                if not games:
                    continue
                wins = 0
                reasons: Counter[str] = Counter()
                for k in range(games):
                    seed = args.seed + k
                    bot = mcts(args, seed) if level == "mcts" else make_bot(level, seed)
                    options = {**args.config, "scenario": scenario, "challenge": challenge}
                    state = play_match(game, [bot], seed, options).state
                    assert isinstance(state, SkyLanternsState) and state.rival is not None
                    won, _, _, _ = solo_outcome(state)
                    wins += won
                    if not won:
                        reasons["full" if state.rival.lost else "score"] += 1
                low, high = wilson(wins, games)
                lost = ", ".join(f"{why} {n}" for why, n in sorted(reasons.items())) or "-"
                rate = wins / games
                print(
                    f"  {scenario:<12} {str(challenge):>9} {level:>5} {games:>5} {rate:>6.2f}"
                    f" {f'[{low:.2f}, {high:.2f}]':>14}  {lost}",
                    flush=True,
                )


PARTS = {"balance": balance, "speed": speed, "strength": strength, "solo": solo_win_rates}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--parts",
        default="balance,speed,strength,solo",
        help="balance, speed, strength, solo (comma-separated)",
    )
    parser.add_argument("--players", default="2,3,4", help="player counts")
    parser.add_argument("--balance-games", type=int, default=60)
    parser.add_argument("--speed-seconds", type=float, default=5.0)
    parser.add_argument("--strength-games", type=int, default=12)
    parser.add_argument("--strength-players", default="3,2", help="player counts for strength")
    parser.add_argument("--opponents", default="random,greedy")
    parser.add_argument("--mcts-seconds", type=float, default=1.0)
    parser.add_argument("--mcts-clock", choices=("wall", "cpu"), default="wall")
    parser.add_argument("--solo-games", type=int, default=30)
    parser.add_argument("--solo-mcts-games", type=int, default=6)
    parser.add_argument("--solo-challenge", default="false,true", help="Challenge Mode off/on")
    parser.add_argument("--solo-levels", default="random,greedy,mcts")
    parser.add_argument("--variants", action="store_true", help="every variant on")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    args.players = [int(p) for p in args.players.split(",") if p.strip()]
    args.strength_players = [int(p) for p in args.strength_players.split(",") if p.strip()]
    args.opponents = [o.strip() for o in args.opponents.split(",") if o.strip()]
    args.solo_levels = [v.strip() for v in args.solo_levels.split(",") if v.strip()]
    args.solo_challenge = [v.strip() == "true" for v in args.solo_challenge.split(",") if v.strip()]
    args.config = (
        {name: True for name in game.config_model.model_fields if name != "first_player"}
        if args.variants
        else {}
    )
    for part in (p.strip() for p in args.parts.split(",") if p.strip()):
        PARTS[part](args)


if __name__ == "__main__":
    main()
